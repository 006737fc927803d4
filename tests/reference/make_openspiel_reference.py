"""Write ``openspiel_actions.txt``: every play action of OpenSpiel's ``dou_dizhu``, in id order.

Run ``python tests/reference/make_openspiel_reference.py`` (needs ``pip install
open-spiel``). The file is reference data for ``compat/openspiel``: it is committed so
that the profile's tests can check set equality without OpenSpiel installed, and this
script is committed so that anyone can regenerate it and see how it was made.

OpenSpiel's Python bindings expose no Dou Dizhu utilities, only the game; so the cards
of each action come from ``state.action_to_string``, which names a play's cards with
ranks ``3…A2``, ``(BWJ)`` for the small joker and ``(CJ)`` for the big one, and writes an
airplane with wings as its chain, ``-``, its wings (``333444-56``). The family of an
action is read from those cards alone, never from a hard-coded id range, and the
script then checks that each family is one block of ids in the order
``dou_dizhu_utils.h`` declares them, so the file also documents the id layout.

Line format (tab-separated, ``#`` lines are comments)::

    id    canonical cards    OpenSpiel family    OpenSpiel action string
"""

from __future__ import annotations

import sys
from collections import Counter
from importlib import metadata
from pathlib import Path

import pyspiel

RANKS = "3456789TJQKA2XD"  # ddzrules' canonical order: T ten, X small joker, D big joker
OUT = Path(__file__).with_name("openspiel_actions.txt")
#: the play families in the order of their id blocks (dou_dizhu_utils.h: kSolo...,
#: kSoloChainActionBase, kPairActionBase, ... kRocketActionBase)
FAMILY_ORDER = ("solo", "solo_chain", "pair", "pair_chain", "trio", "trio_with_solo",
                "trio_with_pair", "airplane", "airplane_with_solo", "airplane_with_pair",
                "bomb", "rocket")


def canonical(text: str) -> str:
    """OpenSpiel's card string in ddzrules' notation: one character a card, sorted."""
    text = text.replace("(BWJ)", "X").replace("(CJ)", "D").replace("-", "")
    return "".join(sorted(text, key=RANKS.index))


def family(text: str) -> str:
    """The OpenSpiel family of a play, from its action string alone."""
    cards = canonical(text)
    counts = Counter(cards)
    shape = sorted(counts.values(), reverse=True)
    if "-" in text:  # an airplane with wings: the chain, then its wings
        chain_len = len(text.split("-")[0].replace("(BWJ)", "X").replace("(CJ)", "D")) // 3
        wings = canonical(text.split("-")[1])
        if len(wings) == chain_len:
            return "airplane_with_solo"
        if len(wings) == 2 * chain_len:
            return "airplane_with_pair"
        raise ValueError(f"unexpected airplane {text}")
    ranks = sorted(RANKS.index(c) for c in counts)
    consecutive = ranks == list(range(ranks[0], ranks[0] + len(ranks))) and ranks[-1] <= RANKS.index("A")
    if cards == "XD":
        return "rocket"
    if len(counts) == 1:
        return {1: "solo", 2: "pair", 3: "trio", 4: "bomb"}[shape[0]]
    if shape == [3, 1]:
        return "trio_with_solo"
    if shape == [3, 2]:
        return "trio_with_pair"
    if consecutive and set(shape) == {1} and len(ranks) >= 5:
        return "solo_chain"
    if consecutive and set(shape) == {2} and len(ranks) >= 3:
        return "pair_chain"
    if consecutive and set(shape) == {3} and len(ranks) >= 2:
        return "airplane"
    raise ValueError(f"unexpected play {text}")


def main() -> int:
    game = pyspiel.load_game("dou_dizhu")
    state = game.new_initial_state()
    names = {a: state.action_to_string(0, a) for a in range(game.num_distinct_actions())}
    non_plays = {a: t for a, t in names.items() if t == "Pass" or t.startswith("Bid ")}
    rows = []
    for a, text in names.items():
        if a in non_plays:
            continue
        rows.append((a, canonical(text), family(text), text))
    # each family is one block of ids, in the declared order
    blocks = [f for i, (_, _, f, _) in enumerate(rows) if i == 0 or rows[i - 1][2] != f]
    if tuple(blocks) != FAMILY_ORDER:
        raise SystemExit(f"unexpected id layout: {blocks}")
    per_family = Counter(f for _, _, f, _ in rows)
    per_cards = Counter(c for _, c, _, _ in rows)
    lines = [
        (f"# OpenSpiel {metadata.version('open_spiel')} dou_dizhu: every play action "
         "(not pass, not bids, not chance outcomes), in id order."),
        "# Made by tests/reference/make_openspiel_reference.py; see tests/reference/README.md.",
        ("# columns: id, canonical cards (3456789TJQKA2XD, T ten, X small joker, D big joker), "
         "OpenSpiel family, OpenSpiel action string"),
        "# non-play ids: " + ", ".join(f"{a} {t}" for a, t in sorted(non_plays.items())),
        (f"# {len(rows)} play actions over {len(per_cards)} distinct card sets "
         f"({sum(1 for n in per_cards.values() if n == 2)} card sets with 2 actions, "
         f"{sum(1 for n in per_cards.values() if n == 3)} with 3)"),
        "# per family: " + ", ".join(f"{f} {per_family[f]}" for f in FAMILY_ORDER),
    ]
    lines += [f"{a}\t{cards}\t{fam}\t{text}" for a, cards, fam, text in rows]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.name}: {len(rows)} play actions, {len(per_cards)} card sets")
    for f in FAMILY_ORDER:
        print(f"  {f:<20} {per_family[f]:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
