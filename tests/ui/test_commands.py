"""Every command, shortcut and menu does what it says, in both languages."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from driving import SAMPLE, adding_folders, commands_offered, press, scan_and_wait, select_file
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

from simdup_gui.core import not_duplicates
from simdup_gui.engine.resources import resource
from simdup_gui.ui.main_window import MainWindow
from simdup_gui.ui.settings_dialog import set_folder_list


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
    window.scans.start(str(SAMPLE))  # another folder shown meanwhile
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    dialogs.save_paths.append(str(saved))  # type: ignore[attr-defined]
    press(qtbot, window, c.open_results)
    press(qtbot, window, c.rescan)  # scans the saved result's folder, not the last one
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result.root == str(folder)  # type: ignore[union-attr]
    assert window.result.groups[0].reference == info.member.file  # type: ignore[union-attr]
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
    dialogs.save_paths.append(str(new / "tea-repost.txt"))  # type: ignore[attr-defined]
    press(qtbot, window, c.library_check_article)  # the same article, chosen alone
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
    assert window.result is not None
    assert window.result is not result
    (alone,) = window.result.groups
    assert window.result.files[alone.reference].path == str(archive / "茶园春茶.txt")
    done(c.library_check_article)
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


def test_the_dialogs_standard_buttons_are_in_chinese_too(window: MainWindow) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    window.commands.chinese.trigger()
    box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    text = box.button(QDialogButtonBox.StandardButton.Cancel).text()
    window.commands.english.trigger()
    assert text == "取消"


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_every_menu_has_a_mnemonic_of_its_own(window: MainWindow, language: str) -> None:
    """Alt and a letter opens one menu, in either language."""
    import re

    window.set_language(language)
    titles = [a.text() for a in window.menuBar().actions() if a.text()]
    keys = [m[1].lower() for t in titles if (m := re.search(r"&(\w)", t))]
    assert len(keys) == len(titles) >= 4, titles
    assert len(set(keys)) == len(keys), titles
