"""From fingerprinted files to verified pairs and groups.

Candidates are the pairs of fingerprints within k (the permuted-table index) and, at a loose k
with a text similarity floor, the pairs whose openings' fingerprints are within LEAD_K and those
whose shingle sketches agree on a band (``shingles.banded_pairs``: copies whose added or dropped
text moved the fingerprint far); each candidate must then share enough 5-character shingles
(estimated Jaccard from the files' sketches; just above the floor, exact: ``exact.py``). Exact
copies are one node. Groups are clusters around a reference, every member meeting the
thresholds against it (``groups.clusters``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.codes import PAD, SKETCH
from simdup_gui.engine.fingerprint.files import TextShingles
from simdup_gui.engine.fingerprint.shingles import (
    banded_pairs,
    containment,
    containment_many,
    jaccard,
    jaccard_many,
    sketch_matrix,
)
from simdup_gui.engine.match.exact import ExactPairs, Shingles, near, near_floor_checked
from simdup_gui.engine.match.groups import (
    LOOSE_K,
    Group,
    Member,
    Nodes,
    Thresholds,
    clusters,
    numbered,
)
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.match.methods import Measure, method_measure
from simdup_gui.engine.options import Method, ScanOptions
from simdup_gui.engine.progress import never
from simdup_gui.engine.read.walk import in_folders
from simdup_gui.engine.records import FileRecord, Pairs


def similarity(a: FileRecord, b: FileRecord) -> float:
    """Estimated Jaccard similarity of two files' shingle sets (1.0 if neither has a sketch)."""
    if not a.sketch and not b.sketch:
        return 1.0
    return jaccard(np.frombuffer(a.sketch, dtype="<u8"), np.frombuffer(b.sketch, dtype="<u8"))


CONTAINED = 0.8  # this share of a text's shingles inside a longer text makes it a copy of it
CONTAINED_SAMPLES = 24  # ... judged on at least this many of its sketch's hashes


def contained(a: FileRecord, b: FileRecord) -> bool:
    """Whether the shorter text of two lies, as a whole, inside the longer one.

    A truncated repost inside its original, or an article inside a page that wraps it in a
    portal's navigation, ads and comments: their Jaccard similarity is low, but most of the
    shorter text's shingles are in the longer one. The shorter must fill its sketch (at least
    SKETCH distinct shingles: not a one-line stub) and be judged on CONTAINED_SAMPLES hashes.
    """
    small, large = (a, b) if a.chars <= b.chars else (b, a)
    inner = np.frombuffer(small.sketch, dtype="<u8")
    if len(inner) < SKETCH:
        return False
    share, samples = containment(inner, np.frombuffer(large.sketch, dtype="<u8"))
    return share >= CONTAINED and samples >= CONTAINED_SAMPLES


def likeness(
    a: FileRecord, b: FileRecord, floor: float, exact: Callable[[], float | None] | None = None
) -> tuple[float, bool]:
    """Two files' text similarity, and whether they match only as one text inside the other.

    That is: less alike than ``floor`` as a whole, but the shorter lies inside the longer.
    Their ``exact`` similarity is asked for when the estimate is just above the floor.
    """
    share = similarity(a, b)
    if exact is not None and near(share, floor):
        found = exact()
        share = share if found is None else found
    return share, share < floor and contained(a, b)


def contained_many(
    rows: np.ndarray, chars: np.ndarray, left: np.ndarray, right: np.ndarray
) -> np.ndarray:
    """:func:`contained` for many pairs of sketch rows, with their texts' lengths."""
    swap = chars[left] > chars[right]
    small, large = np.where(swap, right, left), np.where(swap, left, right)
    share, samples = containment_many(rows, small, large)
    full = rows[small, -1] != PAD
    return full & (share >= CONTAINED) & (samples >= CONTAINED_SAMPLES)


