"""Grouping records that stay on the cluster: candidates, their check, components, groups.

For more records than the client should group (``cluster/table.py``: a table's, or a
folder's), each step is a dataflow over the records' parts, on the workers:

1. **Candidates**, as a scan's (``match/matching.py``): fingerprints within k (Manku's tables,
   ``cluster/pairs.py``); from BANDS_K on, with a floor, openings within LEAD_K and rows that
   agree on a sketch band (a shuffle by band key). Each key run is checked against
   RUN_WINDOW others, as on one machine.
2. **The check**: each candidate is sent to the part holding its first file, which adds that
   file's sketch, then to its second's, which keeps it when the two texts are alike enough
   (or one holds the other, from BANDS_K on).
3. **Components** of the kept pairs (``cluster/components.py``).
4. **Template**: the lines in TEMPLATE_TEXTS or more texts that are not copies of each other
   (``match/template.py``), counted over every part: each part's lines with the component of
   the pairs at least the floor alike its file is in, shuffled by line.
5. **Groups**: each component's records go to one task, which groups them as a scan does
   (``group_here``: clusters around a reference, the template counted over all). The client
   numbers them.

The client holds each file's label (8 bytes), the verified pairs and the groups it is given
back, never the sketches side by side. The groups are the single machine's whenever no key run
is longer than the window.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from simdup_gui.engine.arrays import distinct, mix
from simdup_gui.engine.cluster.components import cluster_components
from simdup_gui.engine.cluster.pairs import pair_parts
from simdup_gui.engine.cluster.shuffle import pieces_for, split_rows
from simdup_gui.engine.fingerprint.lines import line_hashes, line_values
from simdup_gui.engine.fingerprint.shingles import BANDS, band_keys, jaccard_many, sketch_matrix
from simdup_gui.engine.match.default_measure import BANDS_K, LEAD_K, RUN_WINDOW, contained_many
from simdup_gui.engine.match.groups import Group, Member, numbered
from simdup_gui.engine.match.matching import group_here
from simdup_gui.engine.match.template import counted_lines
from simdup_gui.engine.methods.keys import linked
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.records import FileRecord, Pairs

if TYPE_CHECKING:
    from distributed import Client, Future

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
Found = tuple[np.ndarray, np.ndarray]  # (i, j) global file indices


def cluster_groups(
    client: Client,
    parts: list[Future],
    bounds: Sequence[int],
    paths: Sequence[str],
    options: ScanOptions,
) -> tuple[Pairs, tuple[Group, ...]]:
    """The verified pairs and the groups of records held on the cluster.

    ``parts`` are futures of record lists, part ``p`` holding files ``bounds[p]`` to
    ``bounds[p + 1]``; ``paths`` every file's path (for numbering the groups).
    """
    n, k, floor = len(paths), options.group.k, options.group.min_similarity
    starts = np.asarray(bounds[:-1], np.int64)
    reducers = max(1, len(parts))
    least = options.group.min_chars
    found = [_candidates(client, parts, starts, n, k, "fingerprint", least)]
    if floor > 0 and k >= BANDS_K:
        found.append(_candidates(client, parts, starts, n, LEAD_K, "lead", least))
        band = [
            client.submit(_band_keys, p, s, least, pure=False)
            for p, s in zip(parts, starts, strict=True)
        ]
        found.append(_linked_keys(client, band, n, reducers))
    kept = _checked(client, found, parts, np.asarray(bounds, np.int64), floor, k >= BANDS_K)
    labels = cluster_components(client, kept, n, reducers)
    template = None
    if floor > 0:
        alike = [client.submit(_alike_edges, part, pure=False) for part in kept]
        copies = cluster_components(client, alike, n, reducers)
        template = _template(client, parts, bounds, copies, reducers, least)
    sizes = np.bincount(labels, minlength=n)
    shared = sizes[labels] > 1  # files in a component of two or more
    split = [
        client.submit(_by_component, p, labels[lo:hi], shared[lo:hi], lo, reducers, pure=False)
        for p, lo, hi in zip(parts, bounds[:-1], bounds[1:], strict=True)
    ]
    grouped = [
        client.submit(
            _group_components,
            pieces_for(client, split, q),
            options,
            template,
            pure=False,
        )
        for q in range(reducers)
    ]
    groups = [members for result in client.gather(grouped) for members in result]
    pairs = Pairs.from_parts([part[:3] for part in client.gather(kept)], n)
    return pairs, numbered(groups, list(paths))


def _alike_edges(kept: tuple[np.ndarray, ...]) -> Found:
    """The kept pairs at least the floor alike (copies by their text, not one inside another)."""
    a, b, _, alike = kept
    return a[alike], b[alike]


def _template(
    client: Client,
    parts: list[Future],
    bounds: Sequence[int],
    copies: np.ndarray,
    reducers: int,
    min_chars: int,
) -> np.ndarray:
    """The template's line hashes: each part's lines by the component of its file, counted."""
    split = [
        client.submit(_lines_by_hash, p, copies[lo:hi], min_chars, reducers, pure=False)
        for p, lo, hi in zip(parts, bounds[:-1], bounds[1:], strict=True)
    ]
    counted = [
        client.submit(_shared_here, pieces_for(client, split, q), pure=False)
        for q in range(reducers)
    ]
    found = client.gather(counted)
    return np.sort(np.concatenate(found)) if found else np.empty(0, np.uint64)


def _lines_by_hash(
    records: list[FileRecord], labels: np.ndarray, min_chars: int, reducers: int
) -> list[Found]:
    """The lines of the records taking part, with their file's component, by reducer."""
    ok = _taking_part(records, min_chars)
    values = [line_hashes(line_values(records[n].lines)) for n in ok]
    counts = np.fromiter(map(len, values), np.int64, len(values))
    hashes = np.concatenate(values) if values else np.empty(0, np.uint64)
    owners = np.repeat(labels[ok] if ok else np.empty(0, np.int64), counts)
    reducer = (hashes % np.uint64(reducers)).astype(np.int64)
    return split_rows(reducer, reducers, hashes, owners)


