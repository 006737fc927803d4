"""Game records as JSON, and replay that verifies them.

A record holds the spec (its name, its content hash and, since format
``ddzrules-game/2``, the resolved spec itself), the seed, every deal, every action,
the multiplier events and the final figures. Replaying re-deals from the seed and
re-applies each action through the rules; the first action (or deal, or final
figure) that does not agree is reported.

A record is untrusted input: before anything is replayed it is checked against
``schemas/record.schema.json`` (types, integer ranges, bounded arrays and strings,
every final figure present), nesting depth, size and non-finite numbers, so a
tampered record is refused with a :class:`ReplayError` instead of making the replay
hang or crash, and is never reported as verified. The file is read only when it is a
regular file, and no JSON object may give a key twice. What a record names is never a
path: its spec name is looked up among the bundled specs only, and stored rules that
differ from the bundled spec (or the ``--spec`` file) they name are refused.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from pathlib import Path
from typing import Any

import jsonschema

from ddzrules import cards as C
from ddzrules.errors import DdzError
from ddzrules.errors import ReplayError as ReplayError  # noqa: PLC0414 - re-exported: it lived here
from ddzrules.outputs import write_file
from ddzrules.rules.variant import Variant
from ddzrules.runtime import Action, Game, GameRules, MatchInfo, PluginRegistry
from ddzrules.speed.memo import LastUsed
from ddzrules.untrusted import FileRefused, JSONPolicy, JSONRefused, parse_json, read_regular

FORMAT = "ddzrules-game/2"
#: formats replay accepts: /1 names the spec only (it is loaded by name), /2 stores it
FORMATS = ("ddzrules-game/1", FORMAT)
#: the largest record file load_record reads
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: the deepest nesting of objects and arrays a record may have (a resolved spec is ~7 deep)
MAX_DEPTH = 32
#: the longest integer literal (in digits) a record may hold
MAX_INT_DIGITS = 24
#: the schema's errors read at most: a record over a size bound (``maxItems``) may hold a
#: million bad items, each one more error, and the report names one of the first
MAX_SCHEMA_ERRORS = 32
#: the figures a replay compares once the game is over; a record must carry every one
FINAL_FIGURES = ("landlord", "stake", "winner", "multiple", "scores", "escaped", "events")


def _hash_of(data: Any) -> str:
    """The content hash of a resolved spec's data (as :attr:`Spec.content_hash`)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def deal_entries(game: Game) -> list[dict[str, Any]]:
    """The game's deals as a record holds them: the hands and the kitty and, where the
    spec leaves cards undealt (``deal.undealt``), those cards too — what the deck holds
    beyond the hands and the kitty."""
    if not game.rules.undealt:
        return [dict(d) for d in game.deals]
    deck = game.variant.rules.deck
    out = []
    for d in game.deals:
        left = list(deck)
        for cards in (*d["hands"], d["kitty"]):
            for r in C.parse_ranks(cards):
                left[r] -= 1
        out.append({**d, "undealt": d.get("undealt", C.counts_to_string(left))})
    return out


def game_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of a finished (or unfinished) game."""
    match: dict[str, Any] = {"index": game.match.index, "seed": game.match.seed}
    if game.match.holdings is not None:
        match["holdings"] = list(game.match.holdings)
    if game.match.previous_winner is not None:
        match["previous_winner"] = game.match.previous_winner
    if game.match.previous_cards is not None:
        match["previous_cards"] = "".join(C.RANKS[r] for r in game.match.previous_cards)
    record = {
        "format": FORMAT,
        "spec": game.variant.name,
        "spec_hash": game.variant.spec.content_hash,
        "spec_resolved": game.variant.spec.data,
        "seed": game.seed,
        "match": match,
        "deals": deal_entries(game),
        "actions": [a.to_dict() for a in game.history],
        "landlord": game.landlord,
        "stake": game.stake,
        "events": [e.to_dict() for e in game.events],
        "multiple": game.multiple,
        "winner": game.winner,
        "escaped": game.escaped,
        "scores": game.scores,
    }
    if game.fixed_landlord is not None:
        record["fixed_landlord"] = game.fixed_landlord
    if game.wild is not None:
        record["wild"] = wild_text(game)
    if game.pair_factors:  # only where a plugin made some: other records stay as they were
        record["pair_factors"] = pair_factor_entries(game)
    return record


def wild_text(game: Game) -> str:
    """The deal's wild ranks as a record and the views show them: in the order drawn."""
    return str(game.view(0).extra.get("wild", ""))


