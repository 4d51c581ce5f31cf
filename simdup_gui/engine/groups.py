"""Duplicate groups: connected components of the near-duplicate pair graph.

Each group has a reference member, the one an editor would keep: the longest text, then the
earliest path. Every member carries its Hamming distance to the reference (which can exceed k,
since a group is closed under chains a~b~c) and its text similarity to it. Groups are sorted
by size, largest first, then by the reference's path, so the same input always gives the same
groups with the same ids.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.index import Pairs


class Member(NamedTuple):
    """One file of a group: its index in the scan's file list and its distance to the reference.

    A named tuple: groups of a large folder make many, and these are cheap to make.
    """

    file: int
    distance: int
    similarity: float = 1.0  # estimated Jaccard similarity of its text to the reference's


@dataclass(frozen=True, slots=True)
class Group:
    """A duplicate group; ``members[0]`` is the reference."""

    id: int
    members: tuple[Member, ...]

    @property
    def reference(self) -> int:
        """The file index of the reference member."""
        return self.members[0].file

    def __len__(self) -> int:
        return len(self.members)

    def with_reference(
        self,
        file: int,
        fingerprints: Mapping[int, int],
        similarity: Callable[[int, int], float],
    ) -> Group:
        """The same group with ``file`` as its reference, distances measured from it.

        Args:
            file: the file index of the new reference (a member of this group).
            fingerprints: each member's fingerprint, by file index.
            similarity: text similarity of two files, by file index.
        """
        if all(m.file != file for m in self.members):
            raise ValueError(f"file {file} is not in group {self.id}")
        ref = fingerprints[file]
        members = sorted(
            (
                Member(
                    m.file,
                    (fingerprints[m.file] ^ ref).bit_count(),
                    1.0 if m.file == file else similarity(file, m.file),
                )
                for m in self.members
            ),
            key=lambda m: (m.file != file, m.distance, m.file),
        )
        return Group(self.id, tuple(members))


def components(n: int, pairs: Pairs) -> list[list[int]]:
    """Connected components with two or more nodes, each sorted, from a pair list.

    Labels are hooked and shortcut in numpy (each node ends labelled with the smallest node
    of its component), a few passes over the edges rather than a Python loop per edge.
    """
    label = np.arange(n)
    left, right = pairs.i.astype(np.int64), pairs.j.astype(np.int64)
    while True:
        a, b = label[left], label[right]
        hooked = label.copy()
        np.minimum.at(hooked, np.maximum(a, b), np.minimum(a, b))  # root of larger to smaller
        while True:  # shortcut until every node points at a root
            jumped = hooked[hooked]
            if np.array_equal(jumped, hooked):
                break
            hooked = jumped
        if np.array_equal(hooked, label):
            break
        label = hooked
    nodes = np.unique(np.concatenate([left, right]))
    order = nodes[np.argsort(label[nodes], kind="stable")]
    cuts = [0, *(np.flatnonzero(np.diff(label[order])) + 1).tolist(), len(order)]
    ordered = order.tolist()
    return [ordered[lo:hi] for lo, hi in pairwise(cuts)] if ordered else []


def build_groups(
    fingerprints: npt.NDArray[np.uint64],
    pairs: Pairs,
    text_lengths: Sequence[int],
    paths: Sequence[str],
    file_ids: Sequence[int] | None = None,
) -> tuple[Group, ...]:
    """Group the fingerprints linked by ``pairs`` and pick each group's reference.

    Args:
        fingerprints: the fingerprints the pairs index into.
        pairs: pairs of positions in ``fingerprints``.
        text_lengths: text length of each position (longest is the reference).
        paths: path of each position (the earliest breaks ties).
        file_ids: the file index to report for each position (default: the position).

    Members' similarities are left at 1.0 for the caller, who holds the texts' sketches.
    """
    ids = list(range(len(fingerprints))) if file_ids is None else list(file_ids)
    groups = []
    for component in components(len(fingerprints), pairs):
        ref = min(component, key=lambda p: (-text_lengths[p], paths[p]))
        ref_fp = int(fingerprints[ref])
        distance = {p: (int(fingerprints[p]) ^ ref_fp).bit_count() for p in component}
        order = sorted(component, key=lambda p: (p != ref, distance[p], paths[p]))
        members = [Member(ids[p], distance[p]) for p in order]
        groups.append((members, paths[ref]))
    groups.sort(key=lambda g: (-len(g[0]), g[1]))
    return tuple(Group(n + 1, tuple(members)) for n, (members, _) in enumerate(groups))
