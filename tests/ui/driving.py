"""How the UI tests drive the real window: scripted dialogs, scans waited for, rows found."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.ui.main_window import MainWindow
from simdup_gui.ui.models import ItemRole, MemberInfo

SAMPLE = resource("sample")


class ScriptedDialogs:
    """Answers the window's questions (see ui/dialogs.py) from a script, and records them."""

    window = None  # the dialogs a command opens itself have no parent here

    def __init__(self) -> None:
        self.asked: list[tuple[str, ...]] = []
        self.folders: list[str] = []  # answers to "which folder?", in order ("" = cancel)
        self.save_paths: list[str] = []
        self.answers: list[bool] = []  # answers to yes-or-no questions (none left: No)
        self.details: list[list[str]] = []  # the lists shown with each yes-or-no question
        self.opened: list[str] = []
        self.texts: list[str] = []  # answers to "type a line" questions ("" = cancel)
        self.on_edit: Callable[[QDialog], bool] = lambda dialog: False

    def folder(self, title: str, start: str) -> str:
        self.asked.append(("folder", title))
        return self.folders.pop(0) if self.folders else ""

    def new_folder(self, title: str, start: str) -> str:
        self.asked.append(("new folder", title))
        return self.folders.pop(0) if self.folders else ""

    def open_path(self, title: str, start: str, kinds: str) -> str:
        self.asked.append(("open", title))
        return self.save_paths.pop(0) if self.save_paths else ""

    def save_path(self, title: str, suggested: str, kinds: str) -> str:
        self.asked.append(("save", title, suggested))
        return self.save_paths.pop(0) if self.save_paths else ""

    def text(self, title: str, label: str) -> str:
        self.asked.append(("text", label))
        return self.texts.pop(0) if self.texts else ""

    def confirm(self, question: str, details: list[str]) -> bool:
        self.asked.append(("confirm", question))
        self.details.append(list(details))
        return self.answers.pop(0) if self.answers else False

    def inform(self, text: str) -> None:
        self.asked.append(("inform", text))

    def warn(self, text: str) -> None:
        self.asked.append(("warn", text))

    def edit(self, dialog: QDialog) -> bool:
        self.asked.append(("edit", type(dialog).__name__))
        return self.on_edit(dialog)

    def open_url(self, url: QUrl) -> None:
        self.opened.append(url.toLocalFile())

    def last(self, kind: str) -> tuple[str, ...]:
        return next(q for q in reversed(self.asked) if q[0] == kind)


def scan_and_wait(qtbot: QtBot, window: MainWindow, folder: Path | str) -> None:
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy and window.result is not None, timeout=60_000)


def member_rows(window: MainWindow) -> list[MemberInfo]:
    model = window.groups
    rows = []
    for g in range(model.rowCount()):
        parent = model.index(g, 0)
        rows += [model.index(m, 0, parent).data(ItemRole) for m in range(model.rowCount(parent))]
    return rows


def select_file(window: MainWindow, name: str) -> MemberInfo:
    proxy = window.groups_view_model
    for g in range(proxy.rowCount()):
        parent = proxy.index(g, 0)
        for m in range(proxy.rowCount(parent)):
            index = proxy.index(m, 0, parent)
            info = index.data(ItemRole)
            if Path(info.record.path).name == name:
                window.groups_panel.tree.setCurrentIndex(index)
                return info
    raise AssertionError(name)


def shown_groups(window: MainWindow) -> list[set[str]]:
    assert window.result is not None
    return [
        {Path(window.result.files[m.file].path).name for m in g.members}
        for g in window.result.groups
    ]


def engine_groups(options: ScanOptions) -> list[set[str]]:
    result = scan(str(SAMPLE), options)
    return [{Path(result.files[m.file].path).name for m in g.members} for g in result.groups]


def adding_folders(dialogs: ScriptedDialogs, *folders: Path) -> Callable[[QDialog], bool]:
    """An answer to a folder list dialog: Add… clicked for each folder, then OK."""

    def answer(dialog: QDialog) -> bool:
        for folder in folders:
            dialogs.folders.append(str(folder))
            dialog.add_button.click()  # type: ignore[attr-defined]
        dialog.accept()
        return True

    return answer


def commands_offered(window: MainWindow) -> set[QAction]:
    """Every command a person can reach: toolbar buttons and menu items."""
    offered = set(window.toolbar.actions()) | set(window.knobs.actions())
    menus = [entry.menu() for entry in window.menuBar().actions()]
    while menus:
        for action in menus.pop().actions():
            if action.menu() is not None:
                menus.append(action.menu())  # a submenu: its items are the commands
            else:
                offered.add(action)
    return {a for a in offered if not a.isSeparator() and a.text()}


def press(qtbot: QtBot, window: MainWindow, action: QAction) -> None:
    """Click the action's toolbar button if it has one (on screen), else its menu item."""
    for bar in (window.toolbar, window.knobs):
        button = bar.widgetForAction(action)
        if button is not None:
            assert button.isVisible(), f"{action.text()!r} is hidden at {window.width()} px"
            assert button.geometry().right() <= bar.width(), action.text()
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            return
    action.trigger()  # as its menu item does


def write_long_pair(folder: Path) -> str:
    """A Chinese article over 60,000 characters and an edited copy of it; the article."""
    import random

    rng = random.Random(4)
    words = ["春运", "期间", "铁路", "部门", "增开", "列车", "旅客", "网上", "购票", "车站"]
    text = "。".join("".join(rng.choice(words) for _ in range(12)) for _ in range(5000))
    (folder / "long.txt").write_text(text, encoding="utf-8")
    edited = text[:30000] + "新增的一句话。" + text[30000:60000] + text[60500:]
    (folder / "long-edited.txt").write_text(edited, encoding="utf-8")
    return text


class event_loop_gaps:
    """The event loop's largest gap from now until ``stop()``: a 10 ms timer's ticks."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.last = time.monotonic()
        self.timer = QTimer()
        self.timer.timeout.connect(self._tick)
        self.timer.start(10)

    def _tick(self) -> None:
        now = time.monotonic()
        self.gaps.append(now - self.last)
        self.last = now

    def stop(self) -> float:
        """Stop measuring; the largest gap in seconds."""
        self.timer.stop()
        assert len(self.gaps) > 3, "the timer hardly ran"
        return max(self.gaps)
