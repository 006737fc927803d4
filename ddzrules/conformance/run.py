"""Running a conformance suite against an engine, and the report.

Each vector is asked of the engine through its adapter (:mod:`ddzrules.engines`)
and ends *passed*, *failed* or *skipped* (the engine has no such capability). An
adapter that raises fails that vector with the exception's message. Failures are
grouped by cause — the category, what the engine got wrong (a legal play it does
not list, a play it allows that the spec does not, a comparison it reverses …)
and the combo concerned, read with the suite's own spec — and each group shows
its smallest witness; for legal-move failures the hand is shrunk, card by card,
while the engine still disagrees.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ddzrules import cards as C
from ddzrules.conformance import (
    CATEGORIES,
    Limits,
    Tally,
    check_suite,
    iter_vectors,
    load_manifest,
    perft_budget,
    play_sort_key,
    readings_key,
    sort_plays,
    suite_variant,
)
from ddzrules.engines import (
    BudgetExceeded,
    Discrepancy,
    Finding,
    Unsupported,
    capability,
    open_engine,
)
from ddzrules.errors import DdzError
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant

ACE = C.RANKS.index("A")

#: a shrink asks the engine at most this many questions per group
SHRINK_BUDGET = 120


@dataclass
class Cause:
    """One reason a vector failed, in terms a reader can act on."""

    category: str
    kind: str  # what the engine got wrong
    subject: str  # the combo (or rule) concerned
    witness: str  # the smallest input that shows it
    detail: str = ""
    #: for moves causes: (hand, after, play, wild) so the witness can be shrunk
    shrinkable: tuple[str, str | None, str, str | None] | None = None
    #: for compare causes: the two plays (x on y)
    pair: tuple[str, str] | None = None
    #: the engine's documented defect that explains it (see engines.Discrepancy)
    known: str | None = None

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.category, self.kind, self.subject, self.known or "")

    def discrepancy(self) -> Discrepancy:
        hand, after, play, wild = self.shrinkable or (None, None, None, None)
        x, y = self.pair or (play, None)
        return Discrepancy(self.category, self.kind, x, y, hand, after, wild)


@dataclass(slots=True)  # one per vector of the run: slots keep a large suite's report small
class Outcome:
    vector_id: str
    category: str
    covers: str
    status: str  # passed | failed | known | skipped
    causes: list[Cause] = field(default_factory=list)
    message: str = ""


@dataclass
class Group:
    category: str
    kind: str
    subject: str
    vectors: int
    witness: str
    detail: str
    explain: str = ""
    ids: list[str] = field(default_factory=list)
    known: str = ""  # the engine's documented defect explaining the group, if any

    def to_dict(self) -> dict[str, Any]:
        return {"category": self.category, "kind": self.kind, "subject": self.subject,
                "vectors": self.vectors, "witness": self.witness, "detail": self.detail,
                "explain": self.explain, "known_defect": self.known or None, "ids": self.ids[:50]}


@dataclass
class Report:
    suite: str
    spec: str
    level: str
    engine: str
    counts: dict[str, dict[str, int]]
    skip_reasons: dict[str, str]
    groups: list[Group]
    outcomes: list[Outcome]
    findings: list[Finding]
    known_defects: dict[str, str] = field(default_factory=dict)  # name -> description

    @property
    def ok(self) -> bool:
        return all(c["failed"] == 0 for c in self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "suite": self.suite, "spec": self.spec, "level": self.level, "engine": self.engine,
            "ok": self.ok, "categories": self.counts, "skipped_because": self.skip_reasons,
            "groups": [g.to_dict() for g in self.groups],
            "failures": [{"id": o.vector_id, "category": o.category, "covers": o.covers,
                          "message": o.message,
                          "causes": [{"kind": c.kind, "subject": c.subject, "witness": c.witness,
                                      "detail": c.detail} for c in o.causes]}
                         for o in self.outcomes if o.status == "failed"],
            "findings": [{"title": f.title, "detail": f.detail, "witnesses": list(f.witnesses)}
                         for f in self.findings],
            "known_defects": self.known_defects,
        }


# ====================================================================== checking one vector


class _Checker:
    def __init__(self, engine: Any, ref: Variant, limits: Limits | None = None) -> None:
        self.engine = engine
        self.ref = ref  # the suite's own spec: names the combo of a witness
        self.vocabulary = set(ref.combo_names)
        self.limits = limits or Limits()

    def combo_of(self, cards: str, wild: str | None = None, kickers: bool = False) -> str:
        """The combo(s) of ``cards`` under the suite's spec; with ``kickers``, and what
        sets its kickers apart (both jokers, a four, a trio next to the chain …), which
        is where engines' kicker policies differ."""
        try:
            readings = self.ref.classify(cards, wild=wild)
        except DdzError:
            readings = ()
        name = "/".join(sorted({m.combo for m in readings})) or "no combo of the spec"
        if kickers and readings and not any(m.substitution for m in readings):
            # what every reading's kickers share (a card set read two ways says it twice)
            each = [kicker_features(m) for m in readings]
            features = [f for f in each[0] if all(f in e for e in each[1:])]
            if features:
                name += f" (kickers: {', '.join(features)})"
        return name

    # each returns the causes of failure (empty: passed); raises Unsupported to skip
    def classify(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "classify")
        if fn is None:
            raise Unsupported("the engine has no classify")
        cards, wild = vec["cards"], vec.get("wild")
        got = fn(cards, wild)
        exp = vec["expect"]
        subject = (self.combo_of(cards, wild, kickers=True) if exp["play"] else
                   "/".join(sorted({r["combo"] for r in exp["readings"]})) or _covers_subject(vec))
        if got.play != exp["play"]:
            kind = "a play the engine does not accept" if exp["play"] else \
                "a non-play the engine accepts as a play"
            return [Cause("classify", kind, subject, cards + (f" (wild {wild})" if wild else ""))]
        if exp["play"] and got.readings is not None:
            mine = readings_key([{"combo": r.combo, "rank": r.rank, "length": r.length}
                                 for r in got.readings])
            want = readings_key(exp["readings"])
            if not {c for c, _, _ in mine} <= self.vocabulary:
                # the engine names its combos otherwise: compare what names cannot change
                mine, want = sorted(("?", r, n) for _, r, n in mine), sorted(("?", r, n) for _, r, n in want)
            if mine != want:
                return [Cause("classify", "readings differ", subject, cards,
                              f"expected {_fmt_readings(want)}, engine {_fmt_readings(mine)}")]
        return []

    def compare(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "compare")
        if fn is None:
            raise Unsupported("the engine has no compare")
        a, b, wild = vec["a"], vec["b"], vec.get("wild")
        exp = vec["expect"]
        causes = []
        for x, y, want in ((a, b, exp["a_beats_b"]), (b, a, exp["b_beats_a"])):
            got = bool(fn(x, y, wild))
            if got != want:
                subject = f"{self.combo_of(x, wild)} on {self.combo_of(y, wild)}"
                kind = "a beat the engine refuses" if want else "a beat the engine allows"
                causes.append(Cause("compare", kind, subject, f"{x} on {y}" + (f" (wild {wild})" if wild else ""),
                                    pair=(x, y)))
        return causes

    def moves(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "moves")
        if fn is None:
            raise Unsupported("the engine has no moves")
        hand, after, wild = vec["hand"], vec["after"], vec.get("wild")
        got = fn(hand, after, wild)
        exp = vec["expect"]
        want = set(exp["plays"])
        causes = []
        where = f"hand {hand}" + (f" after {after}" if after else " leading") + (f" wild {wild}" if wild else "")
        for p in sort_plays(want - got.plays):
            causes.append(Cause("moves", "a legal play the engine does not list",
                                self.combo_of(p, wild, kickers=True),
                                p, where, (hand, after, p, wild)))
        for p in sort_plays(got.plays - want):
            subject = self.combo_of(p, wild, kickers=True)
            kind = ("a play the engine lists that the spec does not allow here"
                    if subject != "no combo of the spec" else "a play the engine lists that is no combo")
            causes.append(Cause("moves", kind, subject, p, where, (hand, after, p, wild)))
        if got.can_pass != exp["can_pass"]:
            causes.append(Cause("moves", "passing " + ("refused" if exp["can_pass"] else "allowed"),
                                "pass", where))
        return causes

    def census(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "census")
        if fn is None:
            raise Unsupported("the engine has no census")
        if not hasattr(self, "_census"):
            self._census = fn()
        got = self._census
        combo = vec["combo"]
        want = vec["expect"]["plays"]
        if combo is None:
            n = got.total
        elif got.by_combo is None:
            raise Unsupported("the engine counts only the total")
        elif combo not in got.by_combo and not set(got.by_combo) <= self.vocabulary:
            raise Unsupported("the engine names its combos otherwise; its total is compared")
        else:
            n = got.by_combo.get(combo, 0)
        if n != want:
            return [Cause("census", "count differs", combo or "total", f"{combo or 'total'}: {want:,}",
                          f"expected {want:,}, engine {n:,} ({n - want:+,})")]
        return []

    def perft(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "perft")
        if fn is None:
            raise Unsupported("the engine has no perft")
        depth, exp = int(vec["depth"]), vec["expect"]
        where = f"{vec['covers'].split('/')[-1]}: hands {' / '.join(vec['position']['hands'])}"
        try:
            if _takes_budget(fn):
                got = fn(vec["position"], depth, budget=perft_budget(depth, exp["nodes"], self.limits))
            else:  # a third party's adapter without a budget: only the vector's own count is bounded
                got = fn(vec["position"], depth)
        except BudgetExceeded as e:
            return [Cause("perft", "the search passed its budget", f"depth {depth}", where,
                          f"{_clean(str(e)[:200])}; expected {exp['nodes']:,} sequences, which an exact "
                          f"count reaches within depth × (expected + 1) + slack positions "
                          f"(at most --max-perft-nodes {self.limits.max_perft_nodes:,})")]
        if got.nodes == exp["nodes"] and (got.divide is None or got.divide == exp["divide"]):
            return []
        detail = f"expected {exp['nodes']:,} sequences, engine {got.nodes:,}"
        if got.divide is not None:
            diff = [k for k in sort_plays([k for k in set(exp["divide"]) | set(got.divide) if k != "pass"])
                    if exp["divide"].get(k, 0) != got.divide.get(k, 0)]
            if exp["divide"].get("pass", 0) != got.divide.get("pass", 0):
                diff.append("pass")
            if diff:
                k = diff[0]
                detail += (f"; divide differs for {len(diff)} first action(s), e.g. {k}: expected "
                           f"{exp['divide'].get(k, 0):,}, engine {got.divide.get(k, 0):,}")
        return [Cause("perft", "node count differs", f"depth {vec['depth']}", where, detail)]

    def game(self, vec: dict[str, Any]) -> list[Cause]:
        fn = capability(self.engine, "game")
        if fn is None:
            raise Unsupported("the engine has no game replay")
        got = fn(vec)
        exp = vec["expect"]
        subject = _covers_subject(vec)
        witness = f"game seed {vec['seed']}"
        causes = []
        if got.error:
            causes.append(Cause("games", "the engine refuses an action of the game", subject, witness, got.error))
        for step, legal in sorted((int(k), v) for k, v in vec["checks"].items()):
            if got.legal is not None and step in got.legal and sorted(got.legal[step]) != sorted(legal):
                missing = sorted(set(legal) - set(got.legal[step]))
                extra = sorted(set(got.legal[step]) - set(legal))
                causes.append(Cause("games", "legal actions differ", subject, f"{witness}, step {step}",
                                    f"missing {missing[:5]}, extra {extra[:5]}"))
                break
        if got.error is None:
            for name, value in (("multiple", got.multiple), ("events", got.events), ("scores", got.scores)):
                if value is not None and not _same(value, exp[name]):
                    causes.append(Cause("games", f"final {name} differs", subject, witness,
                                        f"expected {exp[name]}, engine {value}"))
        return causes


