"""Acting on the marked files from the window: re-checked, written ahead, off the GUI thread."""

from __future__ import annotations

import csv
import shutil
import time
from pathlib import Path

import pytest
from driving import SAMPLE, scan_and_wait
from pytestqt.qtbot import QtBot

from simdup_gui.ui.main_window import MainWindow


def test_a_file_changed_since_the_scan_is_not_trashed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(SAMPLE, folder)
    scan_and_wait(qtbot, window, folder)
    window.commands.mark_copies.trigger()
    marked = [window.result.files[n].path for n in window.groups.marked_files()]  # type: ignore[union-attr]
    edited = Path(marked[0])
    edited.write_bytes(edited.read_bytes() + "编辑部又改了一句。".encode())
    window.dialogs.answers.append(True)  # type: ignore[attr-defined]
    window.commands.trash.trigger()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    told = window.dialogs.last("inform")[1]  # type: ignore[attr-defined]
    assert "Done with 4 of 5 files; 1 skipped, 0 failed." in told
    assert "changed since the scan (size)" in told
    assert edited.exists()
    assert not any(Path(p).exists() for p in marked[1:])


def test_mark_and_move_writes_a_manifest(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(SAMPLE, folder)
    destination = tmp_path / "review"
    destination.mkdir()
    scan_and_wait(qtbot, window, folder)
    window.commands.mark_copies.trigger()
    marked = [window.result.files[n].path for n in window.groups.marked_files()]  # type: ignore[union-attr]
    assert len(marked) == 5
    assert window.status.marked.text().startswith("5 marked")
    dialogs = window.dialogs
    dialogs.folders.append(str(destination))  # type: ignore[attr-defined]
    dialogs.answers.append(False)  # type: ignore[attr-defined]
    window.commands.move.trigger()  # asked where, then asked to confirm: No
    assert all(Path(p).exists() for p in marked)
    question = dialogs.last("confirm")[1]  # type: ignore[attr-defined]
    assert "5 files from 3 groups" in question
    assert str(destination) in question
    assert len(dialogs.details[-1]) == 5  # type: ignore[attr-defined]
    dialogs.folders.append(str(destination))  # type: ignore[attr-defined]
    dialogs.answers.append(True)  # type: ignore[attr-defined]
    window.commands.move.trigger()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    rows = list(
        csv.DictReader(
            window.file_actions.last_manifest.read_text(encoding="utf-8-sig").splitlines()
        )
    )
    assert window.file_actions.last_manifest.parent == destination
    assert [r["action"] for r in rows] == ["moving", "moved"] * 5  # each written ahead
    rows = [r for r in rows if r["action"] == "moved"]
    for row in rows:
        moved = Path(row["destination"])
        assert moved.is_file()
        assert not Path(row["path"]).exists()
        assert moved.relative_to(destination) == Path(row["path"]).relative_to(folder)
    assert window.groups.rowCount() == 0  # the rescan finds no duplicates left
    panel = window.groups_panel
    assert panel.results.currentWidget() is panel.empty
    assert "No duplicates left" in panel.empty.text()
    assert window.status.marked.text() == ""


def test_acting_runs_off_the_gui_thread_then_scans_again(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication

    from simdup_gui.core.acting import Action

    folder = tmp_path / "articles"
    shutil.copytree(SAMPLE, folder)
    scan_and_wait(qtbot, window, folder)
    on_gui: list[bool] = []
    real = Action.run

    def spy(self: Action) -> object:
        on_gui.append(QThread.currentThread() is QApplication.instance().thread())  # type: ignore[union-attr]
        return real(self)

    monkeypatch.setattr(Action, "run", spy)
    first = window.result
    window.groups.mark_all_but_references()
    window.dialogs.folders.append(str(tmp_path / "review"))  # type: ignore[attr-defined]
    window.dialogs.answers.append(True)  # type: ignore[attr-defined]
    window.commands.move.trigger()
    assert window.runner.busy  # the files are being moved in the background
    qtbot.waitUntil(lambda: window.result is not first and not window.runner.busy, timeout=60_000)
    assert on_gui == [False]
    assert window.groups.rowCount() == 0  # scanned again: the moved copies are gone


def test_closing_the_window_waits_for_work_in_the_background(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A report being written is finished, not cut off, and its signals outlive it."""
    import threading

    from simdup_gui.ui.tasks import CallTask

    started, done = threading.Event(), []

    def work(progress: object, cancel: object) -> None:
        started.set()
        time.sleep(0.3)
        done.append(True)

    task = CallTask(work, "writing a report")
    window.background.start(task)
    assert started.wait(5)
    window.close()
    assert done == [True]
