"""The lister: a hand's legal plays, fast, from a compiled spec's universe table.

:func:`~ddzrules.rules.compiler.compile_spec` turns a spec into :class:`~ddzrules.rules.compiler.Rules`
(shapes that enumerate plays) and the variant builds the universe table from them;
:class:`MovePlan` files every reading of that table under the shape and core that make
it, so that listing one hand's plays — what a game does at every step — reads
precomputed data instead of enumerating. The pipeline: spec → patterns → compiler
(tables) → lister → variant → runtime.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from itertools import chain as _chain
from itertools import compress as _compress
from itertools import repeat as _repeat
from typing import Any

from ddzrules import cards as C
from ddzrules.rules.shapes import Rules

try:  # the compiled build's C kernel runs a plan's programs (docs/compiled.md)
    from ddzrules.speed._quick import run_steps as _run_steps
except ImportError:  # pure Python: the functions written out for each plan run instead
    _run_steps = None  # type: ignore[assignment]

from ddzrules.rules.fast_shape import (
    AT_LEAST,
    NO_CORES,
    NO_READING,
    TRIANGLE,
    ZEROS,
    FastShape,
    HandMasks,
    Runs,
    maximal_runs,
    pair_selector,
)


class MovePlan:
    """Lists the readings of the universe inside a hand, as positions.

    Built from the universe's readings: ``readings`` yields ``(position, ident, shape)``
    for each, ``ident`` being ``(packed, combo, rank, length)`` and ``shape`` the index
    in ``rules.shapes`` of the (first) shape that produces it. Positions are whatever
    order the caller wants plays listed in; the methods return lists of positions,
    possibly holding :data:`NO_READING` placeholders, each real position once.
    Valid only for hands no larger than the universe's plays (``rules.max_hand``).
    """

    def __init__(self, rules: Rules, readings: Iterable[tuple[int, tuple[int, int, int, int], int]]) -> None:
        self.rules = rules
        self._pool_ids: dict[tuple[int, tuple[int, ...]], int] = {}
        self._answerers: dict[tuple[int, int, int, int, bool], Callable[[bytes], list[int]]] = {}
        self._runs: dict[tuple[int, int, int], Runs] = {}
        self.shapes = [FastShape(self, i, s) for i, s in enumerate(rules.shapes)]
        for pos, ident, shape in readings:
            self.shapes[shape].add(pos, ident)
        for fs in self.shapes:
            fs.finish()
        self.by_combo: dict[int, list[FastShape]] = {}
        for fs in self.shapes:
            self.by_combo.setdefault(fs.shape.combo, []).append(fs)

        self.bombs = [fs for fs in self.shapes if rules.combos[fs.shape.combo].tier >= 0]
        # What a lead runs: shape by shape in the order of their smallest plays, bombs
        # last (the positions then come out in long sorted runs, which sorting merges
        # quickly), as (code, cards of one rank a core needs, a, b):
        #   0  kickerless groups: a = readings by count then rank (flat, NO_READING where
        #      none), b = the counts (one rank mask each, joined)
        #   1  groups with one kicker group: a = (count, kicker unit), b = by core rank, the
        #      readings by kicker rank
        #   2  kickerless chains: a = (lo, hi + 1, memo by rank mask), b = the shape
        #   3  literal cards: a = ((rank, count), ...), b = the readings
        #   4  anything else: a = the shape
        #   5  chains with kickers: a = (lo, hi + 1, memo by rank mask), b = the shape
        #   6  groups with two kicker groups (triangle form): a = (count, kicker unit),
        #      b = each rank's (triangle, valid) as a core of that count
        self.lead_shapes = sorted(self.shapes, key=lambda fs: (rules.combos[fs.shape.combo].tier,
                                                               fs.shape.min_size()))
        self.steps: list[tuple[int, int, Any, Any]] = []
        units = {1}
        for fs in self.lead_shapes:
            units.add(fs.unit)
            if fs.kick is not None:
                units.add(fs.kick.unit)
            last = self.steps[-1] if self.steps else None
            if fs.kind == "group0":
                bomb = rules.combos[fs.shape.combo].tier >= 0
                for c, flat in fs.flat_by_count.items():
                    units.add(c)
                    if last is not None and last[0] == 0 and not bomb and last[3][-1] < c:
                        last = self.steps[-1] = (0, min(last[1], c), last[2] + flat, last[3] + (c,))
                    else:
                        last = (0, c, flat, (c,))
                        self.steps.append(last)
            elif fs.kind == "groupk" and fs.kgroups == 1:
                for c, row in fs.by_count.items():
                    units.add(c)
                    ku = fs.kick.unit  # type: ignore[union-attr]  # a kicked kind: kick is set
                    if last is not None and last[0] == 1 and last[1] == c:
                        # same cores: one step, each core's readings by kicker rank laid end to end
                        none = (NO_READING,) * C.NUM_RANKS
                        merged = tuple(x + y if x and y
                                       else (x + none if x else (none * (len(last[2][1])) + y if y else ()))
                                       for x, y in zip(last[3], row))
                        last = self.steps[-1] = (1, c, (c, last[2][1] + (ku,)), merged)
                    else:
                        last = (1, c, (c, (ku,)), row)
                        self.steps.append(last)
            elif fs.kind == "chain0":
                self.steps.append((2, fs.unit, (fs.lo, fs.hi1, fs.memo), fs))
            elif fs.kind == "literal0":
                need = max(c for _, c in fs.literal_items)
                units.add(need)
                self.steps.append((3, need, fs.literal_items, fs.plain_t.get(0, ())))
            elif fs.kind == "chaink":
                self.steps.append((5, fs.unit, (fs.lo, fs.hi1, fs.memo), fs))
                units.update(self._pair_units(fs.kick.unit))  # type: ignore[union-attr]  # a kicked kind: kick is set
            elif fs.pair_rows:
                for c, rows in fs.pair_rows.items():
                    units.add(c)
                    self.steps.append((6, c, (c, fs.kick.unit), rows))  # type: ignore[union-attr]  # a kicked kind: kick is set
                units.update(self._pair_units(fs.kick.unit))  # type: ignore[union-attr]  # a kicked kind: kick is set
            else:
                self.steps.append((4, fs.unit, fs, None))
        self.top_unit = max(u for u in units if u <= C.MASK)
        self.mask_pad = [None] * (C.MASK - self.top_unit)
        #: the lead as Python written out for this plan (``lead.source``); ``lead`` is the
        #: C kernel running the same steps when the compiled build has it
        self.python_lead = self._compile_lead()
        self.lead_program = self._lead_program()
        self.lead = self.python_lead if _run_steps is None else partial(_run_steps, self.lead_program)
        self._bomb_plays = self.answerer(-1, 0, 0, 0)

    @staticmethod
    def _pair_units(unit: int) -> tuple[int, ...]:
        """The rank masks a triangle of kicker pairs of ``unit`` cards is selected by."""
        return (unit, 2 * unit) if 2 * unit <= C.MASK else (unit,)

    def pool_id(self, unit: int, caps: tuple[int, ...]) -> int:
        """A small id for a kind of kicker pool (per hand, pools are cached by id)."""
        return self._pool_ids.setdefault((unit, caps), len(self._pool_ids))

    def runs(self, lo: int, hi: int, unit: int) -> Runs:
        key = (lo, hi, unit)
        got = self._runs.get(key)
        if got is None:
            got = self._runs[key] = Runs(lo, hi, unit, len(self._runs))
        return got

    def _compile_lead(self) -> Callable[[bytes], list[int]]:
        """The lead of this plan as code written out for it: the steps in order, each
        step's data bound as a constant, the rank masks as locals, and no loop over
        steps or dispatch on step codes (those cost about a fifth of a lead in a
        typical spec). The source is kept as ``lead.source``."""
        src = _Source("lead", [u for code, _, a, b in self.steps for u in
                               ((a[1],) if code == 6 else (b.kick.unit,) if code == 5 else ())], masks=True)
        top_unit = self.top_unit
        src.head += [f"    m{u} = raw.translate(_AT[{u}])" for u in range(1, top_unit + 1)]
        tops = " else ".join(f"{u} if 1 in m{u}" for u in range(top_unit, 1, -1))
        src.head.append(f"    top = {tops + ' else 1' if tops else '1'}")
        pad = src.const(self.mask_pad)
        src.prologue(f"HandMasks(raw, [None, {', '.join(f'm{u}' for u in range(1, top_unit + 1))}] + {pad})")
        for code, need, a, b in self.steps:
            depth = 1
            if need > 1:  # no rank holds enough cards for a core: skip the step
                src.add(1, f"if top >= {need}:")
                depth = 2
            if code == 0:
                src.add(depth, f"out.extend(_compress({src.const(a)}, {' + '.join(f'm{u}' for u in b)}))")
            elif code == 1:
                src.add(depth, f"out.extend(_chain_it(map(_compress, _compress({src.const(b)}, m{a[0]}), "
                               f"_repeat({' + '.join(f'm{u}' for u in a[1])}))))")
            elif code in (2, 5):
                fill = src.const(b.chain_plain if code == 2 else b.chain_cores)
                src.memo(depth, a[2], f"m{need}[{a[0]}:{a[1]}]", f"{fill}(_runs(mask, {a[0]}))")
                if code == 2:
                    src.add(depth, "out.extend(got)")
                else:
                    src.cores(depth, b)
            elif code == 3:
                src.literal(depth, a, b)
            elif code == 6:
                src.pairs(depth, a[1], f"_compress({src.const(b)}, m{a[0]})")
            else:
                src.add(depth, *src.need_hand(), f"{src.const(a)}.lead(hand, out)")
        return src.build(f"<ddzrules lead: {self.rules.name}>")

    def _lead_program(self) -> Program:
        """The lead's steps as the C kernel's program (``_quick.run_steps``): the same
        steps and data as :meth:`_compile_lead` writes out."""
        program: list[tuple[Any, ...]] = []
        for code, need, a, b in self.steps:
            if code == 0:
                program.append((0, need, 0, a, bytes(b)))
            elif code == 1:
                program.append((1, need, 0, a[0], b, bytes(a[1])))
            elif code == 2:
                program.append((2, need, a[0], a[1], need, a[2], partial(_fill_runs, a[2], b.chain_plain, a[0])))
            elif code == 5:
                program.append((5, need, a[0], a[1], need, a[2], partial(_fill_runs, a[2], b.chain_cores, a[0]),
                                b.kick.unit, partial(_more_cores, b)))
            elif code == 3:
                program.append((3, need, 0, bytes(x for item in a for x in item), b))
            elif code == 6:
                program.append((6, need, 0, a[0], b, a[1]))
            else:
                program.append((4, need, 0, partial(_shape_lead, a)))
        return tuple(program)

    def answer(self, raw: bytes, combo: int, size: int, length: int, min_rank: int,
               bombs: bool = True) -> list[int]:
        """The readings of ``combo`` inside the hand with ``size`` cards, chain length
        ``length`` and rank above ``min_rank``; and every bomb inside it if ``bombs``."""
        return self.answerer(combo, size, length, min_rank, bombs)(raw)

    def bomb_plays(self, raw: bytes) -> list[int]:
        """The bombs inside the hand."""
        return self._bomb_plays(raw)

    def answerer(self, combo: int, size: int, length: int, min_rank: int,
                 bombs: bool = True) -> Callable[[bytes], list[int]]:
        """A function of the hand's counts listing what :meth:`answer` lists (memoised)."""
        key = (combo, size, length, min_rank, bombs)
        got = self._answerers.get(key)
        if got is None:
            python, program = self._compile_answer(combo, size, length, min_rank, bombs)
            got = self._answerers[key] = python if _run_steps is None else partial(_run_steps, program)
        return got

    def _compile_answer(self, combo: int, size: int, length: int, min_rank: int,
                        bombs: bool = True) -> tuple[Callable[[bytes], list[int]], Program]:
        """The answers to one play (combo -1: none, only the bombs) as code written out,
        and as the C kernel's program of the same steps:
        for each shape of the combo, its cores above ``min_rank`` picked by rank masks
        (chains through their runs, memoised by the mask of the ranks they may use),
        then the bombs. What varies with the play to beat (ranks, counts, rows) is bound
        as constants, so plays of one kind share one compiled text."""
        family = self.by_combo.get(combo, ())
        src = _Source("answer", [fs.kick.unit for fs in family if fs.kind == "chaink" or fs.pair_rows])  # type: ignore[union-attr]  # a kicked kind: kick is set
        src.prologue("HandMasks(raw)")
        program: list[tuple[Any, ...]] = []  # the same steps for the C kernel
        lo = min_rank + 1
        for fs in family:
            shape, c = fs.shape, size - fs.kcards
            if fs.kind == "group0" or (fs.kind == "groupk" and (fs.kgroups == 1 or fs.pair_rows)):
                if length != 1 or lo >= C.NUM_RANKS:
                    continue
                rows = fs.flat_by_count.get(size) if fs.kind == "group0" else \
                    fs.by_count.get(c) if fs.kgroups == 1 else fs.pair_rows.get(c)
                if rows is None:
                    continue
                # the cores above the play's rank, by the mask of their count
                cores = f"_compress({src.const(rows[lo:])}, raw.translate({src.const(AT_LEAST[c])})[{src.const(lo)}:])"
                if fs.kind == "group0":
                    src.add(1, f"out.extend({cores})")
                    program.append((0, 0, lo, rows, bytes((c,))))
                elif fs.kgroups == 1:
                    src.add(1, f"out.extend(_chain_it(map(_compress, {cores}, _repeat({src.mask(fs.kick.unit)}))))")  # type: ignore[union-attr]  # a kicked kind: kick is set
                    program.append((1, 0, lo, c, rows, bytes((fs.kick.unit,))))  # type: ignore[union-attr]  # a kicked kind: kick is set
                else:
                    src.pairs(1, fs.kick.unit, cores)  # type: ignore[union-attr]  # a kicked kind: kick is set
                    program.append((6, 0, lo, c, rows, fs.kick.unit))  # type: ignore[union-attr]  # a kicked kind: kick is set
            elif fs.kind in ("chain0", "chaink"):
                kick_cards = fs.kick.unit * fs.kick.groups(length) if fs.kick else 0
                if shape.min_len <= length <= shape.max_len and fs.unit * length + kick_cards == size:
                    first, stop = fs.answer_window(length, min_rank)
                    window = f"raw.translate({src.const(AT_LEAST[fs.unit])})[{src.const(first)}:{src.const(stop)}]"
                    memo: dict[bytes, Any] = {}
                    fill = partial(fs.answer_chains, length, first)
                    src.memo(1, memo, window, f"{src.const(fill)}(mask)")
                    if fs.kick is None:
                        src.add(1, "out.extend(got)")
                        program.append((2, 0, first, stop, fs.unit, memo, partial(_fill, memo, fill)))
                    else:
                        src.cores(1, fs)
                        program.append((5, 0, first, stop, fs.unit, memo, partial(_fill, memo, fill),
                                        fs.kick.unit, partial(_more_cores, fs)))
            elif fs.kind == "literal0":
                if length == 1 and size == fs.literal_size and fs.literal_rank > min_rank:
                    src.literal(1, fs.literal_items, fs.plain_t.get(0, ()))
                    program.append(_literal_step(fs))
            else:  # the shape's own answer, on a HandMasks
                src.add(1, *src.need_hand(),
                        f"{src.const(fs)}.answer(hand, out, *{src.const((size, length, min_rank))})")
                program.append((4, 0, 0, partial(_shape_answer, fs, size, length, min_rank)))
        if bombs:
            self._add_bombs(src, program)
        return src.build(f"<ddzrules answer: {self.rules.name}>", shared=True), tuple(program)

    def _add_bombs(self, src: _Source, program: list[tuple[Any, ...]]) -> None:
        """Every bomb inside the hand: kickerless groups by rank mask once some rank
        holds enough cards, literal cards by count, anything else whole."""
        rows = [(c, flat) for fs in self.bombs if fs.kind == "group0" for c, flat in fs.flat_by_count.items()]
        if rows:
            least = min(c for c, _ in rows)
            program += [(0, least, 0, flat, bytes((c,))) for c, flat in rows]
            if least >= max(self.rules.deck):
                # a hand never holds more of a rank than the deck (legal_moves checks), so
                # "a rank with enough cards" is a byte search, not a mask made per answer
                src.add(1, f"if {least} in raw:")
                src.add(2, *(f"out.extend(_compress({src.const(flat)}, raw.translate(_AT[{c}])))" for c, flat in rows))
            else:
                src.add(1, f"bombs = raw.translate(_AT[{least}])", "if 1 in bombs:")
                src.add(2, *(f"out.extend(_compress({src.const(flat)}, "
                             + ("bombs" if c == least else f"raw.translate(_AT[{c}])") + "))" for c, flat in rows))
        for fs in self.bombs:
            if fs.kind == "literal0":
                src.literal(1, fs.literal_items, fs.plain_t.get(0, ()))
                program.append(_literal_step(fs))
            elif fs.kind != "group0":
                src.add(1, *src.need_hand(), f"{src.const(fs)}.lead(hand, out)")
                program.append((4, 0, 0, partial(_shape_lead, fs)))


