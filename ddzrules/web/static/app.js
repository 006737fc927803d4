// ddzrules playground. Plain JavaScript, no framework and nothing fetched from elsewhere.
// Every text from the server or a file is put in the page as text (textContent), never as
// HTML; the rule sheet and the diff report, which are HTML, go into sandboxed frames.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { specs: [], text: "", validation: null, seq: 0, shown: 0, timer: 0, game: null,
                selected: new Set(), lastRecord: null, steps: [], step: 0 };

// ------------------------------------------------------------------ talking to the server
async function api(job, args) {
  let response;
  try {
    response = await fetch("/api/" + job, { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(args || {}) });
  } catch (e) {
    throw new Error("the playground server cannot be reached (is `ddzrules serve` still running?)");
  }
  let data;
  try { data = await response.json(); } catch (e) { data = { error: "the server answered " + response.status }; }
  if (!response.ok) throw new Error(data.error || ("the server answered " + response.status));
  return data;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function clear(node, ...children) { node.replaceChildren(...children); return node; }
// A message with an excerpt ("  LINE" then "  ^" under a column) shows the excerpt in a
// fixed-width block, the caret under its character whatever the font and the characters'
// widths (汉字 and emoji are wider than a space): the caret line is the excerpt's own text
// up to the column, hidden, then the caret.
function errorText(e) {
  const lines = String(e.message || e).split("\n");
  const out = el("div", { class: "error-text" });
  let prose = [];
  const flush = () => { if (prose.length) out.append(el("p", { text: prose.join("\n") })); prose = []; };
  for (let i = 0; i < lines.length; i++) {
    const caret = lines[i + 1];
    if (caret !== undefined && /^ *\^$/.test(caret) && lines[i].startsWith("  ")) {
      flush();
      const src = lines[i].slice(2), at = caret.length - 3;  // the caret's index, in code points (Python's)
      const before = Array.from(src).slice(0, at).join("");
      out.append(el("pre", { class: "excerpt" }, src + "\n", el("span", { class: "under", text: before }), "^"));
      i++;
    } else prose.push(lines[i]);
  }
  flush();
  return out;
}

// a column as the server counts it (code points) to an index in a JavaScript string
// (UTF-16 units: an emoji before the column is two of them)
function unitIndex(line, column) {
  return Array.from(line).slice(0, Math.max(0, column - 1)).join("").length;
}

// ------------------------------------------------------------------ the editor
const source = $("source"), gutter = $("gutter"), backdrop = $("backdrop");

function setText(text) {
  source.value = text;
  onEdit();
}

function drawMarks() {
  const lines = source.value.split("\n");
  const found = (state.validation && state.validation.findings) || [];
  const byLine = new Map();
  for (const f of found) {
    if (!f.in_editor || !f.line) continue;
    const list = byLine.get(f.line) || [];
    list.push(f);
    byLine.set(f.line, list);
  }
  const numbers = [];
  const marked = [];
  lines.forEach((line, i) => {
    const n = i + 1, here = byLine.get(n);
    const severity = here ? (here.some((f) => f.severity === "error") ? "error" : "warning") : "";
    const ln = el("div", { class: "ln" + (severity ? " " + severity : ""), "data-line": String(n), text: String(n) });
    if (here) ln.title = here.map((f) => f.message).join("\n");
    numbers.push(ln);
    if (!here) { marked.push(document.createTextNode(line + "\n")); return; }
    // the first finding of the line marks from its column to the end of that word
    const f = here.find((x) => x.severity === "error") || here[0];
    const col = Math.min(unitIndex(line, f.column || 1), line.length);
    let end = col;
    while (end < line.length && !/\s/.test(line[end])) end++;
    if (end === col) end = Math.min(line.length, col + 1);
    marked.push(document.createTextNode(line.slice(0, col)));
    marked.push(el("mark", { class: severity, "data-line": String(n), text: line.slice(col, end) || " " }));
    marked.push(document.createTextNode(line.slice(end) + "\n"));
  });
  clear(gutter, ...numbers);
  clear(backdrop, ...marked, document.createTextNode(" "));
  syncScroll();
}

function syncScroll() {
  backdrop.scrollTop = source.scrollTop;
  backdrop.scrollLeft = source.scrollLeft;
  gutter.scrollTop = source.scrollTop;
}

function showProblems() {
  const v = state.validation, list = $("problems"), status = $("status");
  if (!v) return;
  if (v.failed) {
    clear(list, el("li", { class: "error", text: v.failed }));
    status.className = "status err";
    status.textContent = "not checked";
    return;
  }
  const errors = v.findings.filter((f) => f.severity === "error").length;
  const warnings = v.findings.length - errors;
  status.className = "status " + (errors ? "err" : warnings ? "warn" : "ok");
  status.textContent = errors ? `${errors} error${errors > 1 ? "s" : ""}` + (warnings ? `, ${warnings} warning${warnings > 1 ? "s" : ""}` : "")
    : (warnings ? `valid · ${v.combos} combos · ${warnings} warning${warnings > 1 ? "s" : ""}` : `valid · ${v.combos} combos`);
  if (!v.findings.length) {
    clear(list, el("li", { class: "none", text: `no problems: ${v.combos} combos compile (checked in ${v.ms} ms)` }));
    return;
  }
  clear(list, ...v.findings.map((f) => {
    const where = f.in_editor && f.line ? `${f.line}:${f.column}` : (f.file ? `${f.file}${f.line ? ":" + f.line : ""}` : "");
    const item = el("li", { class: f.severity, "data-line": f.in_editor && f.line ? String(f.line) : "" },
                    el("span", { class: "where", text: where }),
                    el("span", { class: "msg", text: (f.severity === "warning" ? "warning: " : "") + f.message }));
    if (f.hint) item.append(el("span", { class: "hint", text: f.hint }));
    if (f.in_editor && f.line) item.addEventListener("click", () => goTo(f.line, f.column || 1));
    return item;
  }));
}

function goTo(line, column) {
  const lines = source.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += unitIndex(lines[line - 1] || "", column);
  source.focus();
  source.setSelectionRange(at, at);
  source.scrollTop = Math.max(0, (line - 4) * parseFloat(getComputedStyle(source).lineHeight || "19"));
  syncScroll();
}

function onEdit() {
  state.text = source.value;
  drawMarks();
  clearTimeout(state.timer);
  state.timer = setTimeout(validateNow, 120);
}

async function validateNow() {
  const seq = ++state.seq, text = source.value;
  $("status").className = "status";
  $("status").textContent = "checking…";
  try {
    const v = await api("validate", { text });
    if (seq < state.shown) return; // an older answer than the one shown
    state.shown = seq;
    state.validation = v;
  } catch (e) {
    if (seq < state.shown) return;
    state.shown = seq;
    state.validation = { findings: [], failed: String(e.message || e) };
  }
  if (seq === state.seq) document.body.dataset.validated = String(seq);
  drawMarks();
  showProblems();
}

source.addEventListener("input", onEdit);
source.addEventListener("scroll", syncScroll);
source.addEventListener("keydown", (e) => {
  if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.metaKey) { // two spaces, as YAML wants
    e.preventDefault();
    const s = source.selectionStart;
    source.setRangeText("  ", s, source.selectionEnd, "end");
    onEdit();
  }
});