def _shared_here(pieces: list[Found]) -> np.ndarray:
    """Of these lines, the hashes in TEMPLATE_TEXTS or more components."""
    hashes = np.concatenate([p[0] for p in pieces]) if pieces else np.empty(0, np.uint64)
    owners = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.int64)
    return counted_lines(hashes, owners)


def _candidates(
    client: Client,
    parts: list[Future],
    starts: np.ndarray,
    n: int,
    k: int,
    field: str,
    min_chars: int,
) -> list[Future]:
    """Pairs of files whose ``field`` fingerprints are within ``k`` (those taking part)."""
    values = [
        client.submit(_values, p, s, field, min_chars, pure=False)
        for p, s in zip(parts, starts, strict=True)
    ]
    return pair_parts(client, values, n, k, window=RUN_WINDOW)


def _taking_part(records: list[FileRecord], min_chars: int) -> list[int]:
    """The records grouping takes: fingerprinted, and long enough."""
    return [n for n, r in enumerate(records) if r.ok and r.chars >= min_chars]


def _values(
    records: list[FileRecord], start: int, field: str, min_chars: int
) -> tuple[np.ndarray, np.ndarray]:
    """The global indices of the records taking part, and one of their fingerprints."""
    ok = _taking_part(records, min_chars)
    values = [getattr(records[n], field) or 0 for n in ok]
    return np.asarray(ok, np.int64) + start, np.asarray(values, np.uint64)


def _band_keys(
    records: list[FileRecord], start: int, min_chars: int
) -> tuple[np.ndarray, np.ndarray]:
    """The valid sketch band keys of the records taking part, as (global index, key) rows."""
    ok = _taking_part(records, min_chars)
    keys, valid = band_keys(sketch_matrix([records[n].sketch for n in ok]))
    owners = np.repeat(np.asarray(ok, np.int64) + start, BANDS).reshape(len(ok), BANDS)
    salted = mix(keys + np.arange(BANDS, dtype=np.uint64) * _GOLDEN)  # one key space
    return owners[valid], salted[valid]


def _linked_keys(client: Client, keyed: list[Future], n: int, reducers: int) -> list[Future]:
    """Pairs of files sharing a key, each against RUN_WINDOW others of its run (a shuffle)."""
    split = [client.submit(_split_keys, part, reducers, pure=False) for part in keyed]
    return [
        client.submit(
            _pairs_sharing,
            pieces_for(client, split, q),
            n,
            pure=False,
        )
        for q in range(reducers)
    ]


def _split_keys(keyed: tuple[np.ndarray, np.ndarray], reducers: int) -> list[Found]:
    owners, keys = keyed
    reducer = (keys % np.uint64(reducers)).astype(np.int64)
    return split_rows(reducer, reducers, owners, keys)


def _pairs_sharing(pieces: list[Found], n: int) -> Found:
    owners = np.concatenate([p[0] for p in pieces]) if pieces else np.empty(0, np.int64)
    keys = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.uint64)
    found = linked(owners, keys, n, window=RUN_WINDOW)
    return found.i, found.j


