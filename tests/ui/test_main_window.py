"""Drive the real window offscreen: scan, review, compare, act, export, translate."""

from __future__ import annotations

import csv
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QSettings, Qt, QTimer, QUrl
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from simdup_gui.app import create_window
from simdup_gui.core import not_duplicates, reusing
from simdup_gui.core.columns import column_named
from simdup_gui.engine.kernels import KERNEL_MODULES, loading_no_kernels_here
from simdup_gui.engine.match.default_measure import similarity
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.progress import ProgressEvent
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.ui.i18n import install_language
from simdup_gui.ui.main_window import MainWindow
from simdup_gui.ui.models import LOADED_AT_ONCE, ItemRole, MemberInfo
from simdup_gui.ui.settings_dialog import set_folder_list

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


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the trash and manifests
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("language", "en")
    with loading_no_kernels_here():  # as the app's main() runs it
        win = create_window(settings=settings, dialogs=ScriptedDialogs())  # type: ignore[arg-type]
        qtbot.addWidget(win)
        win.show()
        yield win
        win.runner.shutdown()
    assert win.runner.pool.activeThreadCount() == 0  # no worker left running
    install_language("en")


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


def test_start_page_explains_itself(window: MainWindow) -> None:
    assert window.pages.currentIndex() == 0
    assert "folder" in window.start_page.text.text()
    assert window.start_page.sample.isEnabled()
    assert not window.commands.cancel.isEnabled()