def _takes_budget(fn: Callable[..., Any]) -> bool:
    """Whether an adapter's perft accepts the ``budget`` keyword (``ddzrules.engines``)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin or an odd callable: ask it the plain way
        return False
    p = params.get("budget")
    return p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)


def kicker_features(m: Move) -> list[str]:
    """What sets a play's kickers apart: the cards outside its main group or chain.

    >>> from ddzrules import load_variant
    >>> v = load_variant("compat/douzero")
    >>> kicker_features(v.classify("3333XD")[0]), kicker_features(v.classify("3333444555666777")[0])
    (['both jokers'], ['a four'])
    """
    counts = C.unpack(m.packed)
    top, length = m.rank, m.length
    core = range(top - length + 1, top + 1)
    if top < 0 or top >= C.NUM_RANKS or any(r < 0 or not counts[r] for r in core):
        return []
    unit = min(counts[r] for r in core)
    rest = list(counts)
    for r in core:
        rest[r] -= unit
    if not any(rest):
        return []
    out = []
    if all(rest[j] for j in C.JOKERS):
        out.append("both jokers")
    if any(c >= 4 for c in rest):
        out.append("a four")
    trios = [r for r, c in enumerate(rest) if c == 3]
    if any(r in (core.start - 1, core.stop) and r <= ACE for r in trios) and length > 1:
        out.append("a trio next to the chain")
    elif trios:
        out.append("a trio")
    if any(rest[r] for r in core):
        out.append("a rank of the chain")
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and math.isclose(a, b)
    return bool(a == b)


def _covers_subject(vec: dict[str, Any]) -> str:
    return str(vec.get("covers", "")).split(", ")[0].split("/")[0] or "?"


def _fmt_readings(rs: list[tuple[str, str, int]]) -> str:
    return ", ".join(f"{c} {r}" + (f"×{n}" if n > 1 else "") for c, r, n in rs) or "none"


# ====================================================================== shrinking


def _shrink(checker: _Checker, cause: Cause) -> str:
    """The smallest hand that still shows a moves cause (greedy, one card at a time)."""
    assert cause.shrinkable is not None
    hand, after, play, wild = cause.shrinkable
    fn = capability(checker.engine, "moves")
    budget = [SHRINK_BUDGET]
    missing = cause.kind.startswith("a legal play")

    def still(h: list[int]) -> bool:
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        s = C.counts_to_string(h)
        try:
            got = fn(s, after, wild)
            want = {m.cards for m in checker.ref.legal_moves(s, after=after, wild=wild)}
        except (DdzError, Unsupported):
            return False
        except Exception:  # noqa: BLE001 - the adapter broke on a smaller hand: keep the larger witness
            return False
        return (play in want and play not in got.plays) if missing else \
            (play in got.plays and play not in want)

    counts = C.counts_of(C.parse_ranks(hand))
    need = C.counts_of(C.parse_ranks(play))
    changed = True
    while changed:
        changed = False
        for r in reversed(range(C.NUM_RANKS)):
            if counts[r] > need[r]:
                counts[r] -= 1
                if still(counts):
                    changed = True
                else:
                    counts[r] += 1
    small = C.counts_to_string(counts)
    return f"{play} from hand {small}" + (f" after {after}" if after else " leading") + \
        (f" (wild {wild})" if wild else "")


# ====================================================================== the run


ASK = {"classify": "classify", "compare": "compare", "moves": "moves", "census": "census",
       "perft": "perft", "games": "game"}


def run_suite(directory: str | Path, engine_name: str, options: dict[str, str] | None = None,
              categories: Iterable[str] | None = None,
              progress: Callable[[str, int, int], None] | None = None, strict: bool = False,
              limits: Limits | None = None) -> Report:
    """Run every vector of a suite against an engine and group the failures. A failure
    the adapter explains by a documented defect of its engine counts as *known*
    (``strict``: as failed). The suite is read twice as a stream, never whole: once to
    check every vector against the schemas, the suite's spec and ``limits`` before the
    engine is built, once to run them."""
    limits = limits or Limits()
    manifest = load_manifest(directory)
    ref = suite_variant(manifest)
    chosen = list(dict.fromkeys(categories)) if categories else list(CATEGORIES)
    for name in chosen:
        if name not in CATEGORIES:
            raise DdzError(f"unknown category {name!r}; choose from {', '.join(CATEGORIES)}")
    checked = check_suite(directory, manifest, chosen, ref, limits)  # all checked before any run
    total = checked.vectors
    engine = open_engine(engine_name, manifest, options or {})
    checker = _Checker(engine, ref, limits)
    explain = capability(engine, "known_defect")
    described: dict[str, str] = dict(getattr(engine, "KNOWN_DEFECTS", {}) or {})
    outcomes: list[Outcome] = []
    counts: dict[str, dict[str, int]] = {}
    skip_reasons: dict[str, str] = {}
    tally = Tally(limits, deadline=checked.deadline)  # the second reading: each line must be the one checked
    done = 0
    for category in chosen:
        c = counts[category] = {"passed": 0, "failed": 0, "known": 0, "skipped": 0}
        check = getattr(checker, ASK[category])
        for vec in iter_vectors(directory, manifest, category, ref, tally, checked):
            o = Outcome(vec["id"], category, vec.get("covers", ""), "passed")
            try:
                o.causes = check(vec)
                o.status = "failed" if o.causes else "passed"
            except Unsupported as e:
                o.status = "skipped"
                skip_reasons.setdefault(category, _clean(str(e)[:300]) or "the engine cannot answer it")
            except (Exception, SystemExit) as e:  # noqa: BLE001 - an adapter that raises (or calls
                # sys.exit: the run ended with its status and no word) fails this vector, the run goes on
                o.status = "failed"
                o.message = _clean(f"{type(e).__name__}: {str(e)[:500]}")
                o.causes = [Cause(category, "the engine raised an error", _clean(type(e).__name__[:100]),
                                  _vector_input(vec), _clean(str(e)[:300]))]
            if o.status == "failed" and explain is not None and o.causes:
                for cause in o.causes:
                    cause.known = _known(explain, cause, described)
                if not strict and all(cause.known for cause in o.causes):
                    o.status = "known"
            c[o.status] += 1
            outcomes.append(o)
            done += 1
            if progress is not None:
                progress(category, done, total)
    groups = _group(checker, outcomes)
    findings_fn = capability(engine, "findings")
    findings: list[Finding] = []
    if findings_fn is not None:
        try:
            findings = list(findings_fn())
        except (Exception, SystemExit) as e:  # noqa: BLE001 - a third party's code: report, do not crash
            findings = [Finding("the adapter's findings() raised", f"{type(e).__name__}: {e}")]
        if not all(isinstance(f, Finding) for f in findings):  # a string was printed letter by letter, or crashed
            bad = next(f for f in findings if not isinstance(f, Finding))
            findings = [Finding("the adapter's findings() answered what is not a list of Finding",
                                f"an item of type {type(bad).__name__}")]
    used = {g.known for g in groups if g.known}
    return Report(str(directory), str(manifest["spec"]), str(manifest["level"]),
                  str(getattr(engine, "name", engine_name)), counts, skip_reasons, groups, outcomes, findings,
                  {k: described.get(k, "") for k in sorted(used)})


def _known(explain: Callable[[Discrepancy], str | None], cause: Cause, described: dict[str, str]) -> str | None:
    """The adapter's documented defect explaining ``cause``, if it names one it documents."""
    try:
        name = explain(cause.discrepancy())
    except Exception:  # noqa: BLE001 - a broken predicate explains nothing
        return None
    return name if isinstance(name, str) and name in described else None


