"""CLI commands around one game: ``play``, ``replay``, ``plugins`` (``--plugin`` and the
loading of rules with plugins, which ``ddzrules.cli.simulate`` shares)."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from ddzrules import cards as C
from ddzrules import generated
from ddzrules.bots import BOTS, HeuristicBot, check_bot, make_bot
from ddzrules.cli import (
    console,
    emit_json,
    json_option,
    main,
    plugin_option,
    plural,
    special_file,
    styled,
    user_errors,
    user_plugins,
)
from ddzrules.errors import STOPS, DdzError, PlayError, brief, escaped
from ddzrules.game.narration import (
    Before,
    deal_lines,
    has_escape_rule,
    illegal_reason,
    no_pass_reason,
    result_text,
    step_lines,
)
from ddzrules.outputs import check_output_path
from ddzrules.records import game_record, load_record, replay, write_record
from ddzrules.runtime import (
    Action,
    Game,
    GameRules,
    PlayerView,
    PluginRegistry,
    default_registry,
    implemented_hooks,
)
from ddzrules.simulate import game_seed


def check_bots_for(rules: GameRules, kinds: list[str]) -> None:
    """A :class:`DdzError` when one of the bots cannot play ``rules`` (rlcard-rule on a
    wild-card spec, say)."""
    for kind in dict.fromkeys(kinds):
        try:
            check_bot(kind, rules)
        except ValueError as e:
            raise DdzError(f"--bots: {e}") from None


def load_rules(spec: str, plugins: tuple[str, ...] | list[str] = ()) -> GameRules:
    """``GameRules.load``; with ``--plugin`` classes, an exception one raises while the rules
    are built (its constructor given the spec's parameters) is a plain error, not a traceback."""
    try:
        return GameRules.load(spec)
    except DdzError:
        raise
    except Exception as e:
        if not plugins:
            raise
        raise DdzError(f"building the rules of {spec} failed: {type(e).__name__}: {e} "
                       f"(raised by a --plugin class? {', '.join(plugins)})") from None










#: the names of the facts a seat alone sees (PlayerView.private), as the player reads them
PRIVATE_FACTS = {"peeked": "黄金眼 kitty cards you peeked at"}




class HumanAgent:
    """A person at the terminal: cards in the usual notation, 'pass', 'hint' (提示)."""

    def __init__(self, game_ref: list[Game]) -> None:
        self.game_ref = game_ref
        self.hint_bot = HeuristicBot(0)

    def act(self, view: PlayerView, legal: list[Action]) -> Action:
        game = self.game_ref[0]
        console.print()
        if view.hand:
            # the cards held now (during a deal in stages, fewer than the hand will hold)
            console.print(styled("[bold]your hand[/]: {}   ({})", view.hand, plural(len(view.hand), "card")))
        else:  # 明牌 before the deal: the choice comes before the cards
            console.print(styled("[bold]your hand[/]: not dealt yet"))
        others = ", ".join(f"seat {s}: {n}" for s, n in enumerate(view.hand_sizes) if s != view.seat)
        console.print(f"cards left: {others}")
        if view.kitty:
            console.print(f"kitty 底牌: {view.kitty}")
        if "wild" in view.extra:
            console.print(f"wild rank 癞子: {view.extra['wild']}")
        for s, hand in view.shown_hands.items():
            console.print(f"seat {s} shows: {hand}")
        for key, value in view.private.items():  # what only this seat sees (黄金眼 peeks …)
            label = PRIVATE_FACTS.get(key, key.replace("_", " "))
            shown = ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)
            console.print(f"{label}: {shown}")
        if view.phase != "play":
            options = {str(i + 1): a for i, a in enumerate(legal)}
            console.print("choose: " + "   ".join(f"[{k}] {a}" for k, a in options.items()), markup=False)
            while True:
                answer = click.prompt("your choice", default="1").strip()
                if answer in options:
                    return options[answer]
                by_name = [a for a in legal if str(a) == answer or (a.kind == answer and a.value is None)]
                if by_name:
                    return by_name[0]
                console.print(f"not an option: {_visible(answer)}; type a number 1-{len(options)}",
                              markup=False, style="red")
        if view.last_play is not None:
            console.print(f"to beat: {view.last_play.cards} [{view.last_play.combo}] from seat {view.last_seat}",
                          markup=False)
        else:
            console.print("you lead this trick")
        while True:
            words = "cards, 'pass', 'hint'" + (", 'escape'" if has_escape_rule(game) else "")
            answer = click.prompt(f"play ({words})", default="hint").strip()
            chosen = self._read_play(game, view, legal, answer)
            if chosen is not None:
                return chosen

    def _read_play(self, game: Game, view: PlayerView, legal: list[Action], answer: str) -> Action | None:
        """The action ``answer`` asks for, or None after saying why it cannot be played
        (the game is never touched: the caller asks again)."""
        if answer.lower() in ("escape", "逃跑", "quit"):
            if has_escape_rule(game):
                return Action(view.seat, "escape")
            console.print(f"{game.variant.name} has no escape rule (逃跑): the game is played to the end",
                          style="red")
            return None
        if answer.lower() in ("hint", "提示", "?"):
            console.print(f"提示 hint: {self.hint_bot.act(view, legal)}", markup=False)
            return None
        if answer.lower() in ("pass", "p", "不出", "过"):
            passes = [a for a in legal if a.kind == "pass"]
            if passes:
                return passes[0]
            console.print(no_pass_reason(game, view), markup=False, style="red")
            return None
        try:
            cards = C.parse_cards(answer)
        except C.CardError as e:
            # the first line shows the input by repr (escape codes visible); the caret
            # lines only when the input prints as itself
            lines = str(e).splitlines()
            shown = lines if answer.isprintable() and len(answer) <= 80 else lines[:1]
            console.print("\n".join(["not cards: " + _visible(shown[0], 240), *shown[1:]]),
                          markup=False, style="red")
            return None
        if not cards:
            console.print("no cards: type cards (e.g. 33 or 34567), pass or hint"
                          + (" or escape" if has_escape_rule(game) else ""), style="red")
            return None
        matching = [a for a in legal if a.kind == "play" and a.move is not None and a.move.cards == cards]
        if len(matching) == 1:
            return matching[0]
        if matching:  # several readings (333444555666, or wild cards): the player chooses
            for i, a in enumerate(matching, 1):
                assert a.move is not None
                subst = " ".join(f"{x}→{y}" for x, y in a.move.substitution)
                console.print(f"  [{i}] {a.move.combo} ({a.move.rank_name}) {subst}", markup=False)
            pick = click.prompt("which reading", type=click.IntRange(1, len(matching)), default=len(matching))
            return matching[pick - 1]
        console.print(f"illegal: {illegal_reason(game, view, cards)}", markup=False, style="red")
        return None


