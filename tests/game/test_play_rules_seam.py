"""The play-rules seam (ddzrules.game.face.PlayRules): toy play rules of the test's own
("one card per trick, the highest rank wins it, the most tricks win the game"), named by
a spec, play whole games through the same runtime; the bundled specs play climbing."""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import pytest

from ddzrules import cards as C
from ddzrules.bots import make_bot
from ddzrules.errors import PlayError, SpecError
from ddzrules.game.climbing import CLIMBING
from ddzrules.game.game import PLAY_RULES, Game
from ddzrules.game.play import PlayRules
from ddzrules.runtime import Action, GameRules

TOY = """\
name: toy
deck: {decks: 1, jokers: true}
players: 4
deal: {hand: 13, kitty: 0, undealt: 2}
table: {kind: free-for-all}
play: one-card-tricks
combos: {single: "1"}
game:
  settlement: {plugin: win-points, params: {points: 2}}
"""


class OneCardTricks:
    """Each seat in turn plays one card; the highest rank wins the trick (the first played
    of equal ranks) and leads the next; when the hands are empty, most tricks win."""

    name = "one-card-tricks"

    def legal_actions(self, game: Game) -> list[Action]:
        seat = game.turn
        assert seat is not None
        out = []
        for r, count in enumerate(game.hands[seat]):
            if count:
                move = game.variant.classify(C.RANKS[r])[0]
                out.append(Action(seat, "play", move.cards, move))
        return out

    def apply(self, game: Game, action: Action) -> None:
        chosen = next((a for a in self.legal_actions(game) if a.matches(action)), None)
        if chosen is None or chosen.move is None:
            raise PlayError(f"{action} is not one card of seat {game.turn}'s hand")
        seat, move = chosen.seat, chosen.move
        game.hands[seat][C.RANKS.index(move.cards)] -= 1
        game.history.append(chosen)
        game.played[seat].append(move)
        led = game.last_play is None
        if led or move.rank > game.last_play.rank:  # type: ignore[union-attr]
            game.last_play, game.last_seat = move, seat
        game.passes += 1  # here: the cards of the trick so far
        next_seat = game.next_seat(seat)
        if game.passes == game.players:  # the trick is complete: its winner leads
            tricks = game.public.setdefault("tricks", [0] * game.players)
            assert game.last_seat is not None
            tricks[game.last_seat] += 1
            next_seat = game.last_seat
            game.last_play, game.passes = None, 0
        game.after_play(seat, move, led, next_seat)

    def winner_after(self, game: Game, seat: int) -> int | None:
        if any(map(any, game.hands)):
            return None
        tricks = game.public["tricks"]
        return max(range(game.players), key=lambda s: (tricks[s], -s))


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GameRules:
    monkeypatch.setitem(PLAY_RULES, "one-card-tricks", OneCardTricks())
    path = tmp_path / "toy.yaml"
    path.write_text(TOY, encoding="utf-8")
    return GameRules.load(str(path))


def test_toy_play_rules_play_whole_games(toy: GameRules) -> None:
    rules: PlayRules = toy.play_rules
    assert isinstance(rules, OneCardTricks)
    winners = set()
    for seed in range(10):
        game = toy.new_game(seed)
        assert game.phase == "play"
        agents = [make_bot("random", seed * 4 + s) for s in range(4)]
        steps = 0
        while not game.over:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions()
            assert legal and all(a.kind == "play" and len(a.value) == 1 for a in legal)
            game.apply(agents[seat].act(game.view(seat), legal))
            steps += 1
        tricks = game.public["tricks"]
        assert steps == 52 and sum(tricks) == 13 and not any(map(any, game.hands))
        assert game.winner == max(range(4), key=lambda s: (tricks[s], -s))
        assert game.scores == [2 if s == game.winner else 0 for s in range(4)]
        winners.add(game.winner)
        # copies and pickles go on as the game does
        assert copy.deepcopy(game).scores == pickle.loads(pickle.dumps(game)).scores == game.scores
    assert len(winners) > 1


def test_the_trick_goes_to_the_highest_card(toy: GameRules) -> None:
    game = toy.new_game(seed=4)
    first = game.turn
    assert first is not None
    ranks = []
    for _ in range(4):
        seat = game.to_act
        action = game.legal_actions()[0]  # each seat's lowest card
        ranks.append((action.move.rank, seat))  # type: ignore[union-attr]
        game.apply(action)
    best = max(ranks, key=lambda x: x[0])
    assert game.public["tricks"][best[1]] == 1 and game.to_act == best[1] and game.last_play is None
    with pytest.raises(PlayError, match="not one card"):
        game.apply(Action(best[1], "play", "??"))


def test_the_choice_is_made_once_when_the_rules_are_made(toy: GameRules,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(PLAY_RULES, "one-card-tricks")  # no game asks the registry again
    game = toy.new_game(seed=2)
    while not game.over:
        game.apply(game.legal_actions()[-1])
    assert game.winner is not None


def test_a_spec_names_known_play_rules_and_climbing_is_the_default(tmp_path: Path) -> None:
    assert GameRules.load("hubei-3p").play_rules is CLIMBING
    assert GameRules.load("paodekuai").play_rules is CLIMBING
    path = tmp_path / "toy.yaml"
    path.write_text(TOY, encoding="utf-8")
    with pytest.raises(SpecError, match="unknown play rules 'one-card-tricks'; known: climbing"):
        GameRules.load(str(path))
    path.write_text(TOY.replace("one-card-tricks", "climbing"), encoding="utf-8")
    game = GameRules.load(str(path)).new_game(seed=1)
    assert game.legal_plays()[0] and not game.legal_plays()[1]  # climbing: a lead, no pass