def _vector_input(vec: dict[str, Any]) -> str:
    for keys in (("cards",), ("a", "b"), ("hand", "after"), ("combo",), ("depth",), ("seed",)):
        if all(k in vec for k in keys):
            return " ".join(f"{k}={vec[k]}" for k in keys)
    return str(vec.get("id"))


def _clean(text: str) -> str:
    """No terminal control characters from an adapter's message."""
    return "".join(ch if ch.isprintable() or ch == " " else "?" for ch in text)


# what XML 1.0 cannot hold (C0 controls but tab, newline and return; surrogates; U+FFFE,
# U+FFFF) and the other control characters (DEL, C1), which a report should not carry
_NOT_XML_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_NOT_XML_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str, lines: bool = False) -> str:
    """``text`` with every character XML 1.0 forbids, and every other control character,
    written as a visible escape (``\\x1b``), so the report always parses; newlines and
    tabs are kept with ``lines`` (an element's text), escaped otherwise (an attribute)."""
    pattern = _NOT_XML_TEXT if lines else _NOT_XML_LINE
    return pattern.sub(lambda m: f"\\u{ord(m.group()):04x}" if ord(m.group()) > 0xff
                       else f"\\x{ord(m.group()):02x}", text)


def _attr(text: str) -> str:
    return quoteattr(_xml_text(text))