def pair_factor_entries(game: Game) -> list[dict[str, Any]]:
    """The factors between each farmer and the landlord (加倍, 超级加倍, 加棒), by farmer:
    what a record keeps and a replay compares, so a score can be checked by hand."""
    return [{"farmer": int(s), "factor": f} for s, f in sorted(game.pair_factors.items())]


def write_record(game: Game, path: str | Path) -> None:
    """Write :func:`game_record` of ``game`` to ``path`` as JSON (UTF-8), in one step
    (:func:`ddzrules.outputs.write_file`: never half a record)."""
    write_file(path, json.dumps(game_record(game), ensure_ascii=False, indent=1), "--record")


@dataclass
class ReplayResult:
    """A verified replay: the game re-played to its end and how many actions it took."""

    game: Game
    actions: int
    #: where the rules came from and how they compare with the spec on disk, in plain words
    spec_note: str = ""


# ====================================================================== checking a record


@lru_cache(maxsize=1)
def record_schema() -> dict[str, Any]:
    """The JSON Schema of the record format (``ddzrules/schemas/record.schema.json``)."""
    text = (Path(__file__).parent / "spec" / "schemas" / "record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)  # the package's own file, not input: the plain reader
    return schema


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(record_schema())


def _where(path: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _check_shape(record: Any) -> None:
    """Depth, non-finite numbers and oversized integers, without recursion (a record
    built in Python may be nested arbitrarily deep; JSON from a file is checked by
    :func:`load_record` too)."""
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(record, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ReplayError(f"the record is nested more than {MAX_DEPTH} levels deep "
                                  f"(at {_where(path) or 'the top'})")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, depth + 1, path + (k,)) for k, v in items)
        elif isinstance(value, float) and not math.isfinite(value):
            raise ReplayError(f"{_where(path)}: {value} is not a number a record may hold")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_INT_DIGITS:
            raise ReplayError(f"{_where(path)}: an integer of more than {MAX_INT_DIGITS} digits")


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _check_spec_bounds(data: Any) -> None:
    """The resolved spec a record stores, held to the bounds of a spec file (values, depth)."""
    from ddzrules.errors import SpecError
    from ddzrules.spec import check_spec_data

    try:
        check_spec_data(data, "spec_resolved")
    except SpecError as e:
        raise ReplayError(f"malformed record: {e.problems[0]}") from None


def check_record(record: Any) -> None:
    """Raise :class:`ReplayError` unless ``record`` has the shape of a game record: the
    schema (types, ranges, bounded sizes, every final figure), depth and finite numbers.
    An error inside ``actions[i]`` is reported at action ``i``."""
    if not isinstance(record, dict):
        raise ReplayError("a game record is a JSON object")
    if record.get("format") not in FORMATS:
        raise ReplayError(f"not a ddzrules game record (format {_short(repr(record.get('format')), 60)}, "
                          f"expected {FORMAT!r})")
    if "spec_resolved" in record:  # a spec file's bounds, before anything walks the whole record
        _check_spec_bounds(record["spec_resolved"])
    _check_shape(record)
    try:
        errors = list(islice(_validator().iter_errors(record), MAX_SCHEMA_ERRORS))
    except (RecursionError, ValueError) as e:  # pragma: no cover - _check_shape bounds both
        raise ReplayError(f"the record cannot be checked: {type(e).__name__}") from None
    if not errors:
        return
    err = min(errors, key=lambda e: (list(e.absolute_path) != [], len(e.absolute_path)))
    path = list(err.absolute_path)
    if err.validator == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        key = missing[0] if missing else "?"
        where = f"{_where(path)}: " if path else ""
        if not path and key in FINAL_FIGURES:
            raise ReplayError(f"the record has no {key!r}: its final figures cannot be verified")
        index = path[1] if len(path) >= 2 and path[0] == "actions" else None
        raise ReplayError(f"{where}the record has no {key!r}", index)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        allowed = err.schema.get("properties", {})
        extra = [k for k in err.instance if k not in allowed]
        err_text = f"unexpected field(s) {', '.join(map(repr, extra))}"
    elif err.validator == "maxItems" and isinstance(err.instance, list):
        err_text = f"{len(err.instance):,} items, more than the {err.validator_value:,} a record may hold"
    else:
        err_text = err.message
    index = path[1] if len(path) >= 2 and path[0] == "actions" and isinstance(path[1], int) else None
    where = _where(path) or "the record"
    raise ReplayError(f"malformed record: {where}: {_short(err_text)}", index)


# ====================================================================== the rules of a record

_VARIANTS: LastUsed[str, Variant] = LastUsed(8)  # compiled stored specs by content hash


def _check_stored(record: dict[str, Any]) -> str:
    """The content hash of the resolved spec a record stores, which must be the record's
    ``spec_hash`` and be named as the record names its spec."""
    data = record["spec_resolved"]
    digest = _hash_of(data)
    name = record["spec"]
    if digest != record["spec_hash"]:
        raise ReplayError(f"the spec stored in the record ({name!r}) does not match the record's "
                          f"spec_hash ({record['spec_hash'][:12]}…, stored spec {digest[:12]}…): "
                          "the record has been changed")
    if data.get("name") != name:
        raise ReplayError(f"the record names spec {name!r} but stores spec "
                          f"{_short(repr(data.get('name')), 60)}: the record has been changed")
    return digest


def _stored_variant(record: dict[str, Any]) -> Variant:
    """The variant of the resolved spec a record stores, checked against its hash."""
    from ddzrules.rules.compiler import compile_spec
    from ddzrules.spec import spec_from_data

    def compiled() -> Variant:
        spec = spec_from_data(record["spec_resolved"], f"the spec stored in the record ({_printable(record['spec'])})")
        return Variant(spec, compile_spec(spec))

    return _VARIANTS.kept(_check_stored(record), compiled)


def _bundled_file(name: str) -> Path | None:
    """The bundled spec file of ``name``, or None when no bundled spec has that name.

    This is the only way a record's ``spec`` reaches the disk: it is compared with the
    bundled names, never used as a path (nor as ``NAME.yaml``), so a record cannot make
    replay open a file the user did not name — ``/home/me/.netrc``, a FIFO that blocks
    for ever, a device."""
    from ddzrules.spec import bundled_names, bundled_root

    if name not in bundled_names():
        return None
    return bundled_root() / f"{name}.yaml"


#: how many differing places a message about two specs lists
_SHOWN_DIFFERENCES = 4


def _printable(text: str, limit: int = 80) -> str:
    """``text`` with control and other unprintable characters as ``?``, shortened: a
    record's keys end up in messages, and must not drive the terminal."""
    return _short("".join(ch if ch.isprintable() else "?" for ch in text), limit)


def _differences(ours: Any, theirs: Any) -> tuple[list[str], bool]:
    """Where two resolved specs differ: up to :data:`_SHOWN_DIFFERENCES` places (``combos.bomb``,
    ``game.scoring[2]``) and whether there are more; iterative, like :func:`_check_shape`."""
    found: list[str] = []
    stack: list[tuple[Any, Any, tuple[Any, ...]]] = [(ours, theirs, ())]
    while stack and len(found) <= _SHOWN_DIFFERENCES:
        a, b, path = stack.pop()
        if a == b and type(a) is type(b):
            continue
        if isinstance(a, dict) and isinstance(b, dict):
            # a key only one side has is a place; the keys both have are looked into
            one_side = [k for k in a if k not in b] + [k for k in b if k not in a]
            found.extend(_printable(_where(path + (k,))) for k in one_side)
            stack.extend((a[k], b[k], path + (k,)) for k in reversed([k for k in a if k in b]))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            stack.extend((x, y, path + (i,)) for i, (x, y) in reversed(list(enumerate(zip(a, b)))))
        else:
            found.append(_printable(_where(path)) or "the whole spec")
    return found[:_SHOWN_DIFFERENCES], len(found) > _SHOWN_DIFFERENCES


def _differ_in(ours: Any, theirs: Any) -> str:
    places, more = _differences(ours, theirs)
    if not places:
        return ""
    return f" (they differ at {', '.join(places)}{', …' if more else ''})"


def _rules_of(record: dict[str, Any], registry: PluginRegistry | None, spec_file: str | None,
              check_disk: bool) -> tuple[GameRules, str]:
    """The rules to replay a record under, and a sentence saying where they come from.

    Only two spec files are ever read: the one the user names (``spec_file``, from
    ``--spec``) and the bundled spec of the record's name. A record whose stored rules
    differ from either is refused (a :class:`ReplayError`), so it is never reported
    as verified under a name it does not deserve."""
    from ddzrules.spec import Spec, load_spec

    name, wanted = record["spec"], record["spec_hash"]
    stored = record.get("spec_resolved")
    note = ""
    if spec_file is not None:
        disk: Spec = load_spec(spec_file)
        if disk.content_hash != wanted:
            where = _differ_in(stored, disk.data) if stored is not None else ""
            raise ReplayError(f"{spec_file} does not match this record: the spec has changed since the "
                              f"game was recorded, or the record was played under other rules{where} "
                              f"(record's hash {wanted[:12]}…, the file's {disk.content_hash[:12]}…)")
        note = f"the spec file {spec_file} matches the record's hash"
    bundled = _bundled_file(name)
    if stored is None:  # format /1: the spec by name, which may only be a bundled one
        if spec_file is None and bundled is None:
            raise ReplayError(f"this record (format ddzrules-game/1) names its spec only, {name!r}, "
                              "which is not a bundled spec; give the spec it was played under with "
                              "--spec FILE (a record's spec name is never opened as a file)")
        rules = GameRules.load(spec_file if spec_file is not None else str(bundled), registry)
        if rules.variant.spec.content_hash != wanted:
            raise ReplayError(f"the spec {name!r} has changed since this game was recorded "
                              f"(hash {wanted[:12]}…, now {rules.variant.spec.content_hash[:12]}…)")
        if spec_file is None:
            note = (f"replayed under the bundled spec {name!r} ({rules.variant.spec.file}), which "
                    "matches the record's hash")
        return rules, note
    _check_stored(record)
    note = note or "replayed under the spec stored in the record"
    if spec_file is None and check_disk:  # compared before compiling: the clearer message first
        if bundled is None:
            note += (f"; {name!r} is not a bundled spec, so nothing on disk was compared with it "
                     "(--spec FILE checks it against a spec file)")
        else:
            disk = load_spec(bundled)
            if disk.content_hash != wanted:
                raise ReplayError(
                    f"the rules stored in this record differ from the bundled spec {name!r} it "
                    f"names{_differ_in(stored, disk.data)}: not verified as a {name!r} game "
                    f"(record's hash {wanted[:12]}…, bundled {disk.content_hash[:12]}…). If it was "
                    "played under another version of the spec or a house spec of that name, give "
                    "that file with --spec FILE")
            note += f"; it matches the bundled spec {name!r} ({disk.file})"
    return GameRules(_stored_variant(record), registry), note


# ====================================================================== replay


def find_action(game: Game, data: dict[str, Any], index: int) -> Action:
    try:
        seat = int(data["seat"])
        kind = str(data["kind"])
    except (KeyError, TypeError, ValueError):
        raise ReplayError(f"malformed action {_short(repr(data))}", index) from None
    if game.to_act != seat:
        raise ReplayError(f"the record has seat {seat} act, but it is seat {game.to_act}'s turn", index)
    legal = game.legal_actions()
    if kind == "play":
        try:
            cards = C.parse_cards(str(data.get("value", "")))
        except C.CardError as e:
            raise ReplayError(f"bad cards: {_short(str(e))}", index) from None
        for a in legal:
            if a.kind == "play" and a.move is not None and a.move.cards == cards \
                    and data.get("combo", a.move.combo) == a.move.combo \
                    and data.get("rank", a.move.rank_name) == a.move.rank_name:
                return a
        raise ReplayError(f"seat {seat} plays {cards}, which is not legal here "
                          f"(hand {game.hand_string(seat)}, "
                          f"to beat {game.last_play.cards if game.last_play else 'nothing: a lead'})", index)
    for a in legal:
        if a.kind == kind and a.value == data.get("value") and type(a.value) is type(data.get("value")):
            return a
    shown = f"{kind} {data['value']}" if data.get("value") is not None else kind
    raise ReplayError(f"seat {seat}: {_short(shown, 80)} is not legal here; legal: {', '.join(map(str, legal))}",
                      index)


def replay(record: dict[str, Any], registry: PluginRegistry | None = None, *,
           spec_file: str | None = None, check_disk: bool = True,
           observe: Callable[[Game, int], None] | None = None) -> ReplayResult:
    """Replay a record through the rules; raises :class:`ReplayError` (or another
    :class:`DdzError`: a spec or plugin problem) at the first divergence.

    The rules are built from the resolved spec the record stores (format /2), which must
    match the record's ``spec_hash``; ``spec_file`` (the user's ``--spec``), when given, must
    match it too. Without it, when the record names a bundled spec and ``check_disk``, the
    stored spec must be that bundled spec (the result's ``spec_note`` says which was
    compared). A format /1 record is replayed under ``spec_file`` or the bundled spec of its
    name, which must match its hash. The record's spec name is never opened as a path: the
    only files read are ``spec_file`` and the bundled specs.

    ``observe(game, i)``, when given, is called with the game once dealt (``i`` -1) and
    after each of the record's actions (``i`` its index), a redeal marker included: what a
    step-by-step viewer shows. The game is the replay's own: read it, do not change it."""
    check_record(record)
    try:
        return _replay(record, registry, spec_file, check_disk, observe)
    except RecursionError:
        raise ReplayError("the record is nested too deeply to replay") from None


# over the complexity bound on purpose: one dispatch over a record's action kinds, each checked as replayed
def _replay(record: dict[str, Any], registry: PluginRegistry | None, spec_file: str | None,  # noqa: C901
            check_disk: bool, observe: Callable[[Game, int], None] | None = None) -> ReplayResult:
    rules, note = _rules_of(record, registry, spec_file, check_disk)
    seed = record["seed"]
    match = record["match"]
    holdings = match.get("holdings")
    if holdings is not None and len(holdings) != rules.players:
        raise ReplayError(f"the record's match holdings list {len(holdings)} seats, "
                          f"{rules.variant.name} has {rules.players}")
    previous = match.get("previous_winner")
    if previous is not None and previous >= rules.players:
        raise ReplayError(f"the record's match.previous_winner is seat {previous}, "
                          f"{rules.variant.name} has {rules.players} seats")
    fixed = record.get("fixed_landlord")
    if fixed is not None and (rules.table_kind != "landlord" or fixed >= rules.players):
        raise ReplayError(f"the record's fixed_landlord is seat {fixed}, which {rules.variant.name} "
                          "cannot seat as its landlord")
    gathered = match.get("previous_cards")
    previous_cards = tuple(C.RANKS.index(c) for c in gathered) if gathered is not None else None
    if previous_cards is not None and sorted(previous_cards) != C.deck_list(rules.variant.rules.deck):
        raise ReplayError(f"the record's match.previous_cards are not the cards of {rules.variant.name}'s "
                          f"deck (a gathered deck holds every card once)")
    game = rules.new_game(seed, MatchInfo(match["index"], match["seed"],
                                          tuple(holdings) if holdings is not None else None,
                                          previous_winner=previous, previous_cards=previous_cards),
                          landlord=fixed)
    deals = record["deals"]

    def check_deal(n: int, index: int | None) -> None:
        if n >= len(deals):
            return
        dealt = deal_entries(game)[n]
        if "undealt" not in deals[n]:  # a record written before undealt cards were stored
            dealt.pop("undealt", None)
        if deals[n] != dealt:
            raise ReplayError(f"deal {n + 1} differs from the one seed {seed} gives "
                              f"(recorded {_short(str(deals[n]))}, dealt {dealt})", index)

    check_deal(0, None)
    if observe is not None:
        observe(game, -1)
    actions = record["actions"]
    for i, data in enumerate(actions):
        if data.get("kind") == "redeal":
            # the rules add a redeal marker themselves; the record's must sit at the same place
            if i >= len(game.history) or game.history[i].kind != "redeal":
                raise ReplayError("the record has a redeal here, but the rules do not", i)
            if data != game.history[i].to_dict():
                raise ReplayError(f"the record's redeal marker {_short(repr(data))} differs from "
                                  f"the rules' {game.history[i].to_dict()}", i)
            if observe is not None:
                observe(game, i)
            continue
        if game.over:
            raise ReplayError("the game is already over, but the record goes on", i)
        if data.get("kind") == "escape":  # 逃跑 ends the game at once
            if set(data) != {"seat", "kind"}:
                raise ReplayError(f"malformed escape {_short(repr(data))}", i)
            try:
                game.abandon(int(data["seat"]))
            except (DdzError, KeyError, TypeError, ValueError) as e:
                raise ReplayError(f"escape not possible: {e}", i) from None
            if observe is not None:
                observe(game, i)
            continue
        before = len(game.deals)
        try:
            game.apply(find_action(game, data, i))
        except ReplayError:
            raise
        except DdzError as e:
            raise ReplayError(str(e), i) from None
        if game.history[len(game.history) - 1 - (len(game.deals) > before)].to_dict() != data:
            raise ReplayError(f"the record's action {_short(repr(data))} is not the one the rules "
                              "applied", i)
        if len(game.deals) > before:
            check_deal(len(game.deals) - 1, i)
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if not (isinstance(nxt, dict) and nxt.get("kind") == "redeal"):
                raise ReplayError("the rules deal again here (nobody took the landlord), "
                                  "but the record has no redeal", i + 1)
        if observe is not None:
            observe(game, i)
    if not game.over:
        raise ReplayError(f"the record ends before the game does (seat {game.to_act} to act)")
    if len(game.history) != len(actions):
        raise ReplayError(f"the record lists {len(actions)} actions but the game took {len(game.history)} "
                          "(a redeal marker or an action is missing)")
    if len(deals) != len(game.deals):
        raise ReplayError(f"the record lists {len(deals)} deal(s) but the game had {len(game.deals)}")
    if record["escaped"] != game.escaped:
        raise ReplayError(f"the record says seat {record['escaped']} escaped, the actions say {game.escaped}")
    for key, actual in (("landlord", game.landlord), ("stake", game.stake), ("winner", game.winner),
                        ("multiple", game.multiple), ("scores", game.scores)):
        if record[key] != actual:
            raise ReplayError(f"the record says {key} = {_short(str(record[key]))}, the rules give {actual}")
    # records made before the field (one wild rank, implied by the seed) have no "wild"
    if "wild" in record and record["wild"] != (None if game.wild is None else wild_text(game)):
        raise ReplayError(f"the record's wild ranks {_short(str(record.get('wild')))} differ from the "
                          f"rules' {None if game.wild is None else wild_text(game)}")
    if "pair_factors" in record and record["pair_factors"] != pair_factor_entries(game):
        raise ReplayError(f"the record's pair factors {_short(str(record['pair_factors']))} differ from the "
                          f"rules' {pair_factor_entries(game)}")
    events = [e.to_dict() for e in game.events]
    if record["events"] != events:
        raise ReplayError(f"the record's multiplier events {_short(str(record['events']))} differ from "
                          f"the rules' {events}")
    return ReplayResult(game, len(actions), note)


# ====================================================================== reading a record


#: what a record file may be: the records' bounds under the one strict-JSON policy
RECORD_JSON = JSONPolicy(max_bytes=MAX_RECORD_BYTES, max_depth=MAX_DEPTH, max_int_digits=MAX_INT_DIGITS)


def _read_bounded(path: str | Path) -> bytes:
    """The bytes of a record file: a regular file (a symlink to one is fine) of at most
    :data:`MAX_RECORD_BYTES`, read by the one reader of untrusted files."""
    try:
        return read_regular(path, MAX_RECORD_BYTES)
    except FileRefused as e:
        if e.problem == "not regular":
            raise DdzError(f"{path} is {e.kind}, not a game record file (a record is read only from a "
                           "regular file)") from None
        if e.problem == "too large":
            size = f"{e.size} bytes" if e.size is not None else "the file"
            raise DdzError(f"{path}: {size} is too large for a game record (at most {MAX_RECORD_BYTES})") from None
        raise DdzError(f"cannot read {path}: {e.reason or 'no such file'}") from None


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file: a regular file of at most :data:`MAX_RECORD_BYTES`, strict JSON
    (no NaN or Infinity, no huge numbers, no key twice in an object, nesting bounded); its
    shape is checked by :func:`replay`."""
    return parse_record(_read_bounded(path), str(path))


def parse_record(raw: bytes, where: str = "the record") -> dict[str, Any]:
    """A record's bytes (an upload, say) read as :func:`load_record` reads a file's:
    at most :data:`MAX_RECORD_BYTES`, strict JSON, a JSON object; ``where`` names it in
    messages, which never quote its content beyond a repeated key."""
    path = where
    if len(raw) > MAX_RECORD_BYTES:
        raise DdzError(f"{path}: too large for a game record (at most {MAX_RECORD_BYTES} bytes)")
    try:
        data = parse_json(raw, RECORD_JSON)
    except JSONRefused as e:
        if e.problem == "key":
            raise DdzError(f"{path}:{e}; a game record gives each field once") from None
        raise DdzError(f"{path}:{e}") from None
    if not isinstance(data, dict):
        raise DdzError(f"{path}: a game record is a JSON object")
    return data