def _visible(text: str, limit: int = 80) -> str:
    """User input echoed back: control characters (escape codes) shown as escapes, cut
    when long, so that what is printed never acts on the terminal."""
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return shown if len(shown) <= limit else shown[:limit] + "…"






SEED = click.IntRange(0, 2**63 - 1)


@main.command()
@click.argument("spec", metavar="SPEC")
@click.option("--auto", is_flag=True, help="All seats are bots; print a readable log.")
@click.option("--seed", type=SEED, default=None, help="Seed of the deal (and the bots).")
@click.option("--seat", type=int, default=0, help="Your seat (0-based).")
@click.option("--bots", default="heuristic", show_default=True,
              help=f"The bot of the other seats ({', '.join(BOTS)}; options after colons, e.g. "
                   "search:iters=400): one name for every seat, or comma-separated names seat by "
                   "seat from seat 0 (with --auto every seat is a bot).")
@click.option("--record", "record_path", default=None, help="Write the game record (JSON) to this file.")
@plugin_option
@user_errors
def play(spec: str, auto: bool, seed: int | None, seat: int, bots: str, record_path: str | None,
         plugins: tuple[str, ...]) -> None:
    """Play a game at the terminal against bots (or watch bots with --auto)."""
    with user_plugins(plugins):
        _play(spec, auto, seed, seat, bots, record_path, plugins)


