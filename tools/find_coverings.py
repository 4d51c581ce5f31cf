"""Search for small coverings: sets of ``r`` blocks, one of them intact whatever ``k`` change.

``simdup_gui/engine/match/coverings.py`` keeps the ones found.

    python tools/find_coverings.py --k 8 --blocks 16 --r 4 [--start 76] [--seconds 600]

A tabu search (Nurmela and Östergård's kind): keep ``m`` sets; while some set of ``count - k``
intact blocks holds none of them, take one such, and swap in one of its ``r``-subsets for the
member whose loss uncovers least; a swapped-out member may not come back for a few steps.
Once all are covered, drop the member that alone covers least and go on with one set fewer.
Prints each family found as bit sets (bit ``b``: block ``b``). Needs numba (a development tool).
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations

import numpy as np
import numpy.typing as npt
from numba import njit

Index = npt.NDArray[np.int64]


def as_bits(blocks: tuple[int, ...]) -> int:
    """The blocks as a bit set."""
    return sum(1 << b for b in blocks)


@njit(cache=False)
def _tabu(
    family: Index,
    subsets: Index,
    contains: Index,
    intact_bits: Index,
    set_bits: Index,
    steps: int,
    seed: int,
) -> tuple[int, Index]:
    """Up to ``steps`` swaps; the fewest uncovered intact sets reached and that family."""
    np.random.seed(seed)  # noqa: NPY002 (numba's generator)
    covers = np.zeros(len(intact_bits), np.int32)
    for member in family:
        for at in contains[member]:
            covers[at] += 1
    open_sets = np.flatnonzero(covers == 0).astype(np.int64)
    place = np.full(len(intact_bits), -1, np.int64)
    place[open_sets] = np.arange(len(open_sets))
    count = len(open_sets)
    open_sets = np.concatenate((open_sets, np.zeros(len(intact_bits) - count, np.int64)))
    chosen = np.zeros(len(contains), np.bool_)
    chosen[family] = True
    banned_until = np.zeros(len(contains), np.int64)
    best, best_family = count, family.copy()
    for step in range(steps):
        if count == 0:
            break
        target = open_sets[np.random.randint(count)]  # noqa: NPY002
        best_delta, out_at, incoming, ties = 1 << 30, -1, -1, 0
        for candidate in subsets[target]:
            if chosen[candidate] or banned_until[candidate] > step:
                continue
            gain = 0
            for at in contains[candidate]:
                gain += covers[at] == 0
            bits = set_bits[candidate]
            for position in range(len(family)):
                loss = 0
                for at in contains[family[position]]:
                    loss += covers[at] == 1 and (intact_bits[at] & bits) != bits
                delta = loss - gain
                if delta < best_delta:
                    best_delta, out_at, incoming, ties = delta, position, candidate, 1
                elif delta == best_delta:
                    ties += 1
                    if np.random.randint(ties) == 0:  # noqa: NPY002
                        out_at, incoming = position, candidate
        if incoming < 0:
            continue
        outgoing = family[out_at]
        for at in contains[incoming]:
            covers[at] += 1
            if covers[at] == 1:
                last = open_sets[count - 1]
                open_sets[place[at]], place[last] = last, place[at]
                place[at] = -1
                count -= 1
        for at in contains[outgoing]:
            covers[at] -= 1
            if covers[at] == 0:
                open_sets[count], place[at] = at, count
                count += 1
        family[out_at] = incoming
        chosen[incoming], chosen[outgoing] = True, False
        banned_until[outgoing] = step + 2 + np.random.randint(8)  # noqa: NPY002
        if count < best:
            best, best_family = count, family.copy()
    return best, best_family


def main() -> None:
    """Search and print each family found, one member fewer each time."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--blocks", type=int, default=16)
    parser.add_argument("--r", type=int, default=4)
    parser.add_argument("--start", type=int, help="members to start with (default: greedy-ish)")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    count, intact = args.blocks, args.blocks - args.k
    sets = list(combinations(range(count), args.r))
    intact_sets = list(combinations(range(count), intact))
    index = {as_bits(s): at for at, s in enumerate(sets)}
    subsets = np.array(
        [[index[as_bits(s)] for s in combinations(i, args.r)] for i in intact_sets], np.int64
    )
    contains = np.zeros((len(sets), math.comb(count - args.r, intact - args.r)), np.int64)
    filled = np.zeros(len(sets), np.int64)
    for at, row in enumerate(subsets):
        for member in row:
            contains[member, filled[member]] = at
            filled[member] += 1
    intact_bits = np.array([as_bits(s) for s in intact_sets], np.int64)
    set_bits = np.array([as_bits(s) for s in sets], np.int64)
    rng = np.random.default_rng(args.seed)
    size = args.start or 2 * math.ceil(len(sets) / math.comb(intact, args.r))
    family = rng.choice(len(sets), size, replace=False)
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        seed = int(rng.integers(1 << 30))
        uncovered, found = _tabu(family, subsets, contains, intact_bits, set_bits, 20_000, seed)
        print(f"{len(found)} sets: {uncovered} intact sets uncovered", flush=True)
        if uncovered:
            family = found
            continue
        print(sorted(int(set_bits[m]) for m in found), flush=True)
        covers = np.zeros(len(intact_sets), np.int64)
        for member in found:
            covers[contains[member]] += 1
        alone = [int((covers[contains[member]] == 1).sum()) for member in found]
        family = np.delete(found, int(np.argmin(alone)))


if __name__ == "__main__":
    main()
