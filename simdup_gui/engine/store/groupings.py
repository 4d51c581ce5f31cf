"""A folder's pairs and groups as the cache stores them: three blobs, checked when read back."""

from __future__ import annotations

import numpy as np

from simdup_gui.engine.match.groups import Group, Member
from simdup_gui.engine.records import Pairs

_PAIR = np.dtype([("i", "<i8"), ("j", "<i8"), ("distance", "u1")])
_MEMBER = np.dtype(
    [("file", "<i8"), ("distance", "<i8"), ("similarity", "<f8"), ("contained", "?")]
)


def stored_groups(
    pairs: bytes, members: bytes, sizes: bytes, files: int
) -> tuple[Pairs, tuple[Group, ...]]:
    """Stored pairs and groups, checked against a folder of ``files`` files (ValueError)."""
    stored = np.frombuffer(pairs, dtype=_PAIR)
    found = Pairs(
        stored["i"].astype(np.int64), stored["j"].astype(np.int64), stored["distance"].copy()
    )
    rows = np.frombuffer(members, dtype=_MEMBER)
    counts = np.frombuffer(sizes, dtype="<i8")
    files_in = np.concatenate([rows["file"], found.i, found.j])
    if files_in.size and (files_in.min() < 0 or files_in.max() >= files):
        raise ValueError("a file index out of range")
    if (found.i >= found.j).any() or (found.distance > 64).any():
        raise ValueError("a pair out of order or out of range")
    if len(np.unique(rows["file"])) != len(rows):
        raise ValueError("a file in two groups")
    if (counts < 2).any() or counts.sum() != len(rows):
        raise ValueError("group sizes that do not add up")
    if ((rows["distance"] < 0) | (rows["distance"] > 64)).any():
        raise ValueError("a distance out of range")
    if not ((rows["similarity"] >= 0) & (rows["similarity"] <= 1)).all():
        raise ValueError("a similarity out of range")
    every = list(
        map(
            Member,
            rows["file"].tolist(),
            rows["distance"].tolist(),
            rows["similarity"].tolist(),
            rows["contained"].tolist(),
        )
    )
    ends = np.cumsum(counts).tolist()
    starts = [0, *ends[:-1]] if ends else []
    groups = tuple(
        Group(n, tuple(every[lo:hi]))
        for n, (lo, hi) in enumerate(zip(starts, ends, strict=True), 1)
    )
    return found, groups


def grouping_blobs(pairs: Pairs, groups: tuple[Group, ...]) -> tuple[bytes, bytes, bytes]:
    """The pairs, the members and the group sizes as the blobs :func:`stored_groups` reads."""
    members = np.array(
        [(m.file, m.distance, m.similarity, m.contained) for g in groups for m in g.members],
        dtype=_MEMBER,
    )
    return (
        np.rec.fromarrays([pairs.i, pairs.j, pairs.distance], dtype=_PAIR).tobytes(),
        members.tobytes(),
        np.array([len(g) for g in groups], dtype="<i8").tobytes(),
    )