def _play(spec: str, auto: bool, seed: int | None, seat: int, bots: str, record_path: str | None,
          plugins: tuple[str, ...]) -> None:
    import random

    rules = load_rules(spec, plugins)
    if not 0 <= seat < rules.players:  # with --auto too: a seat the table has not is a mistake
        raise DdzError(f"--seat must be between 0 and {rules.players - 1}, not {brief(seat)}")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    kinds = [k.strip() for k in bots.split(",")]
    kinds = (kinds * rules.players)[: rules.players]
    check_bots_for(rules, kinds)
    game_ref: list[Game] = []
    human = None if auto else seat
    if record_path is not None:  # before the game: a path that cannot be written loses it at the end
        check_output_path(record_path, "--record", rules.variant.spec.files)
    agents: list[Any] = [make_bot(kinds[i], game_seed(seed, 1000 + i)) for i in range(rules.players)]
    if human is not None:
        agents[human] = HumanAgent(game_ref)
    console.print(styled("[bold]{}[/]  seed {}", rules.variant.name, seed))

    # with --auto every hand is told at each deal (the first and each redeal's), and the kitty
    labels = kinds if auto else None

    def log(game: Game, action: Action, before: Before) -> None:
        for line in step_lines(game, action, before, human, labels, show_kitty=auto, echo_own=False):
            console.print(line, markup=False)

    game = rules.new_game(seed)
    game_ref.append(game)
    for line in deal_lines(game, labels, human, show_kitty=auto):
        console.print(line, markup=False)
    try:
        with _bounded_answers(human is not None):
            _play_out(game, agents, human, auto, log)
    except click.Abort as e:  # end of input (or Ctrl-C) at a prompt: say so, no traceback
        if isinstance(e.__context__, KeyboardInterrupt):  # click.prompt's Abort stands for Ctrl-C too
            console.print("the game is left unfinished and nothing was recorded", markup=False)
            raise KeyboardInterrupt from None  # user_errors: "interrupted by SIGINT: play stopped", 130
        raise DdzError("the input ended before the game did: the game is left unfinished and "
                       "nothing was recorded") from None
    assert game.scores is not None
    console.print()
    if game.escaped is not None:
        if record_path is not None:
            write_record(game, record_path)
        return
    console.print(result_text(game, human), markup=False, style="bold")
    events = ", ".join(f"{e.name} ×{e.factor:g}" for e in game.events) or "none"
    stake = f"stake {game.stake}, " if game.landlord is not None else ""
    console.print(f"{stake}multiple ×{game.multiple:g} ({events})", markup=False)
    if game.pair_factors:  # 加倍, 超级加倍, 加棒: each farmer's own factor with the landlord
        pairs = ", ".join(f"seat {s} ×{f:g}" for s, f in sorted(game.pair_factors.items()))
        console.print(f"pair factors with the landlord (seat {game.landlord}): {pairs}", markup=False)
    console.print("scores: " + ", ".join(f"seat {s}: {v:+d}" for s, v in enumerate(game.scores)))
    if record_path is not None:
        write_record(game, record_path)
        console.print(styled("record written to {}", record_path))


#: the longest answer read at a prompt (a play is a few dozen characters): a longer line
#: from a pipe or a file is read and dropped in pieces, never held whole (what a person
#: types at a terminal is bounded by the terminal's own line limit)
MAX_ANSWER = 4096
#: what a prompt reads in place of a longer line: an answer no question accepts
TOO_LONG = "(a line too long)"
#: how much of one line is read and dropped before the input is taken for no answers at all
MAX_DROPPED = 1 << 20


