"""What the playground computes, one function a job: JSON-ready data in, JSON-ready data out.

These run in a worker process (:mod:`ddzrules.web.lanes`), never in the server: each job's
time and memory are bounded there, and a job that runs over is stopped by ending the
process. A spec always comes as text (the editor's, an upload's): it is written to the
file the page's *Download* saves it as (``NAME.yaml``, :func:`editor_file`), in the
worker's own private directory, its working directory, and read
from there with ``extends:`` limited to the bundled specs and the on-disk cache off
(:func:`ddzrules.spec.bundled_parents_only`, :func:`ddzrules.speed.cache.disabled`): no request
can make the server read one of its files, and the editor's thousand drafts leave nothing
behind. A bad spec, bad cards or an illegal play raise :class:`~ddzrules.errors.DdzError`,
whose message the page shows.
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ddzrules import cards as C
from ddzrules.bots import HeuristicBot, check_bot, make_bot, parse_bot
from ddzrules.errors import DdzError, JobError, PlayError, brief
from ddzrules.game.narration import (
    Before,
    deal_lines,
    describe_action,
    illegal_reason,
    no_pass_reason,
    result_text,
    seat_name,
    step_lines,
)
from ddzrules.lint import finding_dict, validate_spec
from ddzrules.records import MAX_RECORD_BYTES, game_record, parse_record, replay, wild_text
from ddzrules.rules.variant import Variant, load_variant
from ddzrules.runtime import Action, Game, GameRules
from ddzrules.spec import (
    bundled_names,
    bundled_parents_only,
    load_spec,
    max_spec_bytes,
    starter_text,
)
from ddzrules.speed import cache
from ddzrules.web import deadline
from ddzrules.web.games import NO_GAME

#: the editor's spec's file when its text names no spec (as the page's Download names it)
EDITOR_FILE = "spec.yaml"
#: ``name:`` as the page's Download reads it for the file's name (its JavaScript regex)
_DOWNLOAD_NAME = re.compile(r"^name:[ \t]*([A-Za-z0-9_/.-]{1,100})", re.MULTILINE)
#: the bot kinds a page may seat (each with its default budget)
BOT_KINDS = ("search", "heuristic", "random")
#: games a worker keeps built, the one left alone longest dropped first: the server holds
#: every game as its actions (:mod:`ddzrules.web.games`), and a dropped one is built again
MAX_GAMES = 32
#: the most one bot decision may take, in seconds (and at most half the job's time left):
#: past it the heuristic bot decides instead. Rollouts do not bound time; a rollout costs
#: what the spec's games cost
DECISION_SECONDS = 3.0
#: the most a playground bot may spend on a decision (the search bot's default is 160 rollouts)
PLAYGROUND_BOT_LIMITS = {"iters": 2000, "early_iters": 2000, "ms": 2000, "candidates": 64}
_VARIANTS: OrderedDict[str, Variant] = OrderedDict()
_RULES: OrderedDict[str, GameRules] = OrderedDict()
_KEPT = 4  # compiled specs kept, by the digest of their text


# ====================================================================== the editor's spec


def _text(args: dict[str, Any], key: str = "text") -> str:
    value = args.get(key)
    if not isinstance(value, str):
        raise DdzError(f"the request has no {key} (a string)")
    if len(value.encode("utf-8")) > max_spec_bytes():
        raise DdzError(f"the spec is {len(value.encode('utf-8')):,} bytes: at most {max_spec_bytes():,} "
                       "(DDZRULES_MAX_SPEC_BYTES)")
    return value


def _word(args: dict[str, Any], key: str, default: str | None = None, limit: int = 200) -> str:
    value = args.get(key, default)
    if not isinstance(value, str):
        raise DdzError(f"{key}: a string is needed")
    if len(value) > limit:
        raise DdzError(f"{key}: at most {limit} characters")
    return value


def editor_file(text: str) -> str:
    """The name the editor's text is read under: the file the page's *Download* saves it
    as (``my-rules.yaml`` for ``name: my-rules``; :data:`EDITOR_FILE` without a name), so
    that a message or a sheet names the file the user has, not one of the server's."""
    found = _DOWNLOAD_NAME.search(text)
    return found.group(1).replace("/", "-") + ".yaml" if found else EDITOR_FILE


#: what a full or failing disk of the server says (not the user's doing: a 507)
DISK_FULL = ("the server could not write the editor's text to its temporary disk ({reason}); "
             "whoever runs the server can free space there")


