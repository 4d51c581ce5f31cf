"""From fingerprinted files to verified pairs and groups, whatever the method.

Exact copies are one node; the method's measure (``methods/``) gives the node pairs that meet
the thresholds and the nodes' similarity; groups are files around a reference, every member
meeting the thresholds against it (``groups.node_groups``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.fingerprint.file_records import TextShingles
from simdup_gui.engine.match.exact import NodeTexts, Texts
from simdup_gui.engine.match.groups import Group, Member, Nodes, node_groups, numbered
from simdup_gui.engine.methods import FingerprintMethod
from simdup_gui.engine.methods.default import Default
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.progress import never
from simdup_gui.engine.read.documents import editing_rank
from simdup_gui.engine.read.walk import in_folders
from simdup_gui.engine.records import FileRecord, Pairs

if TYPE_CHECKING:
    from simdup_gui.engine.run.workers import Pool

U64 = npt.NDArray[np.uint64]

MINUTE_NS = 60 * 10**9  # files saved within the same minute are as old as each other
_SEPARATORS = frozenset(" -_.(（[【~")  # what a copy's name adds starts with one of these


def named_copies(paths: list[str]) -> set[str]:
    """The paths whose name is another file's name of the same folder with something added.

    ``report (1).txt``, ``report - Copy.txt``, ``春运返乡-转载.txt`` beside ``report.txt`` and
    ``春运返乡.txt``: the name says which file was copied from which.
    """
    every = [os.path.splitext(path)[0] for path in paths]
    stems = set(every)
    derived = set()
    for path, stem in zip(paths, every, strict=True):
        if _SEPARATORS.isdisjoint(os.path.basename(stem)):
            continue  # nothing added to a name (most names): no look at each character
        start = len(os.path.dirname(stem)) + 2
        if any(
            stem[at] in _SEPARATORS and stem[:at].rstrip(" -_.~") in stems
            for at in range(start, len(stem))
        ):
            derived.add(path)
    return derived


def _first_copy_key(
    record: FileRecord, copied: set[str], usual: Counter[str] | None = None, kept: bool = False
) -> tuple[object, ...]:
    """Which of a text's exact copies stands for it: the oldest (to the minute), then the plainest.

    A copy in a reference folder (``kept``) comes first, then the editable document (a Word
    file over its text, a text over its PDF: ``documents.editing_rank``), one whose name says
    it is a copy (``copied``) last; copies saved within the same minute are as old as each
    other; then a copy without a site template around it, then one in the encoding most of its
    group uses (``usual``), without a byte-order mark or decoding notes, then the fewest bytes
    (no CRLF, no full-width letters), then the earliest path.
    """
    return (
        not kept,
        editing_rank(record.encoding),
        record.path in copied,
        record.mtime_ns // MINUTE_NS,
        record.boilerplate,
        record.converted_chars,
        -usual[record.encoding] if usual else 0,
        record.encoding != "utf-8",
        record.encoding_method == "bom",
        bool(record.notes),
        record.size,
        record.path,
    )


def group_files(
    files: tuple[FileRecord, ...],
    options: GroupOptions,
    method: FingerprintMethod = Default(),  # noqa: B008 (a frozen value)
    cancel: Callable[[], bool] = never,
    texts: Texts | None = None,
    template: U64 | None = None,
    jobs: int = 1,
    workers: Pool | None = None,
) -> tuple[Pairs, tuple[Group, ...]]:
    """Verified candidate pairs of distinct texts, and the groups around references.

    Every member of a group meets the method's thresholds against its reference (the
    default's: within ``k`` bits and at least ``min_similarity`` alike, or from LOOSE_K on, with
    a floor, at least that alike whatever the distance). Only fingerprinted files of
    ``min_chars`` or more take part. Once ``cancel`` returns True, the search for candidates
    stops and the groups are made of those found so far. The pairs link distinct texts (file
    indices); exact copies are grouped without them.
    ``not_duplicates`` are pairs of paths (each sorted) a person said are not duplicates: one
    is never a member of a group whose reference is the other (exact copies always group).
    A group's reference is a file in one of ``reference_folders`` when it has one.
    ``texts`` reads files' texts again (by index), or None: then the text similarity of a pair
    whose estimate is just above the floor is the exact one (``match/exact.py``), and a text
    that is much template is measured by its own lines (``match/template.py``); ``template``
    gives the template's line hashes when counted over more than ``files``. ``jobs``: the
    worker processes that may read texts again for the kept copies' typing slips (on
    ``workers`` kept between scans when running: ``slips.measure_ahead``).
    """
    ok = [n for n, f in enumerate(files) if f.ok and f.chars >= options.min_chars]
    # Exact copies (same fingerprints and shingle sketch) are one node: the work stays linear
    # in the number of copies. The node's file is its first copy by _first_copy_key.
    by_text: dict[tuple[int | None, int | None, bytes, bytes], list[int]] = {}
    copied = named_copies([files[n].path for n in ok])
    folders = options.reference_folders
    kept = {n for n in ok if folders and in_folders(files[n].path, folders)}
    for n in ok:
        same = (files[n].fingerprint, files[n].lead, files[n].sketch, files[n].signature)
        by_text.setdefault(same, []).append(n)
    for same in by_text.values():
        if len(same) > 1:  # most texts have no exact copy: nothing to order
            same.sort(key=lambda n: _first_copy_key(files[n], copied, None, n in kept))
    copies = sorted(by_text.values(), key=lambda same: same[0])
    node_files = [same[0] for same in copies]
    nodes_records = [_with_copies_lines(files, same) for same in copies]
    again = None if texts is None else NodeTexts(texts, node_files)
    measure = method.measure(
        nodes_records, options.k, options.min_similarity, cancel, again, template
    )
    nodes = Nodes(
        measure.fingerprints,
        np.array([len(same) for same in copies], dtype=np.int64),
        np.array([files[n].path in copied for n in node_files], dtype=np.bool_),
        np.array([_per_mille(files[n].converted_chars, files[n].chars) for n in node_files]),
        np.array([files[n].notice_chars for n in node_files], dtype=np.int64),
        np.array([files[n].boilerplate for n in node_files], dtype=np.float64),
        np.array([files[n].chars for n in node_files], dtype=np.int64),
        np.array([files[n].mtime_ns // MINUTE_NS for n in node_files], dtype=np.int64),
        [files[n].encoding for n in node_files],
        np.array([files[n].size for n in node_files], dtype=np.int64),
        [files[n].path for n in node_files],
        measure.similarities,
        measure.containments,
        np.array([n in kept for n in node_files], dtype=np.bool_),
        _apart_nodes(options.not_duplicates, files, copies),
        [files[n].lines for n in node_files],
        again,
        measure.shown,
    )
    local = measure.candidates
    found = node_groups(local, nodes, measure.thresholds, cancel, jobs, workers)
    groups = []
    for found_group in found:
        columns = [column.tolist() for column in found_group]  # Python numbers: made once each
        reference = copies[columns[0][0]][0]
        if len(copies[columns[0][0]]) > 1:  # which of the reference's exact copies
            usual = Counter(files[n].encoding for node in columns[0] for n in copies[node])
            reference = min(
                copies[columns[0][0]],
                key=lambda n: _first_copy_key(files[n], copied, usual, n in kept),
            )
        members = [
            Member(file, distance, share, inside)
            for node, distance, share, inside in zip(*columns, strict=True)
            for file in copies[node]
        ]
        members.sort(key=lambda m: (m.file != reference, m.distance, files[m.file].path))
        groups.append(tuple(members))
    ids = np.array(node_files, np.int64)
    pairs = Pairs(ids[local.i], ids[local.j], local.distance)
    return pairs, numbered(groups, [f.path for f in files])


def _with_copies_lines(files: tuple[FileRecord, ...], same: list[int]) -> FileRecord:
    """A node's record (its first copy's), with the lines of all its copies (template evidence)."""
    record = files[same[0]]
    if len(same) == 1 or all(files[n].lines == record.lines for n in same[1:]):
        return record
    return record._replace(lines=b"".join(dict.fromkeys(files[n].lines for n in same)))


def _per_mille(part: int, whole: int) -> int:
    """``part`` in thousandths of ``whole`` (of none: 0)."""
    return 1000 * part // whole if whole else 0


def _apart_nodes(
    not_duplicates: frozenset[tuple[str, str]],
    files: tuple[FileRecord, ...],
    copies: list[list[int]],
) -> frozenset[tuple[int, int]]:
    """The node pairs (lower first) holding a pair of paths said apart (exact copies excepted)."""
    if not not_duplicates:
        return frozenset()
    node_of = {files[n].path: node for node, same in enumerate(copies) for n in same}
    found = set()
    for a, b in not_duplicates:
        x, y = node_of.get(a), node_of.get(b)
        if x is not None and y is not None and x != y:
            found.add((min(x, y), max(x, y)))
    return frozenset(found)


Grouper = Callable[
    [tuple[FileRecord, ...], ScanOptions, Callable[[], bool]], tuple[Pairs, tuple[Group, ...]]
]


def group_here(
    files: tuple[FileRecord, ...],
    options: ScanOptions,
    cancel: Callable[[], bool] = never,
    template: U64 | None = None,
    jobs: int = 1,
    workers: Pool | None = None,
) -> tuple[Pairs, tuple[Group, ...]]:
    """The records paired and grouped in this process, as ``options`` say.

    Pairs just above the similarity floor are checked on their texts, read again where they can
    be. ``template``: the template's line hashes, when counted over more texts than ``files``
    (a cluster's part); else they are counted here. ``jobs``: worker processes that may read
    texts again for the kept copies' typing slips (a scan's, on its kept ``workers`` when
    running; a regroup reads them here).
    """
    texts = TextShingles(files, options.read)
    method = options.method
    return group_files(files, options.group, method, cancel, texts, template, jobs, workers)