class _BoundedInput(io.TextIOBase):
    """Standard input for the prompts, read a line at a time up to :data:`MAX_ANSWER`."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # text, as TextIOBase's
        line: str = self.stream.readline(MAX_ANSWER + 1)
        if len(line) <= MAX_ANSWER or line.endswith("\n"):
            return line
        dropped = len(line)
        while line and not line.endswith("\n"):
            if dropped > MAX_DROPPED:  # no line end in sight (/dev/zero): not answers at all
                console.print(f"a line of more than {MAX_DROPPED:,} characters: the input holds no answers",
                              markup=False, style="red")
                raise click.Abort
            line = self.stream.readline(MAX_ANSWER)
            dropped += len(line)
        console.print(f"an answer is at most {MAX_ANSWER:,} characters: that line was dropped",
                      markup=False, style="red")
        return TOO_LONG + "\n"


@contextmanager
def _bounded_answers(asking: bool) -> Iterator[None]:
    """While a person is asked (and standard input is not a terminal), prompts read
    their answers through :class:`_BoundedInput`."""
    original = sys.stdin
    if asking and original is not None and not original.isatty():
        sys.stdin = _BoundedInput(original)  # type: ignore[assignment]  # read by input() as a text stream
    try:
        yield
    finally:
        sys.stdin = original


def _play_out(game: Game, agents: list[Any], human: int | None, auto: bool,
              log: Callable[[Game, Action, Before], None]) -> None:
    """Ask each seat in turn until the game is over (or the person escapes)."""
    while not game.over:
        current = game.to_act
        assert current is not None
        before = Before.of(game)
        legal = game.legal_actions()
        action = agents[current].act(game.view(current), legal)
        if action.kind == "escape":  # 逃跑: the variant's escape rule settles the game
            try:
                game.abandon(current)
            except PlayError as e:
                console.print(str(e), markup=False, style="red")
                continue
            console.print(f"you leave the game (逃跑); scores: {game.scores}")
            return
        game.apply(action)
        log(game, action, before)


@main.command("replay")
@click.argument("file")  # records.load_record refuses what is not a regular file (exit 1)
@click.option("--spec", "spec_file", default=None, metavar="FILE",
              help="Check that this spec (file or name) is the one the record was played under.")
@plugin_option
@json_option
@user_errors
def replay_cmd(file: str, spec_file: str | None, plugins: tuple[str, ...], as_json: bool) -> None:
    """Replay a game record and verify every action and the final figures.

    The rules come from the resolved spec stored in the record (no spec file needed);
    with --spec, or when the record names a bundled spec, it must match the record's
    hash. A record's spec name is never opened as a file. A record that does not verify
    exits 1."""
    record = load_record(file)
    with user_plugins(plugins):
        try:
            result = replay(record, spec_file=spec_file)
        except DdzError:
            raise
        except Exception as e:
            if not plugins:
                raise
            raise DdzError(f"replay failed: {type(e).__name__}: {e} (raised by a --plugin class? "
                           f"{', '.join(plugins)})") from None
    game = result.game
    if as_json:
        emit_json({"ok": True, "actions": result.actions, "scores": game.scores, "spec": result.spec_note,
                   "record": game_record(game)})
        return
    console.print(f"ok: {result.actions} actions replayed under {game.variant.name}; "
                  f"scores {game.scores} verified", markup=False)
    console.print(result.spec_note, markup=False, soft_wrap=True)


#: the markers of docs/plugins.md's generated block (ddzrules.generated; `ddzrules docs plugins` writes it)
DOCS_BEGIN = generated.BEGIN.format(source="ddzrules docs plugins")
DOCS_END = generated.END


def _schema_type(prop: dict[str, Any]) -> str:
    """A parameter's type in words, from its JSON Schema."""
    if "enum" in prop:
        kinds = sorted({type(v).__name__ for v in prop["enum"]})
        return " or ".join({"str": "string", "int": "integer", "float": "number",
                            "bool": "boolean", "NoneType": "null"}.get(k, k) for k in kinds)
    if "const" in prop:
        return "constant"
    t = prop.get("type")
    if isinstance(t, list):
        return " or ".join(map(str, t))
    if t == "array" and isinstance(prop.get("items"), dict):
        return f"array of {_schema_type(prop['items'])}"
    if t == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"object of {_schema_type(prop['additionalProperties'])}"
    if t is None:
        for key in ("anyOf", "oneOf"):
            if isinstance(prop.get(key), list):
                return " or ".join(_schema_type(p) for p in prop[key] if isinstance(p, dict))
        return "any"
    return str(t)


