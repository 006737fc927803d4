"""``ddzrules serve``: the playground in the browser (the ``web`` extra)."""

from __future__ import annotations

import ipaddress

import click

from ddzrules.cli import err_console, main, user_errors
from ddzrules.errors import DdzError


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but loopback lets other machines in (a warning says so).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--time-limit", type=click.FloatRange(0.5, 3600), default=30, show_default=True,
              help="Seconds one request may compute before it is stopped.")
@click.option("--memory-limit", type=click.IntRange(256, 1 << 20), default=4096, show_default=True,
              help="MiB of memory each worker process may hold.")
@user_errors
def serve(host: str, port: int, time_limit: float, memory_limit: int) -> None:
    """The playground: edit a spec with live validation, see its census and rule sheet,
    classify and compare, diff it against a bundled spec, play it against bots, and step
    through records, in a local web page (the web extra: pip install 'ddzrules[web]')."""
    try:
        import uvicorn

        from ddzrules.web.app import create_app
        from ddzrules.web.lanes import Limits
    except ImportError as e:
        raise DdzError(f"ddzrules serve needs the web extra ({e.name} is missing): "
                       "pip install 'ddzrules[web]'") from None
    if not _loopback(host):
        err_console.print(f"warning: serving on {host}: anyone who can reach it can use this playground "
                          "(its requests are bounded, but it has no accounts)", markup=False)
    hosts = tuple(dict.fromkeys([host, "127.0.0.1", "localhost", "[::1]", "::1"]))
    app = create_app(Limits(seconds=time_limit, memory_mb=memory_limit), hosts=hosts if host not in
                     ("0.0.0.0", "::") else ("*",))
    shown = f"[{host}]" if ":" in host else host
    err_console.print(f"ddzrules playground on http://{shown}:{port}/ (Ctrl-C stops it)", markup=False)
    uvicorn.run(app, host=host, port=port, log_level="warning")
