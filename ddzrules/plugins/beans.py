"""欢乐豆 (bean) settlement with its escape rule, and the 加倍 (doubling) declaration.

Source: seeds/004 (digest E), sections 六、加倍 and 十一、计分规则 / 逃跑计分.

Readings taken where the text is silent or ambiguous (each is repeated where it is
coded):

* **Pairwise.** A score is settled per farmer–landlord pair: the pair's amount is
  ``base × multiple × pair factor × N`` (× ``wild_factor``), the pair factor being
  ``game.pair_factors.get(farmer, 1)`` (加倍, 加棒). The landlord's role factor 2 is
  the sum over his two farmers, so without doubling it is exactly the text's
  ``X = 底分 × 倍数 × 身份系数``.
* **Order.** Claims are rounded to whole beans (half up), then the cap is applied
  (each player's gain or loss, in beans, at most ``cap``; a player with several
  pairs has his total cut and shared in proportion to the claims), then
  insolvency (a loser pays at most what he holds; winners share what was paid in
  proportion to their claims), and only then the house's take.
* **The take.** "每盘游戏结束后，系统将自动回收每位玩家一定数量的欢乐豆": ``A`` is taken from
  every player, winner or loser, *after* the transfers, and never takes a holding
  below 0 ("只扣到0为止"): a loser who paid all he held pays no take.
* **Shares.** Integer shares are made by largest remainder; equal remainders go to
  the lower seat number. Transfers are zero-sum before the take.
* The text's "winners' gains are proportional to what they carry" (胜利玩家身上携带的欢乐豆
  … 成正比) states no formula; no limit from a winner's own holding is applied.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar

from ddzrules import cards as C
from ddzrules.hookspecs import hookimpl
from ddzrules.plugins import Description, times
from ddzrules.runtime import Action, Game

# ====================================================================== helpers


def apportion(total: int, weights: Sequence[int]) -> list[int]:
    """Split ``total`` whole beans in proportion to ``weights`` (largest remainder).

    Ties in the remainder go to the earlier weight. The parts sum to ``total``
    (when some weight is positive) and none exceeds its weight when ``total`` does
    not exceed their sum.

    >>> apportion(10, [1, 1, 1])
    [4, 3, 3]
    >>> apportion(5, [6000, 0, 6000])
    [3, 0, 2]
    """
    whole = sum(weights)
    if whole <= 0 or total <= 0:
        return [0] * len(weights)
    parts: list[int] = []
    rems: list[tuple[int, int]] = []
    for i, w in enumerate(weights):
        q, r = divmod(total * w, whole)
        parts.append(q)
        rems.append((-r, i))
    left = total - sum(parts)
    for _, i in sorted(rems)[:left]:
        parts[i] += 1
    return parts


def round_half_up(x: float) -> int:
    """Whole beans, halves rounded up (``round`` would round them to even)."""
    return math.floor(x + 0.5 + 1e-9)


def holdings_of(game: Game, start: int | None) -> list[int | None]:
    """What each seat holds before the game: the match's holdings, else ``start``
    for every seat (None: unlimited)."""
    held = game.match.holdings
    if held is None:
        return [start] * game.players
    return [held[s] if s < len(held) else start for s in range(game.players)]


def bombs_in_hand(game: Game, seat: int) -> list[str]:
    """The combos of the bomb-class plays a hand could still make, of disjoint cards.

    Every bomb-class play of the hand is listed with ``game.variant.legal_moves``;
    the largest are taken first (so four or more cards of a rank make one bomb and
    the two jokers the rocket), each only if its cards are still free.
    """
    counts = list(game.hands[seat])
    if not any(counts):
        return []
    moves = [m for m in game.variant.legal_moves(C.deck_list(counts), wild=game.wild).moves if m.is_bomb]
    moves.sort(key=lambda m: (-m.size, tuple(-k for k in m.key), m.cards))
    free = list(counts)
    found: list[str] = []
    for m in moves:
        need = C.unpack(m.packed)
        if all(free[r] >= c for r, c in enumerate(need)):
            for r, c in enumerate(need):
                free[r] -= c
            found.append(m.combo)
    return found


# ====================================================================== settlement


class BeanSettlement:
    """欢乐豆 settlement (004 十一、计分规则), with the escape rule (逃跑计分).

    ``X = base × multiple × role factor`` (farmer 1, landlord 2); a loser pays
    ``X×N + A``, a winner receives ``X×N − A`` (``rate`` = N, ``take`` = A). The text's
    example: N = 1000, X = 6, A = 50, the landlord wins: landlord +12000 − 50, each
    farmer −6000 − 50.

    Settled per farmer–landlord pair (×``game.pair_factors``), × ``wild_factor``
    (癞子场 0.25), each player's gain or loss capped at ``cap`` beans, a loser paying
    at most what he holds (``game.match.holdings``, else ``start``; None: unlimited)
    and winners sharing what was paid in proportion to their claims. See the module
    docstring for the order of these steps and the take.

    Escape (``ddzrules_settle_escape``): with ``M = game.multiple × the factor of
    every bomb or rocket still in any hand`` ("无论是否炸出"), a landlord is charged
    as if the multiple were 20 when M < 10, else 4 × M; a farmer 10 when M < 10, else
    2 × M. Exactly 10 is not "不足 10 倍", so it takes the ×4 / ×2 branch. The charge
    goes to the opponents: a landlord's to each farmer by pair (equal shares unless
    a pair was doubled), a farmer's to the landlord. Reading: before the landlord is
    known (during the bidding, or "after matching and before the start") the
    escaper is charged as a farmer with base 1 and the charge is shared equally by
    the other players. Cap, holdings and (unless ``take_on_escape`` is false) the
    take apply as in a finished game.
    """

    name = "beans"
    needs_landlord = True  # refused at a table without a landlord
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "rate": {"type": "integer", "minimum": 1,
                     "description": "N, the room factor: beans per point (004 example: 1000)."},
            "take": {"type": "integer", "minimum": 0,
                     "description": "A, beans the house takes from every player each game."},
            "wild_factor": {"type": "number", "exclusiveMinimum": 0,
                            "description": "癞子场 factor on the score (004: 0.25)."},
            "cap": {"type": "integer", "minimum": 0,
                    "description": "Most beans a player may win or lose in one game, before the take "
                                   "(004 癞子场: 10000), in the unit cap_unit says."},
            "cap_unit": {"enum": ["beans", "points"],
                         "description": "How cap reads 每局所得积分的上限: beans (default): at most cap "
                                        "beans a player; points: at most cap 积分, i.e. cap × rate "
                                        "(N) beans."},
            "start": {"type": ["integer", "null"], "minimum": 0,
                      "description": "Beans each seat holds when the match gives no holdings "
                                     "(default: unlimited)."},
            "bomb_factor": {"type": "number", "exclusiveMinimum": 0,
                            "description": "Escape: the factor of each bomb still in a hand (default 2)."},
            "bomb_factors": {"type": "object", "additionalProperties": {"type": "number",
                                                                        "exclusiveMinimum": 0},
                             "description": "Escape: per bomb combo, e.g. {rocket: 4}."},
            "take_on_escape": {"type": "boolean",
                               "description": "Whether the take applies to an abandoned game (default true)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        # of the types params_schema admits: the runtime checks the parameters against it first
        self.rate: int = params.get("rate", 1)
        self.take: int = params.get("take", 0)
        self.wild_factor: float = params.get("wild_factor", 1)
        self.cap: int | None = params.get("cap")
        self.cap_unit: str = params.get("cap_unit", "beans")
        self.start: int | None = params.get("start")
        self.bomb_factor: float = params.get("bomb_factor", 2)
        self.bomb_factors: dict[str, float] = params.get("bomb_factors", {})
        self.take_on_escape: bool = params.get("take_on_escape", True)

    @property
    def cap_beans(self) -> int | None:
        """The cap in beans: ``cap``, or ``cap × rate`` when ``cap_unit: points``."""
        if self.cap is None:
            return None
        return self.cap * self.rate if self.cap_unit == "points" else self.cap

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """The bean arithmetic as configured: room, take, wild factor, cap, holdings, escape."""
        n, a = self.rate, self.take
        d = Description(f"欢乐豆 beans: a loser pays X×{n}+{a}, a winner receives X×{n}−{a}",
                        f"欢乐豆：输家支付X×{n}+{a}，赢家获得X×{n}−{a}")
        d.rule("X = stake (底分) × multiple × role factor (farmer 1, landlord 2), settled separately "
               "between each farmer and the landlord (× that pair's 加倍 factor).",
               "X = 底分 × 倍数 × 身份系数（农民1，地主2），每位农民与地主之间分别结算"
               "（乘以该组的加倍系数）。")
        d.rule(f"A loser pays X×{n} + {a}, a winner receives X×{n} − {a}: the room factor N = "
               f"{n}, and the house takes A = {a} from every player after the transfers (never "
               f"below 0).",
               f"输家支付 X×{n}+{a}，赢家获得 X×{n}−{a}：房间系数N={n}；结算后系统向每位玩家"
               f"回收A={a}（只扣到0为止）。")
        if self.wild_factor != 1:
            d.rule(f"The amounts are {times(self.wild_factor)} (the wildcard room's factor).",
                   f"结算数额再{times(self.wild_factor)}（癞子场系数）。")
        if self.cap is not None and self.cap_unit == "points":
            d.rule(f"A player wins or loses at most {self.cap} points (积分) a game, i.e. "
                   f"{self.cap} × {n} = {self.cap_beans} beans, before the take.",
                   f"每位玩家每盘输赢最多{self.cap}积分，即{self.cap}×{n}={self.cap_beans}欢乐豆"
                   f"（回收之前）。")
        elif self.cap is not None:
            d.rule(f"A player wins or loses at most {self.cap} beans a game, before the take.",
                   f"每位玩家每盘输赢最多{self.cap}欢乐豆（回收之前）。")
        d.rule("A loser pays at most what he holds; the winners share what was paid in proportion "
               "to their claims.", "输家最多输光身上的欢乐豆，赢家按应得数额的比例分配。")
        if self.start is not None:
            d.rule(f"Unless the match says otherwise, every seat holds {self.start} beans.",
                   f"比赛未指定时，每位玩家持有{self.start}欢乐豆。")
        each = times(self.bomb_factor)
        per_en = "".join(f", {k} {times(v)}" for k, v in self.bomb_factors.items())
        per_zh = "".join(f"，{k} {times(v)}" for k, v in self.bomb_factors.items())
        d.rule(f"Escape (逃跑): with M = the multiple × the factor of every bomb still in any hand "
               f"({each} each{per_en}), an escaping landlord is charged as if the multiple were "
               f"20 when M < 10, else 4 × M; an escaping farmer 10 when M < 10, else 2 × M; the "
               f"charge goes to the opponents.",
               f"逃跑：M = 倍数 × 所有手中炸弹的倍数（每个{each}{per_zh}）；地主逃跑，M不足10倍"
               f"按20倍计，否则按4×M计；农民逃跑，M不足10倍按10倍计，否则按2×M计；罚分归对手。")
        if not self.take_on_escape:
            d.rule("The house takes nothing from an abandoned game.", "逃跑的一局系统不回收欢乐豆。")
        d.param("rate", n, "N, the room factor: beans per point", "房间系数N：每分的欢乐豆数")
        d.param("take", a, "A, the beans the house takes from every player each game",
                "A：每盘系统向每位玩家回收的欢乐豆")
        d.param("wild_factor", self.wild_factor, "the factor on every amount (癞子场)",
                "结算数额的系数（癞子场）")
        d.param("cap", self.cap, "the most a player may win or lose in a game (in cap_unit)",
                "每盘每位玩家输赢的上限")
        d.param("cap_unit", self.cap_unit, "the unit of cap: beans, or points (积分: cap × N beans)",
                "上限的单位：beans（欢乐豆）或 points（积分，即上限×N欢乐豆）")
        d.param("start", self.start, "the beans each seat holds when the match gives none (none: "
                "unlimited)", "比赛未指定时每位玩家持有的欢乐豆（未设：不限）")
        d.param("bomb_factor", self.bomb_factor, "escape: the factor of each bomb still in a hand",
                "逃跑：手中每个炸弹的倍数")
        d.param("bomb_factors", self.bomb_factors or None, "escape: factors by combo",
                "逃跑：各牌型的倍数")
        d.param("take_on_escape", self.take_on_escape, "whether the house takes from an abandoned "
                "game", "逃跑的一局是否回收")
        return d.done()

    @hookimpl
    def ddzrules_settle(self, game: Game) -> list[int]:
        landlord = game.landlord
        assert landlord is not None and game.winner is not None
        landlord_won = game.winner == landlord
        claims: list[tuple[int, int, float]] = []
        for farmer in range(game.players):
            if farmer == landlord:
                continue
            amount = self._pair_amount(game.stake, game.multiple, game.pair_factors.get(farmer, 1.0))
            claims.append((farmer, landlord, amount) if landlord_won else (landlord, farmer, amount))
        return self._transfer(game, claims, take=True)

    @hookimpl
    def ddzrules_settle_escape(self, game: Game, seat: int) -> list[int]:
        m = self.escape_multiple(game)
        landlord = game.landlord
        claims: list[tuple[int, int, float]] = []
        if landlord is None:
            # reading: before the landlord is known the escaper is a farmer of base 1,
            # and the others share his charge equally
            charge = round_half_up(self._pair_amount(1, self._farmer_charge(m), 1.0))
            others = [s for s in range(game.players) if s != seat]
            for s, part in zip(others, apportion(charge, [1] * len(others))):
                claims.append((seat, s, part))
        elif seat == landlord:
            for farmer in range(game.players):
                if farmer != landlord:
                    amount = self._pair_amount(game.stake, self._landlord_charge(m),
                                               game.pair_factors.get(farmer, 1.0))
                    claims.append((seat, farmer, amount))
        else:
            amount = self._pair_amount(game.stake, self._farmer_charge(m), game.pair_factors.get(seat, 1.0))
            claims.append((seat, landlord, amount))
        game.count("escapes")
        return self._transfer(game, claims, take=self.take_on_escape)

    # ------------------------------------------------------------------ the rules
    def escape_multiple(self, game: Game) -> float:
        """The multiple an escape is judged by: ``game.multiple`` times the factor of
        every bomb and rocket still in a hand, played or not (逃跑计算时将计算当盘所有的炸弹数量)."""
        m = game.multiple
        for seat in range(game.players):
            for combo in bombs_in_hand(game, seat):
                m *= self.bomb_factors.get(combo, self.bomb_factor)
        return m

    @staticmethod
    def _landlord_charge(m: float) -> float:
        return 20.0 if m < 10 else 4.0 * m

    @staticmethod
    def _farmer_charge(m: float) -> float:
        return 10.0 if m < 10 else 2.0 * m

    def _pair_amount(self, base: float, multiple: float, pair: float) -> float:
        return base * multiple * pair * self.rate * self.wild_factor

    def _transfer(self, game: Game, claims: list[tuple[int, int, float]], take: bool) -> list[int]:
        """Turn (payer, payee, beans) claims into scores: round, cap, insolvency, take."""
        n = game.players
        pay = [(p, r, round_half_up(a)) for p, r, a in claims]
        cap = self.cap_beans
        if cap is not None:
            pay = [(p, r, min(a, cap)) for p, r, a in pay]
            pay = _limit(pay, n, [cap] * n, side=0)  # a payer with several pairs
            pay = _limit(pay, n, [cap] * n, side=1)  # a payee with several pairs
        held = holdings_of(game, self.start)
        pay = _limit(pay, n, held, side=0)  # insolvency: pay at most what is held
        scores = [0] * n
        for p, r, a in pay:
            scores[p] -= a
            scores[r] += a
        game.count("bean_flow", sum(a for _, _, a in pay))
        total_take = 0
        if take and self.take:
            for s in range(n):
                h = held[s]
                t = self.take if h is None else max(0, min(self.take, h + scores[s]))
                scores[s] -= t
                total_take += t
        game.count("house_take", total_take)
        return scores


def _limit(pay: list[tuple[int, int, int]], n: int, limits: Sequence[int | None],
           side: int) -> list[tuple[int, int, int]]:
    """Cut each seat's total on one side (0: what it pays, 1: what it receives) to its
    limit (None: no limit), sharing the limit over its pairs in proportion to them."""
    out = list(pay)
    for s in range(n):
        lim = limits[s]
        if lim is None:
            continue
        idx = [i for i, t in enumerate(out) if t[side] == s]
        idx.sort(key=lambda i: out[i][1 - side])  # shares in seat order
        total = sum(out[i][2] for i in idx)
        if total <= lim:
            continue
        parts = apportion(max(lim, 0), [out[i][2] for i in idx])
        for i, part in zip(idx, parts):
            p, r, _ = out[i]
            out[i] = (p, r, part)
    return out


# ====================================================================== 加倍


class Doubling:
    """加倍 (004 六): after the landlord has the kitty and before the first play, each
    player in turn, the landlord first, may ``double`` or ``decline``.

    Eligibility (六.4–5), "超过" read as strictly above ``threshold``: a landlord may
    double when every player holds more than the threshold; a farmer when he and
    the landlord do. Holdings are ``game.match.holdings`` (else ``start``); an
    unknown holding (None) never blocks. A player who may not double is offered
    only ``decline``.

    Effect (六.3, "自己加倍数 × 对手加倍数"): the settlement between a farmer and the
    landlord is multiplied by ``factor`` for each of the two who doubled; it is
    multiplied into ``game.pair_factors[farmer]`` (so it composes with 加棒) and
    does not touch ``game.multiple``.

    Levels (超级加倍, 欢乐斗地主): with ``super_factor`` a player may instead
    ``super_double``, the same choice made once at that factor (×4), under the same
    eligibility. One choice per player: decline, double or super_double.
    """

    name = "doubling"
    needs_landlord = True  # refused at a table without a landlord
    params_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "factor": {"type": "number", "exclusiveMinimum": 0, "description": "Per double (default 2)."},
            "super_factor": {"type": "number", "exclusiveMinimum": 0,
                             "description": "超级加倍: the factor of a super double, offered beside the "
                                            "double (default: none, no super double)."},
            "threshold": {"type": "integer", "minimum": 0,
                          "description": "Beans a holding must exceed to allow a double (default 0)."},
            "start": {"type": ["integer", "null"], "minimum": 0,
                      "description": "Beans each seat holds when the match gives no holdings "
                                     "(default: unknown, which never blocks)."},
        },
    }

    def __init__(self, params: dict[str, Any]) -> None:
        self.factor = params.get("factor", 2)
        self.super_factor = params.get("super_factor")
        self.threshold = params.get("threshold", 0)
        self.start = params.get("start")
        #: the factor of each kind of double offered
        self.levels: dict[str, Any] = {"double": self.factor}
        if self.super_factor is not None:
            self.levels["super_double"] = self.super_factor

    @hookimpl
    def ddzrules_describe(self) -> dict[str, Any]:
        """加倍 as configured: who may double, when, and what it multiplies."""
        f, t = times(self.factor), self.threshold
        d = Description(f"加倍: each player may double ({f}) when holdings exceed {t}",
                        f"加倍：欢乐豆超过{t}时每位玩家可加倍（{f}）")
        d.rule("After the kitty and before the first play, each player in turn, the landlord "
               "first, may double (加倍) or decline.",
               "拿到底牌后、出第一手牌前，每位玩家从地主开始依次选择加倍或不加倍。")
        d.rule(f"The landlord may double only when every player holds more than {t} beans; a "
               f"farmer only when he and the landlord do.",
               f"所有玩家的欢乐豆都超过{t}时地主才能加倍；农民须自己和地主都超过{t}才能加倍。")
        d.rule(f"A double multiplies the settlement between that farmer and the landlord by {f} "
               f"(the landlord's double: with every farmer); the common multiple is unchanged.",
               f"加倍使该农民与地主之间的结算{f}（地主加倍则与每位农民之间都{f}），不改变公共倍数。")
        if self.super_factor is not None:
            s = times(self.super_factor)
            d.rule(f"Instead of a double a player may make a super double (超级加倍), {s} in the same "
                   f"way; each player makes one choice: no double, a double or a super double.",
                   f"玩家也可以选择超级加倍（{s}），作用方式同加倍；每位玩家只能选择一次：不加倍、加倍或超级加倍。")
        if self.start is not None:
            d.rule(f"Unless the match says otherwise, every seat holds {self.start} beans.",
                   f"比赛未指定时，每位玩家持有{self.start}欢乐豆。")
        d.param("factor", self.factor, "the multiplier of each double", "每次加倍的倍数")
        d.param("super_factor", self.super_factor, "the multiplier of a super double (none: not offered)",
                "超级加倍的倍数（未设：不提供）")
        d.param("threshold", t, "the beans a holding must exceed to allow a double",
                "允许加倍须超过的欢乐豆数")
        d.param("start", self.start, "the beans each seat holds when the match gives none (none: "
                "unlimited)", "比赛未指定时每位玩家持有的欢乐豆（未设：不限）")
        return d.done()

    @hookimpl
    def ddzrules_actions(self) -> list[tuple[str, Any]]:
        return [("decline", None)] + [(kind, None) for kind in self.levels]

    @hookimpl
    def ddzrules_declaration_phases(self, game: Game) -> list[DoublingPhase]:
        return [DoublingPhase(self, game)]

    def may_double(self, game: Game, seat: int) -> bool:
        landlord = game.landlord
        assert landlord is not None
        held = holdings_of(game, self.start)
        who = range(game.players) if seat == landlord else (seat, landlord)
        return all(h is None or h > self.threshold for h in (held[s] for s in who))


class DoublingPhase:
    name = "doubling"

    def __init__(self, plugin: Doubling, game: Game) -> None:
        self.plugin = plugin
        assert game.landlord is not None
        self.order = [game.landlord]
        while len(self.order) < game.players:
            self.order.append(game.next_seat(self.order[-1]))
        self.i = 0

    def to_act(self, game: Game) -> int | None:
        return self.order[self.i] if self.i < len(self.order) else None

    def options(self, game: Game) -> list[Action]:
        seat = self.order[self.i]
        out = [Action(seat, "decline")]
        if self.plugin.may_double(game, seat):
            out += [Action(seat, kind) for kind in self.plugin.levels]
        return out

    def apply(self, game: Game, action: Action) -> None:
        self.i += 1
        f = self.plugin.levels.get(action.kind)
        if f is None:
            return
        landlord = game.landlord
        assert landlord is not None
        farmers = [s for s in range(game.players) if s != landlord]
        for farmer in (farmers if action.seat == landlord else [action.seat]):
            game.pair_factors[farmer] = game.pair_factors.get(farmer, 1.0) * f
        game.public.setdefault("doubled", []).append(action.seat)
        game.count("doubles")
        if action.kind == "super_double":
            game.count("super_doubles")