@contextmanager
def _untrusted(text: str) -> Iterator[str]:
    """The editor's text written to :func:`editor_file` (read inside :func:`run`'s
    bounds: ``extends:`` names only bundled specs, no cache entry is read or written),
    removed after. A disk that cannot take it (full: ``ENOSPC``) is a :class:`JobError`
    saying so, the server's fault, not a 500."""
    path = Path(editor_file(text))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        path.unlink(missing_ok=True)  # a half-written file is nobody's spec
        raise JobError(DISK_FULL.format(reason=e.strerror or type(e).__name__), 507) from None
    try:
        yield path.name
    finally:
        path.unlink(missing_ok=True)


def run(name: str, args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run the job ``name``: the whole of it (the tables a compiled spec builds later,
    the plays of a game) with ``extends:`` limited to the bundled specs and the cache off.
    A game job is given the game as the server keeps it (``saved``, see :func:`saved_game`;
    empty when the server holds no such game), and the game is built again from it when
    this worker does not hold it as it stands.
    A :class:`DdzError` for an unknown job or anything the job refuses."""
    job = JOBS.get(name)
    if job is None:
        raise DdzError(f"no job named {name[:40]!r}")
    unknown = sorted(set(args) - FIELDS[name])
    if unknown:  # a misspelt field was ignored, its default used without a word
        reads = ", ".join(sorted(FIELDS[name])) or "nothing"
        raise DdzError(f"{brief(unknown[0], 40)}: not a field of {name} (it reads {reads})")
    with bundled_parents_only(), cache.disabled():
        if name in GAME_STATE_JOBS:
            return GAME_STATE_JOBS[name](args, saved)
        return job(args)


def _kept(store: OrderedDict[str, Any], key: str, make: Callable[[], Any]) -> Any:
    found = store.get(key)
    if found is None:
        found = make()
        store[key] = found
        while len(store) > _KEPT:
            store.popitem(last=False)
    store.move_to_end(key)
    return found


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def editor_variant(text: str) -> Variant:
    """The editor's spec compiled (kept for the next request of the same text)."""
    def make() -> Variant:
        with _untrusted(text) as file:
            return load_variant(file)
    return _kept(_VARIANTS, _digest(text), make)


def editor_rules(text: str) -> GameRules:
    def make() -> GameRules:
        with _untrusted(text) as file:
            return GameRules.load(file)
    return _kept(_RULES, _digest(text), make)


def _bundled(name: str) -> str:
    if name not in bundled_names():
        raise DdzError(f"no bundled spec named {name[:80]!r}")
    return name


# ====================================================================== spec jobs


def specs(args: dict[str, Any]) -> dict[str, Any]:
    """The bundled specs: name, titles, parent."""
    import yaml

    from ddzrules.spec import read_spec_text, resolve_name

    rows = []
    for name in bundled_names():
        spec = load_spec(name)
        rule_spec = spec.rule_spec
        path = resolve_name(name)
        data = yaml.safe_load(read_spec_text(path, name))
        rows.append({"name": name, "zh": rule_spec.title_zh, "en": rule_spec.title_en,
                     "extends": data.get("extends") if isinstance(data, dict) else None,
                     "wild": rule_spec.wildcards is not None})
    return {"specs": rows, "bots": list(BOT_KINDS)}


def spec_text(args: dict[str, Any]) -> dict[str, Any]:
    """A bundled spec's text as written (its ``extends:`` kept), or with ``new`` a starting
    spec that extends it (``ddzrules new``'s)."""
    from ddzrules.spec import read_spec_text, resolve_name

    name = _bundled(_word(args, "name"))
    new = args.get("new", False)
    if type(new) is not bool:  # "false" is true to Python
        raise DdzError("new: true or false")
    if new:
        child = _word(args, "child", "my-rules", 60)
        return {"text": starter_text(child, name)}
    return {"text": read_spec_text(resolve_name(name), name)}


def validate(args: dict[str, Any]) -> dict[str, Any]:
    """Every problem and warning of the editor's spec, each at its line and column."""
    text = _text(args)
    started = time.perf_counter()
    with _untrusted(text) as file:
        report = validate_spec(file)
    findings = []
    for p in report.findings:
        d = finding_dict(p)
        d["in_editor"] = d["file"] == file
        d["text"] = str(p)
        findings.append(d)
    return {"ok": report.ok(), "combos": report.combos, "findings": findings,
            "ms": round((time.perf_counter() - started) * 1000, 1)}


def census(args: dict[str, Any]) -> dict[str, Any]:
    v = editor_variant(_text(args))
    wild = _wild(args)
    c = v.census(wild=wild)
    rows = [{"combo": info.name, "zh": info.zh, "plays": c.by_combo[info.name]} for info in v.rules.combos]
    return {"spec": v.name, "max_hand": v.rules.max_hand, "rows": rows, "total": c.total,
            "readings": c.readings, "by_wilds": c.by_wilds or {}, "wild": wild}


def _wild(args: dict[str, Any]) -> str | None:
    wild = args.get("wild")
    if wild in (None, ""):
        return None
    return _word({"wild": wild}, "wild", limit=20)


def _cards(args: dict[str, Any], key: str) -> str:
    text = _word(args, key, limit=400)
    canonical = C.parse_cards(text)
    if not canonical:
        raise DdzError(f"{key}: no cards given")
    return canonical


def classify(args: dict[str, Any]) -> dict[str, Any]:
    v = editor_variant(_text(args))
    cards = _cards(args, "cards")
    return {"cards": cards, "readings": [m.to_dict() for m in v.classify(cards, wild=_wild(args))]}


def compare(args: dict[str, Any]) -> dict[str, Any]:
    v = editor_variant(_text(args))
    a, b, wild = _cards(args, "a"), _cards(args, "b"), _wild(args)
    return v.compare(a, b, wild=wild).to_dict()


def sheet(args: dict[str, Any]) -> dict[str, Any]:
    """The generated rule sheet of the editor's spec, one self-contained HTML page."""
    from ddzrules.sheets import LANGS, build_sheet, render_sheet

    lang = _word(args, "lang", "en", 4)
    if lang not in LANGS:
        raise DdzError(f"lang: one of {', '.join(LANGS)}")
    text = _text(args)
    v = editor_variant(text)
    with _untrusted(text):
        built = build_sheet(v)
    return {"html": render_sheet(built, lang, "html")}


def diff(args: dict[str, Any]) -> dict[str, Any]:
    """``ddzrules diff OTHER EDITOR``: what the editor's spec changes from a bundled one,
    as the HTML report and the summary figures."""
    from ddzrules.diff import diff_specs
    from ddzrules.diff.html import render_html

    other = _bundled(_word(args, "other"))
    mine = editor_variant(_text(args))
    base = load_variant(other)
    d = diff_specs(base, mine, witnesses=3, sources=(other, "editor"))
    return {"same": d.same, "html": render_html(d, base, mine), "rules": len(d.rules),
            "only_a": d.plays["only_a"], "only_b": d.plays["only_b"],
            "pairs": d.comparisons["pairs"], "a": d.a, "b": d.b}


# ====================================================================== games


@dataclass
class Session:
    """One game in the page: the person at ``seat``, bots elsewhere."""

    rules: GameRules
    game: Game
    seat: int
    bots: list[str]
    agents: list[Any]
    seed: int
    text: str = ""
    #: every action applied, as its index among the legal actions then: the game is its
    #: deal (``seed``) and these, so it can be built again anywhere (:func:`saved_game`)
    journal: list[int] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    touched: float = field(default_factory=time.monotonic)


_GAMES: OrderedDict[str, Session] = OrderedDict()


def saved_game(sess: Session) -> dict[str, Any]:
    """The game as the server keeps it, all it takes to build it again: the editor's text,
    the seat, the seed, the bots and the journal of its actions."""
    return {"text": sess.text, "seat": sess.seat, "seed": sess.seed, "bots": sess.bots[0],
            "journal": list(sess.journal)}


def _keep(gid: str, sess: Session) -> None:
    _GAMES[gid] = sess
    _GAMES.move_to_end(gid)
    while len(_GAMES) > MAX_GAMES:
        _GAMES.popitem(last=False)


def _session(args: dict[str, Any], saved: dict[str, Any] | None = None) -> Session:
    """The game ``args["game"]``: the one this worker holds if it stands where ``saved``
    does, else built again from ``saved`` (this worker was started again, dropped it, or
    was stopped in the middle of a request that then changed nothing)."""
    gid = args.get("game")
    if saved is not None and not saved:  # the server holds no such game (this worker may, evicted)
        raise DdzError(NO_GAME)
    sess = _GAMES.get(gid) if isinstance(gid, str) else None
    if saved is not None and isinstance(gid, str) and (sess is None or sess.journal != saved["journal"]):
        sess = _restore(saved)
        _keep(gid, sess)
    if sess is None:
        raise DdzError(NO_GAME)
    sess.touched = time.monotonic()
    _GAMES.move_to_end(gid)  # type: ignore[arg-type]
    return sess


def _restore(saved: dict[str, Any]) -> Session:
    """A game built again from what the server keeps: dealt by its seed, then its actions
    applied one by one (the bots are not asked again)."""
    sess = _open(saved["text"], saved["seat"], saved["seed"], saved["bots"])
    for index in saved["journal"]:
        _apply(sess, sess.game.legal_actions()[index])
    return sess


def new_game(args: dict[str, Any]) -> dict[str, Any]:
    rules = editor_rules(_text(args))
    seat = args.get("seat", 0)
    if type(seat) is not int or not 0 <= seat < rules.players:
        raise DdzError(f"seat: a number from 0 to {rules.players - 1}")
    seed = args.get("seed")
    if seed is None:
        seed = secrets.randbelow(1 << 31)
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise DdzError("seed: a whole number from 0 up")
    kind = _word(args, "bots", "search", 40)
    if kind.split(":", 1)[0] not in BOT_KINDS:
        raise DdzError(f"bots: one of {', '.join(BOT_KINDS)}")
    try:
        check_bot(kind, rules)
        _, options = parse_bot(kind)
    except ValueError as e:
        raise DdzError(f"bots: {e}") from None
    # a decision is made inside a request: a budget far past it is refused up front (the
    # time it takes is bounded anyway: DECISION_SECONDS, checked inside the decision)
    over = [f"{key}={value:g} (at most {PLAYGROUND_BOT_LIMITS[key]:,})" for key, value in options.items()
            if key in PLAYGROUND_BOT_LIMITS and value > PLAYGROUND_BOT_LIMITS[key]]
    if over:
        raise DdzError(f"bots: {', '.join(over)}: the playground's bots decide within a request")
    text = _text(args)
    sess = _open(text, seat, seed, kind)
    gid = secrets.token_hex(8)
    _keep(gid, sess)
    try:
        _bots_play(sess)
    except BaseException:  # stopped: the game was never the server's
        _GAMES.pop(gid, None)
        raise
    return {**_state(gid, sess), "saved": saved_game(sess)}


def _open(text: str, seat: int, seed: int, kind: str) -> Session:
    """A new game of the editor's spec, dealt by ``seed``: the person at ``seat``, ``kind``
    in every other seat; nobody has acted yet."""
    from ddzrules.simulate import game_seed

    rules = editor_rules(text)
    agents = [make_bot(kind, game_seed(seed, 1000 + i)) for i in range(rules.players)]
    game = rules.new_game(seed)
    sess = Session(rules, game, seat, [kind] * rules.players, agents, seed, text)
    sess.log += [{"seat": -1, "text": line} for line in deal_lines(game, human=seat)]
    return sess


def _apply(sess: Session, action: Action) -> None:
    """``action`` applied to the game (one of its legal actions, or one that matches one),
    written in the journal and the log."""
    game = sess.game
    legal = game.legal_actions()
    index = next((i for i, a in enumerate(legal) if a is action), None)
    if index is None:
        index = next((i for i, a in enumerate(legal) if a.matches(action)), None)
    if index is None:
        raise DdzError(f"not a legal action here: {action}")
    before = Before.of(game)
    game.apply(legal[index])
    sess.journal.append(index)
    lines = step_lines(game, legal[index], before, sess.seat)
    for i, line in enumerate(lines):  # the first line is the action's, by its seat
        sess.log.append({"seat": action.seat if i == 0 else -1, "text": line})


def _bots_play(sess: Session) -> None:
    """The bots act until it is the person's turn or the game is over (the job's time
    bound holds this loop too)."""
    game = sess.game
    while not game.over and game.to_act != sess.seat:
        seat = game.to_act
        assert seat is not None
        _apply(sess, _decide(sess, seat))


def _decide(sess: Session, seat: int) -> Action:
    """A bot's decision within :data:`DECISION_SECONDS` (and half the job's time left),
    checked inside the decision (:mod:`ddzrules.web.deadline`): past it the heuristic bot
    decides instead. A bound outside it that passes (the job's) is left to its owner."""
    game = sess.game
    legal = game.legal_actions()
    budget = min(DECISION_SECONDS, deadline.remaining() / 2)
    end = math.inf
    try:
        with deadline.bound(budget) as end:
            action: Action = sess.agents[seat].act(game.view(seat), legal)
            return action
    except deadline.OverTime as e:
        if e.end != end or deadline.remaining() <= 0:
            raise  # the job's own bound: the job is stopped
    fallback: Action = HeuristicBot(0).act(game.view(seat), legal)
    return fallback


def _action_entry(i: int, a: Action) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": i, "kind": a.kind, "label": str(a)}
    if a.kind == "play" and a.move is not None:
        m = a.move
        entry.update(cards=m.cards, combo=m.combo, bomb=m.is_bomb, rank=m.rank_name,
                     substitution=[list(p) for p in m.substitution if p[0] != p[1]])
        entry["label"] = m.cards
    return entry


def _state(gid: str, sess: Session) -> dict[str, Any]:
    game, seat = sess.game, sess.seat
    view = game.view(seat)
    yours = not game.over and game.to_act == seat
    legal = game.legal_actions() if yours else []
    seats = []
    for s in range(sess.rules.players):
        last_plays = [a for a in game.history if a.seat == s and a.kind in ("play", "pass")]
        seats.append({"seat": s, "name": seat_name(game, s, seat), "bot": None if s == seat else sess.bots[s],
                      "cards": sum(game.hands[s]), "shown": view.shown_hands.get(s),
                      "last": str(last_plays[-1].value or "pass") if last_plays and game.phase == "play" else None,
                      "to_act": game.to_act == s and not game.over})
    out: dict[str, Any] = {
        "game": gid, "spec": sess.rules.variant.name, "seed": sess.seed, "seat": seat,
        "phase": game.phase, "over": game.over, "your_turn": yours, "turn": len(game.history),
        "hand": view.hand, "kitty": view.kitty, "wild": view.extra.get("wild"),
        "landlord": game.landlord, "stake": game.stake, "multiple": game.multiple, "seats": seats,
        # the play to beat: none once the game is over ("to beat" stayed on screen after it)
        "last_play": ({"cards": view.last_play.cards, "combo": view.last_play.combo, "seat": view.last_seat}
                      if view.last_play is not None and not game.over else None),
        "private": {k: str(v) for k, v in view.private.items()},
        "actions": [_action_entry(i, a) for i, a in enumerate(legal)],
        "can_pass": any(a.kind == "pass" for a in legal), "log": sess.log,
    }
    if game.over and game.scores is not None:
        events = ", ".join(f"{e.name} ×{e.factor:g}" for e in game.events) or "none"
        out["result"] = {"text": result_text(game, seat) if game.escaped is None else "a seat left the game",
                         "scores": list(game.scores), "multiple": game.multiple, "events": events,
                         "hands": [game.hand_string(s) for s in range(sess.rules.players)]}
    return out


def game_state(args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
    sess = _session(args, saved)
    return _state(str(args["game"]), sess)


def act(args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
    """The person's action: ``index`` into the listed actions, or ``cards`` (one legal
    reading of them, ``reading`` to choose among several); ``turn`` must be the state's, so
    a click on a page that is behind the game is refused, not applied to another turn."""
    sess = _session(args, saved)
    game = sess.game
    if game.over:
        raise DdzError("the game is over")
    if game.to_act != sess.seat:
        raise DdzError("it is not your turn")
    turn = args.get("turn")
    if type(turn) is not int:  # 0.0 and true compared equal to a turn number
        raise DdzError("turn: the turn number the page shows (a whole number)")
    if turn != len(game.history):
        raise DdzError("the game has moved on since this page was drawn: look again")
    legal = game.legal_actions()
    view = game.view(sess.seat)
    if "cards" in args:
        text = _word(args, "cards", limit=400)
        if text.strip().lower() in ("pass", ""):
            passes = [a for a in legal if a.kind == "pass"]
            if not passes:
                raise DdzError(no_pass_reason(game, view))
            action = passes[0]
        else:
            cards = C.parse_cards(text)
            matching = [a for a in legal if a.kind == "play" and a.move is not None and a.move.cards == cards]
            if not matching:
                raise DdzError("illegal: " + illegal_reason(game, view, cards))
            reading = args.get("reading", 0)
            if len(matching) > 1 and "reading" not in args:
                raise DdzError(f"{cards} can be read {len(matching)} ways: choose one from the list of plays")
            if type(reading) is not int or not 0 <= reading < len(matching):
                raise DdzError("reading: not one of the listed readings")
            action = matching[reading]
    else:
        index = args.get("index")
        if type(index) is not int or not 0 <= index < len(legal):
            raise DdzError("index: not one of the listed actions")
        action = legal[index]
    gid, before = str(args["game"]), len(sess.journal)
    try:
        _apply(sess, action)
        _bots_play(sess)
    except PlayError as e:  # refused before it changed the game, unless a bot's play was
        if len(sess.journal) != before:
            _GAMES.pop(gid, None)
        raise DdzError(str(e)) from None
    except BaseException:
        # stopped (its time bound) anywhere, perhaps inside an action: nothing of this
        # request is kept; the server's journal builds the game as it was before it
        _GAMES.pop(gid, None)
        raise
    return {**_state(gid, sess), "saved": saved_game(sess)}


def hint(args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
    """提示: what the heuristic bot would do in the person's place (its index and cards)."""
    sess = _session(args, saved)
    game = sess.game
    if game.over or game.to_act != sess.seat:
        raise DdzError("no hint: it is not your turn")
    legal = game.legal_actions()
    chosen = HeuristicBot(0).act(game.view(sess.seat), legal)
    index = next(i for i, a in enumerate(legal) if a is chosen or a.matches(chosen))
    return _action_entry(index, legal[index])


def record(args: dict[str, Any], saved: dict[str, Any] | None = None) -> dict[str, Any]:
    sess = _session(args, saved)
    if not sess.game.over:
        raise DdzError("the game is not over yet: its record is written at the end")
    return {"record": game_record(sess.game)}


def replay_steps(args: dict[str, Any]) -> dict[str, Any]:
    """A record verified by replaying it, and every step of it (the hands, the last play,
    the log line) for the step-by-step viewer. The record comes as text; its rules are
    the resolved spec it stores (no spec file is read)."""
    raw = args.get("record")
    if not isinstance(raw, str):
        raise DdzError("the request has no record (the record file's text)")
    data = raw.encode("utf-8")
    if len(data) > MAX_RECORD_BYTES:
        raise DdzError(f"the record is too large (at most {MAX_RECORD_BYTES:,} bytes)")
    record_data = parse_record(data, "the record")
    steps: list[dict[str, Any]] = []

    def observe(game: Game, i: int) -> None:
        if i < 0:
            text = "dealt" + (f"; wild rank 癞子 {wild_text(game)}" if game.wild is not None else "")
        else:
            action = game.history[i]
            text = describe_action(game, action)
        steps.append({"text": text, "hands": [game.hand_string(s) for s in range(game.rules.players)],
                      "phase": game.phase,
                      "last_play": game.last_play.cards if game.last_play is not None and not game.over else None,
                      "last_seat": game.last_seat, "landlord": game.landlord})

    result = replay(record_data, check_disk=False, observe=observe)
    game = result.game
    return {"ok": True, "spec": game.variant.name, "steps": steps, "scores": game.scores,
            "note": result.spec_note, "actions": result.actions,
            "result": result_text(game) if game.winner is not None else "a seat left the game"}


#: the fields each job reads: any other is refused
FIELDS: dict[str, frozenset[str]] = {name: frozenset(fields.split()) for name, fields in {
    "specs": "", "spec_text": "name new child", "validate": "text", "census": "text wild",
    "classify": "text cards wild", "compare": "text a b wild", "sheet": "text lang", "diff": "text other",
    "new_game": "text seat seed bots", "state": "game", "act": "game turn index cards reading",
    "hint": "game", "record": "game", "replay": "record",
}.items()}

#: every job a lane runs, by name
JOBS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "specs": specs, "spec_text": spec_text, "validate": validate, "census": census, "classify": classify,
    "compare": compare, "sheet": sheet, "diff": diff, "new_game": new_game, "state": game_state, "act": act,
    "hint": hint, "record": record, "replay": replay_steps,
}

#: the jobs on a game in play: each is given the game as the server keeps it
GAME_STATE_JOBS: dict[str, Callable[[dict[str, Any], dict[str, Any] | None], dict[str, Any]]] = {
    "state": game_state, "act": act, "hint": hint, "record": record,
}