LEAD_K = 3  # openings this close make a candidate pair too (then verified like any other)
BANDS_K = LOOSE_K  # from this k on (the app's "loose"), openings and sketch bands add candidates
RUN_WINDOW = 32  # each fingerprint is checked against this many others sharing a table prefix
DEFAULT_METHOD = Method()


def _union(a: Pairs, b: Pairs, fps: np.ndarray) -> Pairs:
    """Pairs in ``a`` or ``b``, each once, with distances measured on ``fps``."""
    n = len(fps)
    keys = distinct(np.concatenate([a.i * n + a.j, b.i * n + b.j]))
    i, j = keys // n, keys % n
    return Pairs(i, j, np.bitwise_count(fps[i] ^ fps[j]).astype(np.uint8))


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

    A copy in a reference folder (``kept``) comes first, one whose name says it is a copy
    (``copied``) last; copies saved within the same minute are as old as each other; then a
    copy without a site template around it, then one in the encoding most of its group uses
    (``usual``), without a byte-order mark or decoding notes, then the fewest bytes (no CRLF,
    no full-width letters), then the earliest path.
    """
    return (
        not kept,
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
    k: int,
    min_chars: int = 0,
    min_similarity: float = 0.0,
    cancel: Callable[[], bool] = never,
    not_duplicates: frozenset[tuple[str, str]] = frozenset(),
    reference_folders: Sequence[str] = (),
    method: Method = DEFAULT_METHOD,
    shingles: Shingles | None = None,
) -> tuple[Pairs, tuple[Group, ...]]:
    """Verified candidate pairs of distinct texts, and the groups around references.

    Every member of a group meets :class:`groups.Thresholds` against its reference: within
    ``k`` bits and at least ``min_similarity`` alike, or from LOOSE_K on (with a floor) at least
    that alike whatever the distance. Only fingerprinted files of ``min_chars`` or more take
    part. Once ``cancel`` returns True, the search for candidates stops and the groups are made
    of those found so far. The pairs link distinct texts (file indices); exact copies are
    grouped without them.
    ``not_duplicates`` are pairs of paths (each sorted) a person said are not duplicates: one
    is never a member of a group whose reference is the other (exact copies always group).
    A group's reference is a file in one of ``reference_folders`` when it has one.
    ``method`` other than ``default`` finds and measures pairs its own way (``match/methods.py``),
    with ``min_similarity`` on its own measure.
    ``shingles`` gives a file's whole shingle set (by index), or None: then the text similarity
    of a pair whose estimate is just above the floor is the exact one (``match/exact.py``).
    """
    ok = [n for n, f in enumerate(files) if f.ok and f.chars >= min_chars]
    # Exact copies (same fingerprints and shingle sketch) are one node: the work stays linear
    # in the number of copies. The node's file is its first copy by _first_copy_key.
    by_text: dict[tuple[int | None, int | None, bytes, bytes], list[int]] = {}
    copied = named_copies([files[n].path for n in ok])
    kept = {n for n in ok if reference_folders and in_folders(files[n].path, reference_folders)}
    for n in ok:
        same = (files[n].fingerprint, files[n].lead, files[n].sketch, files[n].signature)
        by_text.setdefault(same, []).append(n)
    for same in by_text.values():
        if len(same) > 1:  # most texts have no exact copy: nothing to order
            same.sort(key=lambda n: _first_copy_key(files[n], copied, None, n in kept))
    copies = sorted(by_text.values(), key=lambda same: same[0])
    node_files = [same[0] for same in copies]
    chars = np.array([files[n].chars for n in node_files], dtype=np.int64)
    if method.name == "default":
        rows = sketch_matrix([files[n].sketch for n in node_files])
        fps = np.array([files[n].fingerprint for n in node_files], dtype=np.uint64)
        exact = None if shingles is None else ExactPairs(shingles, node_files)

        def alike(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return near_floor_checked(jaccard_many(rows, a, b), a, b, min_similarity, exact)

        local = _candidates(files, node_files, fps, rows, k, min_similarity, alike, cancel)
        measure = Measure(fps, local, alike, Thresholds(k, min_similarity))

        def holds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return contained_many(rows, chars, a, b)

    else:
        nodes_records = [files[n] for n in node_files]
        measure = method_measure(method, nodes_records, k, min_similarity, cancel)

        def holds(a: np.ndarray, b: np.ndarray) -> np.ndarray:
            return np.zeros(len(a), np.bool_)

    nodes = Nodes(
        measure.fingerprints,
        np.array([len(same) for same in copies], dtype=np.int64),
        np.array([files[n].path in copied for n in node_files], dtype=np.bool_),
        np.array([files[n].converted_chars > 0 for n in node_files], dtype=np.bool_),
        np.array([files[n].notice_chars for n in node_files], dtype=np.int64),
        np.array([files[n].boilerplate for n in node_files], dtype=np.float64),
        chars,
        np.array([files[n].mtime_ns // MINUTE_NS for n in node_files], dtype=np.int64),
        [files[n].encoding for n in node_files],
        np.array([files[n].size for n in node_files], dtype=np.int64),
        [files[n].path for n in node_files],
        measure.similarities,
        holds,
        np.array([n in kept for n in node_files], dtype=np.bool_),
        _apart_nodes(not_duplicates, files, copies),
    )
    local = measure.candidates
    found = clusters(local, nodes, measure.thresholds, cancel)
    groups = []
    for cluster in found:
        columns = [column.tolist() for column in cluster]  # Python numbers: made once each
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


def _candidates(
    files: tuple[FileRecord, ...],
    ids: list[int],
    fps: np.ndarray,
    rows: np.ndarray,
    k: int,
    min_similarity: float,
    alike: Callable[[np.ndarray, np.ndarray], np.ndarray],
    cancel: Callable[[], bool],
) -> Pairs:
    """Candidate pairs (positions in ``ids``, whose sketches are ``rows``) ``alike`` enough.

    Candidates are the pairs within ``k`` and, from BANDS_K on with a floor, those whose
    openings are within LEAD_K and those whose sketches agree on a band; below BANDS_K nothing
    else could meet the thresholds. Each fingerprint is checked against RUN_WINDOW others of a
    table's prefix run, so thousands of near-copies of one text cost linear work.
    """
    local = all_pairs(fps, k, cancel=cancel, window=RUN_WINDOW)
    if min_similarity <= 0 or len(ids) < 2:
        return local
    if k >= BANDS_K and not cancel():
        leads = np.array([files[n].lead or 0 for n in ids], dtype=np.uint64)
        openings = all_pairs(leads, LEAD_K, cancel=cancel, window=RUN_WINDOW)
        local = _union(local, openings, fps)
        banded = banded_pairs(rows)
        local = _union(local, Pairs(*banded, np.zeros(len(banded[0]), np.uint8)), fps)
    keep = alike(local.i, local.j) >= min_similarity
    if k >= BANDS_K:  # text alone decides: a text held by the other is a copy too
        chars = np.array([files[n].chars for n in ids], dtype=np.int64)
        rest = np.flatnonzero(~keep)
        keep[rest] = contained_many(rows, chars, local.i[rest], local.j[rest])
    return Pairs(local.i[keep], local.j[keep], local.distance[keep])


Grouper = Callable[
    [tuple[FileRecord, ...], ScanOptions, Callable[[], bool]], tuple[Pairs, tuple[Group, ...]]
]


def group_here(
    files: tuple[FileRecord, ...], options: ScanOptions, cancel: Callable[[], bool] = never
) -> tuple[Pairs, tuple[Group, ...]]:
    """The records paired and grouped in this process, as ``options`` say.

    Pairs just above the similarity floor are checked on their texts, read again where they can be.
    """
    return group_files(
        files,
        options.k,
        options.min_chars,
        options.min_similarity,
        cancel,
        options.not_duplicates,
        options.reference_folders,
        options.text.method,
        TextShingles(files, options),
    )
