"""``ddzrules serve``: the playground in the browser (the ``web`` extra)."""

from __future__ import annotations

import errno
import ipaddress
import math
import socket

import click

from ddzrules.cli import err_console, main, user_errors
from ddzrules.errors import DdzError, brief


def _loopback(sock: socket.socket) -> bool:
    """Whether ``sock`` is bound to a loopback address: read off the bound socket, so that
    every spelling of one (``localhost``, ``127.1``, ``::ffff:127.0.0.1``) is one."""
    address = ipaddress.ip_address(sock.getsockname()[0].split("%")[0])
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is 127.0.0.1
    return (mapped or address).is_loopback


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` as uvicorn binds one (IPv6 for an address with a
    colon), before the server starts: a host that does not resolve or is not this
    machine's, or a port in use, is a :class:`DdzError` (uvicorn logged it and exited 3).
    An empty host is refused: the system reads it as every interface (0.0.0.0)."""
    if not host.strip():
        raise DdzError("--host is empty: give an address (127.0.0.1 for this machine only, "
                       "0.0.0.0 for every interface)")
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM,
                         socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except socket.gaierror as e:
        sock.close()
        raise DdzError(f"--host {brief(host, 80)}: not an address ({e.strerror})") from None
    except (OSError, ValueError, TypeError) as e:  # ValueError: a NUL, a label too long;
        # TypeError: a name IDNA cannot encode (U+202E, U+200B, a label of 70 × é)
        sock.close()
        reason = e.strerror if isinstance(e, OSError) and e.strerror else \
            "not a name that can be looked up" if isinstance(e, TypeError) else str(e)
        if isinstance(e, OSError) and e.errno == errno.EADDRNOTAVAIL:
            reason += " (no interface of this machine has that address)"
        raise DdzError(f"cannot listen on --host {brief(host, 80)} --port {port}: {reason}") from None
    return sock


def _a_number(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """click's FloatRange lets NaN through (every comparison with it is false): refused
    here as any value out of range is (it failed every request of the playground)."""
    if math.isnan(value):
        raise click.BadParameter("nan is not a number of seconds", ctx, param)
    return value


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; anything but loopback lets other machines in (a warning says so).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--time-limit", type=click.FloatRange(0.5, 3600), default=30, show_default=True, callback=_a_number,
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
    sock = _listen(host, port)
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    if not _loopback(sock):
        err_console.print(f"warning: serving on {host}: anyone who can reach it can use this playground "
                          "(its requests are bounded, but it has no accounts)", markup=False)
    hosts = tuple(dict.fromkeys([host, "127.0.0.1", "localhost", "[::1]", "::1"]))
    app = create_app(Limits(seconds=time_limit, memory_mb=memory_limit), hosts=hosts if host not in
                     ("0.0.0.0", "::") else ("*",))
    shown = f"[{host}]" if ":" in host else host
    err_console.print(f"ddzrules playground on http://{shown}:{port}/ (Ctrl-C stops it)", markup=False)
    with sock:
        uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning")).run(sockets=[sock])
