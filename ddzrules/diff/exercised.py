"""What differs between two rule sets, and whether the paired games exercised it.

A figure from simulated games says which bots played it and which of the rules that
differ the games actually exercised. :func:`differences` turns the rules section of a
diff into one entry a difference — a combo added, removed or changed, a ``game:``
plugin (a phase) added, removed or with other parameters, a deck or deal parameter, the
bomb order, the wildcards — and :func:`exercise` measures each against the games:

* a combo: its plays a game under each rule set that has it, and its *chances* (the
  decisions a game where a play of it was among the choices, :func:`~ddzrules.simulate.play_game`);
* every difference: the paired games that went otherwise under the two rule sets. A pair
  of games that went alike, deal for deal and action for action, is a game where the
  difference changed nothing any bot did (a kitty shown to bots that never read it): when
  every pair went alike, every figure's difference is 0 and the games cannot test the rule.

A difference the games did not exercise (never played, rarely played, or no game that went
otherwise) gets a warning; :func:`summary` says in plain words what the games measured.
"""

from __future__ import annotations

import math
from typing import Any

from ddzrules.simulate import FIGURES, RARELY_PLAYED, Figure, significant

#: the figures a club reads first, in this order, when they measurably change
_HEADLINE = ("landlord_won", "bombs", "rockets", "spring", "multiple", "landlord_score", "plays")
#: figures counted a game (the others are a game's value or a share of games)
_COUNTS = {"bombs", "rockets", "plays", "redeals", "bids", "robs", "bombs_dealt"}
#: the most differences a summary names one by one
_NAMED = 3


def _combo_name(what: str) -> str:
    """The combo a row of the combos section is about (``bomb.compare``, ``straight chain
    lengths``)."""
    return what.split(".", 1)[0].split(" ", 1)[0]


def differences(rules: list[dict[str, Any]], renamed: dict[str, str],
                zh: dict[str, str]) -> list[dict[str, Any]]:
    """One entry per difference of the rules rows (documentation and readings aside; a
    combo renamed alone is no difference): ``kind`` (combo, game, parameter, bombs,
    wildcards), ``what``, ``change`` (added, removed, changed), ``a`` and ``b`` (the
    combo's name on each side, or the values), ``rows`` (the rule rows it gathers)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rules:
        section = row["section"]
        if section in ("metadata", "readings") or row["change"] == "renamed":
            continue
        if section == "combos":
            name = _combo_name(row["what"])
            key = ("combo", name)
            whole = row["what"] == name and row["change"] in ("added", "removed")
            e = out.setdefault(key, {"kind": "combo", "what": name, "zh": zh.get(name),
                                     "change": row["change"] if whole else "changed",
                                     "a": None if whole and row["change"] == "added" else name,
                                     "b": None if whole and row["change"] == "removed"
                                     else renamed.get(name, name), "rows": []})
        elif section == "game":
            role, _, rest = row["what"].partition(": ")
            plugin = rest.split(" ", 1)[0]
            whole = rest == plugin
            e = out.setdefault(("game", f"{role}: {plugin}"), {
                "kind": "game", "what": f"{role}: {plugin}", "zh": None,
                "change": row["change"] if whole else "changed", "a": row["a"] if whole else None,
                "b": row["b"] if whole else None, "rows": []})
        elif section == "deck and deal":
            e = out.setdefault(("parameter", row["what"]), {
                "kind": "parameter", "what": row["what"], "zh": None, "change": row["change"],
                "a": row["a"], "b": row["b"], "rows": []})
        else:  # bombs (their order), wildcards
            e = out.setdefault((section, section), {"kind": section, "what": section, "zh": None,
                                                    "change": "changed", "a": None, "b": None, "rows": []})
        e["rows"].append(row["what"])
    return list(out.values())


def _per_game(run: dict[str, Any], field: str, name: str | None) -> float | None:
    """A combo's plays (``plays_by_combo``) or chances (``chances_by_combo``) a game in
    one rule set's games; None when the rule set has no such combo."""
    if name is None:
        return None
    if field == "plays_by_combo":
        e = run.get("plays_by_combo", {}).get(name)
        return None if e is None else float(e["mean"])
    if name not in run.get("plays_by_combo", {}):
        return None
    return float(run.get("chances_by_combo", {}).get(name, 0.0))