#: a plan's steps for the C kernel (``_quick.run_steps``; see ``MovePlan._lead_program``)
Program = tuple[tuple[Any, ...], ...]


def _literal_step(fs: FastShape) -> tuple[Any, ...]:
    return (3, 0, 0, bytes(x for item in fs.literal_items for x in item), fs.plain_t.get(0, ()))


def _fill_runs(memo: dict[bytes, Any], fill: Callable[[Any], Any], first: int, mask: bytes) -> Any:
    """A chain step's memo missed: its value from the mask's maximal runs, kept."""
    got = memo[mask] = fill(maximal_runs(mask, first))
    return got


def _fill(memo: dict[bytes, Any], fill: Callable[[bytes], Any], mask: bytes) -> Any:
    """An answer's chain memo missed: its value from the mask, kept."""
    got = memo[mask] = fill(mask)
    return got


def _shape_lead(fs: FastShape, raw: bytes, out: list[int]) -> None:
    fs.lead(HandMasks(raw), out)


def _shape_answer(fs: FastShape, size: int, length: int, min_rank: int, raw: bytes, out: list[int]) -> None:
    fs.answer(HandMasks(raw), out, size, length, min_rank)


def _more_cores(fs: FastShape, raw: bytes, more: Any, out: list[int]) -> None:
    """Chain cores whose kickers are found by combinations (see ``FastShape.kicked``)."""
    hand = HandMasks(raw)
    total = hand.total
    for key, start, stop, groups, size in more:
        if size <= total:
            fs.kicked(hand, key, start, stop, groups, out)


