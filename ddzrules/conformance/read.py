"""Reading a suite: untrusted input, checked whole before any engine is asked (the
manifest and every line against their schemas, an input that can occur in a game of
the suite's spec, a bounded amount of work), through the one untrusted-bytes module
(:mod:`ddzrules.untrusted`)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

from ddzrules import cards as C
from ddzrules.conformance.common import (
    FORMAT,
    LISTED_UNITS,
    MAX_FILE_BYTES,
    MAX_LINE_BYTES,
    MAX_MANIFEST_BYTES,
    SPEC_BYTES_PER_STEP,
    STEP_UNITS,
    SUITE_JSON,
    Limits,
    deal_sizes,
    perft_budget,
    wild_ranks,
)
from ddzrules.errors import (
    DdzError,
    ReplayError,
    SuiteError,
    brief,
    escaped,
)
from ddzrules.untrusted import (
    FileRefused,
    JSONRefused,
    open_regular,
    parse_json,
)
from ddzrules.variant import Variant

# ====================================================================== reading suites


def schema(name: str) -> dict[str, Any]:
    """A JSON Schema shipped with the package: ``manifest`` or a category name."""
    text = resources.files("ddzrules.spec").joinpath("schemas", f"suite-{name}.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)  # the package's own schema, not input: the plain reader
    return data


def _loads(raw: bytes, where: str, one_line: bool = True) -> Any:
    """A suite's JSON under the one strict-JSON policy (:mod:`ddzrules.untrusted`): UTF-8,
    no NaN or Infinity, no huge numbers, no key twice, bounded nesting. ``where`` names
    the file and, for ``one_line`` text, the line; a refusal is placed by its column
    (line and column), a refused number by its field too."""
    try:
        return parse_json(raw, SUITE_JSON)
    except JSONRefused as e:
        place = f"{e.column}" if one_line else f"{e.line}:{e.column}"
        if e.problem == "number":
            raise SuiteError(f"{where}:{place}: {e.field}: {e.reason}") from None
        if e.problem == "encoding":
            raise SuiteError(f"{where}: {e.reason}") from None
        raise SuiteError(f"{where}:{place}: {e.reason}") from None


def _open_regular(path: Path, limit: int) -> BinaryIO:
    """``path`` opened for reading when it is a regular file of at most ``limit`` bytes,
    by the one reader of untrusted files: a FIFO or a device put in a suite's place is
    refused by what it is instead of hanging the run."""
    try:
        return open_regular(path, limit)
    except FileRefused as e:
        if e.problem == "missing":
            raise SuiteError(f"{path}: missing") from None
        if e.problem == "not regular":
            raise SuiteError(f"{path}: not a regular file ({e.kind})") from None
        if e.problem == "too large":
            raise SuiteError(f"{path}: {e.size:,} bytes, larger than the limit of {limit:,}") from None
        raise SuiteError(f"cannot read {path}: {e.reason}") from None


def _read_small(path: Path, limit: int) -> bytes:
    with _open_regular(path, limit) as f:
        try:
            raw = f.read(limit + 1)
        except OSError as e:
            raise SuiteError(f"cannot read {path}: {e.strerror or e}") from None
    if len(raw) > limit:  # it grew after it was measured
        raise SuiteError(f"{path}: larger than the limit of {limit:,} bytes")
    return raw


def _validator(name: str) -> Any:
    """The validator of a suite schema, or of the game record's (``record``)."""
    import jsonschema

    if name not in _VALIDATORS:
        from ddzrules.records import record_schema

        _VALIDATORS[name] = jsonschema.Draft202012Validator(record_schema() if name == "record" else schema(name))
    return _VALIDATORS[name]


_VALIDATORS: dict[str, Any] = {}
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_.-]{1,40}")