def _schema_allowed(prop: dict[str, Any]) -> str:
    """The values a parameter allows, from its JSON Schema (enum, ranges, sizes, keys)."""
    parts = []
    if "enum" in prop:
        parts.append(", ".join(json.dumps(v, ensure_ascii=False) for v in prop["enum"]))
    for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                      ("exclusiveMaximum", "<"), ("minItems", "items: at least"), ("maxItems", "items: at most"),
                      ("minLength", "length ≥"), ("maxLength", "length ≤")):
        if key in prop:
            parts.append(f"{sign} {prop[key]}")
    items = prop.get("items")
    if isinstance(items, dict):
        inner = _schema_allowed(items)
        if inner:
            parts.append(f"each {inner}")
    if prop.get("uniqueItems"):
        parts.append("no repeats")
    if isinstance(prop.get("properties"), dict):
        keys = ", ".join(f"{k} ({_schema_type(v)})" for k, v in prop["properties"].items()
                         if isinstance(v, dict))
        parts.append(f"keys: {keys}")
    return "; ".join(parts)


def _described_defaults(cls: type) -> dict[str, dict[str, Any]]:
    """``{param: {"value", "en"}}`` from the plugin's ``ddzrules_describe`` with no
    parameters (its defaults), when it can be built that way; else empty."""
    import jsonschema

    schema = getattr(cls, "params_schema", {"type": "object"})
    try:
        if not jsonschema.Draft202012Validator(schema).is_valid({}):
            return {}
        inst = cls({})
        describe = getattr(inst, "ddzrules_describe", None)
        out = describe() if callable(describe) else None
    except STOPS:
        raise
    except BaseException:  # noqa: BLE001 - a plugin's own code (SystemExit …): no defaults shown then
        return {}
    if not isinstance(out, dict) or not isinstance(out.get("params"), list):
        return {}
    return {str(p["name"]): p for p in out["params"] if isinstance(p, dict) and "name" in p}


def plugin_params(cls: type) -> list[dict[str, Any]]:
    """A plugin's parameters from its ``params_schema``: ``name``, ``type``, ``required``,
    ``default`` (the schema's ``default``, else the value the plugin describes itself with
    when given no parameters; None when unknown), ``allowed`` and ``meaning``."""
    schema = getattr(cls, "params_schema", None)
    if not isinstance(schema, dict):
        return []
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    described = _described_defaults(cls)
    rows = []
    for name, prop in props.items():
        if not isinstance(prop, dict):
            continue
        d = described.get(name, {})
        if "default" in prop:
            default = json.dumps(prop["default"], ensure_ascii=False)
        elif "value" in d:
            default = "none" if d["value"] is None else json.dumps(d["value"], ensure_ascii=False)
        else:
            default = None
        rows.append({"name": name, "type": _schema_type(prop), "required": name in required,
                     "default": default, "allowed": _schema_allowed(prop),
                     "meaning": str(prop.get("description") or d.get("en") or "")})
    return rows


def _summary(cls: type) -> str:
    """The first sentence of a plugin's docstring, whole, however its lines wrap (the
    first line alone stopped mid-sentence)."""
    import inspect
    import re

    paragraph = " ".join((inspect.getdoc(cls) or "").split("\n\n", 1)[0].split())
    # a sentence ends at . ! ? (or 。！？) before the capital or CJK start of the next
    end = re.search(r"(?<=[.!?])\s+(?=[A-Z\u4e00-\u9fff])|(?<=[。！？])", paragraph)
    return paragraph[:end.start()].strip() if end and end.start() < len(paragraph) else paragraph


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def params_markdown(registry: PluginRegistry, names: list[str]) -> str:
    """The parameter reference of ``names`` as Markdown (what docs/plugins.md holds)."""
    out = []
    for name in names:
        cls = registry.get(name)
        if cls is None:
            continue
        out.append(f"### `{name}`")
        out.append("")
        out.append(_cell(_summary(cls)))
        out.append("")
        rows = plugin_params(cls)
        if not rows:
            out.append("No parameters.")
            out.append("")
            continue
        out.append("| parameter | type | default | allowed | meaning |")
        out.append("| --- | --- | --- | --- | --- |")
        for r in rows:
            default = "required" if r["required"] else (r["default"] or "—")
            out.append(f"| `{r['name']}` | {_cell(r['type'])} | {_cell(default)} | "
                       f"{_cell(r['allowed']) or '—'} | {_cell(r['meaning']) or '—'} |")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def builtin_plugin_names(registry: PluginRegistry) -> list[str]:
    """The plugins ddzrules itself ships (its own entry points)."""
    return [n for n in registry.names() if registry.source(n).endswith("(ddzrules)")]


