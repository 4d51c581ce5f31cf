"""What broke in an editor's day with the app, each driven in the real window."""

from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

from driving import SAMPLE, member_rows, scan_and_wait
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QLineEdit
from pytestqt.qtbot import QtBot
from test_exact_floor import pair_across_the_floor

from simdup_gui.core.columns import column_named
from simdup_gui.ui.dialogs import NewFolderDialog
from simdup_gui.ui.main_window import MainWindow
from simdup_gui.ui.models import ItemRole


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


def test_a_pair_reads_one_figure_at_every_floor_that_groups_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Just above the floor a pair is decided on its whole texts; the list still shows it the
    figure it has at any other floor (it read 53.4 % at one setting and 47.7 % at another)."""
    a, b, _ = pair_across_the_floor(estimate_above=False)
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    (tmp_path / "b.txt").write_text(b, encoding="utf-8")
    scan_and_wait(qtbot, window, tmp_path)
    column = column_named("Similarity")
    estimate = window.result.likeness(0, 1)  # type: ignore[union-attr]
    shown = set()
    for floor in (int(100 * estimate), int(100 * estimate) - 20):  # decided on texts, then not
        window.knobs.floor_box.setValue(floor)
        qtbot.waitUntil(lambda: not window.runner.busy)
        rows = member_rows(window)
        assert len(rows) == 2, floor
        group = window.groups.index(0, 0)
        shown.add(window.groups.index(1, column, group).data())
        assert window.groups_panel.select_file(rows[1].member.file)
        qtbot.waitUntil(lambda: window.compare.summary.text() != "")
        shown |= {f for f in re.findall(r"\d+\.\d%", window.compare.summary.text())}
    assert shown == {f"{100 * estimate:.1f}%"}


def test_a_story_is_found_by_its_title_and_the_window_names_its_folder(
    qtbot: QtBot, window: MainWindow
) -> None:
    scan_and_wait(qtbot, window, SAMPLE)
    assert window.windowTitle().startswith("sample — ")
    result = window.result
    assert result is not None
    proxy = window.groups_view_model

    def shown() -> set[str]:
        return {
            Path(proxy.index(m, 0, proxy.index(g, 0)).data(ItemRole).record.path).name
            for g in range(proxy.rowCount())
            for m in range(proxy.rowCount(proxy.index(g, 0)))
        }

    window.groups_panel.filter_box.setText("two years of repairs")  # in no file's name
    assert shown() == {"harbor-lighthouse.txt", "harbor-lighthouse-edited.md"}
    window.groups_panel.filter_box.setText("铁路发送旅客")
    assert shown() == {"春运返乡.txt", "春运返乡-转载.txt", "春运返乡-镜像.html"}
    window.groups_panel.filter_box.setText("")
    tree = window.groups_panel.tree
    assert all(tree.isExpanded(proxy.index(g, 0)) for g in range(proxy.rowCount()))  # as before

    panel = window.reuse_panel
    window.views.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    assert panel.model.horizontalHeaderItem(2).text() == "Title"
    titles = {panel.model.item(r, 2).text() for r in range(panel.model.rowCount())}
    assert titles & {f.title for f in result.files if f.title}


def test_the_library_in_the_app(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    """A new library named in the real folder dialog; a check of the library's own folder
    lists no article as copied from itself, measured at once; one article checked alone."""
    dialogs = window.dialogs
    archive = Path(shutil.copytree(SAMPLE / "zh", tmp_path / "archive"))
    made = tmp_path / "new library"

    def typed_in_the_real_dialog(title: str, start: str) -> str:
        dialog = NewFolderDialog(window, title, str(tmp_path))
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.findChild(QLineEdit, "fileNameEdit").setText(made.name)
        dialog.accept()  # as Choose does
        assert dialog.result() == QDialog.DialogCode.Accepted
        return dialog.selectedFiles()[0]

    dialogs.new_folder = typed_in_the_real_dialog  # type: ignore[method-assign]
    dialogs.folders.append(str(archive))  # type: ignore[attr-defined]
    window.commands.library_add.trigger()
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert made.is_dir()
    assert dialogs.last("inform")[1].startswith("7 new")  # type: ignore[attr-defined]

    window.views.setCurrentWidget(window.reuse_panel)  # the tab in sight as the check ends
    dialogs.folders += [str(made), str(archive)]  # type: ignore[attr-defined]
    window.commands.library_check.trigger()
    panel = window.reuse_panel
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=60_000)
    assert panel.summary.text() != panel.tr("Shown after a scan.")
    reuse = panel.reuse
    for copied in reuse.articles:
        article = reuse.scan.files[copied.path].path
        assert all(reuse.source_path(s) != article for s in copied.sources), article

    repost = tmp_path / "repost.txt"
    shutil.copy(archive / "茶园春茶-改写.txt", repost)
    dialogs.folders.append(str(made))  # type: ignore[attr-defined]
    dialogs.save_paths.append(str(repost))  # type: ignore[attr-defined]
    window.commands.library_check_article.trigger()
    qtbot.waitUntil(
        lambda: not window.runner.busy and bool(window.result and window.result.library),
        timeout=60_000,
    )
    result = window.result
    assert result is not None
    (group,) = result.groups
    assert [result.files[m.file].path for m in group.members[1:]] == [str(repost)]
    assert group.reference in result.kept


def test_the_csv_and_the_problems_speak_to_an_editor_in_chinese(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = Path(shutil.copytree(SAMPLE, tmp_path / "sample"))
    (folder / "empty.txt").write_bytes(b"")
    window.set_language("zh_CN")
    scan_and_wait(qtbot, window, folder)
    reasons = [window.problems.index(r, 1).data() for r in range(window.problems.rowCount())]
    assert reasons == ["空文件"]
    window.commands.mark_copies.trigger()
    marked = {window.result.files[n].path for n in window.groups.marked_files()}  # type: ignore[union-attr]
    report = tmp_path / "报告.csv"
    window.dialogs.save_paths.append(str(report))  # type: ignore[attr-defined]
    window.commands.export.trigger()
    qtbot.waitUntil(report.exists, timeout=10_000)
    with report.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    header = list(rows[0])
    assert header[:9] == [
        "组号",
        "角色",
        "已标记",
        "路径",
        "标题",
        "相似度",
        "包含比例",
        "文件大小",
        "最后修改",
    ]
    assert header.index("指纹") > header.index("备注")  # an engineer's columns come last
    assert {r["路径"] for r in rows if r["已标记"] == "是"} == marked
    assert all(r["已标记"] == "" for r in rows if r["路径"] not in marked)
    by_name = {Path(r["路径"]).name: r for r in rows}
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", by_name["春运返乡.txt"]["最后修改"])
    assert re.fullmatch(r"\d+\.\d KB", by_name["春运返乡.txt"]["文件大小"])
    assert by_name["春运返乡-转载.txt"]["编码"] == "gbk"  # saved as GBK, said so
    assert by_name["empty.txt"]["错误"] == "空文件"


def test_the_knobs_and_settings_speak_plainly_in_chinese(qtbot: QtBot, window: MainWindow) -> None:
    """The default says it is the default, not "loose"; every setting has a plain name."""
    from PySide6.QtWidgets import QFormLayout, QLabel

    from simdup_gui.ui.settings_dialog import SettingsDialog

    window.set_language("zh_CN")
    assert window.knobs.k == 8
    assert "默认" in window.knobs.k_words.text()
    assert "宽松" not in window.knobs.k_words.text()
    assert "位" not in window.knobs.k_label.text()  # no bits in the knob's name
    window.knobs.k_box.setValue(3)
    assert "默认" not in window.knobs.k_words.text()
    dialog = SettingsDialog(window.settings, window)
    qtbot.addWidget(dialog)
    form = dialog.layout()
    assert isinstance(form, QFormLayout)
    labels = [
        form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget().text()
        for row in range(form.rowCount())
        if form.itemAt(row, QFormLayout.ItemRole.LabelRole) is not None
        and isinstance(form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget(), QLabel)
    ]
    assert len(labels) >= 8
    for label in labels:  # Chinese words first; an algorithm's name only in brackets after
        plain = re.sub(r"（.*?）", "", label)
        assert re.match(r"[\u4e00-\u9fff]{2,}", plain), label
        assert not re.search(r"[A-Za-z]", plain), label
    methods = [dialog.method.itemText(n) for n in range(dialog.method.count())]
    assert all(re.match(r"[\u4e00-\u9fff]", re.sub(r"^simdup ", "", m)) for m in methods), methods


def test_files_of_other_types_are_listed_by_name_with_why(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    folder = Path(shutil.copytree(SAMPLE, tmp_path / "sample"))
    (folder / "稿费.xlsx").write_bytes(b"PK\x03\x04")
    (folder / "zh" / "scan.png").write_bytes(b"\x89PNG")
    (folder / "投稿.doc").write_bytes(b"\xd0\xcf\x11\xe0" + bytes(100))  # read: a row
    window.set_language("zh_CN")
    scan_and_wait(qtbot, window, folder)
    rows = {
        Path(window.problems.index(r, 0).data()).name: window.problems.index(r, 1).data()
        for r in range(window.problems.rowCount())
    }
    assert rows == {
        "稿费.xlsx": "未读取：.xlsx 不在读取的文件类型中（见设置）",
        "scan.png": "未读取：.png 不在读取的文件类型中（见设置）",
        "投稿.doc": "旧版 Word 格式（.doc）：另存为 .docx 后才能比较",
    }


def test_a_word_file_is_compared_with_its_text_saying_where_the_text_came_from(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    from documents_made import write_docx

    story = (SAMPLE / "zh" / "春运返乡.txt").read_text(encoding="utf-8")
    (tmp_path / "story.txt").write_text(story, encoding="utf-8")
    lines = [line for line in story.split("\n") if line.strip()]
    write_docx(tmp_path / "story.docx", lines[0], lines[1:])
    scan_and_wait(qtbot, window, tmp_path)
    assert window.result is not None
    (group,) = window.result.groups
    assert window.result.files[group.reference].path.endswith("story.docx")  # the editable one
    other = next(m.file for m in group.members if m.file != group.reference)
    assert window.groups_panel.select_file(other)
    qtbot.waitUntil(lambda: window.compare.summary.text() != "")
    assert window.compare.left_title.text().endswith("story.docx · text taken from the DOCX file")
    assert (
        "0 differences" in window.compare.summary.text()
        or "100.0%" in window.compare.summary.text()
    )