def _witness_order(c: Cause) -> tuple[int, tuple[int, str]]:
    w = c.shrinkable[2] if c.shrinkable else c.witness.split(" ")[0]
    try:
        return (0, play_sort_key(w))
    except KeyError:
        return (1, (len(c.witness), c.witness))


def _group(checker: _Checker, outcomes: list[Outcome]) -> list[Group]:
    by_key: dict[tuple[str, str, str, str], list[tuple[Outcome, Cause]]] = {}
    for o in outcomes:
        for cause in o.causes:
            by_key.setdefault(cause.key, []).append((o, cause))
    groups = []
    for key in sorted(by_key, key=lambda k: (CATEGORIES.index(k[0]) if k[0] in CATEGORIES else 9, k)):
        items = by_key[key]
        best = min((c for _, c in items), key=_witness_order)
        witness = best.witness
        if best.shrinkable is not None:
            witness = _shrink(checker, best)
        elif best.detail and best.category in ("moves",):
            witness = f"{best.witness} ({best.detail})"
        distinct_witnesses = len({c.witness for _, c in items})
        g = Group(key[0], key[1], key[2], len({o.vector_id for o, _ in items}), witness,
                  best.detail if best.shrinkable is None else f"{distinct_witnesses} distinct play(s)",
                  _explain(checker.ref, key[2]), [o.vector_id for o, _ in items], key[3])
        groups.append(g)
    return groups


