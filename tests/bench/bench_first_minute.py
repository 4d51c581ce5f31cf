"""A newcomer's first minute: the first scan against the second, the idle app's memory, and how
soon the window shows.

    python tests/bench/bench_first_minute.py

* ``simdup scan resources/sample`` twice, each the whole command, with an empty numba cache
  (``NUMBA_CACHE_DIR`` pointing at a new folder: as after a fresh install) and an empty
  fingerprint cache; the medians of five such pairs. The first reads the files with the plain
  kernels (``engine/kernels.py``), the second finds them in the cache.
* ``python -m simdup_gui`` (offscreen): the memory of the app and every process it started,
  3 s after it opened, idle with no folder.
* The time from the interpreter's start to the shown window, in a process of its own.
* The window's largest stand-still in its first seconds: the app's own ``main()`` opens the
  sample folder (a copy) and scans it; then its first copy is compared, a Chinese HTML page
  next, and a knob is turned. A 5 ms timer's largest gap, in a process of its own with empty
  numba and fingerprint caches (the median of three).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

SAMPLE = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "sample")
SHOW = """
import time, psutil
started = psutil.Process().create_time()
from PySide6.QtWidgets import QApplication
from simdup_gui.app import create_window
app = QApplication([])
window = create_window()
window.show()
app.processEvents()
print(time.time() - started)
"""


FIRST_SECONDS = """
import os, shutil, sys, tempfile, time
from pathlib import Path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from simdup_gui import app as simdup_app
from simdup_gui.ui.main_window import MainWindow

qt = QApplication([])
folder = Path(tempfile.mkdtemp()) / "sample"
shutil.copytree(sys.argv[1], folder)
gaps, last = [], [time.monotonic()]

def beat():
    now = time.monotonic()
    gaps.append(now - last[0])
    last[0] = now

def window():
    return next(w for w in qt.topLevelWidgets() if isinstance(w, MainWindow))

def step():
    w = window()
    if w.runner.busy or w.result is None:
        return QTimer.singleShot(20, step)
    QTimer.singleShot(800, lambda: select(w))

def select(w):
    (n,) = [n for n, r in enumerate(w.result.files) if r.path.endswith("镜像.html")]
    w.groups_panel.select_file(n)
    QTimer.singleShot(800, lambda: w.knobs.k_box.setValue(5))
    QTimer.singleShot(1600, qt.quit)

timer = QTimer()
timer.timeout.connect(beat)
timer.start(5)
QTimer.singleShot(0, step)
simdup_app.main(["simdup-gui", str(folder)])
print(max(gaps))
"""


def scans(rounds: int = 5) -> dict[str, float]:
    """The median first and second scan over ``rounds``, each from empty caches."""
    firsts, seconds = [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as numba, tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": numba, "SIMDUP_CACHE_DIR": cache}
            times = []
            for _ in range(2):
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "simdup_gui.cli", "scan", SAMPLE, "--quiet"],
                    env=env,
                    capture_output=True,
                    check=True,
                )
                times.append(time.perf_counter() - start)
        firsts.append(times[0])
        seconds.append(times[1])
    return {
        "first_scan_s": round(statistics.median(firsts), 2),
        "second_scan_s": round(statistics.median(seconds), 2),
    }


def idle_app() -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    app = subprocess.Popen([sys.executable, "-m", "simdup_gui"], env=env)
    try:
        time.sleep(3)
        process = psutil.Process(app.pid)
        family = [process, *process.children(recursive=True)]
        return sum(p.memory_info().rss for p in family) / 1e6
    finally:
        app.terminate()
        app.wait(10)


def window_shown() -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip().splitlines()[-1])


def first_seconds_gap(rounds: int = 3) -> float:
    """The median of the window's largest stand-still over its first seconds (see the top)."""
    gaps = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as home:
            env = {
                **os.environ,
                "QT_QPA_PLATFORM": "offscreen",
                "NUMBA_CACHE_DIR": os.path.join(home, "numba"),
                "XDG_CONFIG_HOME": os.path.join(home, "config"),
                "XDG_CACHE_HOME": os.path.join(home, "cache"),
                "XDG_DATA_HOME": os.path.join(home, "data"),
            }
            done = subprocess.run(
                [sys.executable, "-c", FIRST_SECONDS, SAMPLE],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
        gaps.append(float(done.stdout.strip().splitlines()[-1]))
    return statistics.median(gaps)


def main() -> None:
    figures = scans()
    figures["first_over_second"] = round(figures["first_scan_s"] / figures["second_scan_s"], 2)
    figures["idle_app_mb"] = round(idle_app())
    figures["window_shown_s"] = round(window_shown(), 2)
    figures["first_seconds_largest_gap_s"] = round(first_seconds_gap(), 3)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