def _schema_message(err: Any) -> str:
    """Where a value breaks the schema and the schema's rule, never the value itself
    (a suite is someone else's file: its content is not repeated to the terminal)."""
    where = "/".join(str(p) if isinstance(p, int) or _PLAIN_KEY.fullmatch(str(p)) else "<key>"
                     for p in err.absolute_path) or "top level"
    rule, want = err.validator, err.validator_value
    if rule == "required":
        have = err.instance if isinstance(err.instance, dict) else {}
        text = "missing " + ", ".join(repr(k) for k in want if k not in have)
    elif rule == "additionalProperties":
        text = "a field the schema does not have"
    elif rule == "type":
        text = "must be of type " + (" or ".join(want) if isinstance(want, list) else str(want))
    elif rule in _BOUNDS:
        text = _BOUNDS[rule].format(want)
    elif rule == "pattern":
        text = f"does not match the pattern {want}"
    elif rule in ("enum", "const"):
        text = "must be " + (" or ".join(json.dumps(w) for w in want) if rule == "enum" else json.dumps(want))
    elif rule == "propertyNames":
        text = "a key the schema does not allow"
    else:
        text = f"fails the schema's {rule} check"
    return f"{where}: {text}"


_BOUNDS = {"minimum": "must be at least {:,}", "maximum": "must be at most {:,}",
           "exclusiveMinimum": "must be more than {:,}", "exclusiveMaximum": "must be less than {:,}",
           "minLength": "must have at least {:,} characters", "maxLength": "must have at most {:,} characters",
           "minItems": "must have at least {:,} items", "maxItems": "must have at most {:,} items",
           "minProperties": "must have at least {:,} keys", "maxProperties": "must have at most {:,} keys"}


def load_manifest(directory: str | Path) -> dict[str, Any]:
    """Read and check a suite's manifest (format version, schema)."""
    d = Path(directory)
    if not d.is_dir():
        raise SuiteError(f"{d}: not a suite directory (it should hold manifest.json)")
    path = d / "manifest.json"
    manifest = _loads(_read_small(path, MAX_MANIFEST_BYTES), str(path), one_line=False)
    if not isinstance(manifest, dict):
        raise SuiteError(f"{path}: a manifest is a JSON object")
    fmt = manifest.get("format")
    if fmt != FORMAT:
        shown = repr(fmt) if isinstance(fmt, str) and len(fmt) < 40 and fmt.isprintable() else "of another kind"
        raise SuiteError(f"{path}: suite format {shown} is not one this ddzrules reads ({FORMAT!r}); "
                         "regenerate the suite with this version")
    from ddzrules.errors import SpecError
    from ddzrules.spec import check_spec_data

    try:  # a spec file's bounds (values, depth), before the schema walks the spec
        check_spec_data(manifest.get("spec_resolved"), "spec_resolved")
    except SpecError as e:
        raise SuiteError(f"{path}: {e.problems[0]}") from None
    err = next(iter(_validator("manifest").iter_errors(manifest)), None)
    if err is not None:
        raise SuiteError(f"{path}: {_schema_message(err)}")
    named = manifest["spec_resolved"].get("name")
    if manifest["spec"] != named:
        raise SuiteError(f"{path}: spec: the manifest names spec {brief(manifest['spec'])}, but the spec it "
                         f"carries (spec_resolved) is {brief(named)}: the manifest was edited")
    for category, entry in manifest["files"].items():
        if entry["file"] != f"{category}.jsonl":
            raise SuiteError(f"{path}: files/{category}/file: the {category} vectors are in {category}.jsonl")
    return manifest


# ---------------------------------------------------------------- what can occur in a game


