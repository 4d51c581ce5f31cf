"""All pairs within k as a dataflow on a Dask cluster: Manku's permutations, one shuffle each.

The in-process :func:`~simdup_gui.engine.match.index.all_pairs` takes the plan's permutations in
groups that lead with the same block, splits the fingerprints into parts by that block's
leading bits, and checks each part on its own. Here those parts are spread over the cluster:

1. **Map** (a task per input part): each fingerprint goes to the reducer that owns its part of
   the group's leading bits (``PIECES`` reducers own contiguous ranges of the parts).
2. **Shuffle**: each reducer gathers its pieces from every map task.
3. **Reduce** (a task per reducer): the same compiled kernel as in-process checks every pair
   of a bucket exactly (the whole prefix equal, the distance within k, and this permutation the
   first of the plan whose prefix blocks the pair leaves intact: each pair is reported once).

So the pairs are exactly ``all_pairs``'s, and no task holds more than one input part or one
reducer's share of a permutation group: per group, the shuffle moves every fingerprint once (16
bytes with its id). Only the pairs come back to the client.
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from simdup_gui.engine.cluster.shuffle import pieces_for, split_rows
from simdup_gui.engine.kernels import groups_plain, kernel_module, plain_kernels
from simdup_gui.engine.match.permutations import (
    block_masks,
    check_k,
    first_permutations,
    permutation_groups,
    plan_for_pairs,
)
from simdup_gui.engine.records import Pairs

if TYPE_CHECKING:
    from distributed import Client, Future

PIECES = 64  # reducers per permutation group at most (each owns a range of the group's parts)
PER_PIECE = 250_000  # fingerprints a reducer takes at least (fewer: the tasks cost more)
Part = tuple[np.ndarray, np.ndarray]  # (global ids, ascending; fingerprints)


def scatter_parts(client: Client, fingerprints: np.ndarray, parts: int) -> list[Future]:
    """Fingerprints held here, sent to the cluster in ``parts`` parts (ids ascending)."""
    bounds = np.linspace(0, len(fingerprints), max(1, parts) + 1).astype(np.int64)
    pieces = [
        (np.arange(lo, hi, dtype=np.int64), fingerprints[lo:hi])
        for lo, hi in pairwise(bounds.tolist())
    ]
    return client.scatter(pieces, hash=False)  # a future per part


def cluster_all_pairs(
    client: Client, parts: list[Future], n: int, k: int, *, window: int = 0
) -> Pairs:
    """Every pair of the ``n`` fingerprints in ``parts`` within distance ``k``, each once.

    ``parts`` are futures of (ids, fingerprints) with ids below ``n``, ascending across them.
    The same pairs as ``all_pairs`` over all of them (with its ``window``), in the same order.
    """
    return Pairs.from_parts(client.gather(pair_parts(client, parts, n, k, window=window)), n)


def pair_parts(
    client: Client, parts: list[Future], n: int, k: int, *, window: int = 0
) -> list[Future]:
    """:func:`cluster_all_pairs` left on the cluster: futures of (i, j, distance) arrays."""
    k = check_k(k)
    if n < 2:
        return []
    plan = plan_for_pairs(k, n)
    part_bits, groups = permutation_groups(plan, n)
    pieces = min(PIECES, 1 << part_bits, max(1, n // PER_PIECE))
    owners = np.linspace(0, 1 << part_bits, pieces + 1).astype(np.int64)  # each reducer's parts
    blocks = np.array(block_masks(plan), np.uint64)
    first = first_permutations(plan)
    plain = groups_plain(n)
    found = []
    for group in groups:
        lead = (group.part_masks, group.part_rotations, part_bits)
        split = [client.submit(_split, part, lead, owners, pure=False) for part in parts]
        for q in range(pieces):
            mine = pieces_for(client, split, q)
            found.append(
                client.submit(
                    _pairs_in,
                    mine,
                    np.arange(owners[q], owners[q + 1], dtype=np.int64),
                    k,
                    (group.masks, group.rotations, group.local_bits),
                    (group.prefix_masks, group.in_plan, first, blocks),
                    lead,
                    plain,
                    window,
                    pure=False,
                )
            )
    return found


def _split(part: Part, lead: tuple[Any, ...], owners: np.ndarray) -> list[Part]:
    """A part's fingerprints by the reducer that owns their leading bits (ids kept ascending)."""
    ids, fps = part
    masks, rotations, _ = lead
    kernels = kernel_module("simdup_gui.engine.match.index_kernels")
    leading = kernels.gathered(fps, masks, rotations).astype(np.int64)
    reducer = np.searchsorted(owners, leading, side="right") - 1
    return split_rows(reducer, len(owners) - 1, ids, fps)


def _pairs_in(
    pieces: list[Part],
    owned: np.ndarray,
    k: int,
    permutations: tuple[Any, ...],
    checks: tuple[Any, ...],
    lead: tuple[Any, ...],
    plain: bool,
    window: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs a group's permutations report first among the parts ``owned`` (global ids)."""
    ids = np.concatenate([p[0] for p in pieces]) if pieces else np.empty(0, np.int64)
    fps = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.uint64)
    if len(fps) < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.uint8)
    group_masks, group_rotations, local_bits = permutations
    prefix_masks, order, first, blocks = checks
    with plain_kernels(plain):
        kernels = kernel_module("simdup_gui.engine.match.index_kernels")
        ordered, local, starts = kernels.partition(fps, *lead)
        i, j, d = kernels.group_pairs(
            ordered,
            local,
            starts,
            owned,
            k,
            group_masks,
            group_rotations,
            local_bits,
            prefix_masks,
            order,
            first,
            blocks,
            window,
        )
    a, b = ids[i], ids[j]
    return np.minimum(a, b), np.maximum(a, b), d
