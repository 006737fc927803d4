"""Comparing two rule sets: ``ddzrules diff A B``.

Sections, from the data up to the games:

* **rules** — the resolved specs compared semantically: deck and deal, combos
  added, removed, renamed or changed (pattern, chain limits, comparison keys),
  bomb classes and their order, the ``game:`` plugins and their parameters,
  wildcards, and the ``readings:``;
* **plays** — card sets that are plays under one rule set and not the other, per
  combo, and card sets both allow but read differently (another main rank, chain
  length, or bomb or not: combo names alone may differ between specs without
  changing a rule), with the smallest witnesses;
* **comparisons** — pairs of plays (both rule sets allow them) where one says the
  first beats the second and the other does not, counted exactly from the
  structure of the tables: plays are grouped by their readings' families and
  comparison keys under both rule sets, and one representative pair per pair of
  groups decides for all of them;
* **hands** — the share of random hands whose leads, or answers, differ;
* **games** — paired simulation (:func:`ddzrules.simulate.compare_specs`);
* **differences** — first of the report: each combo, phase (a ``game:`` plugin) or
  parameter that differs, how often the games exercised it, a warning when they did not,
  and a summary in plain words (:mod:`ddzrules.diff.exercised`).

>>> d = diff_specs(load_variant("hubei-3p"), load_variant("hubei-3p"))
>>> d.same, d.plays["only_a"], d.comparisons["pairs"]
(True, 0, 0)
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ddzrules import cards as C
from ddzrules.diff.exercised import differences, exercise, summary
from ddzrules.rules.moves import Move
from ddzrules.rules.variant import Variant, load_variant

#: keys that document a spec without changing its rules (shown, but not a difference)
METADATA = ("name", "title", "region", "source", "readings", "description")


@dataclass
class Diff:
    a: str
    b: str
    rules: list[dict[str, Any]]  # {section, what, a, b, change}
    plays: dict[str, Any]
    comparisons: dict[str, Any]
    hands: dict[str, Any] | None = None
    games: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    #: every play only one rule set has (the JSON gives counts and witnesses)
    only_a_plays: frozenset[str] = frozenset()
    only_b_plays: frozenset[str] = frozenset()
    #: each difference of the rules, measured against the games when there are some
    differences: list[dict[str, Any]] = field(default_factory=list)
    #: the differences the games did not exercise, one warning each
    warnings: list[str] = field(default_factory=list)
    #: what the games say, in plain words (None without games, or without a difference)
    summary: str | None = None

    @property
    def same(self) -> bool:
        """No difference in the rules (documentation aside), the plays or the comparisons."""
        return not any(r["section"] not in ("metadata", "readings") for r in self.rules) \
            and self.plays["only_a"] == 0 and self.plays["only_b"] == 0 \
            and self.plays["read_differently"] == 0 and self.comparisons["pairs"] == 0

    @property
    def differing_combos(self) -> frozenset[str]:
        """The names, in either rule set, of the combos that differ: the games' never- and
        rarely-played flags are of these (the others' play says nothing of the difference)."""
        return frozenset(n for e in self.differences if e["kind"] == "combo" for n in (e["a"], e["b"]) if n)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "same": self.same, "rules": self.rules, "plays": self.plays,
                "comparisons": self.comparisons, "hands": self.hands, "games": self.games,
                "notes": self.notes, "differences": self.differences, "warnings": self.warnings,
                "summary": self.summary}


# ====================================================================== rules


