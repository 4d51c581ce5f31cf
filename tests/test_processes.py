"""Nothing simdup starts outlives it: the app and the command's worker processes, however they end.

Each case starts the real program in a process of its own, waits until it has started its
worker processes, ends it (closed by SIGTERM, as a logout or ``kill`` does; or ``kill -9``, which
no handler sees), and checks that every process it started is gone within 10 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
    pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: scans start no worker"),
]
GONE_WITHIN_S = 10


def started_processes(pid: int, at_least: int, timeout: float = 90) -> list[psutil.Process]:
    """The processes ``pid`` started, once there are ``at_least`` of them."""
    parent = psutil.Process(pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = parent.children(recursive=True)
        if len(children) >= at_least:
            return children
        time.sleep(0.05)
    raise AssertionError(f"{pid} started fewer than {at_least} processes")


def still_running(processes: list[psutil.Process]) -> list[psutil.Process]:
    """Those of ``processes`` alive after GONE_WITHIN_S (zombies count as gone)."""
    _, alive = psutil.wait_procs(processes, timeout=GONE_WITHIN_S)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def large_folder(root: Path) -> Path:
    """Enough text for a scan to take worker processes however its kernels are ready."""
    folder = root / "articles"
    folder.mkdir()
    for n in range(400):
        story = f"Article {n} about the harbour, the railway and the spring tea harvest. "
        (folder / f"a{n}.txt").write_text(story * 90, encoding="utf-8")
    return folder


def environment(root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "SIMDUP_CACHE_DIR": str(root / "cache"),
        "SIMDUP_LOG_DIR": str(root / "log"),
        "XDG_CONFIG_HOME": str(root / "config"),
        "XDG_DATA_HOME": str(root / "data"),
    }


@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["kill", "kill -9"])
def test_nothing_of_the_app_outlives_it(tmp_path: Path, ending: signal.Signals) -> None:
    folder = large_folder(tmp_path)
    said = tmp_path / "stderr"
    with said.open("wb") as stderr:
        app = subprocess.Popen(
            [sys.executable, "-m", "simdup_gui", str(folder)],
            env=environment(tmp_path),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            started = started_processes(app.pid, at_least=2)  # workers, resource tracker
            app.send_signal(ending)
            app.wait(GONE_WITHIN_S)
        finally:
            app.kill()
            app.wait()
    assert still_running(started) == []
    if ending == signal.SIGTERM:
        assert app.returncode == 0, said.read_text()  # quit as if closed, not killed
        assert "Traceback" not in said.read_text()


WORKERS_THEN_DIE = """
import multiprocessing, os, signal, sys, time
from simdup_gui.engine.run.workers import process_pool
pool = process_pool(2, multiprocessing.get_context(sys.argv[1]))
for _ in range(2):
    pool.submit(time.sleep, 600)
while len(multiprocessing.active_children()) < 2:
    time.sleep(0.05)
print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no clean-up runs: the workers must notice
"""


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_workers_end_when_their_parent_is_killed(tmp_path: Path, start: str) -> None:
    """The command forks its workers, the app spawns them: both watch their parent."""
    if start not in __import__("multiprocessing").get_all_start_methods() or (
        start == "fork" and not hasattr(os, "fork")
    ):
        pytest.skip(f"no {start} here")
    done = subprocess.run(
        [sys.executable, "-c", WORKERS_THEN_DIE, start],
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    workers = [psutil.Process(int(pid)) for pid in done.stdout.split()]
    assert len(workers) == 2
    assert still_running(workers) == []


@pytest.mark.parametrize("ending", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_nothing_of_a_cluster_scan_outlives_it(tmp_path: Path, ending: signal.Signals) -> None:
    """``scan --dask local:2`` starts a scheduler's workers: Ctrl+C, kill or kill -9 ends them."""
    pytest.importorskip("distributed", exc_type=ImportError)
    folder = tmp_path / "articles"
    folder.mkdir()
    for n in range(3000):  # long enough to be stopped in the middle
        story = f"Article {n} about the harbour, the railway and the spring tea harvest. "
        (folder / f"a{n}.txt").write_text(story * 90, encoding="utf-8")
    command = [sys.executable, "-m", "simdup_gui.cli", "scan", str(folder), "--dask", "local:2"]
    scan = subprocess.Popen(
        [*command, "--no-cache", "--quiet"],
        env=environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        started = started_processes(scan.pid, at_least=3)  # two workers, resource tracker
        scan.send_signal(ending)
        scan.wait(GONE_WITHIN_S)
    finally:
        scan.kill()
        said = scan.communicate()[1].decode()
    assert still_running(started) == []
    if ending == signal.SIGINT:
        assert scan.returncode == 130, said
        assert said.strip().endswith("simdup: interrupted")


@pytest.mark.parametrize(
    ("command", "group", "delays"),
    [
        ("scan", False, [0.5 + 0.1 * n for n in range(10)]),  # kill -INT, twice
        ("scan", True, [0.5, 0.7, 0.9, 1.1]),  # Ctrl+C, twice: to every process of the command
        ("reuse", True, [0.9]),
    ],
    ids=["scan-kill-int", "scan-ctrl-c", "reuse-ctrl-c"],
)
def test_two_interrupts_end_the_command_in_one_line(
    tmp_path: Path, command: str, group: bool, delays: list[float]
) -> None:
    """Two interrupts 50 ms apart, at moments from the start to the workers' batches: exit
    130, one line, nothing left running. (Before: a worker took Ctrl+C and printed a traceback;
    one during the clean-up left the command waiting on its workers for good.)"""
    import random

    folder = tmp_path / "articles"
    folder.mkdir()
    rng = random.Random(3)
    words = [
        "harbour",
        "railway",
        "spring",
        "tea",
        "harvest",
        "council",
        "library",
        "river",
        "museum",
        "festival",
    ]
    for n in range(3000):  # texts of their own, long enough to be stopped in the middle
        text = " ".join(rng.choice(words) for _ in range(900))
        (folder / f"a{n}.txt").write_text(text, encoding="utf-8")
    for delay in delays:
        run = subprocess.Popen(
            [sys.executable, "-m", "simdup_gui.cli", command, str(folder), "--no-cache"],
            env=environment(tmp_path),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a process group of its own, as a terminal's command
        )
        try:
            time.sleep(delay)
            started = psutil.Process(run.pid).children(recursive=True)
            for _ in range(2):
                if group:
                    os.killpg(run.pid, signal.SIGINT)
                else:
                    run.send_signal(signal.SIGINT)
                time.sleep(0.05)
            run.wait(GONE_WITHIN_S)
        finally:
            run.kill()
            said = run.communicate()[1].decode()
        assert run.returncode == 130, (delay, said)
        assert said.strip().splitlines()[-1:] == ["simdup: interrupted"], (delay, said)
        assert "Traceback" not in said, (delay, said)
        assert still_running(started) == []
