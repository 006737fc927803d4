"""The game log told against the game it tells (issue 43): every hand the log shows is
the hand held at that moment (the first deal's and each redeal's), every play it prints
is in the hand that plays it, and the plays are the record's. Played through the command
line (``play --auto --record``), so the lines checked are the lines a person reads."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzrules import cards as C
from ddzrules.cli import main
from ddzrules.game.narration import Before, step_lines
from ddzrules.records import replay
from ddzrules.spec import bundled_names, load_spec

#: every playable bundled spec: redeals (叫分 with every seat passing), wild ranks drawn
#: before and after the landlord, a hidden kitty, cards left undealt, no landlord at all
SPECS = [name for name in bundled_names() if load_spec(name).data.get("game")]
#: seed 77 is the issue's (hubei-3p redeals at once); the heuristic bot passes a weak hand
SEEDS = [*range(12), 77]

HAND = re.compile(r"^seat (\d+) \((random|heuristic)\): (\S*)$")
PLAY = re.compile(r"^seat (\d+)(?: \([^)]*\))?: (\S+)  \[")
LANDLORD = re.compile(r"^landlord: seat (\d+)\b.*kitty 底牌 (\S*)$")


def take(hand: list[int], cards: str) -> bool:
    """Remove ``cards`` from ``hand`` (counts); False when the hand cannot hold them."""
    for r in C.parse_ranks(cards):
        if hand[r] == 0:
            return False
        hand[r] -= 1
    return True


def told(spec: str, seed: int, tmp_path: Path) -> tuple[list[str], dict]:
    path = tmp_path / f"{spec.replace('/', '-')}-{seed}.json"
    bots = "heuristic,random,random" if seed % 2 else "random"
    result = CliRunner().invoke(main, ["play", spec, "--auto", "--seed", str(seed), "--bots", bots,
                                       "--record", str(path)], terminal_width=400)
    assert result.exit_code == 0, result.output
    return result.output.splitlines(), json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("spec", SPECS)
def test_every_narrated_line_matches_the_game(spec: str, tmp_path: Path) -> None:
    redealt = 0
    for seed in SEEDS:
        lines, record = told(spec, seed, tmp_path)
        players = len(record["deals"][0]["hands"])
        game = replay(record, check_disk=False).game
        blocks: list[list[str]] = []
        hands: list[list[int]] = []
        plays: list[tuple[int, str]] = []
        for line in lines:
            if m := HAND.match(line):
                seat = int(m[1])
                if seat == 0:
                    blocks.append([])
                    hands = []
                blocks[-1].append(m[3])
                hands.append(C.counts_of(C.parse_ranks(m[3])))
            elif m := LANDLORD.match(line):
                if m[2] != "(hidden)":
                    for r in C.parse_ranks(m[2]):
                        hands[int(m[1])][r] += 1
            elif m := PLAY.match(line):
                seat, cards = int(m[1]), m[2]
                assert take(hands[seat], cards), (
                    f"{spec} seed {seed}: '{line}' is not in the hand the log shows for seat {seat}")
                plays.append((seat, cards))
        # the hands shown are the hands dealt, one block a deal (the first and each redeal's)
        assert blocks == [d["hands"] for d in record["deals"]], f"{spec} seed {seed}"
        redealt += len(blocks) - 1
        # the plays told are the record's, and what is left is what each seat still holds
        assert plays == [(a["seat"], a["value"]) for a in record["actions"] if a["kind"] == "play"]
        assert [C.counts_to_string(h) for h in hands] == [game.hand_string(s) for s in range(players)]
    if spec in ("hubei-3p", "jiaofen"):  # 叫分: some deal is passed by all and redealt
        assert redealt > 0


def test_step_lines_tell_the_new_deal_after_a_redeal() -> None:
    """The seed of the issue: the hands told after '— every player passed: redeal —' are
    the new deal's, and the first play is in the hand that plays it."""
    from ddzrules.runtime import GameRules

    rules = GameRules.load("hubei-3p")
    for seed in range(200):
        game = rules.new_game(seed)
        lines: list[str] = []
        for _ in range(3):
            action = next(a for a in game.legal_actions() if a.kind == "pass")
            before = Before.of(game)
            game.apply(action)
            lines = step_lines(game, action, before, labels=["bot"] * 3)
        if game.deal_number == 0:
            continue
        assert lines[1] == "— every player passed: redeal —"
        assert lines[2:5] == [f"seat {s} (bot): {game.hand_string(s)}" for s in range(3)]
        return
    pytest.fail("no seed redealt")


@pytest.mark.parametrize("spec", ["hubei-3p", "hubei-4p-2deck", "paodekuai", "faceup-3p"])
def test_the_log_says_why_a_seat_leads_first(spec: str, tmp_path: Path) -> None:
    """At a landlord table too (it said nothing there): one line, once the tricks begin,
    naming the seat the game starts the tricks with and the reason."""
    for seed in range(3):
        lines, record = told(spec, seed, tmp_path)
        said = [line for line in lines if " leads first (" in line]
        assert len(said) == 1, lines
        game = replay(record, check_disk=False).game
        assert said[0].startswith(f"seat {game.first_leader} ")
        if game.landlord is not None and game.first_leader == game.landlord:
            assert said[0].endswith("(the landlord leads the first trick)")
        # before the first play, after the landlord's line
        first_play = next(i for i, line in enumerate(lines) if PLAY.match(line))
        assert lines.index(said[0]) < first_play
