"""Files a command writes (reports, records, rule sheets, JUnit files, documentation
pages): one mechanism for all of them.

A path is checked before any work (:func:`check_output_path`), so that a game or a run of
minutes is never made only to be lost at the end, and the file is written in one step
(:func:`write_file`): a temporary file in the same directory renamed over the path, so an
error or Ctrl-C never leaves half a file, and nothing is ever opened for writing but a new
regular file (a FIFO would block the write, a device take it).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_file(folder / "report.txt", "done\\n")
>>> (folder / "report.txt").read_text()
'done\\n'
>>> check_output_path(folder, "--html")
Traceback (most recent call last):
...
ddzrules.errors.DdzError: --html '...' is a directory: give a file name
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from ddzrules.errors import DdzError, brief


def check_output_path(path: str | os.PathLike[str], option: str | None = None,
                      inputs: Iterable[str | os.PathLike[str]] = ()) -> Path:
    """``path`` as a file that can be written there: not a directory, not a FIFO, device
    or socket, in an existing directory this process may write to, not a read-only file,
    and none of the command's ``inputs`` (``sheet s.yaml -o s.yaml`` replaced the spec
    with its sheet). A :class:`~ddzrules.errors.DdzError` otherwise, whose message starts
    with the ``option`` that named the path (``--html``), if any."""
    target = Path(path)
    shown = brief(str(path), 80)
    named = f"{option} {shown}" if option else shown
    if not str(path):
        raise DdzError(f"{option + ': ' if option else ''}a file name is needed, not an empty one")
    if str(path).endswith(("/", os.sep)):
        raise DdzError(f"{named}: a file name is needed, not a directory")
    try:
        info = target.stat()  # follows a symbolic link: what would be written is its target
    except FileNotFoundError:
        info = None
    except OSError as e:
        raise DdzError(f"{named}: {e.strerror or e}") from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise DdzError(f"{named} is a directory: give a file name")
        if not stat.S_ISREG(info.st_mode):
            raise DdzError(f"{named} is not a regular file (a FIFO, device or socket)")
        if not os.access(target, os.W_OK):
            raise DdzError(f"{named}: the file is not writable")
        for given in inputs:
            try:
                same = os.path.samefile(target, given)
            except OSError:  # an input that is not a file here (a bundled name)
                continue
            if same:
                raise DdzError(f"{named} is a file this command reads ({brief(str(given), 80)}): "
                               "not overwritten; write elsewhere")
    parent = target.parent
    if not parent.is_dir():
        raise DdzError(f"{named}: the directory {brief(str(parent), 80)} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DdzError(f"{named}: the directory {brief(str(parent), 80)} is not writable")
    return target


def write_file(path: str | os.PathLike[str], text: str, option: str | None = None,
               follow_links: bool = True, exclusive: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` in one step: checked again (the path may have
    changed during the work), a temporary file in the same directory, renamed over
    ``path``. A file replaced keeps its permissions; a symbolic link's target is written,
    or, with ``follow_links`` false, the link itself is replaced (a page found by walking
    a directory: what a link there leads to may lie outside it). With ``exclusive`` a file
    already there is never replaced, should one appear during the work (``new -o`` without
    ``--force``). A :class:`~ddzrules.errors.DdzError` if it cannot be, with nothing left
    behind."""
    check_output_path(path, option)
    # through a symbolic link: its target is the file (unless links are not followed)
    target = Path(os.path.realpath(path)) if follow_links else Path(os.path.abspath(path))
    try:  # a file replaced keeps its permissions; a new one gets the usual 0666 less the umask
        info = target.stat() if follow_links else target.lstat()
        mode = stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else 0o666 & ~_umask()
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as e:
        raise DdzError(f"cannot write {brief(str(path), 80)}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temp, mode)
        if exclusive:
            _link_new(temp, target, path, option)
        else:
            os.replace(temp, target)
    except BaseException as e:
        Path(temp).unlink(missing_ok=True)
        if isinstance(e, OSError):  # a full disk, a quota
            raise DdzError(f"cannot write {brief(str(path), 80)}: {e.strerror or e}") from None
        raise


def _link_new(temp: str, target: Path, path: str | os.PathLike[str], option: str | None) -> None:
    """``temp`` as ``target``, which must not exist: a hard link fails rather than replace a
    file (a file system without hard links: checked, then renamed)."""
    try:
        os.link(temp, target)
    except FileExistsError:
        named = f"{option} {brief(str(path), 80)}" if option else brief(str(path), 80)
        raise DdzError(f"{named} exists: not overwritten") from None
    except OSError:
        if os.path.lexists(target):
            raise
        os.replace(temp, target)
        return
    os.unlink(temp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
