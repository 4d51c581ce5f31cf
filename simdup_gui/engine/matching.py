"""From fingerprinted files to verified pairs and groups.

Candidates are the pairs of fingerprints within k (the permuted-table index) and, when a text
similarity floor is set, the pairs whose openings' fingerprints are within LEAD_K and (at a
loose k) those whose shingle sketches agree on a band (``shingles.banded_pairs``: copies whose
added or dropped text moved the fingerprint far); each candidate must then share enough 5-character
shingles (estimated Jaccard from the files' sketches). Exact copies are one node of the pair
graph. Groups are its connected components.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simdup_gui.engine.groups import Group, build_groups
from simdup_gui.engine.index import Pairs, all_pairs
from simdup_gui.engine.progress import never
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.shingles import banded_pairs, jaccard, jaccard_many, sketch_matrix


def similarity(a: FileRecord, b: FileRecord) -> float:
    """Estimated Jaccard similarity of two files' shingle sets (1.0 if neither has a sketch)."""
    if not a.sketch and not b.sketch:
        return 1.0
    return jaccard(np.frombuffer(a.sketch, dtype="<u8"), np.frombuffer(b.sketch, dtype="<u8"))


LEAD_K = 3  # openings this close make a candidate pair too (then verified like any other)
BANDS_K = 7  # from this k on (the app's "loose"), sketches agreeing on a band are candidates
GROUPING_VERSION = 2  # bump when grouping changes (cached groups are then made again)


def _union(a: Pairs, b: Pairs, fps: np.ndarray) -> Pairs:
    """Pairs in ``a`` or ``b``, each once, with distances measured on ``fps``."""
    n = len(fps)
    keys = np.unique(np.concatenate([a.i * n + a.j, b.i * n + b.j]))
    i, j = keys // n, keys % n
    return Pairs(i, j, np.bitwise_count(fps[i] ^ fps[j]).astype(np.uint8))


def group_files(
    files: tuple[FileRecord, ...],
    k: int,
    min_chars: int = 0,
    min_similarity: float = 0.0,
    cancel: Callable[[], bool] = never,
) -> tuple[Pairs, tuple[Group, ...]]:
    """Pairs within ``k`` whose texts are at least ``min_similarity`` alike, and their groups.

    With a similarity floor, files whose openings' fingerprints are within LEAD_K are candidates
    too (a truncated copy keeps the opening but loses the rest, which moves its fingerprint), and
    from BANDS_K on so are files whose shingle sketches agree on a band (an added copyright block
    or template moves the fingerprint but leaves most shingles); every candidate must pass the
    floor. Only fingerprinted files of ``min_chars`` or more take part. Once ``cancel`` returns
    True, the search for candidates stops and the groups are made of those found so far.
    """
    ok = [n for n, f in enumerate(files) if f.ok and f.chars >= min_chars]
    fps = np.array([files[n].fingerprint for n in ok], dtype=np.uint64)
    # Exact copies (same fingerprints and shingle sketch) are one node: linking each to its
    # first copy keeps the work and the edges linear in the number of copies, not quadratic.
    first: dict[tuple[int | None, int | None, bytes], int] = {}
    copies = [
        (p, first.setdefault((f.fingerprint, f.lead, f.sketch), p))
        for p, f in enumerate(files[n] for n in ok)
    ]
    reps = np.array(sorted(set(first.values())), dtype=np.int64)
    rep_ids = [ok[p] for p in reps]
    rows = sketch_matrix([files[n].sketch for n in rep_ids])  # one per distinct text
    local = _candidates(files, rep_ids, fps[reps], rows, k, min_similarity, cancel)
    linked = [(rep, p) for p, rep in copies if p != rep]
    local = Pairs(
        np.concatenate([reps[local.i], np.array([a for a, _ in linked], dtype=np.int64)]),
        np.concatenate([reps[local.j], np.array([b for _, b in linked], dtype=np.int64)]),
        np.concatenate([local.distance, np.zeros(len(linked), dtype=np.uint8)]),
    )
    ids = np.array(ok, np.int64)
    pairs = Pairs(ids[local.i], ids[local.j], local.distance)
    groups = build_groups(
        fps, local, [files[n].chars for n in ok], [files[n].path for n in ok], file_ids=ok
    )
    first_copy = {ok[p]: ok[rep] for p, rep in copies}
    row_of = {file: row for row, file in enumerate(rep_ids)}
    return pairs, _with_similarities(groups, first_copy, rows, row_of)


def _candidates(
    files: tuple[FileRecord, ...],
    ids: list[int],
    fps: np.ndarray,
    rows: np.ndarray,
    k: int,
    min_similarity: float,
    cancel: Callable[[], bool],
) -> Pairs:
    """Candidate pairs (positions in ``ids``, whose sketches are ``rows``) that pass the floor.

    Candidates are the pairs within ``k``, those whose openings are within LEAD_K and, from
    BANDS_K on, those whose sketches agree on a band; with no floor, all pairs within ``k`` and
    nothing else.
    """
    local = all_pairs(fps, k, cancel=cancel)
    if min_similarity <= 0 or len(ids) < 2:
        return local
    leads = np.array([files[n].lead or 0 for n in ids], dtype=np.uint64)
    local = _union(local, all_pairs(leads, min(k, LEAD_K), cancel=cancel), fps)
    if k >= BANDS_K and not cancel():
        alike = banded_pairs(rows)
        local = _union(local, Pairs(*alike, np.zeros(len(alike[0]), np.uint8)), fps)
    keep = jaccard_many(rows, local.i, local.j) >= min_similarity
    return Pairs(local.i[keep], local.j[keep], local.distance[keep])


def _with_similarities(
    groups: tuple[Group, ...],
    first_copy: dict[int, int],
    rows: np.ndarray,
    row_of: dict[int, int],
) -> tuple[Group, ...]:
    """Each member's text similarity to its group's reference, all in one compiled pass.

    Exact copies share a sketch, so each pair of first copies is measured once (``rows`` holds
    the first copies' sketches, ``row_of`` says where); an exact copy of the reference is
    100 % alike without looking.
    """
    wanted = {
        (first_copy[g.reference], first_copy[m.file])
        for g in groups
        for m in g.members[1:]
        if first_copy[m.file] != first_copy[g.reference]
    }
    if not wanted:
        return groups
    pairs = sorted(wanted)
    left, right = zip(*pairs, strict=True)
    alike = jaccard_many(rows, [row_of[a] for a in left], [row_of[b] for b in right])
    measured = dict(zip(pairs, alike.tolist(), strict=True))
    out = []
    for g in groups:
        ref = first_copy[g.reference]
        shares = [measured.get((ref, first_copy[m.file]), 1.0) for m in g.members[1:]]
        if all(share == 1.0 for share in shares):
            out.append(g)  # all exact copies of the reference (or measured as such)
        else:
            members = (m._replace(similarity=x) for m, x in zip(g.members[1:], shares, strict=True))
            out.append(Group(g.id, (g.members[0], *members)))
    return tuple(out)