def plugins_markdown(registry: PluginRegistry | None = None) -> str:
    """The text of docs/plugins.md's generated block: every built-in plugin's parameters."""
    registry = registry or PluginRegistry()
    return ("<!-- `ddzrules docs update docs/plugins.md` (or `ddzrules plugins --params all --update-docs "
            "docs/plugins.md`) writes this block; do not edit it by hand -->\n\n"
            f"{params_markdown(registry, builtin_plugin_names(registry))}\n")


def generated_docs(registry: PluginRegistry | None = None) -> str:
    """The generated block of docs/plugins.md, with its markers."""
    return f"{DOCS_BEGIN}\n{plugins_markdown(registry)}{DOCS_END}"


def update_docs(path: str | Path, registry: PluginRegistry | None = None) -> bool:
    """Rewrite the generated block of ``path``; True when it changed."""
    statuses = generated.update_files([path], {"ddzrules docs plugins": lambda args: plugins_markdown(registry)})
    if not statuses:
        raise DdzError(f"{path} has no block between {DOCS_BEGIN} and {DOCS_END}")
    return statuses[0].stale


@main.command("plugins")
@click.option("--params", "params", default=None, metavar="NAME",
              help="Show a plugin's parameters (types, defaults, allowed values, meaning); "
                   "'all' for every plugin.")
@click.option("--update-docs", "docs", default=None, metavar="FILE",
              help="With --params all: rewrite FILE's generated block (the built-in plugins' "
                   "parameters, e.g. docs/plugins.md).")
@plugin_option
@json_option
@user_errors
def plugins_cmd(params: str | None, docs: str | None, plugins: tuple[str, ...], as_json: bool) -> None:
    """List the installed plugins and the hooks each implements (--params NAME: its parameters)."""
    if docs is not None:
        if params != "all":
            raise DdzError("--update-docs goes with --params all")
        kind = special_file(docs)
        if kind is not None:  # a directory was walked for every *.md in it, a device read as one
            raise DdzError(f"--update-docs {escaped(docs)}: {kind}, not a Markdown file (e.g. docs/plugins.md)")
        changed = update_docs(docs)
        console.print(f"{docs}: {'updated' if changed else 'already up to date'}", markup=False)
        return
    with user_plugins(plugins):
        registry = default_registry()
        if params is not None:
            _print_params(registry, params, as_json)
            return
        rows: list[dict[str, Any]] = []
        for name in registry.names():
            cls = registry.get(name)
            rows.append({"name": name, "source": registry.source(name),
                         "hooks": implemented_hooks(cls) if cls else [],
                         "summary": _summary(cls) if cls else ""})
    if as_json:
        emit_json(rows)
        return
    table = Table("plugin", "hooks", "about", box=None)
    table.columns[2].overflow = "fold"  # a description is wrapped, never cut with an ellipsis
    for r in rows:
        table.add_row(r["name"], "\n".join(h.removeprefix("ddzrules_") for h in r["hooks"]), r["summary"])
    console.print(table)


def _print_params(registry: PluginRegistry, name: str, as_json: bool) -> None:
    import difflib

    names = registry.names() if name == "all" else [name]
    if name != "all" and registry.get(name) is None:
        hint = difflib.get_close_matches(name, registry.names(), n=1)
        more = f" (did you mean {hint[0]!r}?)" if hint else ""
        raise DdzError(f"unknown plugin {name!r}{more}; installed: {', '.join(registry.names())}")
    found = [(n, cls) for n in names if (cls := registry.get(n)) is not None]
    if as_json:
        emit_json([{"plugin": n, "summary": _summary(cls), "params": plugin_params(cls)}
                   for n, cls in found])
        return
    for n, cls in found:
        console.print(styled("[bold]{}[/]: {}", n, _summary(cls)), soft_wrap=True)
        rows = plugin_params(cls)
        if not rows:
            console.print("  no parameters")
            continue
        table = Table(box=None)
        for column in ("parameter", "type", "default", "allowed", "meaning"):
            table.add_column(column, overflow="fold")
        for r in rows:
            default = "required" if r["required"] else (r["default"] or "—")
            table.add_row(r["name"], r["type"], default, r["allowed"] or "—", r["meaning"] or "—")
        console.print(table)
