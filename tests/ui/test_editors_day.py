"""What broke in an editor's day with the app, each driven in the real window."""

from __future__ import annotations

from driving import SAMPLE, scan_and_wait
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from simdup_gui.ui.main_window import MainWindow


def test_a_stray_key_turns_no_threshold_and_marks_stay_with_their_files(
    qtbot: QtBot, window: MainWindow
) -> None:
    assert window.focusWidget() is window.start_page.choose  # not a knob, before any scan
    scan_and_wait(qtbot, window, SAMPLE)
    assert window.focusWidget() is window.groups_panel.tree
    k, floor = window.knobs.k, window.knobs.floor_box.value()
    for key in (Qt.Key.Key_PageDown, Qt.Key.Key_Down, Qt.Key.Key_PageUp):
        qtbot.keyClick(window.focusWidget(), key)
    assert (window.knobs.k, window.knobs.floor_box.value()) == (k, floor)

    window.commands.mark_copies.trigger()
    marked = set(window.groups.marked_files())
    assert marked
    window.knobs.k_box.setValue(0)  # the groups dissolve, or most of them
    window.knobs.floor_box.setValue(100)
    left = set(window.groups.marked_files())
    assert left < marked
    assert len(window.session.held_marks) == len(marked - left)
    assert "more marked" in window.status.marked.text()
    assert window.session.unsaved_marks
    assert set(window.session.choices().marked) == {
        window.result.files[n].path
        for n in marked  # type: ignore[union-attr]
    }  # saved with the result too
    window.knobs.floor_box.setValue(floor)
    window.knobs.k_box.setValue(k)
    assert set(window.groups.marked_files()) == marked  # back as they were
    assert not window.session.held_marks
    assert "more marked" not in window.status.marked.text()

    window.knobs.k_box.setValue(0)
    window.knobs.floor_box.setValue(100)
    window.commands.clear_marks.trigger()  # "clear" clears the held marks too
    window.knobs.floor_box.setValue(floor)
    window.knobs.k_box.setValue(k)
    assert window.groups.marked_files() == []


def test_typing_a_similarity_regroups_once_on_enter(qtbot: QtBot, window: MainWindow) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    floors: list[float] = []
    window.knobs.changed.connect(lambda: floors.append(window.knobs.min_similarity))
    box = window.knobs.floor_box
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, "90")  # "9" on its way to "90" is no setting anyone asked for
    assert floors == []
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert floors == [0.9]
    assert window.result is not None
    assert window.result.options.group.min_similarity == 0.9
    qtbot.keyClick(box, Qt.Key.Key_Down)  # the arrows step and regroup at once
    assert floors == [0.9, 0.89]


def test_a_pair_shows_the_figure_of_the_list_and_the_report(
    qtbot: QtBot, window: MainWindow
) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    assert window.result is not None
    for group in window.result.groups:
        for member in group.members[1:]:
            assert window.groups_panel.select_file(member.file)
            qtbot.waitUntil(lambda: window.compare.summary.text() != "")
            shown = f"{100 * member.similarity:.1f}%"
            assert shown in window.compare.summary.text()