def _explain(ref: Variant, subject: str) -> str:
    """What the suite's spec says of a combo (its pattern), to read a group by."""
    names = subject.split("/")
    parts = []
    for info in ref.rules.combos:
        if info.name in names:
            parts.append(f"{info.name}: {info.pattern}" + (f" ({info.zh})" if info.zh else ""))
    return "; ".join(parts)


# ====================================================================== output


def junit_xml(report: Report) -> str:
    """The run as JUnit XML: one testsuite per category, one testcase per vector. Every
    text in it (ids, covers tags, the engine's and the spec's names, messages) is
    escaped, so the file parses whatever the suite or the adapter holds."""
    failed = sum(c["failed"] for c in report.counts.values())
    skipped = sum(c["skipped"] + c["known"] for c in report.counts.values())
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             (f'<testsuites name={_attr("ddzrules conformance " + report.spec)} '
              f'tests="{len(report.outcomes)}" failures="{failed}" skipped="{skipped}">')]
    for category, c in report.counts.items():
        lines.append(f'  <testsuite name={_attr(category)} tests="{sum(c.values())}" '
                     f'failures="{c["failed"]}" skipped="{c["skipped"] + c["known"]}">')
        for o in report.outcomes:
            if o.category != category:
                continue
            head = f'    <testcase classname={_attr(report.engine + "." + category)} ' \
                   f'name={_attr(o.vector_id + " " + o.covers)}'
            if o.status == "passed":
                lines.append(head + "/>")
            elif o.status == "skipped":
                lines.append(head + "><skipped message="
                             + _attr(report.skip_reasons.get(category, "")) + "/></testcase>")
            elif o.status == "known":
                names = ", ".join(sorted({c.known or "" for c in o.causes}))
                lines.append(head + "><skipped message=" + _attr("known engine defect: " + names)
                             + "/></testcase>")
            else:
                msg = "; ".join(f"{c.kind}: {c.witness}" for c in o.causes[:5]) or o.message
                body = "\n".join(f"{c.kind} [{c.subject}]: {c.witness} {c.detail}" for c in o.causes)
                lines.append(head + "><failure message=" + _attr(msg[:500]) + ">"
                             + escape(_xml_text(body, lines=True)) + "</failure></testcase>")
        lines.append("  </testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"


__all__ = ["Limits", "Report", "junit_xml", "run_suite"]
