"""The app's state and decisions, with no Qt.

What was scanned (a :class:`~simdup_gui.core.scanning.ScanRequest`, scanned again after a
change), the pairs said to be not duplicates (read from and written to the list on disk), the
result shown, the marks, the reference swaps, what is compared, regroup or rescan, and acting
on the marked files with a manifest. Every choice a person makes — a reference picked by
hand, a "Keep in each group" rule, a file taken out of the view, the sort, the marks — is kept
by path and made again on every regroup and rescan of the same folder, and saved with the
result (:class:`~simdup_gui.engine.store.saved.Choices`).

The Qt window holds one :class:`Session`, shows it and forwards the user's commands to it; the
session asks its questions through :class:`Questions`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from dataclasses import replace
from typing import Literal

from simdup_gui.core import not_duplicates
from simdup_gui.core.acting import Action, Done, Plan, Questions
from simdup_gui.core.columns import COLUMNS
from simdup_gui.core.not_duplicates import NotDuplicatesError, pair_of
from simdup_gui.core.scanning import ScanRequest
from simdup_gui.engine.match.groups import Group, Member, padded_copies
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.output.actions import ActionOutcome, Seen
from simdup_gui.engine.output.copies import copy_files
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.progress import never
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.store.saved import Choices


class Session:
    """The result shown and everything decided about it."""

    def __init__(self, not_duplicates: set[tuple[str, str]] | None = None) -> None:
        """No folder, no result; the pairs a person said are not duplicates, if any."""
        self.not_duplicates: set[tuple[str, str]] = set(not_duplicates or ())
        self.request: ScanRequest | None = None  # what was scanned last (the result's scan)
        self.result: ScanResult | None = None
        self.marked: set[int] = set()  # marked copies shown (by index in the result's files)
        self.held_marks: set[str] = set()  # marked files no copy at these thresholds, by path
        self.pinned: int | None = None  # the file every selection is compared with
        self.references: dict[str, None] = {}  # picked by hand (by path), oldest first
        self.removed: set[str] = set()  # taken out of the view, by path
        self.keep_rule: tuple[str, str] = ("", "")  # "Keep in each group": rule, folder
        self.sorted_by: tuple[int, bool] | None = None  # column, descending
        self.saved = Choices()  # the choices as last saved or opened
        self._choices_root: str | None = None  # the folder the choices were made on
        self._marks_to_take: set[str] = set()  # marks saved with a result being opened

    # --- scans -----------------------------------------------------------------------------
    @property
    def root(self) -> str | None:
        """The folder scanned last (None before the first scan)."""
        return self.request.root if self.request else None

    def start(self, request: ScanRequest) -> None:
        """A scan of ``request`` starts: it is what is scanned again after a change.

        The not-duplicates list is read again as it is on disk now (the command line may
        have added to it); a damaged one was reported when it was first read.
        """
        self.request = request
        self.read_not_duplicates()

    def read_not_duplicates(self) -> str:
        """Take the not-duplicates list as it is on disk; "" or why it is not used.

        A damaged list is never read as empty (nor, then, overwritten): the session's pairs hold.
        """
        try:
            self.not_duplicates = not_duplicates.load()
        except NotDuplicatesError as exc:
            return str(exc)
        return ""

    def options(self, chosen: ScanOptions) -> ScanOptions:
        """The options a person chose, with the pairs they said are not duplicates."""
        apart = frozenset(self.not_duplicates)
        return replace(chosen, group=replace(chosen.group, not_duplicates=apart))

    # --- results ---------------------------------------------------------------------------
    def show(self, result: ScanResult, wanted: GroupOptions) -> ScanResult:
        """Take a (new or regrouped) result, regrouped to the grouping options ``wanted``.

        On a result of the folder shown before, every choice is made again: the references
        picked (by hand or by a rule), the files taken out, the sort, and the marks on files
        that are still copies. A result of another folder starts with none. Nothing stays
        pinned.
        """
        marked = self._marked_paths() | self._marks_to_take
        if result.root != self._choices_root:
            self._forget_choices()
            marked = set()
            self._choices_root = result.root
        self._marks_to_take = set()
        self.result = self.regrouped(result, wanted)
        self._make_choices_again(marked)
        self.pinned = None
        return self.result

    def adopt(self, choices: Choices, result: ScanResult) -> None:
        """Take a saved result's choices, for it to be shown next (and scanned again after)."""
        self.request = ScanRequest.of_result(result)
        root = result.root
        self.references = dict.fromkeys(choices.references)
        self.removed = set(choices.removed)
        self.keep_rule = choices.keep_rule
        self.sorted_by = None
        self.marked, self.held_marks = set(), set()
        self._marks_to_take = set(choices.marked)
        self._choices_root = root
        self.saved = choices

    def choices(self) -> Choices:
        """The choices made on the result shown, by path (as saved with it)."""
        return Choices(
            tuple(sorted(self._marked_paths())),
            tuple(self.references),
            tuple(sorted(self.removed)),
            self.keep_rule,
        )

    @property
    def unsaved_marks(self) -> bool:
        """Whether files are marked and the choices changed since they were saved or opened."""
        return bool(self.marked or self.held_marks) and self.choices() != self.saved

    def _marked_paths(self) -> set[str]:
        """Every mark, by path: the copies shown and the files held (marks belong to files)."""
        files = self.result.files if self.result else ()
        return {files[n].path for n in self.marked} | self.held_marks

    def _forget_choices(self) -> None:
        self.references, self.removed, self.keep_rule = {}, set(), ("", "")
        self.sorted_by, self.marked, self.saved = None, set(), Choices()
        self.held_marks = set()

    def _make_choices_again(self, marked: set[str]) -> None:
        """Apply the choices to a result just taken (they are by path: its files may be new)."""
        assert self.result is not None
        where = {record.path: n for n, record in enumerate(self.result.files)}
        for path in self.removed:
            if path in where:
                self._take_out(where[path])
        rule, folder = self.keep_rule
        if rule:
            self._keep_by(rule, folder)
        for path in self.references:
            if path in where:
                self._swap_reference(where[path])
        if self.sorted_by is not None:
            self.sort(*self.sorted_by)
        copies = {m.file for g in self.groups for m in g.members[1:]} - self.result.kept
        present = {where[path] for path in marked if path in where}
        self.marked = present & copies
        # A mark belongs to its file, whatever the groups do: one no copy at these thresholds
        # (its group dissolved, it became a reference) is held, and shown again once it is.
        # A file gone from the folder takes its mark with it.
        files = self.result.files
        self.held_marks = {files[n].path for n in present - copies}

    @staticmethod
    def needs_regroup(result: ScanResult, wanted: GroupOptions) -> bool:
        """Whether ``result`` was grouped with other grouping options than ``wanted``."""
        return result.options.group != wanted

    @classmethod
    def regrouped(
        cls, result: ScanResult, wanted: GroupOptions, cancel: Callable[[], bool] = never
    ) -> ScanResult:
        """``result`` grouped with the grouping options ``wanted`` (itself if it already is).

        ``cancel`` is polled between steps (see :meth:`ScanResult.regroup`).
        """
        if not cls.needs_regroup(result, wanted):
            return result
        return result.regroup(wanted, cancel)

    @staticmethod
    def after_settings(before: ScanOptions, after: ScanOptions) -> Literal["", "regroup", "rescan"]:
        """What a change of settings takes: nothing, a regroup (grouping only) or a rescan.

        How a scan runs changes nothing it finds.
        """
        if replace(after, run=before.run) == before:
            return ""
        return (
            "regroup" if replace(after, group=before.group, run=before.run) == before else "rescan"
        )

    @property
    def groups(self) -> tuple[Group, ...]:
        """The groups shown, in their order."""
        return self.result.groups if self.result else ()

    def sort(self, column: int, descending: bool) -> None:
        """Sort groups by a column, and the members within each (references stay first)."""
        if self.result is None:
            return
        self.sorted_by = (column, descending)
        files, rule = self.result.files, COLUMNS[column]

        def key(member: Member) -> object:
            return rule.key(files[member.file], member)

        def group_key(group: Group) -> object:
            others = [key(m) for m in group.members[1:]] or [key(group.members[0])]
            if rule.groups_by == "count":
                return (len(group), -group.id) if descending else (-len(group), group.id)
            if rule.groups_by == "total":
                return sum(files[m.file].size for m in group.members)
            if rule.groups_by == "least":
                return min(others)  # type: ignore[type-var]
            if rule.groups_by == "most":
                return max(others)  # type: ignore[type-var]
            return key(group.members[0])

        groups = [
            Group(g.id, (g.members[0], *sorted(g.members[1:], key=key, reverse=descending)))
            for g in self.result.groups
        ]
        ordered = tuple(sorted(groups, key=group_key, reverse=descending))
        self.result = replace(self.result, groups=ordered)

    def group_of(self, file: int) -> int | None:
        """The row of the group ``file`` is in."""
        return next(
            (n for n, g in enumerate(self.groups) if any(m.file == file for m in g.members)), None
        )

    def make_reference(self, file: int) -> bool:
        """Make a member its group's reference (it is unmarked); whether anything changed.

        The choice is kept: the file stays its group's reference through every regroup.
        """
        if not self._swap_reference(file):
            return False
        assert self.result is not None
        path = self.result.files[file].path
        self.references.pop(path, None)
        self.references[path] = None  # the latest choice last: it wins in a merged group
        return True

    def _swap_reference(self, file: int) -> bool:
        row = self.group_of(file)
        if row is None or self.result is None or self.groups[row].reference == file:
            return False
        group, kept = self.groups[row], self.result.kept
        if file not in kept and any(m.file in kept for m in group.members):
            return False  # a library's copy, or one in a reference folder, stays the reference
        swapped = self.result.with_reference(group, file)
        groups = (*self.groups[:row], swapped, *self.groups[row + 1 :])
        self.result = replace(self.result, groups=groups)
        self.marked.discard(file)
        return True

    # --- not duplicates --------------------------------------------------------------------
    def keep_apart(self, file: int) -> tuple[str, str] | None:
        """Say a member is not a duplicate of its group's reference; the pair newly kept apart.

        The two never share a group again (the caller saves the pair and regroups).
        """
        row = self.group_of(file)
        if row is None or self.result is None or self.groups[row].reference == file:
            return None
        files = self.result.files
        pair = pair_of(files[file].path, files[self.groups[row].reference].path)
        if pair in self.not_duplicates:
            return None
        self.not_duplicates.add(pair)
        self.marked.discard(file)
        return pair

    def write_not_duplicates(
        self, add: Collection[tuple[str, str]] = (), remove: Collection[tuple[str, str]] = ()
    ) -> str:
        """Write pairs said apart, or no longer, to the list on disk; "" or why it could not be.

        Merged with the list on disk: pairs the command line added meanwhile stay. Where the
        list cannot be written, the session's pairs hold until the app closes.
        """
        try:
            self.not_duplicates = not_duplicates.change(add=add, remove=remove)
        except (NotDuplicatesError, OSError) as exc:
            self.not_duplicates = (self.not_duplicates | set(add)) - set(remove)
            return str(exc)
        return ""

    def remove_from_results(self, file: int) -> bool:
        """Take a member out of its group in what is shown (its file is not touched).

        A group left with one member goes; a removed reference is succeeded by the next member.
        Whether anything changed. The file stays out through every regroup.
        """
        if not self._take_out(file):
            return False
        assert self.result is not None
        self.removed.add(self.result.files[file].path)
        return True

    def _take_out(self, file: int) -> bool:
        row = self.group_of(file)
        if row is None or self.result is None:
            return False
        group = self.groups[row]
        rest = tuple(m for m in group.members if m.file != file)
        groups = list(self.groups)
        if len(rest) < 2:
            del groups[row]
        elif group.reference == file:
            groups[row] = self.result.with_reference(Group(group.id, rest), rest[0].file)
        else:
            groups[row] = Group(group.id, rest)
        self.result = replace(self.result, groups=tuple(groups))
        self.marked -= {file} | ({m.file for m in rest} if len(rest) < 2 else set())
        return True

    def reprioritize(self, rule: str, folder: str = "") -> int:
        """Make each group's reference the member a rule prefers; how many groups changed.

        Rules: ``cleanest`` (the copy with the least added: never one padded with a header,
        footer or notice, then the fewest converted characters, notice lines and template),
        ``oldest``, ``newest``, ``largest``, ``smallest`` (bytes), ``most_text`` (characters of
        text), ``shortest_path``, ``longest_path``, ``folder`` (a member in ``folder``, the rest
        as they are). Ties keep the present reference; a group with files
        in a reference folder (or a library's) takes its reference among them. The rule is
        kept: it is applied again on every regroup, before the references picked by hand
        after it (those picked before it give way to it).
        """
        if self.result is None:
            return 0
        self.keep_rule = (rule, folder)
        self.references.clear()
        return self._keep_by(rule, folder)

    def _keep_by(self, rule: str, folder: str) -> int:
        assert self.result is not None
        files, kept = self.result.files, self.result.kept
        keys: dict[str, Callable[[int], object]] = {
            "oldest": lambda n: files[n].mtime_ns,
            "newest": lambda n: -files[n].mtime_ns,
            "largest": lambda n: -files[n].size,
            "smallest": lambda n: files[n].size,
            "most_text": lambda n: -files[n].chars,
            "shortest_path": lambda n: len(files[n].path),
            "longest_path": lambda n: -len(files[n].path),
            "folder": lambda n: os.path.dirname(files[n].path) != folder,
        }
        groups, changed = [], 0
        for group in self.groups:
            choice = [m.file for m in group.members if m.file in kept] or [
                m.file for m in group.members
            ]
            key = keys[rule] if rule != "cleanest" else self._cleanest(choice)
            best = min(choice, key=lambda n: (key(n), n != group.reference))
            if best != group.reference:
                group = self.result.with_reference(group, best)
                self.marked.discard(best)
                changed += 1
            groups.append(group)
        self.result = replace(self.result, groups=tuple(groups))
        return changed

    def _cleanest(self, members: list[int]) -> Callable[[int], object]:
        """The "cleanest" rule's key among a group's ``members`` (least first)."""
        assert self.result is not None
        files = self.result.files
        padded = {members[n] for n in padded_copies([files[m].lines for m in members])}

        def key(n: int) -> object:
            record = files[n]
            converted = record.converted_chars / max(record.chars, 1)
            return (n in padded, converted, record.notice_chars, record.boilerplate)

        return key

    # --- marks -----------------------------------------------------------------------------
    def marked_files(self) -> list[int]:
        """The marked files, in group order."""
        return [m.file for g in self.groups for m in g.members if m.file in self.marked]

    def set_marked(self, file: int, marked: bool) -> bool:
        """Mark or unmark a member (never a reference); whether anything changed."""
        row = self.group_of(file)
        if row is None or self.groups[row].reference == file or marked == (file in self.marked):
            return False
        if self.result is not None and file in self.result.kept:
            return False  # a library's file: never marked
        (self.marked.add if marked else self.marked.discard)(file)
        return True

    def mark_all_but_references(self) -> None:
        """Mark every member that is not its group's reference."""
        kept = self.result.kept if self.result else frozenset()
        self.marked = {m.file for g in self.groups for m in g.members[1:]} - kept

    def clear_marks(self) -> None:
        """Unmark everything, the marks held on files no copy now included."""
        self.marked.clear()
        self.held_marks.clear()

    def invert_marks(self) -> None:
        """Mark the unmarked members and unmark the marked (references and kept files aside)."""
        kept = self.result.kept if self.result else frozenset()
        members = {m.file for g in self.groups for m in g.members[1:]} - kept
        self.marked = members - self.marked

    def mark_where(self, rule: str, value: str = "") -> int:
        """Mark the copies a rule picks (besides those marked); how many were newly marked.

        Rules: ``folder`` (copies in the folder ``value``), ``path`` (whose path holds
        ``value``, any case), ``older`` and ``smaller`` (than their group's reference).
        References and files in reference folders are never marked.
        """
        if self.result is None:
            return 0
        files = self.result.files
        folder, text = os.path.abspath(value) if value else "", value.casefold()
        tests: dict[str, Callable[[int, int], bool]] = {
            "folder": lambda n, ref: os.path.dirname(os.path.abspath(files[n].path)) == folder,
            "path": lambda n, ref: bool(text) and text in files[n].path.casefold(),
            "older": lambda n, ref: files[n].mtime_ns < files[ref].mtime_ns,
            "smaller": lambda n, ref: files[n].size < files[ref].size,
        }
        test = tests[rule]
        picked = {
            m.file for g in self.groups for m in g.members[1:] if test(m.file, g.reference)
        } - self.result.kept
        before = len(self.marked)
        self.marked |= picked
        return len(self.marked) - before

    def copy_marked(self, destination: str) -> list[ActionOutcome]:
        """Copy the marked files into ``destination`` (paths kept relative to the scan)."""
        assert self.result is not None
        paths = [self.result.files[n].path for n in self.marked_files()]
        return copy_files(paths, self.root or self.result.root, destination)

    def marked_size(self) -> int:
        """The marked files' bytes."""
        files = self.result.files if self.result else ()
        return sum(files[n].size for n in self.marked)

    # --- compare ---------------------------------------------------------------------------
    def compare_pair(self, file: int) -> tuple[int, int]:
        """The two files to show side by side when ``file`` is selected (left, right).

        The pinned file if there is one, else the group's reference; a selected reference is
        compared with its group's first copy.
        """
        row = self.group_of(file)
        assert row is not None
        group = self.groups[row]
        if self.pinned is not None and self.pinned != file:
            return self.pinned, file
        if file == group.reference and len(group) > 1:
            return file, group.members[1].file
        return group.reference, file

    def similarity_shown(self, left: int, right: int) -> float | None:
        """The similarity the groups list and the reports show for this pair (None: none).

        A member beside its group's reference is the member's measure, shown as everywhere
        else; another pair (a pinned file) has no figure yet.
        """
        for one, other in ((left, right), (right, left)):
            row = self.group_of(other)
            if row is not None and self.groups[row].reference == one and one != other:
                return next(m.similarity for m in self.groups[row].members if m.file == other)
        return None

    # --- acting ----------------------------------------------------------------------------
    def plan(self, destination: str | None = None) -> Plan:
        """What acting on the marked files now would do."""
        assert self.result is not None
        marked = self.marked_files()
        groups = sum(1 for g in self.groups if any(m.file in self.marked for m in g.members))
        paths = tuple(self.result.files[n].path for n in marked)
        return Plan(len(marked), groups, self.marked_size(), paths, destination)

    def act_on_marked(self, questions: Questions, *, move: bool) -> Done | None:
        """Move the marked files (asking where) or trash them, after a confirmation.

        :meth:`ask_to_act`, then :meth:`Action.run`; returns what was done, or None.
        """
        action = self.ask_to_act(questions, move=move)
        if action is None:
            return None
        try:
            return action.run()
        except OSError as exc:
            questions.refuse(f"no manifest: {exc.strerror or exc}")
            return None

    def ask_to_act(self, questions: Questions, *, move: bool) -> Action | None:
        """Ask what acting on the marked files needs (where to, a confirmation).

        Returns the action to run (on any thread: it touches no state of the session), or
        None when there is nothing to do or the person said no.
        """
        if not self.marked or self.result is None:
            questions.nothing_marked()
            return None
        destination = None
        if move:
            destination = questions.destination()
            if not destination:
                return None
            problem = output_problem(destination, [self.root or self.result.root], folder=True)
            if problem:
                questions.refuse(problem)
                return None
        if not questions.confirm(self.plan(destination)):
            return None
        root = self.root or self.result.root
        return Action(tuple(self._seen_marked()), destination, root, self.result.options.read)

    def _seen_marked(self) -> list[Seen]:
        """The marked files as the scan saw them, each with its group's reference."""
        assert self.result is not None
        files = self.result.files
        kept = {m.file: g.reference for g in self.groups for m in g.members}
        return [
            Seen(
                files[n].path,
                files[n].size,
                files[n].mtime_ns,
                files[n].fingerprint,
                files[kept[n]].path,
            )
            for n in self.marked_files()
        ]