def exercise(diffs: list[dict[str, Any]], games: dict[str, Any]) -> list[str]:
    """Measure each difference against a :func:`~ddzrules.simulate.compare_specs` result of
    the two rule sets (adds ``exercised`` and ``warning`` to each entry, and to a combo
    its plays and chances a game under each); the warnings, one a difference the games did
    not exercise."""
    ra, rb = games["specs"][0], games["specs"][1]
    comp = games["comparisons"][0]
    n = int(games["games"])
    alike = comp.get("games_alike")
    bots = ",".join(games["bots"])
    warnings: list[str] = []
    for e in diffs:
        e["games_otherwise"] = None if alike is None else n - alike
        label = describe(e)
        warning = None
        if e["kind"] == "combo":
            pa, pb = _per_game(ra, "plays_by_combo", e["a"]), _per_game(rb, "plays_by_combo", e["b"])
            e["plays_a"], e["plays_b"] = pa, pb
            e["chances_a"] = _per_game(ra, "chances_by_combo", e["a"])
            e["chances_b"] = _per_game(rb, "chances_by_combo", e["b"])
            played = (pa or 0.0) + (pb or 0.0)
            e["exercised"] = played >= RARELY_PLAYED and alike != n
            if played == 0:
                warning = (f"{label}: never played by {bots} in these {n} games (it was among the "
                           f"choices {_chances(e)}): the games do not test it")
            elif played < RARELY_PLAYED:
                warning = (f"{label}: rarely played by {bots} ({significant(played)} a game, under "
                           f"{RARELY_PLAYED:g}): the games barely test it")
        else:
            # a rule the bots may ignore: whether any game went otherwise says if they acted on it
            e["exercised"] = alike is None or alike < n
        if warning is None and alike == n:
            warning = (f"{label}: all {n} paired games went alike under both rule sets, action for "
                       f"action: {bots} never acted on it (a bot that does not read it), so these "
                       "games cannot test it and every difference of the figures is 0")
        e["warning"] = warning
        if warning is not None:
            warnings.append(warning)
    return warnings


def _chances(e: dict[str, Any]) -> str:
    parts = [f"{significant(x, 2)} times a game" for x in (e.get("chances_a"), e.get("chances_b"))
             if x is not None]
    return " and ".join(parts) if parts else "at no decision"  # (not a combo of either: unreachable)


def describe(e: dict[str, Any]) -> str:
    """A difference in words: ``removing 四带二 (four_with_two)``, ``deal.kitty_shown True
    instead of False``."""
    if e["kind"] == "combo":
        name = f"{e['zh']} ({e['what']})" if e.get("zh") else e["what"]
        verb = {"added": "adding", "removed": "removing"}.get(e["change"], "changing")
        return f"{verb} {name}"
    if e["kind"] == "game":
        verb = {"added": "adding", "removed": "removing"}.get(e["change"], "changing")
        return f"{verb} the {e['what']} plugin" if e["change"] != "changed" else f"changing {e['what']}"
    if e["kind"] == "parameter":
        return f"{e['what']} {_short(e['b'])} instead of {_short(e['a'])}"
    return f"changing the {e['what']}"


def _short(value: Any) -> str:
    text = "—" if value is None else value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def _measured(fig: Figure, e: dict[str, Any] | None) -> str | None:
    """``the bombs a game by +0.09`` when the interval of the difference (paired where the
    games are paired) leaves out 0; None when the difference is not measurable."""
    if e is None or e.get("difference") is None:
        return None
    iv = e["paired"] if e.get("paired") is not None else e["unpaired"]
    low, high = iv.get("low"), iv.get("high")
    if low is None or high is None or low <= 0 <= high:
        return None
    x = float(e["difference"])
    if not math.isfinite(x):
        return None
    if fig.kind == "proportion":
        return f"the {fig.label} by {significant(100 * x, 2, sign=True)} percentage points"
    return f"the {fig.label}{' a game' if fig.name in _COUNTS else ''} by {significant(x, 2, sign=True)}"


def summary(diffs: list[dict[str, Any]], games: dict[str, Any]) -> str:
    """What the games say, in plain words a club could read: with which bots, which
    differences, which figures measurably change (their interval leaves out 0) and
    whether the landlord's win rate does."""
    n = games["games"]
    bots = ", ".join(games["bots"])
    comp = games["comparisons"][0]
    named = [describe(e) for e in diffs[:_NAMED]]
    rest = len(diffs) - len(named)
    what = ", ".join(named[:-1]) + (" and " if len(named) > 1 else "") + named[-1] if named else "the difference"
    if rest:
        what += f" (and {rest} more difference{'s' if rest > 1 else ''})"
    head = f"With these bots ({bots}; {n} games, seed {games['seed']}), {what}"
    if comp.get("games_alike") == n:
        return (f"{head} changes nothing: every game went alike under both rule sets, so these games "
                "cannot say what the difference does; other bots, or a bot that reads the rule, might.")
    figures = comp["figures"]
    order = [f for name in _HEADLINE for f in FIGURES if f.name == name] + \
        [f for f in FIGURES if f.name not in _HEADLINE]
    changes = [m for f in order if (m := _measured(f, figures.get(f.name))) is not None]
    lw = next(f for f in FIGURES if f.name == "landlord_won")
    paired = "" if comp.get("paired") else " (unpaired: the deals differ)"
    if not changes:
        text = f"{head} changes no figure measurably{paired}"
    else:
        text = f"{head} changes {'; '.join(changes[:4])}{paired}"
    if figures.get("landlord_won") is not None and _measured(lw, figures.get("landlord_won")) is None:
        text += "; the landlord's win rate does not measurably change"
    return text + "."