#: compiled listing functions by source text (answers to plays of one kind share one)
_COMPILED: dict[str, Any] = {}


class _Source:
    """Python source written out for one of a plan's listing functions: constants bound
    by name, the rank masks and each kicker unit's triangle of pairs as locals."""

    def __init__(self, name: str, kick_units: Iterable[int], masks: bool = False) -> None:
        self.name = name
        self.env: dict[str, Any] = {"_compress": _compress, "_chain_it": _chain.from_iterable, "_repeat": _repeat,
                                    "HandMasks": HandMasks, "_AT": AT_LEAST, "NO_CORES": NO_CORES,
                                    "_pairs": pair_selector, "_Z": ZEROS[C.NUM_RANKS], "_runs": maximal_runs}
        self.head: list[str] = []
        self.lines: list[str] = []
        # each kicker unit's triangle of pairs, made on first use (and the lines that
        # set up the function's locals)
        self.head += [f"    s{u} = None" for u in sorted(set(kick_units))]
        self.masks = masks
        self.make_hand = "HandMasks(raw)"

    def mask(self, unit: int) -> str:
        """The hand's 0/1 mask of ranks with ``unit`` cards: a local when the function
        makes them all first, else made where it is used."""
        if unit > C.MASK:
            return "_Z"
        return f"m{unit}" if self.masks else f"raw.translate(_AT[{unit}])"

    def prologue(self, make_hand: str) -> None:
        """How a ``HandMasks`` is made when a step needs one."""
        self.make_hand = make_hand

    def const(self, value: Any) -> str:
        name = f"K{len(self.env)}"
        self.env[name] = value
        return name

    def add(self, depth: int, *lines: str) -> None:
        self.lines += ["    " * depth + line for line in lines]

    def need_hand(self) -> tuple[str, str]:
        return "if hand is None:", f"    hand = {self.make_hand}"

    def memo(self, depth: int, memo: dict[bytes, Any], mask: str, fill: str) -> None:
        """``got`` = the memo's entry for the mask, filled on a miss."""
        m = self.const(memo)
        self.add(depth, f"mask = {mask}", f"got = {m}.get(mask)", "if got is None:",
                 f"    got = {m}[mask] = {fill}")

    def literal(self, depth: int, items: tuple[tuple[int, int], ...], readings: tuple[int, ...]) -> None:
        self.add(depth, f"if {' and '.join(f'raw[{r}] >= {c}' for r, c in items)}:",
                 f"    out.extend({self.const(readings)})")

    def pairs(self, depth: int, unit: int, triangles: str) -> None:
        """The readings of cores with two kicker groups of ``unit`` cards: each core's
        triangle picked by the hand's triangle of pairs (``triangles``: an iterable of
        (triangle, valid))."""
        self.add(depth, f"for triangle, valid in {triangles}:",
                 f"    if s{unit} is None:",
                 f"        s{unit} = _pairs({self.mask(unit)}, {self.mask(2 * unit)})",
                 f"    out.extend(_compress(triangle, (s{unit} & valid).to_bytes({TRIANGLE}, 'little')))")

    def cores(self, depth: int, fs: FastShape) -> None:
        """The readings of the chain cores in ``got`` (see ``FastShape._cores``)."""
        ku = fs.kick.unit  # type: ignore[union-attr]  # a kicked kind: kick is set
        self.add(depth, "if got is not NO_CORES:")
        self.add(depth + 1, "ones, twos, more = got", "if ones:",
                 f"    out.extend(_chain_it(map(_compress, ones, _repeat({self.mask(ku)}))))")
        self.pairs(depth + 1, ku, "twos")
        self.add(depth + 1, "if more:", *("    " + line for line in self.need_hand()),
                 "    total = hand.total", "    for key, start, stop, groups, size in more:",
                 "        if size <= total:",
                 f"            {self.const(fs)}.kicked(hand, key, start, stop, groups, out)")

    def build(self, label: str, shared: bool = False) -> Callable[[bytes], list[int]]:
        """The function (``shared``: its constants as default arguments, so that
        functions of one text, such as answers to plays of one kind, share one
        compiled code; read as locals, they cost a little per call)."""
        consts = ", ".join(f"{k}={k}" for k in self.env if k.startswith("K")) if shared else ""
        head = [f"def {self.name}(raw, {consts}):" if consts else f"def {self.name}(raw):"]
        lines, first = self.lines, "    out.extend("
        if lines and lines[0].startswith(first):  # the first readings make the list
            lines = [f"    out = list({lines[0][len(first):-1]})"] + lines[1:]
        else:
            head.append("    out = []")
        if any("hand" in line for line in lines):
            head.append("    hand = None")
        text = "\n".join(head + self.head + lines + ["    return out"])
        code = _COMPILED.get(text)
        if code is None:  # compiling costs some 300 us; running the definition 5 us
            code = _COMPILED[text] = compile(text, label, "exec")
        exec(code, self.env)  # noqa: S102
        fn = self.env[self.name]
        fn.source = text
        return fn  # type: ignore[no-any-return]  # the function exec just defined