def test_scan_sample_shows_groups(qtbot: QtBot, window: MainWindow, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    scan_and_wait(qtbot, window, SAMPLE)
    assert window.pages.currentIndex() == 1
    assert window.groups.rowCount() == 3
    names = {Path(info.record.path).name for info in member_rows(window)}
    assert {"harbor-lighthouse.txt", "春运返乡-转载.txt", "茶园春茶-改写.txt"} <= names
    references = [info for info in member_rows(window) if info.is_reference]
    assert len(references) == 3
    first = window.groups.index(0, 0)
    assert window.groups.index(0, column_named("Similarity"), first).data() == "100.0%"
    title = window.groups.index(0, column_named("Title"))
    assert title.data() == "Harbor Lighthouse Reopens After Two Years of Repairs"  # the story
    assert window.groups.index(0, 0, first).data(Qt.ItemDataRole.CheckStateRole) is None
    assert window.problems.rowCount() == 0
    assert "3 groups" in window.status.text()
    qtmodeltester.check(window.groups)
    qtmodeltester.check(window.problems)


def test_the_summary_counts_in_words_that_fit_the_number(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    story = (SAMPLE / "zh" / "茶园春茶.txt").read_text(encoding="utf-8")
    folder = tmp_path / "one-group"
    folder.mkdir()
    (folder / "a.txt").write_text(story, encoding="utf-8")
    (folder / "b.txt").write_text(story.replace("清明前后", "清明时节"), encoding="utf-8")
    (folder / "c.pdf").write_bytes(b"%PDF-1.4")
    scan_and_wait(qtbot, window, folder)
    status = window.status.text()
    assert status.startswith("2 files · 1 group · 1 duplicate · 0 problems · ")
    assert status.endswith(" · 1 file of another type not read")


def test_event_loop_keeps_running_during_a_scan(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    for n in range(300):
        (tmp_path / f"a{n:03}.txt").write_text(f"article {n} " * 400, encoding="utf-8")
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(window.runner.busy))
    timer.start(5)
    scan_and_wait(qtbot, window, tmp_path)
    timer.stop()
    assert sum(ticks) >= 3  # the GUI thread handled timer events while the scan ran


def test_cancel_keeps_partial_results(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    for n in range(2000):
        (tmp_path / f"a{n:04}.txt").write_text(f"article {n} " * 150, encoding="utf-8")
    window.scans.start(str(tmp_path))
    assert window.commands.cancel.isEnabled()
    task = window.runner.task
    assert task is not None

    def cancel_once_reading(event: ProgressEvent) -> None:  # runs on the worker thread
        if event.stage == "fingerprinting" and event.done > 0:
            task.cancel()

    task.signals.progress.connect(cancel_once_reading, Qt.ConnectionType.DirectConnection)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result is not None
    assert window.result.cancelled
    assert 0 < len(window.result.files) < 2000  # what was read is kept, the rest not started
    assert "partial" in window.status.text()
    assert window.runner.pool.activeThreadCount() == 0


def test_changing_k_regroups_without_rescanning(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    before = window.result
    assert before is not None
    assert window.groups.rowCount() == 3
    window.knobs.k_box.setValue(0)
    assert not window.runner.busy  # no scan was started
    assert window.result is not None
    assert window.result.files is before.files
    assert shown_groups(window) == engine_groups(
        ScanOptions(group=GroupOptions(k=0))
    )  # a fresh scan agrees
    window.knobs.floor_box.setValue(100)  # only texts whose shingles all match
    assert not window.runner.busy
    assert shown_groups(window) == engine_groups(
        ScanOptions(group=GroupOptions(k=0, min_similarity=1.0))
    )
    assert sum(map(len, shown_groups(window))) < sum(len(g) for g in before.groups)
    window.knobs.floor_box.setValue(round(100 * before.options.group.min_similarity))
    window.knobs.k_box.setValue(before.options.group.k)
    assert shown_groups(window) == engine_groups(ScanOptions())


def shown_groups(window: MainWindow) -> list[set[str]]:
    assert window.result is not None
    return [
        {Path(window.result.files[m.file].path).name for m in g.members}
        for g in window.result.groups
    ]


def engine_groups(options: ScanOptions) -> list[set[str]]:
    result = scan(str(SAMPLE), options)
    return [{Path(result.files[m.file].path).name for m in g.members} for g in result.groups]


def test_compared_paths_have_their_columns_width_and_the_texts_start_level(
    qtbot: QtBot, window: MainWindow
) -> None:
    """In a narrow window a path is not squeezed beside its fingerprint (wrapped letter by
    letter); one path on two lines and the other on one still leave both texts level."""
    scan_and_wait(qtbot, window, SAMPLE)
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    select_file(window, "春运返乡-镜像.html")
    compare = window.compare
    qtbot.waitUntil(lambda: compare.right_title.text().endswith("春运返乡-镜像.html"))
    compare.details.setChecked(True)  # the fingerprints shown
    for title, bits in (
        (compare.left_title, compare.left_bits),
        (compare.right_title, compare.right_bits),
    ):
        assert title.width() > bits.width()
    assert compare.left_text.y() == compare.right_text.y()


def test_compare_view_highlights_bits_and_text(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    info = select_file(window, "茶园春茶-改写.txt")
    reference = window.result.files[info.group.reference]  # type: ignore[union-attr]
    left, right = window.compare.left_bits, window.compare.right_bits
    xor = reference.fingerprint ^ info.record.fingerprint  # type: ignore[operator]
    expected = [bit for bit in range(64) if xor >> bit & 1]
    assert left.differing_bits() == expected == right.differing_bits()
    assert len(expected) == info.member.distance > 0
    # an edit: 清晨六点，山间云雾还没有散去 -> 每天清晨，山间云雾尚未散去 (character level)
    right, left = window.compare.highlighted_text("right"), window.compare.highlighted_text("left")
    assert right[:2] == ["每天", "尚未"]
    assert left[:2] == ["六点", "还没有"]
    assert any("络绎不绝" in passage for passage in left)  # a deleted sentence
    summary = window.compare.summary
    assert summary.text().startswith(f"Text similarity {100 * info.member.similarity:.1f}%")
    assert "bits" not in summary.text()  # the fingerprints behind "Fingerprint details"
    assert window.compare.left_bits.isHidden()
    window.compare.details.setChecked(True)
    assert f"fingerprints {len(expected)} of 64 bits apart" in summary.text()
    assert not window.compare.left_bits.isHidden()
    compare = window.compare
    shown = []
    for _ in range(3):
        compare.next_button.click()
        shown.append(compare.current_passages())
    # the same passage on both sides: 每天 added at the start, 六点 dropped, 还没有 -> 尚未
    assert shown == [("", "每天"), ("六点", ""), ("还没有", "尚未")]
    assert compare.position.text() == f"3 of {compare.difference_count()}"
    compare.previous_button.click()
    assert compare.current_passages() == ("六点", "")
    assert compare.position.text().startswith("2 of ")
    window.set_language("zh_CN")  # the summary in the language chosen, never the last one's
    assert summary.text().startswith("文本相似度")
    window.set_language("en")
    compare.clear()
    assert summary.text() == "Select a file to compare it with its reference."


def test_space_marks_and_reference_cannot_be_marked(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    info = select_file(window, "茶园春茶-改写.txt")
    qtbot.keyClick(window.groups_panel.tree, Qt.Key.Key_Space)
    assert window.groups.marked_files() == [info.member.file]
    reference = select_file(window, "茶园春茶.txt")
    assert reference.is_reference
    qtbot.keyClick(window.groups_panel.tree, Qt.Key.Key_Space)
    assert window.groups.marked_files() == [info.member.file]


def test_a_right_click_and_the_actions_menu_offer_what_can_be_done_with_a_file(
    qtbot: QtBot, window: MainWindow
) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    tree = window.groups_panel.tree
    assert tree.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    for action in (
        window.commands.toggle_mark,
        window.commands.make_reference,
        window.commands.pin,
        window.commands.unpin,
        window.commands.open,
        window.commands.reveal,
    ):
        assert action in tree.actions()
        assert action in window.commands.actions_menu.actions()
    info = select_file(window, "茶园春茶-改写.txt")
    window.commands.toggle_mark.trigger()
    assert window.groups.marked_files() == [info.member.file]
    window.commands.toggle_mark.trigger()
    assert window.groups.marked_files() == []


def test_export_csv(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    target = tmp_path / "out" / "report.csv"
    target.parent.mkdir()
    window.dialogs.save_paths.append(str(target))  # type: ignore[attr-defined]
    qtbot.keyClick(window.groups_panel.tree, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "Report written" in window.status.text())
    rows = list(csv.DictReader(target.read_text(encoding="utf-8-sig").splitlines()))
    assert sum(1 for r in rows if r["role"] == "reference") == 3
    assert all(r["fingerprint"].startswith("0x") for r in rows)  # text to every spreadsheet
    assert window.settings.value("export_folder") == str(target.parent)


def test_a_report_is_written_off_the_gui_thread_and_a_failure_is_said(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTML report reads every group's texts again: seconds for a large result."""
    import threading

    from simdup_gui.ui import result_files

    scan_and_wait(qtbot, window, SAMPLE)
    written_on: list[bool] = []
    real = result_files.write_html_report

    def spy(result: object, destination: str, language: str) -> object:
        written_on.append(threading.current_thread() is threading.main_thread())
        assert language == "en"  # the app's
        return real(result, destination, language)  # type: ignore[arg-type]

    monkeypatch.setattr(result_files, "write_html_report", spy)
    page = tmp_path / "report.html"
    window.dialogs.save_paths.append(str(page))  # type: ignore[attr-defined]
    window.commands.export_html.trigger()
    assert window.status.text().startswith("Writing")  # at once: written elsewhere
    qtbot.waitUntil(lambda: "Report written" in window.status.text())
    assert written_on == [False]
    assert page.read_text(encoding="utf-8").count('<tr class="reference">') == 3

    def full(result: object, destination: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(result_files, "write_report", full)
    window.dialogs.save_paths.append(str(tmp_path / "report.csv"))  # type: ignore[attr-defined]
    window.commands.export.trigger()
    qtbot.waitUntil(lambda: window.dialogs.asked[-1][0] == "warn")  # type: ignore[attr-defined]
    told = window.dialogs.last("warn")[1]  # type: ignore[attr-defined]
    assert told == f"{tmp_path / 'report.csv'}: No space left on device"


def test_export_refuses_to_write_over_an_article(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(SAMPLE, folder)
    scan_and_wait(qtbot, window, folder)
    article = folder / "en" / "library-hours.txt"
    before = article.read_bytes()
    window.dialogs.save_paths.append(str(article))  # type: ignore[attr-defined]
    window.commands.export.trigger()
    assert article.read_bytes() == before
    assert "inside the input" in window.dialogs.last("warn")[1]  # type: ignore[attr-defined]


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


def test_switch_to_chinese(qtbot: QtBot, window: MainWindow) -> None:
    commands = [a for a in window.findChildren(QAction) if a.text() not in ("", "English", "中文")]
    english = [a.text() for a in commands]
    window.set_language("zh_CN")
    assert len(commands) > 15
    assert not {a.text() for a in commands} & set(english)  # every command is translated
    assert window.start_page.choose.text() == "选择文件夹…"
    assert window.groups_panel.duplicates_only.text() == "只看副本"
    assert window.groups_panel.tabs.tabText(0) == "分组"
    assert window.groups.headerData(0, Qt.Orientation.Horizontal) == "文件"
    assert window.problems.headerData(1, Qt.Orientation.Horizontal) == "问题"
    assert window.settings.value("language") == "zh_CN"
    window.set_language("en")
    assert window.groups_panel.duplicates_only.text() == "Duplicates only"


def test_filter_and_duplicates_only(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    proxy = window.groups_view_model
    window.groups_panel.filter_box.setText("lighthouse")
    assert proxy.rowCount() == 1
    assert proxy.rowCount(proxy.index(0, 0)) == 3
    window.groups_panel.duplicates_only.setChecked(True)
    assert proxy.rowCount(proxy.index(0, 0)) == 2


def test_settings_regroup_or_rescan(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    before = window.scans.options()
    window.settings.setValue("min_chars", 1000)  # as the settings dialog saves it
    window.scans.apply_settings(before)
    assert not window.runner.busy  # a length floor only regroups
    assert window.groups.rowCount() == 1  # the Chinese articles are shorter than 1000 chars
    before = window.scans.options()
    window.settings.setValue("tokenizer", "chars")
    window.scans.apply_settings(before)
    assert window.runner.busy  # a new tokenizer means new fingerprints: rescan
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result is not None
    assert window.result.options.read.text.tokenizer == "chars"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_setting_says_what_it_does(qtbot: QtBot, window: MainWindow, language: str) -> None:
    """Each input of the settings dialog has a tooltip, in the language in use."""
    from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit

    from simdup_gui.ui.settings_dialog import SettingsDialog

    window.set_language(language)
    dialog = SettingsDialog(window.settings, window)
    qtbot.addWidget(dialog)
    inputs = [
        w
        for kind in (QLineEdit, QAbstractSpinBox, QComboBox, QAbstractButton)
        for w in dialog.findChildren(kind)
        if w.parent() is dialog or w.parentWidget() is dialog
    ]
    inputs = [w for w in inputs if w.window() is dialog and not isinstance(w.parent(), QComboBox)]
    named = [w for w in inputs if w.toolTip()]
    buttons = [w for w in inputs if not w.toolTip()]
    assert len(named) == 10
    assert all(w.metaObject().className() == "QPushButton" for w in buttons)  # OK, Cancel
    if language == "zh_CN":
        assert all(any("\u4e00" <= c <= "\u9fff" for c in w.toolTip()) for w in named)


def test_settings_dialog_saves(qtbot: QtBot, window: MainWindow) -> None:
    from simdup_gui.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(window.settings, window)
    qtbot.addWidget(dialog)
    dialog.extensions.setText("txt .HTML")
    dialog.min_chars.setValue(50)
    dialog.boilerplate.setChecked(False)
    dialog.accept()
    options = window.scans.options()
    assert options.walk.extensions == (".txt", ".html")
    assert options.group.min_chars == 50
    assert options.read.text.boilerplate is False


def test_a_method_chosen_in_settings_rescans_and_fits_the_knobs(
    qtbot: QtBot, window: MainWindow
) -> None:
    scan_and_wait(qtbot, window, SAMPLE)

    def choose(name: str) -> Callable[[QDialog], bool]:
        def pick(dialog: QDialog) -> bool:
            combo = dialog.method  # type: ignore[attr-defined]
            combo.setCurrentIndex(combo.findData(name))
            assert dialog.tokenizer.isEnabled() == (name in ("default", "simhash"))  # type: ignore[attr-defined]
            assert dialog.bands.isEnabled() == (name == "minhash")  # type: ignore[attr-defined]
            dialog.accept()
            return True

        return pick

    window.dialogs.on_edit = choose("minhash")  # type: ignore[attr-defined]
    press(qtbot, window, window.commands.settings)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result is not None
    assert window.result.options.method.name == "minhash"
    assert window.knobs.floor_box.value() == 40.0  # the method's own floor
    assert not window.knobs.k_box.isEnabled()
    assert shown_groups(window) == engine_groups(window.scans.options())
    select_file(window, "茶园春茶-改写.txt")
    qtbot.waitUntil(lambda: "minhash" in window.compare.summary.text(), timeout=10_000)
    assert window.compare.left_bits.isHidden()  # no distance: no bits to show
    assert window.groups_panel.tree.isColumnHidden(column_named("Distance"))

    window.dialogs.on_edit = choose("pinyin")  # type: ignore[attr-defined]
    press(qtbot, window, window.commands.settings)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.knobs.floor_box.value() == 99.5
    assert window.result.options.group.min_similarity == pytest.approx(0.995)

    window.dialogs.on_edit = choose("default")  # type: ignore[attr-defined]
    press(qtbot, window, window.commands.settings)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.knobs.k_box.isEnabled()
    assert not window.groups_panel.tree.isColumnHidden(column_named("Distance"))
    assert window.knobs.floor_box.value() == 40.0
    assert window.result.options.method.name == "default"
    assert len(window.result.groups) == 3


def test_make_reference_then_old_reference_can_be_marked(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    copy = select_file(window, "茶园春茶-改写.txt")
    old = copy.group.reference
    window.commands.make_reference.trigger()
    info = select_file(window, "茶园春茶-改写.txt")
    assert info.is_reference
    assert info.member.distance == 0
    assert not window.groups.set_marked(info.member.file, True)  # a reference cannot be marked
    old_info = next(i for i in member_rows(window) if i.member.file == old)
    assert old_info.member.similarity == similarity(info.record, old_info.record) < 1.0
    assert window.groups.set_marked(old, True)
    assert window.result is not None
    assert window.result.groups[2].reference == info.member.file  # the export sees it too


def test_sorting_keeps_references_first(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    proxy = window.groups_view_model
    header = window.groups_panel.tree.header()
    for column in range(window.groups.columnCount()):
        for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
            header.setSortIndicator(column, order)
            for g in range(proxy.rowCount()):
                first = proxy.index(0, 0, proxy.index(g, 0)).data(ItemRole)
                assert first.is_reference
    header.setSortIndicator(column_named("Distance"), Qt.SortOrder.DescendingOrder)  # largest first
    group = proxy.index(0, 0)
    distances = [
        proxy.index(m, 0, group).data(ItemRole).member.distance
        for m in range(1, proxy.rowCount(group))
    ]
    assert distances == sorted(distances, reverse=True)
    header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)
    sizes = [len(proxy.index(g, 0).data(ItemRole)) for g in range(proxy.rowCount())]
    assert sizes == sorted(sizes, reverse=True)


def test_pin_compares_with_another_member(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    select_file(window, "harbor-lighthouse-edited.md")
    window.commands.pin.trigger()
    select_file(window, "harbor-lighthouse-repost.html")
    assert window.compare.left_title.text().endswith("harbor-lighthouse-edited.md")
    assert window.compare.right_title.text().endswith("harbor-lighthouse-repost.html")
    window.commands.unpin.trigger()
    assert window.compare.left_title.text().endswith("harbor-lighthouse.txt")


def test_every_ui_text_has_a_chinese_translation(tmp_path: Path) -> None:
    """The .ts holds every text the code marks with tr(), each translated."""
    import subprocess
    import xml.etree.ElementTree as ET

    lupdate = shutil.which("pyside6-lupdate")
    if lupdate:
        fresh = tmp_path / "fresh.ts"
        sources = sorted(
            str(p) for p in (Path(__file__).parents[2] / "simdup_gui" / "ui").glob("*.py")
        )
        subprocess.run([lupdate, *sources, "-ts", str(fresh)], check=True, capture_output=True)
        wanted = {m.findtext("source") for m in ET.parse(fresh).getroot().iter("message")}
        have = {
            m.findtext("source")
            for m in ET.parse(resource("i18n", "simdup_zh_CN.ts")).getroot().iter("message")
        }
        assert wanted - have == set()
    tree = ET.parse(resource("i18n", "simdup_zh_CN.ts"))
    messages = tree.getroot().iter("message")
    untranslated = [
        m.findtext("source")
        for m in messages
        if not (m.findtext("translation") or "").strip()
        or (m.find("translation") is not None and m.find("translation").get("type"))
    ]
    assert untranslated == []


def test_worker_processes_start_only_for_a_large_scan_and_are_let_go_when_idle(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simdup_gui.engine import kernels
    from simdup_gui.engine.run.batches import PROCESS_THRESHOLD

    runner = window.runner
    runner._workers_idle.setInterval(300)
    assert not runner.workers.running  # an idle app holds no worker
    scan_and_wait(qtbot, window, SAMPLE)
    assert not runner.workers.running  # a small scan runs in the app's process
    monkeypatch.setattr(kernels, "PLAIN_BYTES", 0)  # the next counts as large however it is
    monkeypatch.setattr(kernels, "PLAIN_BYTES_UNCOMPILED", 0)
    for n in range(PROCESS_THRESHOLD + 10):
        (tmp_path / f"a{n}.txt").write_text(f"Article number {n} about many things. " * 5)
    window.scans.start(str(tmp_path))
    qtbot.waitUntil(lambda: runner.workers.running or not runner.busy, timeout=60_000)
    assert runner.workers.running or window.scans.options().jobs == 1
    qtbot.waitUntil(lambda: not runner.busy, timeout=120_000)
    qtbot.waitUntil(lambda: not runner.workers.running, timeout=5000)  # let go when idle


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


def test_every_command_does_what_it_says_at_1024_by_700(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    window.resize(1024, 700)
    qtbot.waitExposed(window)
    folder = tmp_path / "articles"
    shutil.copytree(SAMPLE, folder)
    c, dialogs = window.commands, window.dialogs
    checked: set[QAction] = set()

    def done(action: QAction) -> None:
        checked.add(action)

    # Choose folder: asked which, then scanned
    dialogs.folders.append(str(folder))  # type: ignore[attr-defined]
    press(qtbot, window, c.choose)
    qtbot.waitUntil(lambda: not window.runner.busy and window.result is not None, timeout=60_000)
    assert window.result.root == str(folder)  # type: ignore[union-attr]
    done(c.choose)
    # the sample folder, then the chosen folder again
    press(qtbot, window, c.sample)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result.root == str(SAMPLE)  # type: ignore[union-attr]
    done(c.sample)
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    first = window.result
    press(qtbot, window, c.rescan)
    assert window.runner.busy
    assert c.cancel.isEnabled()
    press(qtbot, window, c.cancel)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result is not first  # a new scan ran (finished or cancelled)
    done(c.rescan)
    done(c.cancel)
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.groups.rowCount() == 3
    # every column readable: the tree's columns fit beside the compare view
    tree = window.groups_panel.tree
    right_edge = sum(tree.columnWidth(n) for n in range(3))
    assert right_edge <= tree.viewport().width(), "File, Similarity and Distance on screen"

    # marks
    press(qtbot, window, c.mark_copies)
    assert len(window.groups.marked_files()) == 5
    done(c.mark_copies)
    press(qtbot, window, c.clear_marks)
    assert window.groups.marked_files() == []
    done(c.clear_marks)
    info = select_file(window, "茶园春茶-改写.txt")
    press(qtbot, window, c.toggle_mark)
    assert window.groups.marked_files() == [info.member.file]
    done(c.toggle_mark)

    # compare with this file, then with the reference again
    select_file(window, "harbor-lighthouse-edited.md")
    press(qtbot, window, c.pin)
    select_file(window, "harbor-lighthouse-repost.html")
    assert window.compare.left_title.text().endswith("harbor-lighthouse-edited.md")
    done(c.pin)
    press(qtbot, window, c.unpin)
    assert window.compare.left_title.text().endswith("harbor-lighthouse.txt")
    done(c.unpin)

    # make reference: the compare view follows
    info = select_file(window, "harbor-lighthouse-edited.md")
    press(qtbot, window, c.make_reference)
    assert window.result.groups[0].reference == info.member.file  # type: ignore[union-attr]
    assert window.compare.left_title.text().endswith("harbor-lighthouse-edited.md")
    done(c.make_reference)

    # save the results, scan again (the reference chosen by hand stays), open them: still it
    saved = tmp_path / "results.simdup"
    dialogs.save_paths.append(str(saved))  # type: ignore[attr-defined]
    press(qtbot, window, c.save_results)
    qtbot.waitUntil(saved.is_file)
    done(c.save_results)
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result.groups[0].reference == info.member.file  # type: ignore[union-attr]
    dialogs.save_paths.append(str(saved))  # type: ignore[attr-defined]
    press(qtbot, window, c.open_results)
    assert window.result.groups[0].reference == info.member.file  # type: ignore[union-attr]
    done(c.open_results)
    select_file(window, "harbor-lighthouse-edited.md")

    # open and show in folder: handed to the system, never run here
    press(qtbot, window, c.open)
    press(qtbot, window, c.reveal)
    opened = dialogs.opened  # type: ignore[attr-defined]
    assert opened[-2].endswith("harbor-lighthouse-edited.md")
    assert opened[-1] == str(folder / "en")
    done(c.open)
    done(c.reveal)

    # settings: the dialog is shown; accepted with a length floor, the groups are made again
    def floor_of_1000(dialog: QDialog) -> bool:
        dialog.min_chars.setValue(1000)  # type: ignore[attr-defined]
        dialog.accept()
        return True

    dialogs.on_edit = floor_of_1000  # type: ignore[attr-defined]
    press(qtbot, window, c.settings)
    assert dialogs.last("edit") == ("edit", "SettingsDialog")  # type: ignore[attr-defined]
    assert window.groups.rowCount() == 1
    window.settings.setValue("min_chars", 0)
    window.regroup()
    done(c.settings)

    # export: asked where, CSV written and read back
    report = tmp_path / "report.csv"
    dialogs.save_paths.append(str(report))  # type: ignore[attr-defined]
    press(qtbot, window, c.export)
    qtbot.waitUntil(lambda: "Report written" in window.status.text())
    rows = list(csv.DictReader(report.read_text(encoding="utf-8-sig").splitlines()))
    assert len(rows) == 13
    assert {r["role"] for r in rows} == {"reference", "duplicate", "unique"}
    done(c.export)
    page = tmp_path / "report.html"
    dialogs.save_paths.append(str(page))  # type: ignore[attr-defined]
    press(qtbot, window, c.export_html)
    qtbot.waitUntil(lambda: str(page) in window.status.text() and "written" in window.status.text())
    assert page.read_text(encoding="utf-8").count('<tr class="reference">') == 3
    done(c.export_html)

    # trash: confirmed, recorded in a manifest, the file in the (test's own) trash
    window.groups.clear_marks()
    info = select_file(window, "茶园春茶-改写.txt")
    window.groups.set_marked(info.member.file, True)
    dialogs.answers.append(True)  # type: ignore[attr-defined]
    press(qtbot, window, c.trash)
    assert "1 file from 1 group (" in dialogs.last("confirm")[1]  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert not Path(info.record.path).exists()
    trashed = list((tmp_path / "data" / "Trash" / "files").iterdir())
    assert [p.name for p in trashed] == ["茶园春茶-改写.txt"]
    manifest = list(
        csv.DictReader(window.file_actions.last_manifest.read_text("utf-8-sig").splitlines())
    )  # type: ignore[union-attr]
    assert [r["action"] for r in manifest] == ["trashing", "trashed"]
    done(c.trash)

    # move: asked where and to confirm; moved with a manifest
    press(qtbot, window, c.mark_copies)
    destination = tmp_path / "review"
    destination.mkdir()
    dialogs.folders.append(str(destination))  # type: ignore[attr-defined]
    dialogs.answers.append(True)  # type: ignore[attr-defined]
    press(qtbot, window, c.move)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    moved = list(
        csv.DictReader(window.file_actions.last_manifest.read_text("utf-8-sig").splitlines())
    )  # type: ignore[union-attr]
    assert [r["action"] for r in moved] == ["moving", "moved"] * 4
    assert all(Path(r["destination"]).is_file() for r in moved)
    assert window.groups.rowCount() == 0
    done(c.move)

    # restore: the moved files come back from the manifest, and the folder is scanned again
    dialogs.save_paths.append(str(window.file_actions.last_manifest))  # type: ignore[attr-defined]
    press(qtbot, window, c.restore)
    assert dialogs.last("inform")[1].startswith("Restored 4 of 4 files.")  # type: ignore[attr-defined]
    assert all(Path(r["path"]).is_file() for r in moved)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.groups.rowCount() == 2
    done(c.restore)
    press(qtbot, window, c.undo_last)  # the last move, already put back: nothing over anything
    assert dialogs.last("inform")[1].startswith("Restored 0 of 4 files.")  # type: ignore[attr-defined]
    done(c.undo_last)

    # languages
    press(qtbot, window, c.chinese)
    assert c.export.text() == "导出 CSV…"
    press(qtbot, window, c.english)
    assert c.export.text() == "Export CSV…"
    done(c.chinese)
    done(c.english)

    # re-prioritize: each group keeps the file a rule prefers
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    result = window.result
    assert result is not None
    spring = ("春运返乡.txt", "春运返乡-镜像.html", "春运返乡-转载.txt")
    for n, name in enumerate(spring, 1):
        os.utime(folder / "zh" / name, ns=(n * 10**9, n * 10**9))
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    files = window.result.files  # type: ignore[union-attr]

    def kept(name: str) -> bool:
        return any(Path(files[g.reference].path).name == name for g in window.result.groups)  # type: ignore[union-attr]

    for rule, name in (("newest", spring[2]), ("cleanest", spring[0]), ("oldest", spring[0])):
        press(qtbot, window, c.keep_rules[rule])
        assert kept(name), rule
        done(c.keep_rules[rule])
    sizes = {Path(f.path).name: f.size for f in files}
    press(qtbot, window, c.keep_rules["largest"])
    assert all(
        files[g.reference].size == max(files[m.file].size for m in g.members)
        for g in window.result.groups  # type: ignore[union-attr]
    )
    done(c.keep_rules["largest"])
    press(qtbot, window, c.keep_rules["smallest"])
    assert kept(min(spring, key=sizes.__getitem__))
    done(c.keep_rules["smallest"])
    for rule, measure in (
        ("most_text", lambda n: -files[n].chars),
        ("shortest_path", lambda n: len(files[n].path)),
        ("longest_path", lambda n: -len(files[n].path)),
    ):
        press(qtbot, window, c.keep_rules[rule])
        for g in window.result.groups:  # type: ignore[union-attr]
            assert measure(g.reference) == min(measure(m.file) for m in g.members), rule
        done(c.keep_rules[rule])
    select_file(window, "harbor-lighthouse-edited.md")
    press(qtbot, window, c.keep_rules["folder"])  # every group keeps a file in en/ if it has one
    en = [g for g in window.result.groups if any("/en/" in files[m.file].path for m in g.members)]  # type: ignore[union-attr]
    assert all("/en/" in files[g.reference].path for g in en)
    done(c.keep_rules["folder"])

    # not duplicates: a pair said apart leaves its group for good, until the list is forgotten
    window.scans.start(str(SAMPLE))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.groups.rowCount() == 3
    not_duplicates.change(add=[("/elsewhere/a.txt", "/elsewhere/b.txt")])  # the command line
    select_file(window, "茶园春茶-改写.txt")
    press(qtbot, window, c.keep_apart)
    assert window.groups.rowCount() == 2
    assert len(not_duplicates.load()) == 2  # merged with the list on disk: no pair lost
    assert window.status.applying.text() == "2 pairs kept apart"
    press(qtbot, window, c.rescan)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.groups.rowCount() == 2  # still apart after a new scan
    done(c.keep_apart)

    def remove_every_pair(dialog: QDialog) -> bool:
        assert dialog.list.count() == 2  # type: ignore[attr-defined]
        dialog.list.selectAll()  # type: ignore[attr-defined]
        dialog.remove_button.click()  # type: ignore[attr-defined]
        dialog.accept()
        return True

    dialogs.on_edit = remove_every_pair  # type: ignore[attr-defined]
    press(qtbot, window, c.not_duplicates)
    assert dialogs.last("edit") == ("edit", "ListDialog")  # type: ignore[attr-defined]
    assert window.groups.rowCount() == 3
    assert window.session.not_duplicates == set()
    done(c.not_duplicates)

    assert not_duplicates.load() == set()

    # reference folders: a folder's files are never marked and give the references
    archive = folder / "archive"
    archive.mkdir()
    shutil.copy2(folder / "en" / "harbor-lighthouse-edited.md", archive / "harbor.md")
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)

    dialogs.on_edit = adding_folders(dialogs, archive)  # type: ignore[attr-defined]
    press(qtbot, window, c.reference_folders)
    result = window.result
    assert result is not None
    harbor = next(
        g for g in result.groups if any("harbor.md" in result.files[m.file].path for m in g.members)
    )
    assert result.files[harbor.reference].path == str(archive / "harbor.md")  # not the original
    assert result.kept == {harbor.reference}
    assert window.status.applying.text() == "1 reference folder"  # said while it applies
    press(qtbot, window, c.mark_copies)
    assert all(
        not result.files[n].path.startswith(str(archive)) for n in window.groups.marked_files()
    )
    done(c.reference_folders)

    # invert marks, then copy the marked files elsewhere (the originals untouched)
    window.groups.clear_marks()
    info = select_file(window, "harbor-lighthouse-edited.md")
    window.groups.set_marked(info.member.file, True)
    press(qtbot, window, c.invert_marks)
    marked = window.groups.marked_files()
    assert info.member.file not in marked
    assert len(marked) == 4  # every other copy: 6 members, 1 left unmarked, a kept one aside
    done(c.invert_marks)
    # mark copies by a criterion: added to the marks, references and kept files never
    window.groups.clear_marks()
    select_file(window, "harbor-lighthouse-edited.md")
    press(qtbot, window, c.mark_rules["folder"])  # the copies in en/
    assert {
        Path(window.result.files[n].path).parent.name for n in window.groups.marked_files()
    } == {"en"}  # type: ignore[union-attr]
    done(c.mark_rules["folder"])
    window.groups.clear_marks()
    dialogs.texts.append("转载")  # type: ignore[attr-defined]
    press(qtbot, window, c.mark_rules["path"])
    assert [Path(window.result.files[n].path).name for n in window.groups.marked_files()] == [
        "春运返乡-转载.txt"
    ]  # type: ignore[union-attr]
    done(c.mark_rules["path"])
    window.groups.clear_marks()
    for rule in ("older", "smaller"):
        press(qtbot, window, c.mark_rules[rule])
        for n in window.groups.marked_files():
            group = window.result.groups[window.session.group_of(n)]  # type: ignore[union-attr,index]
            ref, copy = window.result.files[group.reference], window.result.files[n]  # type: ignore[union-attr]
            assert copy.mtime_ns < ref.mtime_ns if rule == "older" else copy.size < ref.size
        window.groups.clear_marks()
        done(c.mark_rules[rule])
    window.groups.set_marked(info.member.file, True)
    press(qtbot, window, c.invert_marks)
    copies = tmp_path / "copies"
    dialogs.folders.append(str(copies))  # type: ignore[attr-defined]
    press(qtbot, window, c.copy_marked)
    assert dialogs.last("inform")[1].startswith("Copied 4 of 4 files")  # type: ignore[attr-defined]
    assert len([p for p in copies.rglob("*") if p.is_file()]) == 4
    assert all(Path(window.result.files[n].path).is_file() for n in marked)  # type: ignore[union-attr]
    done(c.copy_marked)
    window.groups.clear_marks()
    set_folder_list(window.settings, "reference_folders", [])
    (archive / "harbor.md").unlink()
    archive.rmdir()

    # several folders at once: copies across them share a group; "Scan again" scans them all
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy2(folder / "zh" / "春运返乡.txt", elsewhere / "spring-copy.txt")

    dialogs.on_edit = adding_folders(dialogs, folder, elsewhere)  # type: ignore[attr-defined]
    press(qtbot, window, c.scan_several)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)

    def across() -> bool:
        result = window.result
        assert result is not None
        return any(
            any("spring-copy" in result.files[m.file].path for m in g.members)
            and any("春运返乡.txt" in result.files[m.file].path for m in g.members)
            for g in result.groups
        )

    assert across()
    assert window.result.roots == (str(folder), str(elsewhere))  # type: ignore[union-attr]
    press(qtbot, window, c.rescan)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert across()
    done(c.scan_several)
    window.scans.start(str(folder))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)

    # excluded folders: a scan leaves them out
    dialogs.on_edit = adding_folders(dialogs, folder / "zh")  # type: ignore[attr-defined]
    press(qtbot, window, c.excluded_folders)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    paths = [f.path for f in window.result.files]  # type: ignore[union-attr]
    assert paths
    assert not any(os.sep + "zh" + os.sep in path for path in paths)
    set_folder_list(window.settings, "excluded_folders", [])
    done(c.excluded_folders)
    window.scans.start(str(SAMPLE))
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    info = select_file(window, "茶园春茶-改写.txt")
    press(qtbot, window, c.remove_from_results)  # out of the view, the file untouched
    assert window.groups.rowCount() == 2
    assert Path(info.record.path).is_file()
    done(c.remove_from_results)

    # the library: add a folder (made new), check new articles against it, its statistics
    archive, new = tmp_path / "archive", tmp_path / "new"
    shutil.copytree(SAMPLE / "zh", archive)
    new.mkdir()
    shutil.move(archive / "茶园春茶-改写.txt", new / "tea-repost.txt")
    dialogs.folders += [str(tmp_path / "LIB"), str(archive)]  # type: ignore[attr-defined]
    press(qtbot, window, c.library_add)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert dialogs.last("inform")[1].startswith("6 new, 0 changed")  # type: ignore[attr-defined]
    done(c.library_add)
    dialogs.folders += [str(tmp_path / "LIB"), str(new)]  # type: ignore[attr-defined]
    press(qtbot, window, c.library_check)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    result = window.result
    assert result is not None
    assert result.library == str(tmp_path / "LIB")
    (group,) = result.groups
    assert result.files[group.reference].path == str(archive / "茶园春茶.txt")  # the library's
    assert group.reference in result.kept
    press(qtbot, window, c.mark_copies)
    assert [result.files[n].path for n in window.groups.marked_files()] == [
        str(new / "tea-repost.txt")
    ]
    assert not window.groups.set_marked(group.reference, True)  # never a library file
    done(c.library_check)
    dialogs.folders.append(str(tmp_path / "LIB"))  # type: ignore[attr-defined]
    shown: list[str] = []
    dialogs.on_edit = lambda dialog: shown.append(dialog.summary.text()) or False  # type: ignore[attr-defined]
    press(qtbot, window, c.library_stats)
    assert "6 articles" in shown[0]
    assert dialogs.last("edit") == ("edit", "LibraryStatsDialog")  # type: ignore[attr-defined]
    done(c.library_stats)

    # quit with marks not saved asks first; "Yes" closes the window
    press(qtbot, window, c.quit)
    assert window.isVisible()  # "No" (no answer scripted): it stays
    assert "not saved" in dialogs.last("confirm")[1]  # type: ignore[attr-defined]
    dialogs.answers.append(True)  # type: ignore[attr-defined]
    press(qtbot, window, c.quit)
    assert not window.isVisible()
    done(c.quit)

    assert commands_offered(window) - checked == set()  # a new command needs its check here


def test_shortcuts_reach_their_commands(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    window.activateWindow()
    tree = window.groups_panel.tree
    info = select_file(window, "harbor-lighthouse-edited.md")
    qtbot.keyClick(tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert window.result.groups[0].reference == info.member.file  # type: ignore[union-attr]
    qtbot.keyClick(tree, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.dialogs.opened[-1].endswith("harbor-lighthouse-edited.md")  # type: ignore[attr-defined]
    report = tmp_path / "r.csv"
    window.dialogs.save_paths.append(str(report))  # type: ignore[attr-defined]
    qtbot.keyClick(tree, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(report.is_file)
    qtbot.keyClick(tree, Qt.Key.Key_F5)
    assert window.runner.busy
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)


def test_the_start_page_checks_new_articles_against_a_library(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    from simdup_gui.engine.library.build import add_folders
    from simdup_gui.engine.options import ScanOptions

    add_folders(str(tmp_path / "LIB"), [str(SAMPLE / "en")], ScanOptions())
    new = tmp_path / "new"
    new.mkdir()
    shutil.copy(SAMPLE / "en" / "library-hours.txt", new / "hours-again.txt")
    window.dialogs.folders += [str(tmp_path / "LIB"), str(new)]  # type: ignore[attr-defined]
    qtbot.mouseClick(window.start_page.library, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.runner.busy and window.result is not None, timeout=60_000)
    result = window.result
    assert result is not None
    (group,) = result.groups
    assert Path(result.files[group.reference].path).parent == SAMPLE / "en"
    assert "checked against the library" in window.status.text()
    window.commands.rescan.trigger()  # "Scan again" checks against the library again
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    again = window.result
    assert again is not None
    assert again is not result
    assert again.library
    assert "checked against the library" in window.status.text()
    window.dialogs.folders.append(str(new))  # type: ignore[attr-defined]
    window.commands.choose.trigger()  # the same folder chosen anew: scanned on its own
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    alone = window.result
    assert alone is not None
    assert not alone.library
    assert not alone.groups  # one article: no group without the library
    assert "library" not in window.status.text()
    window.dialogs.folders.append(str(tmp_path / "not-a-library"))  # type: ignore[attr-defined]
    window.commands.library_check.trigger()
    assert "no such library" in window.dialogs.last("warn")[1]  # type: ignore[attr-defined]
    meta = json.loads((tmp_path / "LIB" / "library.json").read_text(encoding="utf-8"))
    meta["settings_version"] = "an older one"  # built by a simdup whose fingerprints differ
    (tmp_path / "LIB" / "library.json").write_text(json.dumps(meta), encoding="utf-8")
    window.dialogs.folders.append(str(tmp_path / "LIB"))  # type: ignore[attr-defined]
    window.commands.library_check.trigger()
    assert "build a new library" in window.dialogs.last("warn")[1]  # type: ignore[attr-defined]


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


def test_a_long_pair_is_compared_without_freezing_the_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    text = write_long_pair(tmp_path)
    (tmp_path / "short.txt").write_text("一篇短文章。" * 40, encoding="utf-8")
    (tmp_path / "short-copy.txt").write_text("一篇短文章。" * 39 + "改", encoding="utf-8")
    scan_and_wait(qtbot, window, tmp_path)
    assert len(text) > 60_000
    qtbot.wait(300)  # the result's first showing settles: what is measured is the comparing
    largest = []
    for _ in range(3):  # the best of three: a busy machine can pause any program a moment
        select_file(window, "short.txt")  # start from a short pair, compared at once
        qtbot.waitUntil(lambda: window.compare.right_title.text().endswith("short-copy.txt"))
        qtbot.wait(100)
        gaps = event_loop_gaps()
        select_file(window, "short-copy.txt")  # a short pair, then the long one supersedes it
        info = select_file(window, "long-edited.txt")
        assert window.compare.summary.text() == "Comparing…"  # at once: the diff runs elsewhere
        qtbot.waitUntil(lambda: window.compare.difference_count() > 0, timeout=30_000)
        largest.append(gaps.stop())
        assert window.compare.right_title.text().endswith("long-edited.txt")
        assert window.compare.difference_count() >= 2
    print(f"largest gaps {largest}")
    assert min(largest) < 0.25, f"the event loop waited {min(largest):.3f} s at best"
    assert max(largest) < 1.0  # and never froze
    assert info.member.file in {m.file for g in window.result.groups for m in g.members}  # type: ignore[union-attr]


def test_the_window_never_waits_for_numba(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a new app, comparing a pair and turning a knob load no compiled kernels.

    Loading numba takes half a second on the GUI thread, and compiling, on a machine's first
    use, seconds: the window would freeze at the first file selected, or the first knob turned.
    """
    import importlib
    import threading

    asked: list[str] = []
    import_module = importlib.import_module

    def spied(name: str, *args: object) -> object:
        if name in KERNEL_MODULES and threading.current_thread() is threading.main_thread():
            asked.append(name)
        return import_module(name, *args)  # type: ignore[arg-type]

    for name in KERNEL_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)  # as in a new app
    monkeypatch.setattr(importlib, "import_module", spied)
    scan_and_wait(qtbot, window, SAMPLE)  # then its first copy is selected: an HTML page
    qtbot.waitUntil(lambda: window.compare.right_title.text().endswith("repost.html"))
    select_file(window, "春运返乡-镜像.html")
    assert window.compare.right_title.text().endswith("春运返乡-镜像.html")  # made at once
    window.knobs.k_box.setValue(0)  # regrouped at once
    assert window.result is not None
    assert window.result.options.group.k == 0
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))
    assert asked == []


def test_a_larger_result_is_regrouped_elsewhere_until_numba_is_loaded(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too many files for the plain form, the compiled kernels not loaded: off the GUI thread.

    As where the kernels cannot be built ahead (those load in a millisecond, on any thread).
    """
    from simdup_gui.engine import ahead, kernels

    scan_and_wait(qtbot, window, SAMPLE)
    monkeypatch.setattr(kernels, "PLAIN_FILES", 5)  # the sample's 13 files count as many
    monkeypatch.delitem(sys.modules, "simdup_gui.engine.match.index_kernels", raising=False)
    monkeypatch.setattr(kernels, "_ahead", {})
    monkeypatch.setattr(ahead, "load", lambda name: None)
    monkeypatch.setattr(ahead, "build", lambda name: False)
    window.knobs.k_box.setValue(0)
    assert window.status.text() == "Regrouping…"
    qtbot.waitUntil(  # numba loads the kernels, or on a fresh machine compiles them
        lambda: window.result is not None and window.result.options.group.k == 0, timeout=60_000
    )
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))


def test_with_kernels_built_ahead_a_larger_result_is_regrouped_at_once(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They load in a millisecond: the GUI thread regroups with them, numba never loaded."""
    from simdup_gui.engine import kernels

    if kernels._built_ahead("simdup_gui.engine.match.index_kernels") is None:
        pytest.skip("no C compiler here: the kernels cannot be built ahead")
    scan_and_wait(qtbot, window, SAMPLE)
    monkeypatch.setattr(kernels, "PLAIN_FILES", 5)  # the sample's 13 files count as many
    monkeypatch.delitem(sys.modules, "simdup_gui.engine.match.index_kernels", raising=False)
    window.knobs.k_box.setValue(0)
    assert window.result is not None
    assert window.result.options.group.k == 0  # at once: no "Regrouping…"
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))
    assert "simdup_gui.engine.match.index_kernels" not in sys.modules


def test_after_a_large_scan_the_compiled_kernels_are_loaded_elsewhere_once(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So the GUI thread compares and regroups compiled, and never loads numba itself."""
    import threading

    from simdup_gui.engine import kernels
    from simdup_gui.ui import scans

    on_gui_thread: list[bool] = []
    monkeypatch.setattr(
        scans,
        "warm_up",
        lambda settings: on_gui_thread.append(
            threading.current_thread() is threading.main_thread()
        ),
    )
    monkeypatch.setattr(scans, "kernels_compiled", lambda: True)
    monkeypatch.setattr(scans, "KERNELS_AFTER_MS", 0)
    scan_and_wait(qtbot, window, SAMPLE)  # small: the plain form serves it
    qtbot.wait(200)
    assert on_gui_thread == []
    monkeypatch.setattr(kernels, "PLAIN_BYTES", 1000)  # the sample counts as large
    scan_and_wait(qtbot, window, SAMPLE)
    qtbot.waitUntil(lambda: on_gui_thread == [False])
    scan_and_wait(qtbot, window, SAMPLE)
    qtbot.wait(200)
    assert on_gui_thread == [False]  # once


def test_a_long_path_never_squeezes_the_list_of_groups(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A folder name with nowhere to break it, shown above both texts, leaves the list its room."""
    window.resize(1024, 700)
    folder = tmp_path / ("newsroom_archive_" * 4 + "2026") / "articles"
    shutil.copytree(SAMPLE, folder)
    scan_and_wait(qtbot, window, folder)
    qtbot.waitUntil(lambda: window.compare.right_title.text().endswith("repost.html"))
    select_file(window, "春运返乡-镜像.html")
    qtbot.wait(100)  # the titles laid out
    tree = window.groups_panel.tree
    assert window.compare.right_title.text().endswith("春运返乡-镜像.html")
    assert window.compare.right_title.toolTip() == window.compare.right_title.text()  # in full
    assert sum(tree.columnWidth(n) for n in range(3)) <= tree.viewport().width()


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


def test_from_scan_to_the_result_shown_the_window_never_stalls(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Pressing Scan on a folder with a 60,000-character pair: no gap over 0.25 s until its
    differences are shown (the best of two scans; the second finds the files in the cache)."""
    write_long_pair(tmp_path)
    largest = []
    for _ in range(2):
        gaps = event_loop_gaps()
        window.scans.start(str(tmp_path))
        qtbot.waitUntil(
            lambda: not window.runner.busy and window.compare.difference_count() > 0,
            timeout=60_000,
        )
        largest.append(gaps.stop())
    assert min(largest) < 0.25, f"the event loop waited {min(largest):.3f} s at best"


def test_a_large_result_regroups_off_the_gui_thread_and_the_latest_knob_wins(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtCore import QThread
    from PySide6.QtWidgets import QApplication

    from simdup_gui.ui import main_window

    scan_and_wait(qtbot, window, SAMPLE)
    assert window.groups.rowCount() == 3
    monkeypatch.setattr(main_window, "REGROUP_AT_ONCE", 0)  # as if it held many files
    shown_on: list[bool] = []
    real = window.show_result

    def spy(result: object) -> None:
        shown_on.append(QThread.currentThread() is QApplication.instance().thread())  # type: ignore[union-attr]
        real(result)  # type: ignore[arg-type]

    monkeypatch.setattr(window, "show_result", spy)
    window.knobs.k_box.setValue(0)  # superseded at once by the next value
    assert window.status.text() == "Regrouping…"
    window.knobs.k_box.setValue(3)
    qtbot.waitUntil(
        lambda: window.result is not None and window.result.options.group.k == 3, timeout=10_000
    )
    qtbot.wait(200)
    assert window.result.options.group.k == 3  # type: ignore[union-attr]
    assert all(shown_on)
    assert window.groups.rowCount() == len(window.result.groups)  # type: ignore[union-attr]


def test_the_dialogs_standard_buttons_are_in_chinese_too(window: MainWindow) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    window.commands.chinese.trigger()
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    text = box.button(QDialogButtonBox.StandardButton.Cancel).text()
    window.commands.english.trigger()
    assert text == "取消"


def test_regrouping_100000_files_never_stalls_the_window(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A knob turned over a 100,000-file result: the event loop's largest gap stays small."""
    import numpy as np

    from simdup_gui.engine.match.matching import group_files
    from simdup_gui.engine.records import FileRecord
    from simdup_gui.engine.results import ScanResult

    rng = np.random.default_rng(9)
    prints = rng.integers(0, 2**64, 100_000, dtype=np.uint64)
    prints[1::10] = prints[::10] ^ np.uint64(0b1011)  # a near copy for every tenth: 3 bits off
    files = tuple(
        FileRecord(str(tmp_path / f"{n}.txt"), 1000, fingerprint=int(value), chars=900)
        for n, value in enumerate(prints.tolist())
    )
    options = ScanOptions(group=GroupOptions(k=3))
    with ThreadPoolExecutor(1) as scan_thread:  # as a scan would: it loads the kernels there
        grouped = scan_thread.submit(group_files, files, GroupOptions(3, 0.4)).result()
    result = ScanResult(str(tmp_path), files, *grouped, options)
    window.knobs.k_box.setValue(3)
    window.knobs.floor_box.setValue(40)
    window.show_result(result)
    assert len(window.result.groups) == 10_000  # type: ignore[union-attr]
    assert LOADED_AT_ONCE <= window.groups.rowCount() < 10_000  # more as the view scrolls
    qtbot.wait(500)  # the first showing settles (its own cost is the scan's end, not a knob's)
    largest = []
    for _ in range(3):  # the best of three: a busy machine can pause any program a moment
        gaps = event_loop_gaps()
        window.knobs.k_box.setValue(2)  # the near copies are 3 bits apart: no group is left
        qtbot.waitUntil(lambda: window.result.options.group.k == 2, timeout=120_000)  # type: ignore[union-attr]
        qtbot.wait(100)
        assert window.groups.rowCount() == 0
        window.knobs.k_box.setValue(3)  # and back: the 10,000 groups again
        qtbot.waitUntil(lambda: window.result.options.group.k == 3, timeout=120_000)  # type: ignore[union-attr]
        qtbot.wait(300)
        largest.append(gaps.stop())
        assert len(window.result.groups) == 10_000  # type: ignore[union-attr]
    print(f"largest gaps {largest}")
    assert min(largest) < 0.25, f"the event loop waited {min(largest):.3f} s at best"
    assert max(largest) < 1.0  # and never froze
    window.groups_panel.tree.scrollToBottom()  # scrolling gives the view more groups
    loaded = window.groups.rowCount()
    qtbot.waitUntil(lambda: window.groups.rowCount() > loaded, timeout=5000)
    last_file = window.result.groups[-1].members[1].file  # type: ignore[union-attr]
    assert window.groups_panel.select_file(last_file)  # any group can be selected
    window.groups_panel.filter_box.setText(f"{last_file}.txt")  # a filter sees every group
    assert window.groups_view_model.rowCount() >= 1


@given(
    st.text(alphabet="句子。!? .\nab", max_size=3000),
    st.integers(0, 3000),
    st.integers(0, 3000),
)
def test_long_lines_are_shown_broken_and_spans_follow(text: str, a: int, b: int) -> None:
    """A line over LONG_LINE characters is shown broken after its sentences; a span of the
    text maps to the same characters on screen."""
    from simdup_gui.ui import compare

    text = text * 3
    shown, cuts = compare.shown_text(text)
    assert shown.replace("\n", "") == text.replace("\n", "")
    assert len(shown) == len(text) + len(cuts)
    if all(len(line) <= compare.LONG_LINE for line in text.split("\n")):
        assert shown == text
    start, end = sorted((min(a, len(text)), min(b, len(text))))
    x, y = compare.on_screen((start, end), cuts)
    assert shown[x:y].replace("\n", "") == text[start:end].replace("\n", "")


def test_knobs_say_when_they_were_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("language", "en")
    fresh = create_window(settings=settings)
    qtbot.addWidget(fresh)
    assert "Remembered" not in fresh.knobs.k_box.toolTip()  # nothing to remember yet
    settings.setValue("k", 5)
    settings.setValue("min_similarity", 55)
    window = create_window(settings=settings)
    qtbot.addWidget(window)
    assert window.knobs.k_box.value() == 5
    assert window.knobs.floor_box.value() == 55
    assert "Remembered from your last session." in window.knobs.k_box.toolTip()
    assert "Remembered from your last session." in window.knobs.floor_box.toolTip()
    window.knobs.k_box.setValue(6)  # turned now: no longer the last session's
    assert "Remembered" not in window.knobs.k_box.toolTip()
    assert "Remembered" in window.knobs.floor_box.toolTip()


def test_a_list_dialog_gives_back_the_values_left(qtbot: QtBot) -> None:
    from simdup_gui.ui.list_dialog import ListDialog

    rows = [("a ↔ b", ("a", "b")), ("c ↔ d", ("c", "d")), ("e ↔ f", ("e", "f"))]
    added = [("g ↔ h", ("g", "h"))]
    dialog = ListDialog("t", "n", rows, add=lambda: added.pop() if added else None)
    qtbot.addWidget(dialog)
    assert dialog.values() == [("a", "b"), ("c", "d"), ("e", "f")]
    dialog.list.item(1).setSelected(True)
    dialog.remove_button.click()
    dialog.add_button.click()
    dialog.add_button.click()  # nothing more to add
    dialog.add_row("a ↔ b", ("a", "b"))  # already there: not twice
    assert dialog.values() == [("a", "b"), ("e", "f"), ("g", "h")]
    dialog.clear_button.click()
    assert dialog.values() == []


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


def test_hovering_a_differing_bit_names_the_words_that_pushed_it(
    qtbot: QtBot, window: MainWindow
) -> None:
    from PySide6.QtCore import QPoint

    scan_and_wait(qtbot, window, SAMPLE)
    select_file(window, "茶园春茶-改写.txt")
    strip = window.compare.left_bits
    qtbot.waitUntil(lambda: bool(strip.words), timeout=10_000)
    assert set(strip.words) == set(strip.differing_bits())
    bit = strip.differing_bits()[0]
    position = 63 - bit
    row, column = divmod(position, strip.COLUMNS)
    point = QPoint(column * strip.CELL + 3, row * strip.CELL + 3)
    assert strip.bit_at(point) == bit
    text = strip.tooltip_at(point)
    assert text.startswith(f"Bit {bit}:")
    assert any(word in text for word in ("昆明", "络绎不绝", "游客", "明显", "尚未"))
    same = next(b for b in range(64) if b not in strip.differing_bits())
    row, column = divmod(63 - same, strip.COLUMNS)
    assert strip.tooltip_at(QPoint(column * strip.CELL + 3, row * strip.CELL + 3)) == (
        strip.toolTip()  # a bit both share: the fingerprint, nothing to explain
    )


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


def test_the_reuse_view_shows_an_article_beside_its_source_and_exports(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Scan the sample, open the reuse view, pick the commentary's source: the copied passages
    are marked on both sides and the list's share is the core's; both reports are written."""
    folder = Path(shutil.copytree(SAMPLE, tmp_path / "sample"))
    scan_and_wait(qtbot, window, folder)
    panel = window.reuse_panel
    assert panel.reuse is None  # measured only when first in sight
    window.views.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    expected = reusing.measure(window.result, reusing.ReuseChoices())  # type: ignore[arg-type]
    shares = {
        Path(expected.scan.files[c.path].path).name: f"{100 * c.share:.1f}%"
        for c in expected.articles
    }
    model = panel.model
    rows = {
        Path(model.item(r, 0).data(Qt.ItemDataRole.UserRole + 1)).name: r
        for r in range(model.rowCount())
    }
    assert {name: model.item(r, 1).text() for name, r in rows.items()} == shares
    commentary = model.item(rows["春运返乡-评论.txt"], 0)
    assert commentary.child(0, 0).text() == "zh/春运返乡.txt"
    with qtbot.waitSignal(panel.pair_shown, timeout=10_000):
        panel.tree.setCurrentIndex(commentary.child(0, 0).index())
    copied = panel.article_text.marked_text()
    assert len(copied) == 2
    assert copied[0].startswith("为应对客流高峰")
    assert panel.source_text.marked_text() == copied  # the same passages, on the source's side
    assert set(panel.article_text.shares.values()) >= {0.0, 1.0}
    assert "30.3%" in panel.summary.text()

    page, table = tmp_path / "reuse.html", tmp_path / "reuse.csv"
    window.dialogs.save_paths += [str(folder / "in.html"), str(page), str(table)]  # type: ignore[attr-defined]
    panel.export_html_button.click()
    assert "inside the input" in window.dialogs.last("warn")[1]  # type: ignore[attr-defined]
    panel.export_html_button.click()
    panel.export_csv_button.click()
    qtbot.waitUntil(lambda: page.exists() and table.exists(), timeout=10_000)
    assert page.read_text(encoding="utf-8").count("<mark>") >= 4
    with table.open(encoding="utf-8-sig", newline="") as stream:
        assert len(list(csv.DictReader(stream))) == sum(len(c.sources) for c in expected.articles)

    window.knobs.set_values(k=7)  # a regroup: a result shown anew, measured anew
    window.regroup()
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    assert panel.model.rowCount() == len(rows)


def test_a_damaged_not_duplicates_list_is_said_and_never_overwritten(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The window opens, says the list is not used, and a pair kept apart does not replace it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = not_duplicates.default_path()
    path.parent.mkdir(parents=True)
    path.write_text('[["/a", "/b"],]', encoding="utf-8")
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("language", "en")
    with loading_no_kernels_here():
        win = create_window(settings=settings, dialogs=ScriptedDialogs())  # type: ignore[arg-type]
    qtbot.addWidget(win)
    try:
        assert "Not-duplicates list not used" in win.status.label.text()
        assert "damaged" in win.status.label.text()
        scan_and_wait(qtbot, win, SAMPLE)
        assert win.groups.rowCount() == 3
        select_file(win, "茶园春茶-改写.txt")
        win.commands.keep_apart.trigger()
        qtbot.waitUntil(lambda: not win.runner.busy, timeout=60_000)
        assert win.groups.rowCount() == 2  # apart in this session ...
        assert "until the app closes" in win.dialogs.last("warn")[1]  # type: ignore[attr-defined]
        assert path.read_text(encoding="utf-8") == '[["/a", "/b"],]'  # ... the file untouched
    finally:
        win.runner.shutdown()


def test_a_reference_picked_by_hand_lasts_through_a_knob_and_reaches_the_csv_and_the_save(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Ctrl+R on a copy, the threshold turned 8 → 7 and back, a removal, marks: all kept."""
    scan_and_wait(qtbot, window, SAMPLE)
    select_file(window, "茶园春茶-改写.txt")
    qtbot.keyClick(window.groups_panel.tree, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    window.knobs.k_box.setValue(7)
    qtbot.waitUntil(lambda: not window.runner.busy)
    window.knobs.k_box.setValue(8)
    qtbot.waitUntil(lambda: not window.runner.busy)
    select_file(window, "春运返乡-转载.txt")
    window.commands.toggle_mark.trigger()
    assert len(window.session.marked) == 1
    window.knobs.k_box.setValue(7)
    qtbot.waitUntil(lambda: not window.runner.busy)
    assert len(window.session.marked) == 1  # the mark stays with its file

    report = tmp_path / "out" / "report"  # typed without an extension
    report.parent.mkdir()
    window.dialogs.save_paths.append(str(report))  # type: ignore[attr-defined]
    window.commands.export.trigger()
    qtbot.waitUntil(lambda: "Report written" in window.status.text())
    rows = list(
        csv.DictReader((tmp_path / "out" / "report.csv").read_text("utf-8-sig").splitlines())
    )
    roles = {Path(r["path"]).name: r["role"] for r in rows}
    assert roles["茶园春茶-改写.txt"] == "reference"
    assert roles["茶园春茶.txt"] == "duplicate"

    quit_asked: ScriptedDialogs = window.dialogs  # type: ignore[assignment]
    quit_asked.answers.clear()
    window.close()  # marks not saved: asked, and "No" keeps the window open
    assert quit_asked.last("confirm")[1].startswith("1 file is marked")
    assert window.isVisible()
    saved = tmp_path / "out" / "marked"
    quit_asked.save_paths.append(str(saved))
    window.commands.save_results.trigger()
    qtbot.waitUntil(
        lambda: "Report written" in window.status.text() and saved.with_suffix(".simdup").exists()
    )
    unmarked = tmp_path / "out" / "unmarked.simdup"
    window.session.clear_marks()
    quit_asked.save_paths.append(str(unmarked))
    window.commands.save_results.trigger()
    qtbot.waitUntil(lambda: unmarked.exists())
    assert saved.with_suffix(".simdup").read_bytes() != unmarked.read_bytes()
    window.session.mark_all_but_references()
    window.session.saved = window.session.choices()
    asked = len(quit_asked.asked)
    quit_asked.answers.append(True)
    window.close()  # nothing unsaved: no question
    assert len(quit_asked.asked) == asked


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_menu_has_a_mnemonic_of_its_own(window: MainWindow, language: str) -> None:
    """Alt and a letter opens one menu, in either language."""
    import re

    window.set_language(language)
    titles = [a.text() for a in window.menuBar().actions() if a.text()]
    keys = [m[1].lower() for t in titles if (m := re.search(r"&(\w)", t))]
    assert len(keys) == len(titles) >= 4, titles
    assert len(set(keys)) == len(keys), titles


def test_the_problems_tab_shows_the_whole_name_of_a_file(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """A long path is elided in its middle and its column is as wide as it needs (to a point)."""
    folder = tmp_path / "a-folder-with-a-rather-long-name" / "and-another-one-inside"
    shutil.copytree(SAMPLE, folder)
    broken = folder / "an-unreadable-article-with-a-long-name.txt"
    broken.write_bytes(b"\x00" * 200)
    scan_and_wait(qtbot, window, folder)
    view = window.groups_panel.problems_view
    assert window.problems.rowCount() == 1
    assert view.textElideMode() == Qt.TextElideMode.ElideMiddle
    name = view.fontMetrics().horizontalAdvance(broken.name)
    assert view.columnWidth(0) > name  # the name itself is never cut


def test_the_list_keeps_its_place_after_a_removal_and_a_pair_kept_apart(
    qtbot: QtBot, window: MainWindow
) -> None:
    """Del and Ctrl+D leave the neighbouring row selected, not the first group's."""
    scan_and_wait(qtbot, window, SAMPLE)
    second = select_file(window, "春运返乡-转载.txt")
    row = window.groups_panel.current_place()[0]
    assert row > 0
    window.commands.remove_from_results.trigger()
    info = window.selected_member()
    assert info is not None
    assert info.group.id == second.group.id  # still in the same story's group
    assert window.groups_panel.current_place()[0] == row
    select_file(window, "茶园春茶-改写.txt")
    last = window.groups_panel.current_place()[0]
    window.commands.keep_apart.trigger()  # the pair's group goes
    qtbot.waitUntil(lambda: window.selected_member() is not None)
    assert window.groups_panel.current_place()[0] == min(last, window.groups.rowCount() - 1) > 0
