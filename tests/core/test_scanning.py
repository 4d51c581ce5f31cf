"""The app's scans without Qt: what is scanned, against which library, with which options."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from simdup_gui.core import not_duplicates
from simdup_gui.core.scanning import (
    RECENT_LIMIT,
    ScanRequest,
    added_with,
    checked_with,
    remembered,
)
from simdup_gui.core.session import Session
from simdup_gui.engine.library.build import add_folders
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.methods import method_named
from simdup_gui.engine.options import GroupOptions, ScanOptions, TextSettings
from simdup_gui.engine.progress import CancelToken
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan

SAMPLE = resource("sample")


def names(groups: object, files: object) -> list[set[str]]:
    """Each group's file names."""
    return sorted(
        ({os.path.basename(files[m.file].path) for m in g.members} for g in groups),  # type: ignore[attr-defined,index]
        key=sorted,
    )


def test_a_request_is_one_folder_or_several_under_their_common_folder(tmp_path: Path) -> None:
    one = ScanRequest.of(str(tmp_path), "LIB")
    assert (one.folders, one.library, one.root) == ((str(tmp_path),), "LIB", str(tmp_path))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    several = ScanRequest.of([str(tmp_path / "a"), str(tmp_path / "b")], "LIB")
    assert several.library == ""  # several folders are scanned together, never checked
    assert several.root == str(tmp_path)
    assert several.missing() == ""
    gone = ScanRequest.of([str(tmp_path / "a"), str(tmp_path / "nowhere")])
    assert gone.missing() == str(tmp_path / "nowhere")


def test_a_request_runs_the_engines_scan_and_again_from_its_result(tmp_path: Path) -> None:
    for name in ("a", "b"):
        shutil.copytree(SAMPLE, tmp_path / name)
    folders = [str(tmp_path / "a"), str(tmp_path / "b")]
    request = ScanRequest.of(folders)
    result = request.run(ScanOptions(), lambda event: None, CancelToken())
    plain = scan(folders, ScanOptions())
    assert names(result.groups, result.files) == names(plain.groups, plain.files)
    assert ScanRequest.of_result(result) == request
    one = ScanRequest.of(folders[0])
    assert ScanRequest.of_result(one.run(ScanOptions(), lambda e: None, CancelToken())) == one


def test_a_folder_checked_against_a_library_takes_the_librarys_settings(tmp_path: Path) -> None:
    library = str(tmp_path / "LIB")
    add_folders(library, [str(SAMPLE)], ScanOptions())
    new = tmp_path / "new"
    shutil.copytree(SAMPLE, new)
    request = ScanRequest.of(str(new), library)
    result = request.run(ScanOptions(), lambda event: None, CancelToken())
    assert result.library == library
    assert ScanRequest.of_result(result) == request
    assert result.groups
    for group in result.groups:  # the library's copy is each group's reference, and kept
        assert group.reference in result.kept
        assert not result.files[group.reference].path.startswith(str(new))


def test_the_floor_chosen_holds_for_the_librarys_own_method_only() -> None:
    kept = TextSettings(weighting="tf")
    same = ScanOptions(group=GroupOptions(min_similarity=0.7))
    checked = checked_with(same, kept)
    assert checked.read.text == kept
    assert checked.group.min_similarity == 0.7
    minhash = method_named("minhash")
    other = replace(same, read=replace(same.read, text=TextSettings(method=minhash)))
    checked = checked_with(other, kept)
    assert checked.read.text == kept
    assert checked.group.min_similarity == kept.method.floor != 0.7


def test_a_library_is_added_to_with_its_settings_or_made_with_the_defaults(
    tmp_path: Path,
) -> None:
    minhash = method_named("minhash")
    options = ScanOptions()
    options = replace(options, read=replace(options.read, text=TextSettings(method=minhash)))
    library = str(tmp_path / "LIB")
    new = added_with(options, library)
    assert new.read.text == TextSettings()  # the default method, whatever the app's is
    add_folders(
        library,
        [str(SAMPLE)],
        replace(new, read=replace(new.read, text=TextSettings(weighting="tf"))),
    )
    assert added_with(options, library).read.text == Library.open(library).settings


def test_the_start_page_offers_the_latest_folders_first_each_once() -> None:
    recent: list[str] = []
    for folder in ["a", "b", "a", *map(str, range(RECENT_LIMIT))]:
        recent = remembered(recent, folder)
    assert recent[0] == str(RECENT_LIMIT - 1)
    assert len(recent) == RECENT_LIMIT == len(set(recent))
    assert remembered(["x", "y"], "y") == ["y", "x"]


def test_a_scan_starting_reads_the_not_duplicates_list_on_disk_again(tmp_path: Path) -> None:
    session = Session()
    pair = not_duplicates.pair_of("/x/a.txt", "/x/b.txt")
    not_duplicates.change(add=[pair])  # the command line, while the app is open
    assert session.options(ScanOptions()).group.not_duplicates == frozenset()
    session.start(ScanRequest.of(str(tmp_path)))
    assert session.root == str(tmp_path)
    assert session.options(ScanOptions()).group.not_duplicates == {pair}


def test_pairs_written_merge_with_the_disk_or_hold_for_the_session(tmp_path: Path) -> None:
    session = Session()
    theirs = not_duplicates.pair_of("/x/a.txt", "/x/b.txt")
    mine = not_duplicates.pair_of("/x/c.txt", "/x/d.txt")
    not_duplicates.change(add=[theirs])
    assert session.write_not_duplicates(add=[mine]) == ""
    assert session.not_duplicates == not_duplicates.load() == {theirs, mine}
    assert session.write_not_duplicates(remove=[theirs]) == ""
    assert not_duplicates.load() == {mine}
    not_duplicates.default_path().write_text("{", encoding="utf-8")  # damaged meanwhile
    later = not_duplicates.pair_of("/x/e.txt", "/x/f.txt")
    problem = session.write_not_duplicates(add=[later], remove=[mine])
    assert problem
    assert session.not_duplicates == {later}  # held until the app closes
    assert not_duplicates.default_path().read_text(encoding="utf-8") == "{"


@pytest.mark.parametrize("several", [False, True])
def test_the_request_of_a_saved_result_is_taken_with_its_choices(
    tmp_path: Path, several: bool
) -> None:
    from simdup_gui.engine.store.saved import Choices

    for name in ("a", "b"):
        shutil.copytree(SAMPLE, tmp_path / name)
    folders = [str(tmp_path / "a"), str(tmp_path / "b")] if several else [str(tmp_path / "a")]
    result = scan(folders if several else folders[0], ScanOptions())
    session = Session()
    session.adopt(Choices(), result)
    assert session.request == ScanRequest.of(folders if several else folders[0])
    assert session.root == result.root
