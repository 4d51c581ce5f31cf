"""Connected components of a pair graph on a Dask cluster, no task holding the whole graph.

The alternating large-star and small-star rounds of Kiveris et al., *Connected Components in
MapReduce and Beyond* (SoCC 2014), over edge lists only: each round shuffles the edges by one
end (a reducer owns a range of nodes) and each reducer rewrites the edges of its nodes:

* large-star: node ``u`` links each neighbour ``v > u`` to the least of ``u`` and its neighbours;
* small-star: node ``u`` links itself and each neighbour ``v < u`` to the least of them.

Neither changes which nodes are connected; when a pair of rounds changes no edge, every node
points at the least node of its component (O(log n) rounds). Each node's label is then that
least node, as :func:`~simdup_gui.engine.match.groups.components` labels them in one process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simdup_gui.engine.arrays import mix
from simdup_gui.engine.cluster.shuffle import pieces_for, split_rows

if TYPE_CHECKING:
    from distributed import Client, Future

Edges = tuple[np.ndarray, np.ndarray]  # (u, v) int64
MAX_ROUNDS = 200  # a guard: the rounds converge in O(log n)


def cluster_components(client: Client, edges: list[Future], n: int, reducers: int) -> np.ndarray:
    """Each of ``n`` nodes' component label (its least node), from edge parts on the cluster.

    ``edges`` are futures of (u, v) arrays; a node with no edge is its own component.
    """
    owners = np.linspace(0, n, max(1, reducers) + 1).astype(np.int64)
    parts = edges
    for _ in range(MAX_ROUNDS):
        before = _digest(client, parts)
        parts = _round(client, parts, owners, large=True)
        parts = _round(client, parts, owners, large=False)
        if _digest(client, parts) == before:
            break
    else:
        raise RuntimeError("the components did not converge")
    labels = np.arange(n, dtype=np.int64)
    for u, v in client.gather([client.submit(_pointers, p, pure=False) for p in parts]):
        labels[u] = v  # after small-star, each node's one edge points at its least node
    return labels


def _round(client: Client, parts: list[Future], owners: np.ndarray, *, large: bool) -> list[Future]:
    """One star round: the edges shuffled by their first end and rewritten by its reducer."""
    split = [client.submit(_split, part, owners, pure=False) for part in parts]
    return [
        client.submit(
            _large_star if large else _small_star,
            pieces_for(client, split, q),
            pure=False,
        )
        for q in range(len(owners) - 1)
    ]


def _split(edges: tuple[np.ndarray, ...], owners: np.ndarray) -> list[Edges]:
    """A part's edges (their first two arrays), both ways round, by the reducer of the first."""
    u = np.concatenate([edges[0], edges[1]])
    v = np.concatenate([edges[1], edges[0]])
    reducer = np.searchsorted(owners, u, side="right") - 1
    return split_rows(reducer, len(owners) - 1, u, v)


def _neighbours(pieces: list[Edges]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pieces' edges sorted by u; for each, the least of its u and u's neighbours."""
    u = np.concatenate([p[0] for p in pieces]) if pieces else np.empty(0, np.int64)
    v = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.int64)
    keep = u != v
    u, v = u[keep], v[keep]
    order = np.lexsort((v, u))
    u, v = u[order], v[order]
    starts, least = _least_by_node(u, v)
    return u, v, np.repeat(np.minimum(least, u[starts]), np.diff(np.r_[starts, len(u)]))


def _least_by_node(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each node's run of edges starts (``u`` sorted), and its least neighbour."""
    if not len(u):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    return starts, np.minimum.reduceat(v, starts)


def _large_star(pieces: list[Edges]) -> Edges:
    """Each node's larger neighbours linked to the least of it and its neighbours."""
    u, v, least = _neighbours(pieces)
    larger = v > u
    return _distinct(v[larger], least[larger])


def _small_star(pieces: list[Edges]) -> Edges:
    """Each node and its smaller neighbours linked to the least of them."""
    u, v, _ = _neighbours(pieces)
    smaller = v < u
    u, v = u[smaller], v[smaller]
    starts, least = _least_by_node(u, v)
    least_each = np.repeat(least, np.diff(np.r_[starts, len(u)]))
    ends = np.concatenate([v, u[starts]])
    to = np.concatenate([least_each, least])
    differ = ends != to
    return _distinct(ends[differ], to[differ])


def _distinct(u: np.ndarray, v: np.ndarray) -> Edges:
    """The edges (u, v), each once."""
    if not len(u):
        return np.empty(0, np.int64), np.empty(0, np.int64)
    pairs = np.unique(np.stack([u, v], axis=1), axis=0)
    return pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)


def _pointers(edges: Edges) -> Edges:
    """Each node's edge towards a smaller node (after a small-star round, its least one)."""
    u, v = edges
    down = v < u
    return u[down], v[down]


def _digest(client: Client, parts: list[Future]) -> tuple[int, int]:
    """The edge set's size and an order-free digest of it (equal sets, equal digests)."""
    found = client.gather([client.submit(_part_digest, p, pure=False) for p in parts])
    return sum(c for c, _ in found), sum(d for _, d in found) % (1 << 64)


def _part_digest(edges: tuple[np.ndarray, ...]) -> tuple[int, int]:
    u, v = edges[0], edges[1]
    a, b = np.minimum(u, v).astype(np.uint64), np.maximum(u, v).astype(np.uint64)
    pairs = np.unique(np.stack([a, b], axis=1), axis=0) if len(a) else np.empty((0, 2), np.uint64)
    hashed = mix(mix(pairs[:, 0]) ^ pairs[:, 1])
    return len(pairs), int(hashed.sum(dtype=np.uint64)) if len(pairs) else 0
