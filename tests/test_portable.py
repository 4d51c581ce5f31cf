"""simdup as Windows would have it: no ``fcntl``, no ``fork``, no ``dir_fd`` (``tests/posixless``).

Each case runs the real command or app in a process of its own with the POSIX-only modules and
calls hidden, from the start of the interpreter. The whole suite runs that way too:
``SIMDUP_POSIXLESS=1 python3 -m pytest``.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simdup_gui.engine.folders import distinct_folders
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.read.walk import in_folders
from simdup_gui.engine.resources import resource

HIDING = Path(__file__).resolve().parent / "posixless"


def environment(root: Path) -> dict[str, str]:
    """The environment of a process without the POSIX-only calls, with its own folders."""
    path = os.pathsep.join(filter(None, [str(HIDING), os.environ.get("PYTHONPATH")]))
    return {
        **os.environ,
        "PYTHONPATH": path,
        "QT_QPA_PLATFORM": "offscreen",
        "SIMDUP_CACHE_DIR": str(root / "cache"),
        "SIMDUP_LOG_DIR": str(root / "log"),
        "XDG_CONFIG_HOME": str(root / "config"),
        "XDG_DATA_HOME": str(root / "data"),
    }


def python(root: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """Run Python with ``arguments`` without the POSIX-only calls."""
    return subprocess.run(
        [sys.executable, *arguments],
        env=environment(root),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def simdup(root: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    """The ``simdup`` command without the POSIX-only calls; it must succeed."""
    done = python(root, "-m", "simdup_gui.cli", *arguments)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done


def contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_posix_only_calls_are_hidden(tmp_path: Path) -> None:
    """The shim is in force in a process started with it (else the other cases prove nothing)."""
    code = (
        "import os\ntry:\n    import fcntl\n    print('fcntl')\nexcept ImportError:\n"
        "    print('no fcntl')\n"
        "print(hasattr(os, 'fork'), len(os.supports_dir_fd), len(os.supports_follow_symlinks))"
    )
    assert python(tmp_path, "-c", code).stdout.split() == ["no", "fcntl", "False", "0", "0"]


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: scans start no worker")
def test_scan_library_trash_and_restore_without_posix(tmp_path: Path) -> None:
    sample = Path(shutil.copytree(resource("sample"), tmp_path / "sample"))
    before = contents(sample)
    report = tmp_path / "report.csv"
    said = simdup(tmp_path, "scan", str(sample), "--csv", str(report)).stderr
    assert "3 groups" in said
    with report.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert len({row["group_id"] for row in rows if row["group_id"]}) == 3

    library = tmp_path / "library"
    simdup(tmp_path, "library", "add", str(library), str(sample))
    simdup(tmp_path, "library", "add", str(library), str(sample))  # the writer's lock, again
    copy = tmp_path / "copy.txt"
    shutil.copy2(sample / "en" / "harbor-lighthouse.txt", copy)
    checked = simdup(tmp_path, "library", "check", str(library), str(copy)).stdout
    assert "harbor-lighthouse.txt" in checked

    manifest = tmp_path / "manifest.csv"
    simdup(tmp_path, "apply", str(report), "--trash", "--manifest", str(manifest))
    duplicates = [row["path"] for row in rows if row["role"] == "duplicate"]
    assert duplicates
    assert not any(os.path.exists(path) for path in duplicates)
    simdup(tmp_path, "restore", str(manifest))
    assert contents(sample) == before

    articles = tmp_path / "articles"  # enough for worker processes: spawned, as on Windows
    articles.mkdir()
    for n in range(400):
        story = f"Article {n} about the harbour, the railway and the spring tea harvest. "
        (articles / f"a{n}.txt").write_text(story * 90, encoding="utf-8")
    said = simdup(tmp_path, "scan", str(articles), "--jobs", "2").stderr
    assert "400 files" in said


def test_the_app_starts_and_scans_without_posix(tmp_path: Path) -> None:
    code = f"""
import sys
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
from simdup_gui.app import create_window
app = QApplication(sys.argv)
settings = QSettings({str(tmp_path / "settings.ini")!r}, QSettings.Format.IniFormat)
window = create_window({str(resource("sample"))!r}, settings)
window.show()
def done():
    if window.result is not None:
        print(len(window.result.groups))
        window.close()
        app.quit()
poll = QTimer()
poll.timeout.connect(done)
poll.start(50)
QTimer.singleShot(120_000, app.quit)
app.exec()
window.runner.shutdown()
"""
    done = python(tmp_path, "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "3"


def test_paths_are_compared_in_the_systems_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows, where ``C:\\News`` and ``c:\\news`` are one folder (``os.path.normcase``
    lowers the case there: so here)."""
    (tmp_path / "News" / "sub").mkdir(parents=True)
    (tmp_path / "news" / "sub").mkdir(parents=True)
    upper, lower = str(tmp_path / "News"), str(tmp_path / "news")
    assert not in_folders(f"{lower}/a.txt", [upper])  # Linux: two folders
    monkeypatch.setattr(os.path, "normcase", str.lower)
    assert in_folders(f"{lower}/a.txt", [upper])
    assert not in_folders(f"{lower}room/a.txt", [upper])
    assert distinct_folders([upper, f"{lower}/sub"]) == [upper]
    assert "is inside the input" in (output_problem(f"{lower}/report.csv", [upper]) or "")