@dataclass(frozen=True)
class _Table:
    """What a vector's inputs are checked against: the suite's own spec."""

    deck: tuple[int, ...]
    players: int
    max_hand: int  # the landlord's hand with the kitty
    wild: frozenset[str]  # the ranks that may be wild; empty without wildcards
    wild_count: int = 1  # how many may be wild at once (wildcards.ranks)

    @staticmethod
    def of(v: Variant) -> _Table:
        players, hand, kitty = deal_sizes(v)
        return _Table(tuple(v.rules.deck), players, hand + kitty, frozenset(C.RANKS[r] for r in wild_ranks(v)),
                      max(1, v.rules.wild_count))

    def counts(self, cards: str) -> list[int]:
        out = [0] * C.NUM_RANKS
        for ch in cards:  # the schema allows rank characters only
            out[C.RANK_INDEX[ch]] += 1
        return out

    def over_deck(self, counts: list[int]) -> str | None:
        for r, (n, have) in enumerate(zip(counts, self.deck)):
            if n > have:
                return f"{n} cards of rank {C.RANKS[r]}, the deck holds {have}"
        return None

    def hand(self, cards: str, what: str) -> str | None:
        """Why ``cards`` cannot be one hand or one play, or None."""
        if len(cards) > self.max_hand:
            return f"{what}: {len(cards)} cards, more than any hand holds ({self.max_hand})"
        bad = self.over_deck(self.counts(cards))
        return f"{what}: {bad}" if bad else None

    def together(self, groups: list[str], what: str) -> str | None:
        """Why these hands cannot be dealt from one deck at once, or None."""
        total = [0] * C.NUM_RANKS
        for cards in groups:
            for r, n in enumerate(self.counts(cards)):
                total[r] += n
        size = sum(total)
        if size > sum(self.deck):
            return f"{what}: {size} cards together, the deck holds {sum(self.deck)}"
        bad = self.over_deck(total)
        return f"{what} together: {bad}" if bad else None

    def wild_rank(self, wild: str | None, what: str = "wild") -> str | None:
        if wild is None:
            return None
        if not self.wild:
            return f"{what}: the suite's spec has no wild cards"
        ranks = wild.split(",")  # the schema allows 1-4 ranks, comma-separated
        if len(ranks) > self.wild_count:
            return f"{what}: {len(ranks)} wild ranks, the suite's spec makes at most {self.wild_count} wild at once"
        if len(set(ranks)) < len(ranks):
            return f"{what}: a wild rank is given twice"
        bad = [r for r in ranks if r not in self.wild]
        return f"{what}: {bad[0]} cannot be the wild rank of the suite's spec" if bad else None

    def seat(self, seat: int | None, what: str, none_ok: bool = False) -> str | None:
        if seat is None:
            return None if none_ok else f"{what}: no seat"
        return None if 0 <= seat < self.players else f"{what}: {seat} is no seat of a {self.players}-player game"


def _impossible(t: _Table, category: str, vec: dict[str, Any], limits: Limits) -> str | None:
    """Why a schema-valid vector is no question about a game of the suite's spec (or asks
    for more work than ``limits`` allow), or None."""
    checks: list[str | None] = []
    if category == "classify":
        checks = [t.hand(vec["cards"], "cards"), t.wild_rank(vec.get("wild"))]
    elif category == "compare":
        checks = [t.hand(vec["a"], "a"), t.hand(vec["b"], "b"), t.wild_rank(vec.get("wild"))]
    elif category == "moves":
        after = vec["after"]
        checks = [t.hand(vec["hand"], "hand"), t.hand(after, "after") if after is not None else None,
                  t.wild_rank(vec.get("wild"))]
    elif category == "perft":
        pos, exp = vec["position"], vec["expect"]
        hands = pos["hands"]
        if pos["players"] != t.players:
            return f"position/players: {pos['players']}, the suite's spec is played by {t.players}"
        if len(hands) != t.players:
            return f"position/hands: {len(hands)} hands for {t.players} players"
        checks = [*(t.hand(h, f"position/hands/{i}") for i, h in enumerate(hands)),
                  t.together(hands, "position/hands"), t.seat(pos["to_act"], "position/to_act"),
                  t.seat(pos["landlord"], "position/landlord", none_ok=True),
                  t.wild_rank(pos.get("wild"), "position/wild")]
        if exp["nodes"] > limits.max_perft_nodes:
            checks.append(f"expect/nodes: {exp['nodes']:,} sequences, more than the limit of "
                          f"{limits.max_perft_nodes:,} a perft vector may expect (--max-perft-nodes)")
        if sum(exp["divide"].values()) != exp["nodes"]:
            checks.append(f"expect/divide: sums to {sum(exp['divide'].values()):,}, "
                          f"not to expect/nodes ({exp['nodes']:,})")
    elif category == "games":
        for i, deal in enumerate(vec["deals"]):
            if len(deal["hands"]) != t.players:
                return f"deals/{i}/hands: {len(deal['hands'])} hands for {t.players} players"
            checks += [t.hand(h, f"deals/{i}/hands/{j}") for j, h in enumerate(deal["hands"])]
            checks.append(t.together([*deal["hands"], deal["kitty"], deal.get("undealt", "")], f"deals/{i}"))
        for i, action in enumerate(vec["actions"]):
            if not -1 <= action["seat"] < t.players:  # -1: the table (a redeal)
                return f"actions/{i}/seat: {action['seat']} is no seat of a {t.players}-player game"
    return next((c for c in checks if c), None)


