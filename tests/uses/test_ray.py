"""The Ray backend of ``simulate``: the same figures as one local process, plugins
reaching the workers, clean errors for an unreachable cluster or a missing Ray.

Ray is started once for the module (``num_cpus=2``: a few seconds) and shut down at
its end; the tests that need it are skipped when Ray is not installed."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_plugin_option import PLUGIN, SPEC, ok, user_error

from ddzrules.cli import main
from ddzrules.runtime import PluginRegistry
from ddzrules.simulate import compare_specs
from ddzrules.simulate.duel import duel
from ddzrules.simulate.ray_backend import task_ranges


@pytest.fixture(scope="module")
def ray_session() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield ray
    finally:
        ray.shutdown()


def free_port() -> int:
    """A local port nobody listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("games, cpus", [(1, 2), (7, 2), (200, 2), (2000, 2), (10_000, 64)])
def test_task_ranges_cover_every_game_once_in_order(games: int, cpus: int) -> None:
    ranges = task_ranges(games, cpus)
    assert [i for start, stop in ranges for i in range(start, stop)] == list(range(games))
    assert all(stop > start for start, stop in ranges)


def test_ray_prints_the_same_json_as_one_local_process(ray_session: Any) -> None:
    # issue 13's acceptance command, as given
    runner = CliRunner()
    args = ["simulate", "hubei-3p", "--games", "2000", "--seed", "3", "--json"]
    local = ok(runner.invoke(main, [*args, "--workers", "1"])).output
    on_ray = ok(runner.invoke(main, [*args, "--backend", "ray"])).output
    assert json.loads(on_ray)["games"] == 2000
    assert on_ray == local


def test_diff_games_on_ray_equal_the_local_ones(ray_session: Any) -> None:
    runner = CliRunner()
    args = ["diff", "hubei-3p", "crown-3p", "--games", "300", "--seed", "4", "--json"]
    local = runner.invoke(main, args)
    on_ray = runner.invoke(main, [*args, "--backend", "ray"])
    assert local.exit_code == on_ray.exit_code == 1, on_ray.output  # the rule sets differ
    games = json.loads(on_ray.output)["games"]
    assert games["games"] == 300
    assert on_ray.output == local.output


def test_diff_address_needs_the_ray_backend() -> None:
    result = CliRunner().invoke(main, ["diff", "hubei-3p", "crown-3p", "--games", "5",
                                       "--address", "127.0.0.1:6379"])
    assert result.exit_code == 2 and "--address needs --backend ray" in result.output
    assert "Traceback" not in result.output


def test_a_comparison_on_ray_equals_the_local_one(ray_session: Any) -> None:
    progress: list[int] = []
    specs = ["hubei-3p", "qiangdizhu"]
    local = compare_specs(specs, 60, 5, ["random"])
    on_ray = compare_specs(specs, 60, 5, ["random"], backend="ray",
                           progress=lambda done, total: progress.append(done))
    assert on_ray == local
    assert progress == list(range(1, 61))


def test_plugins_reach_the_ray_workers(ray_session: Any, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "houseplug.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "house-3p.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(PluginRegistry.ENV, raising=False)
    runner = CliRunner()
    args = ["simulate", "house-3p.yaml", "--games", "20", "--seed", "2", "--json",
            "--plugin", "houseplug.py:TrioBonus"]
    local = json.loads(ok(runner.invoke(main, args)).output)
    on_ray = json.loads(ok(runner.invoke(main, [*args, "--backend", "ray"])).output)
    assert on_ray == local
    assert on_ray["events_per_game"].get("trio", 0) > 0


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    """A duel's result without what depends on where it ran (decision times, the backend)."""
    return {k: v for k, v in result.items() if k not in ("decision_ms", "backend")}


@pytest.mark.parametrize("protocol", ["duplicate", "douzero"])
def test_a_duel_on_ray_equals_the_local_one(ray_session: Any, protocol: str) -> None:
    local = duel("hubei-3p", "search:iters=8", "heuristic", deals=6, seed=2, protocol=protocol)
    on_ray = duel("hubei-3p", "search:iters=8", "heuristic", deals=6, seed=2, protocol=protocol,
                  backend="ray")
    assert on_ray["backend"] == "ray" and local["backend"] == "local"
    assert _figures(on_ray) == _figures(local)
    assert on_ray["decision_ms"]["a"]["decisions"] == local["decision_ms"]["a"]["decisions"] > 0


def test_a_duel_with_a_plugin_on_ray(ray_session: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "houseplug.py").write_text(PLUGIN, encoding="utf-8")
    (tmp_path / "house-3p.yaml").write_text(SPEC, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(PluginRegistry.ENV, raising=False)
    runner = CliRunner()
    args = ["duel", "house-3p.yaml", "--bots", "heuristic,random", "--deals", "8", "--seed", "2", "--json",
            "--plugin", "houseplug.py:TrioBonus"]
    local = json.loads(ok(runner.invoke(main, args)).output)
    on_ray = json.loads(ok(runner.invoke(main, [*args, "--backend", "ray"])).output)
    assert _figures(on_ray) == _figures(local)


def test_an_unreachable_address_is_a_clean_error(ray_session: Any) -> None:
    address = f"127.0.0.1:{free_port()}"
    message = user_error(CliRunner().invoke(
        main, ["simulate", "hubei-3p", "--games", "5", "--backend", "ray", "--address", address]))
    assert f"cannot reach the Ray cluster at {address}" in message


@pytest.mark.parametrize("args, words", [
    (["--address", "nowhere"], "expected HOST:PORT"),
    (["--backend", "local", "--address", "127.0.0.1:6379"], "--address needs --backend ray"),
])
def test_a_bad_address_option_is_a_clean_error(args: list[str], words: str) -> None:
    base = ["simulate", "hubei-3p", "--games", "5"]
    extra = [] if "--backend" in args else ["--backend", "ray"]
    assert words in user_error(CliRunner().invoke(main, [*base, *extra, *args]))


def test_without_ray_installed_the_message_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    message = user_error(CliRunner().invoke(
        main, ["simulate", "hubei-3p", "--games", "5", "--backend", "ray"]))
    assert "ddzrules[ray]" in message
