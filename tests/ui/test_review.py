"""Reviewing groups: compare, marks, references, sort, pin, the list's place, choices kept."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from driving import (
    SAMPLE,
    ScriptedDialogs,
    event_loop_gaps,
    member_rows,
    scan_and_wait,
    select_file,
    write_long_pair,
)
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from simdup_gui.app import create_window
from simdup_gui.core import not_duplicates
from simdup_gui.core.columns import column_named
from simdup_gui.engine.kernels import loading_no_kernels_here
from simdup_gui.engine.match.default_measure import similarity
from simdup_gui.ui.main_window import MainWindow
from simdup_gui.ui.models import ItemRole


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


def test_filter_and_duplicates_only(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    proxy = window.groups_view_model
    window.groups_panel.filter_box.setText("lighthouse")
    assert proxy.rowCount() == 1
    assert proxy.rowCount(proxy.index(0, 0)) == 3
    window.groups_panel.duplicates_only.setChecked(True)
    assert proxy.rowCount(proxy.index(0, 0)) == 2


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


def test_a_reference_with_short_lines_a_copy_lacks_is_flagged_in_its_group_row(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    story = "\n\n".join(
        f"第{n}段：春运首日，铁路部门共发送旅客三百万人次，秩序井然。" for n in range(8)
    )
    folder = tmp_path / "articles"
    folder.mkdir()
    (folder / "clean.txt").write_text(story, encoding="utf-8")
    (folder / "padded.txt").write_text("新闻中心\n首页 | 国内\n" + story, encoding="utf-8")
    scan_and_wait(qtbot, window, folder)
    model = window.groups
    row = model.index(0, column_named("File"))
    assert not model.data(row).endswith("⚑")  # the clean copy is kept
    assert model.data(row, Qt.ItemDataRole.ToolTipRole) is None
    select_file(window, "padded.txt")
    window.commands.make_reference.trigger()  # the person keeps the padded one
    row = model.index(0, column_named("File"))
    assert model.data(row).endswith("⚑")
    tip = model.data(row, Qt.ItemDataRole.ToolTipRole)
    assert "(2 lines, " in tip
    assert "header" in tip