def _checked(
    client: Client,
    found: list[list[Future]],
    parts: list[Future],
    bounds: np.ndarray,
    floor: float,
    by_text: bool,
) -> list[Future]:
    """The candidates alike enough: joined with the first file's sketch, then the second's."""
    every = [f for source in found for f in source]
    places = len(parts)
    by_first = [client.submit(_split_pairs, f, bounds, 0, pure=False) for f in every]
    with_first = [
        client.submit(
            _add_first,
            pieces_for(client, by_first, q),
            parts[q],
            int(bounds[q]),
            bounds,
            pure=False,
        )
        for q in range(places)
    ]
    return [
        client.submit(
            _keep_alike,
            pieces_for(client, with_first, q),
            parts[q],
            int(bounds[q]),
            floor,
            by_text,
            pure=False,
        )
        for q in range(places)
    ]


def _split_pairs(pairs: tuple[np.ndarray, ...], bounds: np.ndarray, end: int) -> list[Found]:
    """Pairs (each once, ``i < j``) by the part holding their ``end`` (0: i, 1: j)."""
    a, b = _distinct_pairs(pairs[0], pairs[1])
    place = np.searchsorted(bounds, (a, b)[end], side="right") - 1
    return split_rows(place, len(bounds) - 1, a, b)


def _distinct_pairs(i: np.ndarray, j: np.ndarray) -> Found:
    """The pairs, each once, lower index first, sorted."""
    a, b = np.minimum(i, j), np.maximum(i, j)
    codes = distinct(a * (1 << 32) + b) if len(a) else np.empty(0, np.int64)
    return codes >> 32, codes & ((1 << 32) - 1)


def _add_first(
    pieces: list[Found], records: list[FileRecord], start: int, bounds: np.ndarray
) -> list[tuple[np.ndarray, ...]]:
    """Pairs whose first file is here, with its sketch, length and fingerprint, by second."""
    a = np.concatenate([p[0] for p in pieces]) if pieces else np.empty(0, np.int64)
    b = np.concatenate([p[1] for p in pieces]) if pieces else np.empty(0, np.int64)
    a, b = _distinct_pairs(a, b)  # a pair may come from several candidate sources
    here = [records[x] for x in (a - start).tolist()]
    rows = sketch_matrix([r.sketch for r in here])
    chars = np.array([r.chars for r in here], np.int64)
    fps = np.array([r.fingerprint or 0 for r in here], np.uint64)
    place = np.searchsorted(bounds, b, side="right") - 1
    return split_rows(place, len(bounds) - 1, a, b, rows, chars, fps)


def _keep_alike(
    pieces: list[tuple[np.ndarray, ...]],
    records: list[FileRecord],
    start: int,
    floor: float,
    by_text: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs here at least ``floor`` alike (or one holding the other), with distances.

    And which of them are alike (not held): the copies the template is counted by.
    """
    a, b, first, chars_a, fps_a = (np.concatenate([p[n] for p in pieces]) for n in range(5))
    if not len(a):
        return a, b, np.empty(0, np.uint8), np.empty(0, bool)
    here = [records[x] for x in (b - start).tolist()]
    second = sketch_matrix([r.sketch for r in here])
    chars_b = np.array([r.chars for r in here], np.int64)
    fps_b = np.array([r.fingerprint or 0 for r in here], np.uint64)
    rows = np.concatenate([first, second])
    left, right = np.arange(len(a)), np.arange(len(a), 2 * len(a))
    alike = jaccard_many(rows, left, right) >= floor
    keep = alike.copy()
    if by_text and floor > 0:
        rest = np.flatnonzero(~keep)
        chars = np.concatenate([chars_a, chars_b])
        keep[rest] = contained_many(rows, chars, left[rest], right[rest])
    distance = np.bitwise_count(fps_a[keep] ^ fps_b[keep]).astype(np.uint8)
    return a[keep], b[keep], distance, alike[keep]


def _by_component(
    records: list[FileRecord],
    labels: np.ndarray,
    shared: np.ndarray,
    start: int,
    reducers: int,
) -> list[list[tuple[int, int, FileRecord]]]:
    """The records of components of two or more, by the reducer of their component."""
    out: list[list[tuple[int, int, FileRecord]]] = [[] for _ in range(reducers)]
    for n in np.flatnonzero(shared).tolist():
        label = int(labels[n])
        out[label % reducers].append((label, start + n, records[n]))
    return out


def _group_components(
    pieces: list[list[tuple[int, int, FileRecord]]],
    options: ScanOptions,
    template: np.ndarray | None,
) -> list[tuple[Member, ...]]:
    """Each component's groups, as a scan makes them, members by global file index."""
    by_label: dict[int, list[tuple[int, FileRecord]]] = {}
    for piece in pieces:
        for label, index, record in piece:
            by_label.setdefault(label, []).append((index, record))
    out = []
    for members in by_label.values():
        members.sort(key=operator.itemgetter(0))
        indices = [index for index, _ in members]
        _, groups = group_here(tuple(record for _, record in members), options, template=template)
        for group in groups:
            out.append(tuple(m._replace(file=indices[m.file]) for m in group.members))
    return out