// ------------------------------------------------------------------ choosing a spec
async function loadSpecs() {
  const data = await api("specs", {});
  state.specs = data.specs;
  const pick = $("spec-pick"), other = $("diff-other");
  for (const s of data.specs) {
    pick.append(el("option", { value: s.name, text: `${s.name} — ${s.zh}` }));
    other.append(el("option", { value: s.name, text: s.name }));
  }
  for (const b of data.bots) $("play-bots").append(el("option", { value: b, text: b }));
  const wanted = new URLSearchParams(location.search).get("spec");
  pick.value = data.specs.some((s) => s.name === wanted) ? wanted : "hubei-3p";
  await loadBundled(false);
}

async function loadBundled(asNew) {
  const name = $("spec-pick").value;
  try {
    const data = await api("spec_text", asNew ? { name, new: true, child: "my-" + name.replace(/\W+/g, "-") } : { name });
    setText(data.text);
    setDiffDefault();
  } catch (e) { $("status").textContent = String(e.message || e); }
}

function setDiffDefault() {
  const m = /^extends:\s*([\w/.-]+)/m.exec(source.value);
  const pick = $("spec-pick").value;
  const parent = m && state.specs.some((s) => s.name === m[1]) ? m[1] : pick;
  $("diff-other").value = parent;
}