def vector_work(category: str, vec: dict[str, Any], limits: Limits, spec_bytes: int = 0) -> int:
    """A vector's share of :attr:`Limits.max_work`; ``spec_bytes``, the size of the suite's
    resolved spec as JSON, counts for a game (see :data:`SPEC_BYTES_PER_STEP`). A game's
    share is what is known before its replay: the replay adds a unit for each action it
    lists (:func:`_not_its_game`)."""
    if category == "perft":
        return perft_budget(vec["depth"], vec["expect"]["nodes"], limits)
    if category == "games":
        return 1 + STEP_UNITS * (len(vec["actions"]) + spec_bytes // SPEC_BYTES_PER_STEP)
    return 1


#: how the work of a suite is counted, as its refusal says it
_WORK = (f"a unit a vector, a perft vector its search budget, a game {STEP_UNITS} an action "
         f"and its spec's size and {LISTED_UNITS} for each action its replay lists")


class _PastTheLimit(Exception):
    """A games vector's replay passed the suite's work limit or the run's time limit:
    (the index of the step, the message)."""


def _not_its_game(manifest: dict[str, Any], vec: dict[str, Any], tally: Tally | None = None) -> str | None:
    """Why a schema-valid games vector is no game of the suite's spec, or None. The vector
    is read as a game record of the suite's resolved spec and replayed by the library's own
    runtime (:func:`ddzrules.records.replay`): its seed must deal its deals, each action must
    be one the rules allow when it is taken (redeal markers where the rules deal again), its
    last must end the game, each check must list the legal actions of its step, and its
    expected outcome must be the game's. The replay adds to ``tally``'s work a unit for each
    action it lists, and stops when the work passes the limit. The answer names the place in the
    vector and what the rules say, never
    the vector's own values (a suite is someone else's file)."""
    from ddzrules.records import FINAL_FIGURES, game_record, replay
    from ddzrules.records import FORMAT as RECORD_FORMAT
    from ddzrules.runtime import Game

    if not manifest["spec_resolved"].get("game"):
        return "the suite's spec has no game: section, so no game of it can be a vector"
    actions = vec["actions"]
    escape = next((i for i, a in enumerate(actions) if a["kind"] == "escape"), None)
    if escape is not None:
        return f"actions/{escape}: an escape; a suite's games are played to their end"
    # the vector states its outcome in its own terms (event names; stake and winner may be
    # left out), not a record's: the record's final figures are placeholders that observe
    # replaces with the game's own when it ends (replay compares them after that), and the
    # vector's are compared with the game's after the replay
    record: dict[str, Any] = {
        "format": RECORD_FORMAT, "spec": manifest["spec"], "spec_hash": manifest["spec_hash"],
        "spec_resolved": manifest["spec_resolved"], "seed": vec["seed"], "match": vec["match"],
        "deals": vec["deals"], "actions": actions, "landlord": None, "stake": 0, "events": [],
        "multiple": 1, "winner": None, "escaped": None, "scores": [0]}
    checks: dict[str, list[str]] = vec["checks"]
    unchecked = set(checks)
    seen: dict[str, Any] = {"deals": 0}  # the game once dealt, its deals, its first wrong check

    def observe(game: Game, i: int) -> None:
        seen["game"], seen["deals"] = game, len(game.deals)
        if game.over:
            final = seen["final"] = game_record(game)
            record.update({k: final[k] for k in FINAL_FIGURES})
            return
        listed = game.legal_actions()  # what the next step reads (kept by the game: not listed twice)
        if tally is not None:
            tally.work += LISTED_UNITS * len(listed)
            if tally.work > tally.limits.max_work:
                raise _PastTheLimit(i + 1, f"the suite's work passes the limit of {tally.limits.max_work:,} units "
                                           f"while its game is replayed ({_WORK}; --max-work raises it)")
            if tally.past_deadline():
                raise _PastTheLimit(i + 1, tally.deadline_message())
        step = str(len(game.history))  # the vector's checks are keyed so
        if step in unchecked:
            unchecked.discard(step)
            legal = sorted(str(a) for a in listed)
            if "check" not in seen and legal != sorted(checks[step]):
                seen["check"] = (step, len(legal))

    try:
        replay(record, check_disk=False, observe=observe)
    except _PastTheLimit as e:
        return f"actions/{e.args[0]}: {e.args[1]}"
    except ReplayError as e:
        if "game" not in seen:  # refused before the deal: a record replay cannot read, or another deal
            err = next(iter(_validator("record").iter_errors(record)), None)
            if err is not None:  # said as a suite's schema errors are, never with the value
                return f"{_schema_message(err)} (in a game record, which a games vector is replayed as)"
        return _replay_failure(e.action_index, seen, vec)
    except DdzError as e:  # the rules themselves cannot play it (a plugin's own check)
        return f"the suite's spec cannot replay the game: {escaped(str(e))[:300]}"
    if "check" in seen:
        step, n = seen["check"]
        return f"checks/{step}: not the legal actions of that step of the game (the rules list {n:,})"
    if unchecked:
        return f"checks/{min(unchecked, key=int)}: no step of the game at which a seat acts"
    final = seen["final"]
    got = {**final, "events": [e["name"] for e in final["events"]]}
    for name, want in vec["expect"].items():
        if want != got[name]:
            return f"expect/{name}: not the game's outcome, the rules give {brief(got[name], 80)}"
    return None


def _replay_failure(index: int | None, seen: dict[str, Any], vec: dict[str, Any]) -> str:
    """Where and how a games vector's replay left the game its seed deals (see
    :func:`_not_its_game`), in the rules' terms."""
    game = seen.get("game")
    if game is None:  # refused before the first deal was seen: that deal is another
        return "deals/0: not the deal its seed gives under the suite's spec"
    if index is None:  # the actions replayed; the game's end does not fit them
        if not game.over:
            return f"actions: the game is not over after the last action (seat {game.to_act} to act)"
        if len(game.history) != len(vec["actions"]):
            return f"actions: {len(vec['actions']):,} actions, the game took {len(game.history):,}"
        return f"deals: {len(vec['deals']):,} deal(s), the game had {len(game.deals):,}"
    if len(game.deals) > seen["deals"]:
        return (f"actions/{index}: the rules deal again here (nobody took the landlord); the vector's "
                "redeal marker or next deal is not theirs")
    if index < len(vec["actions"]) and vec["actions"][index]["kind"] == "redeal":
        return (f"actions/{index}: not a redeal marker of the rules (they deal again where nobody "
                "took the landlord, and write the marker their way)")
    if len(game.history) > index:  # applied, but the vector writes it otherwise
        return (f"actions/{index}: not the action as the rules write the one they apply "
                "(its seat, kind, value, combo and rank)")
    if game.over:
        return f"actions/{index}: an action after the game is over"
    return f"actions/{index}: not an action the rules allow here (seat {game.to_act} to act)"


@dataclass
class Tally:
    """What the vectors read so far add up to, across a suite's files, and a fingerprint
    of each line checked (per category), so that a second reading need not check a line
    again, only that it is the same."""

    limits: Limits = field(default_factory=Limits)
    vectors: int = 0
    work: int = 0
    ids: dict[str, str] = field(default_factory=dict)  # vector id -> file:line of its first use
    lines: dict[str, array] = field(default_factory=dict)
    #: when the run's time limit passes (time.monotonic()); set from the limits when None
    deadline: float | None = None

    def __post_init__(self) -> None:
        if self.deadline is None and self.limits.max_seconds is not None:
            self.deadline = time.monotonic() + self.limits.max_seconds

    def past_deadline(self) -> bool:
        return self.deadline is not None and time.monotonic() > self.deadline

    def deadline_message(self) -> str:
        return (f"the run passed its time limit of {self.limits.max_seconds:,g} s (--max-seconds raises it; "
                "the suite's work is bounded in units too, --max-work)")


# over the complexity bound on purpose: one dispatch over a suite line's vector kinds and their checks
def iter_vectors(directory: str | Path, manifest: dict[str, Any], category: str,  # noqa: C901
                 variant: Variant | None = None, tally: Tally | None = None,
                 checked: Tally | None = None) -> Iterator[dict[str, Any]]:
    """A category's vectors one at a time, read as a stream: each line bounded, parsed
    strictly, checked against the vector schema, against what can occur in a game of the
    suite's spec (``variant``; compiled from the manifest when None) and against the
    limits and the ids of ``tally``; the file's SHA-256 and vector count are checked
    against the manifest at its end. Any failure is a :class:`SuiteError` naming the
    file and line. With ``checked``, the tally of an earlier reading of the whole suite,
    each line is only compared with the one checked then (a changed file is an error)."""
    entry = manifest["files"].get(category)
    if entry is None:
        return
    tally = tally if tally is not None else Tally()
    table = _Table.of(variant if variant is not None else suite_variant(manifest))
    spec_bytes = 0  # a game's replay reads the suite's spec whole: its size counts in a game's work
    if category == "games":
        spec_bytes = len(json.dumps(manifest["spec_resolved"], ensure_ascii=False, separators=(",", ":")).encode())
    path = Path(directory) / str(entry["file"])
    declared = int(entry["vectors"])
    validator = _validator(category)
    digest = hashlib.sha256()
    size = count = lineno = 0
    before = checked.lines.get(category, array("q")) if checked is not None else None
    seen = tally.lines.setdefault(category, array("q"))
    with _open_regular(path, MAX_FILE_BYTES) as f:
        while True:
            try:
                line = f.readline(MAX_LINE_BYTES + 1)
            except OSError as e:
                raise SuiteError(f"cannot read {path}: {e.strerror or e}") from None
            if not line:
                break
            lineno += 1
            where = f"{path}:{lineno}"
            if tally.past_deadline():
                raise SuiteError(f"{where}: {tally.deadline_message()}")
            size += len(line)
            if size > MAX_FILE_BYTES:  # it grew after it was measured
                raise SuiteError(f"{path}: larger than the limit of {MAX_FILE_BYTES:,} bytes")
            if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
                raise SuiteError(f"{where}: a line longer than the limit of {MAX_LINE_BYTES:,} bytes")
            digest.update(line)
            if before is not None:  # checked in full by the earlier reading: the same line?
                if len(before) <= count or before[count] != _fingerprint(line):
                    raise SuiteError(f"{where}: the file changed after the suite was checked")
                count += 1
                yield _loads(line, where)
                continue
            if not line.strip():
                raise SuiteError(f"{where}: an empty line (a suite file holds one vector per line)")
            count += 1
            tally.vectors += 1
            if count > declared:
                raise SuiteError(f"{where}: more vectors than the {declared:,} the manifest declares")
            if tally.vectors > tally.limits.max_vectors:
                raise SuiteError(f"{where}: the suite holds more than {tally.limits.max_vectors:,} vectors, "
                                 "the limit of a run (--max-vectors raises it)")
            vec = _loads(line, where)
            err = next(iter(validator.iter_errors(vec)), None)
            if err is not None:
                raise SuiteError(f"{where}: {_schema_message(err)}")
            bad = _impossible(table, category, vec, tally.limits)
            if bad is not None:
                raise SuiteError(f"{where}: {bad}")
            first = tally.ids.setdefault(vec["id"], where)
            if first != where:
                raise SuiteError(f"{where}: the vector id is already used at {first}")
            if not vec["id"].startswith(category + "-"):
                raise SuiteError(f"{where}: a {category} vector's id starts with {category}-")
            tally.work += vector_work(category, vec, tally.limits, spec_bytes)
            if tally.work > tally.limits.max_work:
                raise SuiteError(f"{where}: the suite's work passes the limit of {tally.limits.max_work:,} "
                                 f"units ({_WORK}; --max-work raises it)")
            if category == "games":  # replayed last, counting what it lists as it goes
                bad = _not_its_game(manifest, vec, tally)
                if bad is not None:
                    raise SuiteError(f"{where}: {bad}")
            seen.append(_fingerprint(line))
            yield vec
    if digest.hexdigest() != entry["sha256"]:
        raise SuiteError(f"{path}: its content does not match the manifest's SHA-256 "
                         "(the file was changed or truncated after the suite was generated)")
    if count != declared:
        raise SuiteError(f"{path}: {count:,} vectors, the manifest declares {declared:,}")


_FINGERPRINT_KEY = os.urandom(16)


def _fingerprint(line: bytes) -> int:
    """64 bits of a line's keyed BLAKE2 digest: with a key drawn per process, no file can
    be made to collide with the one checked."""
    return int.from_bytes(hashlib.blake2b(line, digest_size=8, key=_FINGERPRINT_KEY).digest(), "big", signed=True)


def check_suite(directory: str | Path, manifest: dict[str, Any], categories: Iterable[str],
                variant: Variant | None = None, limits: Limits | None = None) -> Tally:
    """Read every vector of ``categories`` once, keeping none: the whole suite is checked
    (and refused with the file and line of its first problem) before an engine is asked
    anything. The manifest's declared counts are checked against the limit first, so an
    oversized suite is refused before a line is read."""
    tally = Tally(limits or Limits())
    chosen = [c for c in categories if c in manifest["files"]]
    declared = sum(int(manifest["files"][c]["vectors"]) for c in chosen)
    if declared > tally.limits.max_vectors:
        raise SuiteError(f"{Path(directory) / 'manifest.json'}: files: the suite declares {declared:,} vectors "
                         f"({', '.join(chosen)}), more than the limit of {tally.limits.max_vectors:,} of a run "
                         "(--max-vectors raises it)")
    v = variant if variant is not None else suite_variant(manifest)
    for category in chosen:
        for _ in iter_vectors(directory, manifest, category, v, tally):
            pass
    return tally


def read_vectors(directory: str | Path, manifest: dict[str, Any], category: str,
                 variant: Variant | None = None, limits: Limits | None = None) -> list[dict[str, Any]]:
    """A category's vectors as a list, checked as :func:`iter_vectors` checks them."""
    return list(iter_vectors(directory, manifest, category, variant, Tally(limits or Limits())))


def suite_variant(manifest: dict[str, Any]) -> Variant:
    """The variant a suite was generated from, compiled from the spec it carries."""
    from ddzrules.rules.compiler import compile_spec
    from ddzrules.spec import spec_from_data

    spec = spec_from_data(manifest["spec_resolved"], f"manifest.json ({escaped(str(manifest.get('spec')))[:200]})")
    if spec.content_hash != manifest.get("spec_hash"):
        raise SuiteError("manifest.json: the resolved spec does not match its spec_hash "
                         "(the manifest was edited)")
    return Variant(spec, compile_spec(spec))
