"""The application core without Qt: marks, references, sorting, compare, settings, acting."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from simdup_gui.core.acting import Plan
from simdup_gui.core.columns import COLUMN_NAMES, column_named
from simdup_gui.core.scanning import ScanRequest
from simdup_gui.core.session import Session
from simdup_gui.engine.options import GroupOptions, ReadOptions, RunOptions, ScanOptions
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan


@dataclass
class Answers:
    """The person at the app, scripted."""

    go: bool = True
    folder: str | None = None
    said: list[str] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)

    def nothing_marked(self) -> None:
        self.said.append("nothing marked")

    def destination(self) -> str | None:
        return self.folder

    def refuse(self, problem: str) -> None:
        self.said.append(problem)

    def confirm(self, plan: Plan) -> bool:
        self.plans.append(plan)
        return self.go


@pytest.fixture
def session(tmp_path: Path) -> Session:
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    core = Session()
    core.request = ScanRequest.of(str(folder))
    core.show(scan(str(folder)), GroupOptions())
    return core


def test_marks_never_take_a_reference_and_follow_reference_swaps(session: Session) -> None:
    group = session.groups[0]
    reference, copy = group.reference, group.members[1].file
    assert not session.set_marked(reference, True)
    assert session.set_marked(copy, True)
    assert not session.set_marked(copy, True)  # no change
    assert session.make_reference(copy)
    assert session.groups[0].reference == copy
    assert copy not in session.marked  # the copy kept is never marked
    session.mark_all_but_references()
    assert set(session.marked_files()) == {m.file for g in session.groups for m in g.members[1:]}
    session.clear_marks()
    assert session.marked_files() == []


def test_sorting_by_similarity_sorts_by_similarity(session: Session) -> None:
    session.sort(column_named("Similarity"), descending=False)
    least = [min(m.similarity for m in g.members[1:]) for g in session.groups]
    assert least == sorted(least)
    for group in session.groups:
        shares = [m.similarity for m in group.members[1:]]
        assert shares == sorted(shares)
    session.sort(column_named("Distance"), descending=True)
    most = [max(m.distance for m in g.members[1:]) for g in session.groups]
    assert most == sorted(most, reverse=True)


def test_what_is_compared(session: Session) -> None:
    group = session.groups[0]
    reference, copy = group.reference, group.members[1].file
    assert session.compare_pair(copy) == (reference, copy)
    assert session.compare_pair(reference) == (reference, copy)
    other = session.groups[1].members[1].file
    session.pinned = other
    assert session.compare_pair(copy) == (other, copy)


def test_settings_say_regroup_or_rescan() -> None:
    before = ScanOptions()
    assert Session.after_settings(before, before) == ""
    fewer = replace(before, group=replace(before.group, min_chars=100))
    assert Session.after_settings(before, fewer) == "regroup"
    assert Session.after_settings(before, replace(before, group=GroupOptions(k=3))) == "regroup"
    words = replace(before.read.text, stopwords=False)
    assert Session.after_settings(before, replace(before, read=ReadOptions(words))) == "rescan"
    cut = replace(before, read=ReadOptions(max_bytes=1000))
    assert Session.after_settings(before, cut) == "rescan"
    assert Session.after_settings(before, replace(before, run=RunOptions(jobs=7))) == ""


def test_acting_asks_then_moves_with_a_manifest(session: Session, tmp_path: Path) -> None:
    answers = Answers()
    assert session.act_on_marked(answers, move=False) is None
    assert answers.said == ["nothing marked"]
    session.mark_all_but_references()
    marked = [session.result.files[n].path for n in session.marked_files()]  # type: ignore[union-attr]
    answers.folder = str(Path(session.root or "") / "inside")
    assert session.act_on_marked(answers, move=True) is None
    assert "inside the input" in answers.said[-1]
    answers.folder, answers.go = str(tmp_path / "moved"), False
    assert session.act_on_marked(answers, move=True) is None  # answered No
    assert answers.plans[-1] == Plan(5, 3, session.marked_size(), tuple(marked), answers.folder)
    assert all(Path(p).exists() for p in marked)
    answers.go = True
    done = session.act_on_marked(answers, move=True)
    assert done is not None
    assert [o.action for o in done.outcomes] == ["moved"] * 5
    assert done.manifest.parent == tmp_path / "moved"
    assert not any(Path(p).exists() for p in marked)


def test_a_pair_kept_apart_never_shares_a_group_again(session: Session) -> None:
    group = session.groups[0]
    files = session.result.files  # type: ignore[union-attr]
    copy = next(  # an edited copy: exact copies always group
        m.file for m in group.members[1:] if files[m.file].sketch != files[group.reference].sketch
    )
    assert session.keep_apart(copy)
    assert not session.keep_apart(copy)  # already apart
    assert not session.keep_apart(group.reference)  # a reference is apart from nothing
    wanted = GroupOptions(not_duplicates=frozenset(session.not_duplicates))
    result = session.show(session.result, wanted)  # type: ignore[arg-type]
    (pair,) = session.not_duplicates
    for g in result.groups:
        paths = {result.files[m.file].path for m in g.members}
        assert not set(pair) <= paths  # the copy left the group of its reference


def test_removing_from_results_only_changes_what_is_shown(session: Session) -> None:
    big = next(g for g in session.groups if len(g) == 3)
    small = next(g for g in session.groups if len(g) == 2)
    before = len(session.groups)
    assert session.remove_from_results(big.reference)
    reshaped = next(g for g in session.groups if g.id == big.id)
    assert len(reshaped) == 2
    assert reshaped.reference == big.members[1].file  # the next member keeps the group
    assert reshaped.members[0].distance == 0
    session.set_marked(small.members[1].file, True)
    assert session.remove_from_results(small.members[1].file)
    assert len(session.groups) == before - 1  # a group of one is no group
    assert session.marked_files() == []
    files = session.result.files  # type: ignore[union-attr]
    assert all(Path(files[m.file].path).is_file() for m in big.members)


def test_reprioritizing_keeps_what_the_rule_prefers(session: Session) -> None:
    files = session.result.files  # type: ignore[union-attr]
    session.mark_all_but_references()
    session.reprioritize("largest")
    for group in session.groups:
        assert files[group.reference].size == max(files[m.file].size for m in group.members)
        assert group.reference not in session.marked  # the copy kept is never marked
    changed = session.reprioritize("smallest")
    assert changed >= 1
    for group in session.groups:
        assert files[group.reference].size == min(files[m.file].size for m in group.members)
    for rule, measure in (
        ("most_text", lambda n: -files[n].chars),
        ("shortest_path", lambda n: len(files[n].path)),
        ("longest_path", lambda n: -len(files[n].path)),
    ):
        session.reprioritize(rule)
        for group in session.groups:
            best = min(measure(m.file) for m in group.members)
            assert measure(group.reference) == best, rule


@pytest.mark.parametrize("name", COLUMN_NAMES)
@pytest.mark.parametrize("descending", [False, True])
def test_every_column_sorts_by_what_it_shows(session: Session, name: str, descending: bool) -> None:
    from simdup_gui.core.columns import COLUMNS

    column = COLUMNS[column_named(name)]
    session.sort(column_named(name), descending)
    files = session.result.files  # type: ignore[union-attr]
    for group in session.groups:
        keys = [column.key(files[m.file], m) for m in group.members[1:]]
        assert keys == sorted(keys, reverse=descending)  # members, the reference first
    if column.groups_by in ("least", "most"):
        pick = min if column.groups_by == "least" else max
        firsts = [pick(column.key(files[m.file], m) for m in g.members[1:]) for g in session.groups]
        assert firsts == sorted(firsts, reverse=descending)


def test_marks_invert_around_references(session: Session) -> None:
    members = {m.file for g in session.groups for m in g.members[1:]}
    first = sorted(members)[0]
    session.set_marked(first, True)
    session.invert_marks()
    assert session.marked == members - {first}
    session.invert_marks()
    assert session.marked == {first}


def test_reference_folders_keep_their_files_whatever_is_asked(tmp_path: Path) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    archive = folder / "archive"
    archive.mkdir()
    shutil.copy2(folder / "en" / "harbor-lighthouse-edited.md", archive / "edited.md")
    core = Session()
    core.request = ScanRequest.of(str(folder))
    wanted = ScanOptions(group=GroupOptions(reference_folders=(str(archive),)))
    core.show(scan(str(folder)), wanted.group)  # a regroup: the folders are grouping settings
    files = core.result.files  # type: ignore[union-attr]
    kept = next(n for n, f in enumerate(files) if f.path.startswith(str(archive)))
    assert core.result.kept == {kept}  # type: ignore[union-attr]
    group = core.groups[core.group_of(kept)]  # type: ignore[index]
    assert group.reference == kept
    other = group.members[1].file
    assert not core.make_reference(other)  # the archived copy stays the reference
    for rule in ("largest", "smallest", "newest", "oldest"):
        core.reprioritize(rule)
        assert core.groups[core.group_of(kept)].reference == kept  # type: ignore[index]
    core.mark_all_but_references()
    core.invert_marks()
    core.mark_all_but_references()
    assert kept not in core.marked
    assert not core.set_marked(kept, True)
    assert Session.after_settings(ScanOptions(), wanted) == "regroup"


def test_copying_marked_files_leaves_them_in_place(session: Session, tmp_path: Path) -> None:
    session.mark_all_but_references()
    marked = [session.result.files[n].path for n in session.marked_files()]  # type: ignore[union-attr]
    outcomes = session.copy_marked(str(tmp_path / "copies"))
    assert [o.action for o in outcomes] == ["copied"] * len(marked)
    for outcome, path in zip(outcomes, marked, strict=True):
        assert Path(outcome.destination).read_bytes() == Path(path).read_bytes()
    again = session.copy_marked(str(tmp_path / "copies"))  # names taken: new ones, nothing over
    assert {o.destination for o in again}.isdisjoint({o.destination for o in outcomes})


def test_marking_copies_by_criteria(session: Session) -> None:
    import os

    files = session.result.files  # type: ignore[union-attr]
    group = session.groups[0]
    reference, *copies = [m.file for m in group.members]
    older = copies[0]
    os.utime(files[reference].path, ns=(2 * 10**18, 2 * 10**18))
    session.show(  # files as scanned now: one copy older than its reference
        scan(session.root),
        GroupOptions(),
    )
    files = session.result.files  # type: ignore[union-attr]
    assert session.mark_where("older") >= 1
    for n in session.marked_files():
        ref = session.groups[session.group_of(n)].reference  # type: ignore[index]
        assert files[n].mtime_ns < files[ref].mtime_ns
    session.clear_marks()
    assert session.mark_where("path", "转载") == 1
    assert [files[n].path.endswith("春运返乡-转载.txt") for n in session.marked_files()] == [True]
    assert session.mark_where("path", "转载") == 0  # already marked: nothing new
    session.clear_marks()
    assert session.mark_where("smaller") >= 1
    assert all(
        files[n].size < files[session.groups[session.group_of(n)].reference].size  # type: ignore[index]
        for n in session.marked_files()
    )
    session.clear_marks()
    folder = os.path.dirname(files[older].path)
    session.mark_where("folder", folder)
    assert session.marked
    assert all(os.path.dirname(files[n].path) == folder for n in session.marked_files())
    assert not {g.reference for g in session.groups} & session.marked


def reference_names(session: Session) -> set[str]:
    assert session.result is not None
    return {Path(session.result.files[g.reference].path).name for g in session.groups}


def test_every_choice_survives_a_regroup_a_rescan_and_a_save(
    session: Session, tmp_path: Path
) -> None:
    """A reference picked by hand, a keep rule, a removal and the marks, by path."""
    from simdup_gui.engine.store.saved import load_saved, save_result

    assert session.result is not None
    folder = session.result.root
    files = session.result.files
    by_name = {Path(f.path).name: n for n, f in enumerate(files)}
    rewrite = by_name["茶园春茶-改写.txt"]
    assert "茶园春茶.txt" in reference_names(session)
    assert session.make_reference(rewrite)
    harbor = next(
        g for g in session.groups if any("harbor" in files[m.file].path for m in g.members)
    )
    removed = harbor.members[-1].file
    assert session.remove_from_results(removed)
    marked = {m.file for g in session.groups for m in g.members[1:]} - {removed}
    for file in marked:
        session.set_marked(file, True)
    chosen = session.choices()
    assert "茶园春茶-改写.txt" in reference_names(session)

    def same(after: Session) -> None:
        assert after.result is not None
        assert "茶园春茶-改写.txt" in reference_names(after)
        paths = {after.result.files[m.file].path for g in after.groups for m in g.members}
        assert files[removed].path not in paths
        assert after.choices() == chosen

    session.show(session.result, GroupOptions(k=7))  # a knob turned: a regroup
    same(session)
    session.show(session.result, GroupOptions(k=8, not_duplicates=frozenset()))
    session.show(scan(folder), GroupOptions())  # a rescan of the unchanged folder
    same(session)
    path = tmp_path / "results.simdup"
    save_result(session.result, path, session.choices())
    result, choices = load_saved(path)
    opened = Session()
    opened.adopt(choices, result)
    opened.show(result, GroupOptions())
    same(opened)
    assert not opened.unsaved_marks  # as saved
    other = tmp_path / "other"
    shutil.copytree(Path(folder) / "en", other)
    session.show(scan(str(other)), GroupOptions())  # another folder: a fresh start
    assert session.choices() == type(chosen)()


def test_a_keep_rule_lasts_and_a_later_pick_by_hand_overrides_it(session: Session) -> None:
    assert session.result is not None
    files = session.result.files
    session.reprioritize("largest")
    largest = {max((files[m.file].size, m.file) for m in g.members)[1] for g in session.groups}
    assert {g.reference for g in session.groups} == largest
    session.show(session.result, GroupOptions(k=7))
    session.show(session.result, GroupOptions())
    assert {g.reference for g in session.groups} == largest
    group = session.groups[0]
    other = next(m.file for m in group.members if m.file != group.reference)
    assert session.make_reference(other)
    session.show(session.result, GroupOptions(k=7))
    assert other in {g.reference for g in session.groups}
    session.reprioritize("largest")  # the rule again: it wins over the earlier pick
    assert {g.reference for g in session.groups} == largest


def test_keep_the_cleanest_copy_in_each_group(tmp_path: Path) -> None:
    """The rule "cleanest": not a copy padded with a header; a pick by hand undone by it."""
    story = "\n\n".join(
        f"第{n}段：春运首日，铁路部门共发送旅客三百万人次，各地车站秩序井然。" for n in range(8)
    )
    (tmp_path / "padded.txt").write_text("Morning Edition\nPage 3\n" + story, encoding="utf-8")
    (tmp_path / "story.txt").write_text(story, encoding="utf-8")
    core = Session()
    core.show(scan(str(tmp_path)), GroupOptions())
    assert core.result is not None
    names = {Path(f.path).name: n for n, f in enumerate(core.result.files)}
    assert core.make_reference(names["padded.txt"])
    assert core.reprioritize("cleanest") == 1
    assert core.groups[0].reference == names["story.txt"]
