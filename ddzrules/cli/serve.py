"""``ddzrules serve``: the playground in the browser (the ``web`` extra)."""

from __future__ import annotations

import errno
import ipaddress
import math
import re
import socket

import click

from ddzrules.cli import err_console, main, user_errors
from ddzrules.errors import DdzError, brief


def _bound(sock: socket.socket) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address ``sock`` is bound to, as the system reads it: every spelling of one
    (``localhost``, ``127.1``, ``0``) is the same address here."""
    address = _ip(sock.getsockname()[0])
    assert address is not None  # a bound socket's address is an IP address
    return address


def _loopback(sock: socket.socket) -> bool:
    """Whether ``sock`` is bound to a loopback address (``::ffff:127.0.0.1`` is one)."""
    address = _bound(sock)
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is 127.0.0.1
    return (mapped or address).is_loopback


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (IPv6 for an address with a colon), before the
    server starts: a host that does not resolve or is not this machine's, or a port in
    use, is a :class:`DdzError` (the server logged it and exited 3).
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


#: the names every server accepts: this machine's loopback
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
#: a host name as a Host header gives it (IDNA-encoded): letters, digits, dots, hyphens
_NAME = re.compile(r"[a-z0-9_]([a-z0-9._-]*[a-z0-9_.])?")


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``name`` as an IP address (an IPv6 one with or without brackets, without its
    ``%zone``), or None for a name."""
    try:
        return ipaddress.ip_address(name.removeprefix("[").removesuffix("]").split("%")[0])
    except ValueError:
        return None


def _host_forms(name: str) -> list[str]:
    """``name`` as the Host header of a request names it: lower case, and an IPv6 address
    in brackets (as Starlette's TrustedHostMiddleware reads it) and without them."""
    address = _ip(name)
    if isinstance(address, ipaddress.IPv6Address):
        return [f"[{address.compressed}]", address.compressed]
    return [str(address) if address else name.lower()]


def _this_machine() -> list[str]:
    """The names and addresses by which this machine can be reached, as far as the standard
    library finds them: its host names (short and fully qualified), the addresses they
    resolve to, and the address of each default route (a UDP socket "connected" to a
    documentation address: the system picks the source address, and sends nothing)."""
    names = [socket.gethostname(), socket.getfqdn()]
    found = list(names)
    for name in names:
        try:
            found += [str(info[4][0]) for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)]
        except (OSError, UnicodeError):  # a host name that does not resolve
            pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect((probe, 9))
                found.append(str(udp.getsockname()[0]))
        except OSError:  # no such family, or no route
            pass
    return [name for name in found if name]


def allowed_hosts(host: str, every_interface: bool, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The hosts requests to a server listening on ``host`` may name (the ``hosts`` of
    :func:`ddzrules.web.app.create_app`): ``host`` itself, loopback, this machine's own
    names and addresses when it listens on every interface, and ``extra``
    (``--allowed-host``). Never every host: a page elsewhere could then reach the
    playground through DNS rebinding."""
    names = [host, *LOOPBACK_HOSTS, *(_this_machine() if every_interface else []), *extra]
    return tuple(dict.fromkeys(form for name in names for form in _host_forms(name)))


def _allowed_host(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """Each ``--allowed-host``: a host name or an IP address, as a Host header gives it
    (without a port); a name that is not ASCII is taken in its IDNA form."""
    checked = []
    for value in values:
        shown = brief(value, 80)
        if not value or any(c.isspace() for c in value):
            raise click.BadParameter(f"{shown}: a host name or address, without spaces", ctx, param)
        if "*" in value:
            raise click.BadParameter(f"{shown}: name each host; a wildcard would let a page elsewhere reach "
                                     "this server through DNS rebinding", ctx, param)
        if _ip(value) is not None:
            checked.append(value)
            continue
        try:
            name = value.encode("idna").decode("ascii").lower()
        except UnicodeError:
            name = ""
        if not _NAME.fullmatch(name):
            raise click.BadParameter(f"{shown}: not a host name or an IP address (give it without a scheme, "
                                     "a port or a path)", ctx, param)
        checked.append(name)
    return tuple(checked)


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
@click.option("--allowed-host", "allowed", multiple=True, metavar="NAME", callback=_allowed_host,
              help="A host name or address other machines reach this server by (repeatable): requests "
                   "naming any other host are refused (no DNS rebinding). Loopback, --host, and with "
                   "--host 0.0.0.0 or :: this machine's names and addresses are accepted without it.")
@user_errors
def serve(host: str, port: int, time_limit: float, memory_limit: int, allowed: tuple[str, ...]) -> None:
    """The playground: edit a spec with live validation, see its census and rule sheet,
    classify and compare, diff it against a bundled spec, play it against bots, and step
    through records, in a local web page (the web extra: pip install 'ddzrules[web]')."""
    try:
        import hypercorn  # noqa: F401 - the server: its absence said here, in one line

        from ddzrules.web import server
        from ddzrules.web.app import create_app
        from ddzrules.web.lanes import Limits
    except ImportError as e:
        raise DdzError(f"ddzrules serve needs the web extra ({e.name} is missing): "
                       "pip install 'ddzrules[web]'") from None
    sock = _listen(host, port)
    port = sock.getsockname()[1]  # --port 0: the one the system chose
    if not _loopback(sock):
        err_console.print(f"warning: serving on {host}: anyone who can reach it can use this playground "
                          "(each address is a client with its own quotas, docs/playground.md; there are "
                          "no accounts)", markup=False)
    hosts = allowed_hosts(host, _bound(sock).is_unspecified, allowed)
    app = create_app(Limits(seconds=time_limit, memory_mb=memory_limit), hosts=hosts)
    named = ", ".join(name for name in hosts if not (":" in name and not name.startswith("[")))
    err_console.print(f"requests must name one of these hosts: {named}"
                      + ("" if allowed else " (--allowed-host adds one)"), markup=False)
    sock.listen(server.BACKLOG)  # from the message on, a connection waits for the server, not refused
    shown = f"[{host}]" if ":" in host else host
    err_console.print(f"ddzrules playground on http://{shown}:{port}/ (Ctrl-C stops it)", markup=False)
    _more_files()
    with sock:
        server.serve(app, sock)


def _more_files() -> None:
    """The soft limit on open files raised to the hard one: each connection is a file, and
    many machines start at 1,024 (idle connections are closed by the server's timeouts,
    ddzrules.web.server)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = 1 << 16 if hard == resource.RLIM_INFINITY else hard
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not on every system
        pass
