"""The playground's worker processes (ddzrules.web.lanes) on their own: the private
directory each worker works in (the editor's text is written there) is removed however the
worker ends: stopped at the time bound, at the server's shutdown, by SIGTERM, or killed
outright (SIGKILL, or by the system for its memory). It was left in the temporary folder,
the user's text in it, whenever SIGTERM stopped the worker: its default action skipped the
worker's ``finally``. The editor's text itself is removed after each job; these tests
leave a file of their own in the directory (:func:`leave`) to see that it goes."""

from __future__ import annotations

import glob
import multiprocessing
import os
import signal
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from ddzrules.web.lanes import JobError, Lane, Limits


def draft(marker: str) -> str:
    return f"name: x\nextends: hubei-3p\n# {marker}\n"


def left_behind(marker: str) -> list[str]:
    """The workers' directories holding a file with ``marker`` in it."""
    pattern = os.path.join(tempfile.gettempdir(), "ddzrules-playground-*", "*")
    return [os.path.dirname(f) for f in glob.glob(pattern) if marker in Path(f).read_text(errors="replace")]


def leave(lane: Lane, marker: str) -> None:
    """A file in the running worker's directory, as a job might leave one."""
    assert lane.home is not None
    Path(lane.home, "left.txt").write_text(marker)


def worker(lane: Lane) -> multiprocessing.Process:
    (process,) = [p for p in multiprocessing.active_children() if p.name == f"ddzrules-{lane.name}"]
    return process


@pytest.fixture
def marker() -> str:
    return f"MARKER-{uuid.uuid4().hex}"


@pytest.fixture
def lane() -> Iterator[Lane]:
    lane = Lane("lanes-test", Limits(seconds=60))
    yield lane
    lane.close()


def test_a_job_stops_itself_at_the_time_bound_and_its_worker_goes_on(marker: str) -> None:
    """The bound is checked inside the work (ddzrules.web.deadline): the job answers that
    it was stopped, and the same worker serves the next one (it was ended and started
    again, a fresh import for every request after a slow one)."""
    lane = Lane("lanes-test", Limits(seconds=0.5))
    try:
        assert lane.call("validate", {"text": "name: y\n"})
        home, pid = lane.home, worker(lane).pid
        try:  # about 2-5 s, pure Python, here (tests/web/test_web_app.py)
            lane.call("census", {"text": f"name: x\nextends: tiandi-laizi\n# {marker}\n", "wild": "7,9"})
        except JobError as e:
            assert e.status == 503 and "longer than 0.5 s" in e.message, e.message
        else:
            pytest.skip("this build counted it within 0.5 s")
        assert left_behind(marker) == []  # the editor's text is gone with its job
        assert lane.call("validate", {"text": "name: y\n"})  # a cheap job: the bound is short
        assert lane.home == home and worker(lane).pid == pid
    finally:
        lane.close()


def test_the_directory_is_removed_at_shutdown(lane: Lane, marker: str) -> None:
    lane.call("validate", {"text": draft(marker)})
    assert left_behind(marker) == []  # the editor's text goes with its job
    leave(lane, marker)
    home = lane.home
    assert home is not None and left_behind(marker) == [home]
    lane.close()
    assert not os.path.exists(home) and left_behind(marker) == []


def test_the_worker_removes_its_directory_on_sigterm(lane: Lane, marker: str) -> None:
    lane.call("validate", {"text": draft(marker)})
    leave(lane, marker)
    (home,) = left_behind(marker)
    process = worker(lane)
    assert process.pid is not None
    os.kill(process.pid, signal.SIGTERM)  # as at the end of the server's process
    process.join(10)
    assert process.exitcode == 0  # a normal exit: its finally ran
    assert not os.path.exists(home)


def test_a_worker_killed_outright_leaves_no_directory(lane: Lane, marker: str) -> None:
    """SIGKILL (or the system's out-of-memory killer) runs nothing in the worker: the
    server removes the directory when it finds the worker gone."""
    lane.call("validate", {"text": draft(marker)})
    leave(lane, marker)
    (home,) = left_behind(marker)
    process = worker(lane)
    assert process.pid is not None
    os.kill(process.pid, signal.SIGKILL)
    process.join(10)
    assert os.path.exists(home)  # nothing removed it yet
    lane.call("validate", {"text": draft("after")})  # a fresh worker
    assert not os.path.exists(home) and lane.home != home


def test_a_full_disk_for_the_workers_directory_is_a_clear_507(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's directory that cannot be made (a full temporary disk) was an OSError,
    a 500 for every request; it is a JobError saying so, and no worker is left running."""
    import errno

    def full(*args: object, **kwargs: object) -> str:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    lane = Lane("lanes-test", Limits(seconds=30))
    with pytest.raises(JobError) as caught:
        lane.call("validate", {"text": "name: y\n"})
    assert caught.value.status == 507 and "No space left on device" in caught.value.message
    assert lane.home is None
    lane.close()