def _change(section: str, what: str, a: Any, b: Any) -> dict[str, Any]:
    kind = "added" if a is None else "removed" if b is None else "changed"
    return {"section": section, "what": what, "a": a, "b": b, "change": kind}


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested data as dotted paths to leaves (lists kept whole: their order matters)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(_flat(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: value}


def _chain_limits(v: Variant) -> dict[str, dict[str, Any]]:
    """Per combo, what the compiler derived: card counts, chain lengths and ranks."""
    out: dict[str, dict[str, Any]] = {}
    for s in v.rules.shapes:
        name = v.rules.combos[s.combo].name
        d = out.setdefault(name, {"lengths": set(), "ranks": set()})
        if s.kind == "chain":
            d["lengths"].update(range(s.min_len, s.max_len + 1))
            d["ranks"].update(s.ranks)
    return {k: {"chain_lengths": _span(d["lengths"]), "chain_ranks": _rank_span(d["ranks"])}
            for k, d in out.items() if d["lengths"]}


def _span(xs: set[int]) -> str:
    return f"{min(xs)}..{max(xs)}" if xs else "-"


def _rank_span(rs: set[int]) -> str:
    return f"{C.RANKS[min(rs)]}..{C.RANKS[max(rs)]}" if rs else "-"


# over the complexity bound on purpose: one comparison per kind of spec key, read whole
def rules_diff(a: Variant, b: Variant, renamed: dict[str, str]) -> list[dict[str, Any]]:  # noqa: C901
    da, db = a.spec.data, b.spec.data
    out: list[dict[str, Any]] = []
    for key in ("title", "region", "source"):
        if da.get(key) != db.get(key):
            out.append(_change("metadata", key, da.get(key), db.get(key)))
    for key in ("deck", "players", "direction", "deal", "chain_ranks"):
        fa, fb = _flat(da.get(key), key), _flat(db.get(key), key)
        for path in sorted(set(fa) | set(fb)):
            if fa.get(path) != fb.get(path):
                out.append(_change("deck and deal", path, fa.get(path), fb.get(path)))
    ca, cb = da.get("combos", {}), db.get("combos", {})
    back = {v: k for k, v in renamed.items()}
    la, lb = _chain_limits(a), _chain_limits(b)
    for name in list(ca) + [n for n in cb if n not in ca]:
        if name in ca and name not in cb and name in renamed:
            out.append({"section": "combos", "what": name, "a": name, "b": renamed[name],
                        "change": "renamed"})
            other = renamed[name]
        elif name in cb and name not in ca and name in back:
            continue  # reported with its old name
        elif name not in cb:
            out.append(_change("combos", name, ca[name].get("pattern"), None))
            continue
        elif name not in ca:
            out.append(_change("combos", name, None, cb[name].get("pattern")))
            continue
        else:
            other = name
        for key in sorted(set(ca[name]) | set(cb[other])):
            if key in ("zh", "description"):
                continue
            if ca[name].get(key) != cb[other].get(key):
                out.append(_change("combos", f"{name}.{key}", ca[name].get(key), cb[other].get(key)))
        if la.get(name) != lb.get(other):
            for key in ("chain_lengths", "chain_ranks"):
                x, y = la.get(name, {}).get(key), lb.get(other, {}).get(key)
                if x != y:
                    out.append(_change("combos", f"{name} {key.replace('_', ' ')}", x, y))
    bombs_a = [renamed.get(x, x) for x in da.get("bombs", [])]
    if bombs_a != db.get("bombs", []):
        out.append(_change("bombs", "bomb classes, lowest first", da.get("bombs"), db.get("bombs")))
    ga, gb = da.get("game") or {}, db.get("game") or {}
    for role in sorted(set(ga) | set(gb)):
        ea, eb = _plugins(ga.get(role)), _plugins(gb.get(role))
        for plugin in list(ea) + [p for p in eb if p not in ea]:
            if plugin not in eb:
                out.append(_change("game", f"{role}: {plugin}", ea[plugin], None))
            elif plugin not in ea:
                out.append(_change("game", f"{role}: {plugin}", None, eb[plugin]))
            else:
                fa, fb = _flat(ea[plugin]), _flat(eb[plugin])
                for path in sorted(set(fa) | set(fb)):
                    if fa.get(path) != fb.get(path):
                        out.append(_change("game", f"{role}: {plugin} {path}", fa.get(path), fb.get(path)))
    fa, fb = _flat(da.get("wildcards"), "wildcards"), _flat(db.get("wildcards"), "wildcards")
    for path in sorted(set(fa) | set(fb)):
        if fa.get(path) != fb.get(path):
            out.append(_change("wildcards", path, fa.get(path), fb.get(path)))
    ra, rb = da.get("readings") or {}, db.get("readings") or {}
    for rid in list(ra) + [r for r in rb if r not in ra]:
        if ra.get(rid) != rb.get(rid):
            out.append(_change("readings", rid, ra.get(rid), rb.get(rid)))
    return out


def _plugins(entry: Any) -> dict[str, Any]:
    entries = entry if isinstance(entry, list) else [entry] if entry else []
    return {e["plugin"]: e.get("params", {}) for e in entries if isinstance(e, dict) and "plugin" in e}


# ====================================================================== plays


def _order(cards: str) -> tuple[int, str]:
    return (len(cards), "".join(chr(65 + C.RANK_INDEX[c]) for c in cards))


def _smallest(xs: Iterable[str], n: int) -> list[str]:
    return sorted(xs, key=_order)[:n]


def _renames(a: Variant, b: Variant, ta: dict[str, tuple[Move, ...]],
             tb: dict[str, tuple[Move, ...]]) -> dict[str, str]:
    """Combos of A that B has under another name: the same card sets, read alike."""
    sets_a: dict[str, set[str]] = defaultdict(set)
    sets_b: dict[str, set[str]] = defaultdict(set)
    for cards, ms in ta.items():
        for m in ms:
            sets_a[m.combo].add(cards)
    for cards, ms in tb.items():
        for m in ms:
            sets_b[m.combo].add(cards)
    out: dict[str, str] = {}
    by_content = {frozenset(s): name for name, s in sets_b.items()}
    for name, s in sets_a.items():
        match = by_content.get(frozenset(s))
        if match is not None and match != name and name not in sets_b:
            out[name] = match
    return out


def plays_diff(ta: dict[str, tuple[Move, ...]], tb: dict[str, tuple[Move, ...]],
               renamed: dict[str, str], witnesses: int) -> dict[str, Any]:
    only_a = set(ta) - set(tb)
    only_b = set(tb) - set(ta)
    per_combo: dict[str, dict[str, Any]] = {}

    def tally(side: str, plays: set[str], table: dict[str, tuple[Move, ...]]) -> None:
        groups: dict[str, list[str]] = defaultdict(list)
        for cards in plays:
            for combo in sorted({m.combo for m in table[cards]}):
                groups[combo].append(cards)
        for combo, cs in groups.items():
            d = per_combo.setdefault(combo, {"combo": combo, "only_a": 0, "only_b": 0,
                                             "witnesses_a": [], "witnesses_b": []})
            d[f"only_{side}"] = len(cs)
            d[f"witnesses_{side}"] = _smallest(cs, witnesses)

    tally("a", only_a, ta)
    tally("b", only_b, tb)

    def sig(ms: tuple[Move, ...]) -> tuple[tuple[str, int, bool], ...]:
        # what a reading means in play — its main rank, chain length and whether it is a
        # bomb; combo names differ between specs without changing the rules
        return tuple(sorted({(m.rank_name, m.length, m.is_bomb) for m in ms}))

    differently: dict[tuple[str, str], list[str]] = defaultdict(list)
    for cards in set(ta) & set(tb):
        if sig(ta[cards]) != sig(tb[cards]):
            differently[(" + ".join(sorted({m.combo for m in ta[cards]})),
                         " + ".join(sorted({m.combo for m in tb[cards]})))].append(cards)
    read_differently = [{"a": ka, "b": kb, "count": len(cs), "witnesses": [
        {"cards": c, "a": [m.to_dict() for m in ta[c]], "b": [m.to_dict() for m in tb[c]]}
        for c in _smallest(cs, witnesses)]} for (ka, kb), cs in sorted(differently.items())]
    return {
        "universe_a": len(ta), "universe_b": len(tb), "only_a": len(only_a), "only_b": len(only_b),
        "read_differently": sum(len(cs) for cs in differently.values()),
        "per_combo": [per_combo[k] for k in sorted(per_combo)],
        "differently": read_differently,
        "renamed": renamed,
    }


# ====================================================================== comparisons


def _beats_any(xs: tuple[Move, ...], ys: tuple[Move, ...]) -> bool:
    return any(x.beats(y) for x in xs for y in ys)


def comparisons_diff(ta: dict[str, tuple[Move, ...]], tb: dict[str, tuple[Move, ...]],
                     witnesses: int) -> dict[str, Any]:
    """Pairs (x, y) of plays both rule sets allow where "x may be played on y" differs.

    Whether x beats y (under any of their readings) depends only on each play's
    readings' families and comparison keys; plays sharing those under both rule sets
    (a *bucket*) behave alike, so one representative pair per pair of buckets decides
    for ``len(b1) * len(b2)`` pairs. Only bucket pairs where some rule set can say
    "beats" are visited: the same family, or a bomb on the left.
    """
    common = sorted(set(ta) & set(tb), key=_order)

    def fams(ms: tuple[Move, ...]) -> tuple[str, ...]:
        return tuple(sorted({str(m.family) for m in ms}))

    def keys(ms: tuple[Move, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
        return tuple(sorted({(str(m.family), m.key) for m in ms}))

    buckets: dict[tuple[Any, ...], list[str]] = defaultdict(list)
    for cards in common:
        buckets[(fams(ta[cards]), fams(tb[cards]), keys(ta[cards]), keys(tb[cards]))].append(cards)
    by_family: dict[str, list[tuple[Any, ...]]] = defaultdict(list)
    bomb_buckets: list[tuple[Any, ...]] = []
    for bk in buckets:
        families = set(bk[0]) | {f"B:{f}" for f in bk[1]}
        for f in families:
            by_family[f].append(bk)
        if "bomb" in bk[0] or "bomb" in bk[1]:
            bomb_buckets.append(bk)
    pairs: set[tuple[tuple[Any, ...], tuple[Any, ...]]] = set()
    for group in by_family.values():
        for b1 in group:
            for b2 in group:
                pairs.add((b1, b2))
    for b1 in bomb_buckets:
        for b2 in buckets:
            pairs.add((b1, b2))
    found: dict[tuple[str, str, str], dict[str, Any]] = {}
    total = 0
    for b1, b2 in pairs:
        if b1 == b2:  # a play is never compared with itself
            if len(buckets[b1]) < 2:
                continue
            x, y = buckets[b1][0], buckets[b1][1]
            n = len(buckets[b1]) * (len(buckets[b1]) - 1)
        else:
            x, y = buckets[b1][0], buckets[b2][0]
            n = len(buckets[b1]) * len(buckets[b2])
        ra, rb = _beats_any(ta[x], ta[y]), _beats_any(tb[x], tb[y])
        if ra == rb:
            continue
        total += n
        ca = " + ".join(sorted({m.combo for m in ta[x]}))
        cb = " + ".join(sorted({m.combo for m in ta[y]}))
        who = "a" if ra else "b"
        key = (ca, cb, who)
        entry = found.setdefault(key, {"x_combo": ca, "y_combo": cb, "beats_in": who, "pairs": 0,
                                       "witnesses": []})
        entry["pairs"] += n
        entry["witnesses"].append((x, y))
    groups = []
    for key in sorted(found):
        e = found[key]
        ws = sorted(e["witnesses"], key=lambda p: (_order(p[0])[0] + _order(p[1])[0], _order(p[0]),
                                                   _order(p[1])))[:witnesses]
        e["witnesses"] = [{"x": x, "y": y} for x, y in ws]
        groups.append(e)
    return {"pairs": total, "groups": groups, "common_plays": len(common)}


# ====================================================================== hands


def hands_diff(a: Variant, b: Variant, hands: int, seed: int) -> dict[str, Any]:
    """The share of random hands (dealt from A's deck) whose leads, or answers to a
    random play both rule sets allow, differ."""
    from ddzrules.conformance import deal_sizes

    rng = random.Random(seed)
    full = C.deck_list(a.rules.deck)
    _, hand, kitty = deal_sizes(a)
    sizes = sorted({hand, hand + kitty})
    leads_differ = answers_differ = answered = 0
    witness_lead: str | None = None
    witness_answer: dict[str, str] | None = None
    tb = b.plays_by_string
    for i in range(hands):
        deck = list(full)
        rng.shuffle(deck)
        size = sizes[i % len(sizes)]
        h = C.counts_to_string(C.counts_of(deck[:size]))
        la = {m.cards for m in a.legal_moves(h)}
        lb = {m.cards for m in b.legal_moves(h)}
        if la != lb:
            leads_differ += 1
            if witness_lead is None or _order(h) < _order(witness_lead):
                witness_lead = h
        other = C.counts_to_string(C.counts_of(deck[size:2 * size]))
        both = sorted((m.cards for m in a.legal_moves(other) if m.cards in tb), key=_order)
        if not both:
            continue
        after = rng.choice(both)
        answered += 1
        ra, rb = a.legal_moves(h, after=after), b.legal_moves(h, after=after)
        if {m.cards for m in ra} != {m.cards for m in rb} or ra.can_pass != rb.can_pass:
            answers_differ += 1
            if witness_answer is None:
                witness_answer = {"hand": h, "after": after}
    return {"hands": hands, "seed": seed, "leads_differ": leads_differ,
            "leads_differ_share": leads_differ / hands if hands else 0.0,
            "answers_checked": answered, "answers_differ": answers_differ,
            "answers_differ_share": answers_differ / answered if answered else 0.0,
            "witness_lead": witness_lead, "witness_answer": witness_answer}


# ====================================================================== the diff


def diff_specs(a: Variant, b: Variant, hands: int = 0, games: int = 0, seed: int = 1,
               witnesses: int = 5, bots: list[str] | None = None, workers: int | None = 1,
               sources: tuple[str, str] | None = None, backend: str = "local",
               address: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> Diff:
    """Compare two compiled rule sets (see the module docstring for the sections).
    The paired games run where :func:`~ddzrules.simulate.compare_specs` says: ``backend``
    ``"local"`` (``workers`` processes) or ``"ray"`` (``address`` a cluster to join);
    the figures are the same."""
    a.ensure_table()
    b.ensure_table()
    ta, tb = dict(a.plays_by_string), dict(b.plays_by_string)
    renamed = _renames(a, b, ta, tb)
    notes: list[str] = []
    same_deck = list(a.rules.deck) == list(b.rules.deck)
    if not same_deck:
        notes.append(f"the decks differ ({sum(a.rules.deck)} and {sum(b.rules.deck)} cards): plays and "
                     "comparisons are compared over the card sets each deck allows; random hands need the "
                     "same deck and are not dealt")
    rules = rules_diff(a, b, renamed)
    zh = {c.name: c.zh for c in a.spec.rule_spec.combos if c.zh}
    zh.update({c.name: c.zh for c in b.spec.rule_spec.combos if c.zh and c.name not in zh})
    d = Diff(a.name, b.name, rules, plays_diff(ta, tb, renamed, witnesses),
             comparisons_diff(ta, tb, witnesses), notes=notes,
             only_a_plays=frozenset(set(ta) - set(tb)), only_b_plays=frozenset(set(tb) - set(ta)),
             differences=differences(rules, renamed, zh))
    if hands and same_deck:
        d.hands = hands_diff(a, b, hands, seed)
    if games:
        from ddzrules.simulate import compare_specs

        # the simulation loads each spec again, in every worker: by the name or path given
        names = list(sources) if sources else [a.name, b.name]
        d.games = compare_specs(names, games=games, seed=seed,
                                bots=bots or ["heuristic", "random", "random"], workers=workers,
                                backend=backend, address=address, progress=progress)
        comp = d.games["comparisons"][0]
        if not comp["paired"]:
            # the games are still compared: each figure with its unpaired (Welch) interval
            notes.append(f"{comp['reason']}: the games are compared unpaired, each figure with its "
                         "unpaired interval only")
        if d.differences:
            d.warnings = exercise(d.differences, d.games)
            d.summary = summary(d.differences, d.games)
    return d


__all__ = ["Diff", "diff_specs", "load_variant"]
