"""Reports from the window: written off the GUI thread, never over an article; the reuse view."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from driving import SAMPLE, scan_and_wait
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from simdup_gui.core import reusing
from simdup_gui.engine.output.words import Words
from simdup_gui.ui.main_window import MainWindow


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


def test_the_chinese_app_writes_its_reports_in_chinese(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Switch the app to Chinese, export both reports: each speaks the app's language."""
    scan_and_wait(qtbot, window, SAMPLE)
    window.set_language("zh_CN")
    table, page = tmp_path / "report.csv", tmp_path / "report.html"
    window.dialogs.save_paths += [str(table), str(page)]  # type: ignore[attr-defined]
    window.commands.export.trigger()
    qtbot.waitUntil(table.exists)
    window.commands.export_html.trigger()
    qtbot.waitUntil(lambda: page.exists() and not window.runner.busy)
    rows = list(csv.DictReader(table.read_text(encoding="utf-8-sig").splitlines()))
    assert sum(1 for row in rows if row["角色"] == "参照") == 3
    assert '<html lang="zh">' in page.read_text(encoding="utf-8")
    window.set_language("en")


def test_a_report_is_written_off_the_gui_thread_and_a_failure_is_said(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTML report reads every group's texts again: seconds for a large result."""
    import threading

    from simdup_gui.ui import result_files

    scan_and_wait(qtbot, window, SAMPLE)
    written_on: list[bool] = []
    real = result_files.write_html_report

    def spy(result: object, destination: str, words: Words) -> object:
        written_on.append(threading.current_thread() is threading.main_thread())
        assert words.language == "en"  # the app's
        return real(result, destination, words)  # type: ignore[arg-type]

    monkeypatch.setattr(result_files, "write_html_report", spy)
    page = tmp_path / "report.html"
    window.dialogs.save_paths.append(str(page))  # type: ignore[attr-defined]
    window.commands.export_html.trigger()
    assert window.status.text().startswith("Writing")  # at once: written elsewhere
    qtbot.waitUntil(lambda: "Report written" in window.status.text())
    assert written_on == [False]
    assert page.read_text(encoding="utf-8").count('<tr class="reference">') == 3

    def full(result: object, destination: str, words: object, marked: object) -> None:
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


def test_the_shortest_match_chosen_in_the_reuse_view_measures_again(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """The view's "passages of at least" box is the command's --min-match: set past the
    sample's copied passages, the view measures again and lists what the core finds then."""
    folder = Path(shutil.copytree(SAMPLE, tmp_path / "sample"))
    scan_and_wait(qtbot, window, folder)
    panel = window.reuse_panel
    window.views.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    assert panel.shortest.value() == reusing.ReuseChoices().min_match
    before = panel.model.rowCount()
    panel.shortest.setValue(120)
    panel.shortest.editingFinished.emit()
    qtbot.waitUntil(
        lambda: panel.reuse is not None and panel.reuse.min_match == 120 and not window.runner.busy,
        timeout=30_000,
    )
    longer = reusing.measure(window.result, reusing.ReuseChoices(min_match=120))  # type: ignore[arg-type]
    listed = {
        Path(panel.model.item(r, 0).data(Qt.ItemDataRole.UserRole + 1)).name
        for r in range(panel.model.rowCount())
    }
    assert listed == {Path(longer.scan.files[c.path].path).name for c in longer.articles}
    assert len(listed) < before  # the sample's shorter passages no longer make a source


def test_the_reuse_view_says_which_articles_also_hold_what_was_copied(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """Three answers cut the same paragraphs of one text and are grouped: choosing a later
    answer's source, the view names the first answer as also holding them, as the report's
    also_in column does, in the list and in the words above the texts."""
    from test_reuse import answers_cut_alike

    folder = tmp_path / "answers"
    folder.mkdir()
    answers_cut_alike(folder)
    scan_and_wait(qtbot, window, folder)
    panel = window.reuse_panel
    window.views.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    model = panel.model
    rows = {model.item(r, 0).text(): model.item(r, 0) for r in range(model.rowCount())}
    later = rows["answer2.txt"]
    assert later.child(0, 0).text() == "text.txt"
    assert later.child(0, 4).text().endswith("answer0.txt")
    with qtbot.waitSignal(panel.pair_shown, timeout=10_000):
        panel.tree.setCurrentIndex(later.child(0, 0).index())
    assert "answer0.txt" in panel.summary.text()
    assert "answer0.txt" not in rows["answer0.txt"].child(0, 4).text()


def test_the_reuse_view_gives_the_three_totals_and_marks_ones_own_sources(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    """The reference folders are the editor's own: their articles are sources marked so, and
    each article's totals without cited text and without them are beside its total."""
    import json

    folder = Path(shutil.copytree(SAMPLE, tmp_path / "sample"))
    window.settings.setValue("reference_folders", json.dumps([str(folder / "zh")]))
    scan_and_wait(qtbot, window, folder)
    panel = window.reuse_panel
    window.views.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.reuse is not None and not window.runner.busy, timeout=30_000)
    model = panel.model
    rows = {
        Path(model.item(r, 0).data(Qt.ItemDataRole.UserRole + 1)).name: r
        for r in range(model.rowCount())
    }
    commentary = model.item(rows["春运返乡-评论.txt"], 0)
    assert commentary.child(0, 0).text() == "(your own) zh/春运返乡.txt"
    tip = model.item(rows["春运返乡-评论.txt"], 1).toolTip()
    assert tip.endswith("without your own articles: 0.0%")
    assert tip.startswith(f"Copied in all: {model.item(rows['春运返乡-评论.txt'], 1).text()}")
    english = model.item(rows["harbor-walking-tour.txt"], 0)
    assert not english.child(0, 0).text().startswith("(your own)")  # not in a reference folder
    with qtbot.waitSignal(panel.pair_shown, timeout=10_000):
        panel.tree.setCurrentIndex(commentary.index())
    assert "without your own articles: 0.0%" in panel.summary.text()


@pytest.mark.parametrize("method", ["fancy", 3])
def test_a_saved_result_of_a_method_this_simdup_lacks_is_refused_before_anything_changes(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, method: object
) -> None:
    import json

    scan_and_wait(qtbot, window, SAMPLE)
    window.commands.mark_copies.trigger()
    saved = tmp_path / "newer.simdup"
    window.dialogs.save_paths.append(str(saved))  # type: ignore[attr-defined]
    window.commands.save_results.trigger()
    qtbot.waitUntil(saved.exists, timeout=10_000)
    document = json.loads(saved.read_text(encoding="utf-8"))
    document["options"]["read"]["text"]["method"] = method  # as a newer simdup might keep it
    saved.write_text(json.dumps(document), encoding="utf-8")
    shown, marked = window.result, set(window.session.marked)
    window.commands.clear_marks.trigger()
    window.dialogs.save_paths.append(str(saved))  # type: ignore[attr-defined]
    window.commands.open_results.trigger()
    said = window.dialogs.last("warn")[1]  # type: ignore[attr-defined]
    assert "method" in said
    assert "\n" not in said
    assert window.result is shown  # nothing adopted, nothing shown
    assert window.session.marked == set() != marked