$("load-spec").addEventListener("click", () => loadBundled(false));
$("new-spec").addEventListener("click", () => loadBundled(true));
$("upload").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  if (file.size > 2 * 1024 * 1024) { $("status").textContent = "that file is too large for a spec"; return; }
  setText(await file.text());
  setDiffDefault();
  e.target.value = "";
});
$("download").addEventListener("click", () => {
  const m = /^name:\s*([\w/.-]+)/m.exec(source.value);
  save(source.value, (m ? m[1].replace(/\//g, "-") : "spec") + ".yaml", "text/yaml");
});

function save(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = el("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// ------------------------------------------------------------------ tabs
for (const tab of document.querySelectorAll(".tabs button")) {
  tab.addEventListener("click", () => showTab(tab.dataset.tab));
}
function showTab(name) {
  for (const t of document.querySelectorAll(".tabs button")) t.setAttribute("aria-selected", String(t.dataset.tab === name));
  for (const p of document.querySelectorAll(".tab")) p.hidden = p.id !== "tab-" + name;
}

function busy(form, on) { for (const b of form.querySelectorAll("button")) b.disabled = on; }

function onSubmit(id, run) {
  const form = $(id);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    busy(form, true);
    try { await run(); } finally { busy(form, false); }
  });
}

// ------------------------------------------------------------------ census, sheet, cards, diff
onSubmit("census-form", async () => {
  const out = $("census-out");
  clear(out, el("p", { text: "counting…" }));
  try {
    const c = await api("census", { text: source.value, wild: $("census-wild").value.trim() });
    const rows = c.rows.map((r) => el("tr", {}, el("td", { text: r.combo }), el("td", { text: r.zh || "" }),
                                       el("td", { class: "n", text: r.plays.toLocaleString("en") })));
    rows.push(el("tr", {}, el("th", { text: "total distinct" }), el("td"), el("th", { class: "n", text: c.total.toLocaleString("en") })));
    if (c.readings !== c.total) rows.push(el("tr", {}, el("td", { text: "readings" }), el("td"), el("td", { class: "n", text: c.readings.toLocaleString("en") })));
    clear(out, el("p", { text: `${c.spec}: every play of at most ${c.max_hand} cards` + (c.wild ? `, wild ${c.wild}` : "") }),
          el("table", { class: "data", id: "census-table" },
             el("thead", {}, el("tr", {}, el("th", { text: "combo" }), el("th", { text: "zh" }), el("th", { class: "n", text: "plays" }))),
             el("tbody", {}, ...rows)));
  } catch (e) { clear(out, errorText(e)); }
});

onSubmit("sheet-form", async () => {
  const frame = $("sheet-frame");
  try {
    const s = await api("sheet", { text: source.value, lang: $("sheet-lang").value });
    frame.srcdoc = s.html;
    frame.hidden = false;
    $("sheet-form").querySelector(".error-text")?.remove();
  } catch (e) { frame.hidden = true; $("sheet-form").append(errorText(e)); }
});

onSubmit("classify-form", async () => {
  const out = $("classify-out");
  try {
    const r = await api("classify", { text: source.value, cards: $("classify-cards").value, wild: $("classify-wild").value.trim() });
    if (!r.readings.length) { clear(out, el("p", { text: `${r.cards}: no play of this spec` })); return; }
    clear(out, el("table", { class: "data" },
      el("thead", {}, el("tr", {}, ...["cards", "combo", "rank", "length", "bomb", "wilds stand for"].map((h) => el("th", { text: h })))),
      el("tbody", {}, ...r.readings.map((m) => el("tr", {},
        el("td", { text: m.cards }), el("td", { text: m.combo }), el("td", { text: m.rank }), el("td", { text: String(m.length) }),
        el("td", { text: m.bomb ? "bomb" : "" }),
        el("td", { text: (m.substitution || []).map((p) => p[0] + "→" + p[1]).join(" ") }))))));
  } catch (e) { clear(out, errorText(e)); }
});

onSubmit("compare-form", async () => {
  const out = $("compare-out");
  try {
    const r = await api("compare", { text: source.value, a: $("compare-a").value, b: $("compare-b").value });
    clear(out, el("p", { class: "verdict", text: r.verdict }));
  } catch (e) { clear(out, errorText(e)); }
});

onSubmit("diff-form", async () => {
  const out = $("diff-out"), frame = $("diff-frame");
  clear(out, el("p", { text: "comparing…" }));
  try {
    const d = await api("diff", { text: source.value, other: $("diff-other").value });
    clear(out, el("p", { id: "diff-summary", text: d.same ? `no difference between ${d.a} and the editor's spec`
      : `${d.a} → editor: ${d.rules} rule change(s); ${d.only_a.toLocaleString("en")} play(s) only in ${d.a}, ` +
        `${d.only_b.toLocaleString("en")} only in the editor's; ${d.pairs.toLocaleString("en")} comparison(s) judged differently` }),
      el("button", { type: "button", text: "Download the report", onclick: () => save(d.html, `diff-${d.a.replace(/\//g, "-")}.html`, "text/html") }));
    frame.srcdoc = d.html;
    frame.hidden = false;
  } catch (e) { frame.hidden = true; clear(out, errorText(e)); }
});

// ------------------------------------------------------------------ playing
function cardFace(c, wild) {
  const label = c === "T" ? "10" : c === "X" ? "小王" : c === "D" ? "大王" : c;
  const cls = "card" + (c === "X" ? " joker-small" : c === "D" ? " joker-big" : "") + (wild && wild.includes(c) ? " wild" : "");
  return { label, cls };
}

function wildRanks(g) { return g && g.wild ? String(g.wild).split(/[,\s]+/) : []; }

onSubmit("play-form", async () => {
  const seed = $("play-seed").value.trim();
  $("play-message").textContent = "";
  try {
    const g = await api("new_game", { text: source.value, seat: Number($("play-seat").value), bots: $("play-bots").value,
                                      seed: seed === "" ? null : Number(seed) });
    state.selected.clear();
    drawGame(g);
  } catch (e) { $("table").hidden = false; $("play-message").textContent = String(e.message || e); }
});

function drawGame(g) {
  state.game = g;
  $("table").hidden = false;
  const wild = wildRanks(g);
  const facts = [["spec", g.spec], ["seed", String(g.seed)], ["phase", g.phase]];
  if (g.landlord !== null) facts.push(["landlord", "seat " + g.landlord], ["stake", String(g.stake)]);
  facts.push(["multiple", "×" + g.multiple]);
  if (g.kitty) facts.push(["kitty 底牌", g.kitty]);
  if (g.wild) facts.push(["wild 癞子", g.wild]);
  for (const [k, v] of Object.entries(g.private || {})) facts.push([k, v]);
  clear($("facts"), ...facts.map(([k, v]) => el("span", {}, k + " ", el("b", { text: v }))));
  clear($("seats"), ...g.seats.map((s) => el("div", { class: "seat" + (s.to_act ? " acting" : ""), "data-seat": String(s.seat) },
    el("div", { class: "who", text: s.name + (s.bot ? ` · ${s.bot}` : "") }),
    el("div", { class: "left", text: `${s.cards} card${s.cards === 1 ? "" : "s"} left` }),
    ...(s.shown ? [el("div", { class: "last", text: "shows " + s.shown })] : []),
    ...(s.last ? [el("div", { class: "last", text: s.last })] : []))));
  clear($("trick"), g.last_play && !g.over ? el("span", {}, `to beat: `, el("b", { text: g.last_play.cards }), ` (${g.last_play.combo}, seat ${g.last_play.seat})`)
    : el("span", { text: g.phase === "play" && g.your_turn ? "you lead this trick" : "" }));
  // the hand: one button a card, in order; a card's identity is its position
  const hand = $("hand");
  clear(hand, ...[...g.hand].map((c, i) => {
    const { label, cls } = cardFace(c, wild);
    return el("button", { type: "button", class: cls, "data-card": c, "data-i": String(i), "aria-pressed": String(state.selected.has(i)),
                          "aria-label": "card " + label, text: label, onclick: () => toggleCard(i) });
  }));
  const actions = $("actions");
  if (g.over) clear(actions);
  else if (!g.your_turn) clear(actions, el("span", { text: "waiting for the bots…" }));
  else if (g.phase === "play") {
    clear(actions,
      el("button", { type: "button", class: "primary", id: "play-selected", text: "Play selected", onclick: playSelected }),
      el("button", { type: "button", id: "pass", text: "Pass 不出", disabled: "", onclick: () => send({ cards: "pass" }) }),
      el("button", { type: "button", id: "hint", text: "Hint 提示", onclick: hint }));
    if (g.can_pass) $("pass").removeAttribute("disabled");
  } else {
    clear(actions, ...g.actions.map((a) => el("button", { type: "button", class: "decide", "data-index": String(a.index), text: a.label,
                                                          onclick: () => send({ index: a.index }) })));
  }
  const plays = g.actions.filter((a) => a.kind === "play");
  $("legal-summary").textContent = g.your_turn && g.phase === "play" ? `${plays.length} legal play${plays.length === 1 ? "" : "s"}` : "legal plays";
  clear($("legal"), el("div", { class: "chips" }, ...plays.map((a) => el("button", { type: "button", class: "chip", title: a.combo + (a.substitution.length ? " " + a.substitution.map((p) => p[0] + "→" + p[1]).join(" ") : ""),
    onclick: () => send({ index: a.index }) }, a.cards, el("span", { class: "combo", text: a.combo })))));
  const res = $("result");
  if (g.result) {
    res.hidden = false;
    state.lastRecord = null;
    clear(res, el("p", { id: "result-text" }, el("b", { text: g.result.text })),
          el("p", { text: `multiple ×${g.result.multiple} (${g.result.events})` }),
          el("p", { class: "scores", text: "scores: " + g.result.scores.map((v, s) => `seat ${s}: ${v > 0 ? "+" : ""}${v}`).join(", ") }),
          el("p", { class: "scores", text: "cards left: " + g.result.hands.map((h, s) => `seat ${s}: ${h || "—"}`).join(", ") }),
          el("button", { type: "button", id: "save-record", text: "Save the record", onclick: saveRecord }),
          el("button", { type: "button", id: "step-record", text: "Step through it", onclick: stepThrough }));
    $("replay-last").disabled = false;
  } else res.hidden = true;
  const log = $("log");
  clear(log, ...g.log.map((entry) => el("li", { class: entry.seat === g.seat ? "mine" : "", text: entry.text })));
  log.scrollTop = log.scrollHeight;
}

function toggleCard(i) {
  if (state.selected.has(i)) state.selected.delete(i); else state.selected.add(i);
  const b = $("hand").querySelector(`[data-i="${i}"]`);
  if (b) b.setAttribute("aria-pressed", String(state.selected.has(i)));
}

function selectedCards() {
  const hand = state.game.hand;
  return [...state.selected].sort((a, b) => a - b).map((i) => hand[i]).join("");
}

async function playSelected() {
  const cards = selectedCards();
  if (!cards) { $("play-message").textContent = "choose cards first (click them), or Pass"; return; }
  const readings = state.game.actions.filter((a) => a.kind === "play" && a.cards === cards);
  if (readings.length > 1) { // several readings (wild cards, 333444555666): the player chooses
    clear($("play-message"), "which reading? ", ...readings.map((a) => el("button", { type: "button", class: "chip",
      text: `${a.combo} (${a.rank})` + (a.substitution.length ? " " + a.substitution.map((p) => p[0] + "→" + p[1]).join(" ") : ""),
      onclick: () => send({ index: a.index }) })));
    return;
  }
  await send({ cards });
}

async function send(what) {
  const g = state.game;
  $("play-message").textContent = "";
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  try {
    const next = await api("act", { game: g.game, turn: g.turn, ...what });
    state.selected.clear();
    drawGame(next);
  } catch (e) {
    drawGame(g);
    $("play-message").textContent = String(e.message || e);
  }
}

async function hint() {
  try {
    const h = await api("hint", { game: state.game.game });
    if (h.kind !== "play") { $("play-message").textContent = "提示 hint: " + h.label; return; }
    // select the hinted cards in the hand, leftmost first
    state.selected.clear();
    const hand = [...state.game.hand], used = new Set();
    for (const c of h.cards) {
      const i = hand.findIndex((x, j) => x === c && !used.has(j));
      if (i >= 0) { used.add(i); state.selected.add(i); }
    }
    drawGame(state.game);
    $("play-message").textContent = `提示 hint: ${h.cards} (${h.combo})`;
  } catch (e) { $("play-message").textContent = String(e.message || e); }
}

async function fetchRecord() {
  if (!state.lastRecord) state.lastRecord = (await api("record", { game: state.game.game })).record;
  return state.lastRecord;
}

async function saveRecord() {
  try {
    const rec = await fetchRecord();
    save(JSON.stringify(rec, null, 2), `${state.game.spec.replace(/\//g, "-")}-seed${state.game.seed}.json`, "application/json");
  } catch (e) { $("play-message").textContent = String(e.message || e); }
}

async function stepThrough() {
  try {
    const rec = await fetchRecord();
    showTab("replay");
    await openRecord(JSON.stringify(rec));
  } catch (e) { $("play-message").textContent = String(e.message || e); }
}

// ------------------------------------------------------------------ stepping through a record
$("replay-last").addEventListener("click", stepThrough);
$("record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  if (file.size > 8 * 1024 * 1024) { clear($("replay-out"), errorText("that file is too large for a game record")); return; }
  await openRecord(await file.text());
  e.target.value = "";
});

async function openRecord(text) {
  const out = $("replay-out");
  clear(out, el("p", { text: "replaying…" }));
  $("replay-view").hidden = true;
  try {
    const r = await api("replay", { record: text });
    state.steps = r.steps;
    clear(out, el("p", { id: "replay-verdict" }, el("b", { text: `verified: ${r.actions} actions of ${r.spec}` }),
                  `; ${r.result} Scores ${r.scores.join(", ")}.`),
          el("p", { class: "hint-line", text: r.note }));
    const range = $("step-range");
    range.max = String(r.steps.length - 1);
    clear($("replay-log"), ...r.steps.map((s, i) => el("li", { text: s.text, onclick: () => showStep(i) })));
    $("replay-view").hidden = false;
    showStep(0);
  } catch (e) { clear(out, errorText(e)); }
}

function showStep(i) {
  const steps = state.steps;
  if (!steps.length) return;
  state.step = Math.max(0, Math.min(i, steps.length - 1));
  const s = steps[state.step];
  $("step-range").value = String(state.step);
  $("step-label").textContent = `step ${state.step} of ${steps.length - 1}`;
  clear($("step-hands"), el("div", { text: s.text }),
        ...s.hands.map((h, seat) => el("div", { text: `seat ${seat}${s.landlord === seat ? " (landlord)" : ""}: ${h || "—"}` })),
        el("div", { text: s.last_play && s.phase !== "over" ? `to beat: ${s.last_play} (seat ${s.last_seat})` : "" }));
  [...$("replay-log").children].forEach((li, j) => li.classList.toggle("current", j === state.step));
}

$("step-first").addEventListener("click", () => showStep(0));
$("step-prev").addEventListener("click", () => showStep(state.step - 1));
$("step-next").addEventListener("click", () => showStep(state.step + 1));
$("step-last").addEventListener("click", () => showStep(state.steps.length - 1));
$("step-range").addEventListener("input", (e) => showStep(Number(e.target.value)));

loadSpecs().catch((e) => { $("status").textContent = String(e.message || e); });
