"""How each fingerprint method pairs files: its candidates, its own similarity, its floor.

Grouping is the same for every method (clusters around a reference, ``groups.clusters``); a
:class:`Measure` says what differs. ``default`` is built in ``matching``; the others:

* ``simhash``: pairs within ``k`` bits (the permuted tables), similarity ``1 - distance / 64``,
  a floor on it only when one is given.
* ``minhash``: LSH banding of the MinHash signatures (``bands`` of ``rows`` values; derived from
  the floor as datasketch's ``MinHashLSH`` does unless given), confirmed by the estimated
  Jaccard similarity (the share of equal values) at least the floor.
* ``sentences``: pairs sharing at least ``shared`` of their longest sentences' hashes (every
  ``shared``-subset of a file's hashes is a key); similarity ``shared hashes / sentences``.
* ``pinyin``: pairs of letter vectors whose cosine similarity is at least the floor, found by
  the p-stable LSH of Datar et al. (2004): each table keys a vector by PROJECTIONS random
  projections cut into cells WIDTH times the distance the floor allows.

Keys are checked against the RUN_WINDOW keys after them in a sorted run, as the permuted tables
do: many copies of one text cost linear work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.fingerprint.codes import PAD
from simdup_gui.engine.fingerprint.methods import LETTERS, mix_array
from simdup_gui.engine.match.groups import Similarities, Thresholds
from simdup_gui.engine.match.index import all_pairs
from simdup_gui.engine.options import DISTANCES, NUM_PERM, Method
from simdup_gui.engine.records import FileRecord, Pairs

RUN_WINDOW = 32  # each key is checked against this many after it in its sorted run
TABLES, PROJECTIONS, WIDTH = 32, 8, 4.0  # pinyin's LSH: tables, projections each, cell width
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_CHUNK = 1 << 16  # pairs measured at once (bounds the memory of a large part's voting)


@dataclass(frozen=True)
class Measure:
    """What a method gives grouping: distances, confirmed candidates, similarity, thresholds."""

    fingerprints: npt.NDArray[np.uint64]  # what distances are measured on (zeros: none)
    candidates: Pairs  # node pairs that meet the thresholds
    similarities: Similarities
    thresholds: Thresholds


def method_measure(
    method: Method,
    records: Sequence[FileRecord],
    k: int,
    floor: float,
    cancel: Callable[[], bool],
) -> Measure:
    """The measure of a method other than ``default`` over these records (one per node)."""
    n, alike = len(records), similarities_of(method, records)
    if method.name == "simhash":
        fps = np.array([r.fingerprint for r in records], dtype=np.uint64)
        found = all_pairs(fps, k, cancel=cancel, window=RUN_WINDOW)
        return _confirmed(fps, found, alike, Thresholds(k, floor, loose=False))
    if method.name == "minhash":
        bands, per_band = (method.bands, method.rows) if method.bands else lsh_bands(floor)
        owner, keys = band_keys(signature_rows(records, "<u4", NUM_PERM), bands, per_band)
    elif method.name == "sentences":
        owner, keys = subset_keys(signature_rows(records, "<u8", method.sentences), method.shared)
        floor = (method.shared - 0.5) / method.sentences  # at least ``shared`` in common
    elif method.name == "pinyin":
        owner, keys = cell_keys(signature_rows(records, "<f4", LETTERS), floor)
    else:
        raise ValueError(f"no measure for method {method.name!r}")
    none = np.zeros(n, np.uint64)
    return _confirmed(none, linked(owner, keys, n), alike, Thresholds(64, floor, loose=False))


def similarities_of(method: Method, records: Sequence[FileRecord]) -> Similarities:
    """The method's own similarity of pairs of these records (by their positions)."""
    if method.name == "simhash":
        fps = np.array([r.fingerprint or 0 for r in records], dtype=np.uint64)
        return lambda a, b: 1.0 - np.bitwise_count(fps[a] ^ fps[b]) / 64.0
    if method.name == "minhash":
        rows = signature_rows(records, "<u4", NUM_PERM)
        return _chunked(lambda a, b: (rows[a] == rows[b]).mean(axis=1))
    if method.name == "sentences":
        rows = signature_rows(records, "<u8", method.sentences)
        return _chunked(lambda a, b: shared_values(rows[a], rows[b]) / method.sentences)
    if method.name == "pinyin":
        vectors = signature_rows(records, "<f4", LETTERS).astype(np.float64)
        return _chunked(lambda a, b: np.einsum("ij,ij->i", vectors[a], vectors[b]))
    raise ValueError(f"no similarity for method {method.name!r}")


def _confirmed(
    fps: npt.NDArray[np.uint64], found: Pairs, alike: Similarities, thresholds: Thresholds
) -> Measure:
    """The measure whose candidates are those of ``found`` that meet the thresholds."""
    share = alike(found.i, found.j)
    keep = thresholds.met(found.distance, share, np.zeros(len(found), bool))
    kept = Pairs(found.i[keep], found.j[keep], found.distance[keep])
    return Measure(fps, kept, alike, thresholds)


def _chunked(measure: Similarities) -> Similarities:
    """``measure`` over at most _CHUNK pairs at a time."""

    def chunked(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.empty(len(a), np.float64)
        for lo in range(0, len(a), _CHUNK):
            out[lo : lo + _CHUNK] = measure(a[lo : lo + _CHUNK], b[lo : lo + _CHUNK])
        return out

    return chunked


def signature_rows(records: Sequence[FileRecord], dtype: str, width: int) -> np.ndarray:
    """The records' signatures as rows of ``width`` values (short ones padded with PAD or 0)."""
    kind = np.dtype(dtype)
    pad = PAD if kind.kind == "u" and kind.itemsize == 8 else 0
    rows = np.full((len(records), width), pad, dtype=kind.newbyteorder("="))
    for n, record in enumerate(records):
        values = np.frombuffer(record.signature, dtype=kind)[:width]
        rows[n, : len(values)] = values
    return rows


def shared_values(a: np.ndarray, b: np.ndarray) -> npt.NDArray[np.int64]:
    """How many values each row of ``a`` shares with the same row of ``b`` (PAD not counted)."""
    same = (a[:, :, None] == b[:, None, :]) & (a[:, :, None] != PAD)
    return same.sum(axis=(1, 2))


def _chain(columns: list[npt.NDArray[np.uint64]], salt: int) -> npt.NDArray[np.uint64]:
    """One 64-bit key for each row of these columns (and a salt: the table or band)."""
    with np.errstate(over="ignore"):
        key = np.full(len(columns[0]) if columns else 0, np.uint64(salt) * _GOLDEN, np.uint64)
        for column in columns:
            key = mix_array(key ^ column.astype(np.uint64)) + _GOLDEN
    return key


def band_keys(rows: np.ndarray, bands: int, per_band: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's key in each MinHash band (owners, keys)."""
    keys = [
        _chain([rows[:, c] for c in range(b * per_band, (b + 1) * per_band)], b)
        for b in range(bands)
    ]
    owner = np.tile(np.arange(len(rows), dtype=np.int64), bands)
    return owner, np.concatenate(keys) if keys else np.empty(0, np.uint64)


def subset_keys(rows: np.ndarray, shared: int) -> tuple[np.ndarray, np.ndarray]:
    """A key for every ``shared``-subset of each row's hashes (rows sorted, PAD last)."""
    owners, keys = [], []
    for columns in combinations(range(rows.shape[1]), shared):
        valid = (rows[:, list(columns)] != PAD).all(axis=1)
        owners.append(np.flatnonzero(valid))
        keys.append(_chain([rows[valid, c] for c in columns], 0))
    if not owners:
        return np.empty(0, np.int64), np.empty(0, np.uint64)
    return np.concatenate(owners), np.concatenate(keys)


def cell_keys(vectors: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Each vector's cell in each of TABLES p-stable LSH tables (owners, keys).

    Unit vectors at least ``floor`` alike (cosine) are at most ``sqrt(2 - 2 floor)`` apart;
    cells WIDTH times that wide hold both in most tables.
    """
    rng = np.random.default_rng(20040608)
    directions = rng.standard_normal((TABLES * PROJECTIONS, vectors.shape[1]))
    width = WIDTH * max(np.sqrt(max(2.0 - 2.0 * floor, 0.0)), 1e-3)
    offsets = rng.uniform(0.0, width, TABLES * PROJECTIONS)
    cells = np.floor((vectors @ directions.T + offsets) / width).astype(np.int64)
    keys = [
        _chain([cells[:, c] for c in range(t * PROJECTIONS, (t + 1) * PROJECTIONS)], t)
        for t in range(TABLES)
    ]
    owner = np.tile(np.arange(len(vectors), dtype=np.int64), TABLES)
    return owner, np.concatenate(keys)


def linked(owner: np.ndarray, keys: np.ndarray, n: int, window: int = RUN_WINDOW) -> Pairs:
    """The pairs of owners (``i < j``, each once) within ``window`` places in a run of one key."""
    order = np.lexsort((owner, keys))
    owner, keys = owner[order], keys[order]
    found = []
    for step in range(1, window + 1):
        same = np.flatnonzero(keys[step:] == keys[:-step])
        if not len(same):
            break  # no run is longer than ``step``
        a, b = owner[same], owner[same + step]
        found.append(np.minimum(a, b) * n + np.maximum(a, b))
        found[-1] = found[-1][a != b]
    codes = distinct(np.concatenate(found)) if found else np.empty(0, np.int64)
    return Pairs(codes // max(n, 1), codes % max(n, 1), np.zeros(len(codes), np.uint8))


@cache
def lsh_bands(threshold: float, num_perm: int = NUM_PERM) -> tuple[int, int]:
    """The bands and rows whose S-curve best cuts at ``threshold`` (datasketch's choice).

    They minimise the area of false positives below the threshold plus that of false
    negatives above it, equally weighted, over ``bands * rows <= num_perm``.
    """
    best, chosen = np.inf, (1, 1)
    below = np.linspace(0.0, threshold, 401)
    above = np.linspace(threshold, 1.0, 401)
    for bands in range(1, num_perm + 1):
        for rows in range(1, num_perm // bands + 1):
            false_positive = np.trapezoid(1 - (1 - below**rows) ** bands, below)
            false_negative = np.trapezoid((1 - above**rows) ** bands, above)
            if false_positive + false_negative < best:
                best, chosen = false_positive + false_negative, (bands, rows)
    return chosen


def member_measures(
    method: Method,
) -> tuple[Callable[[FileRecord], int], Callable[[FileRecord, FileRecord], float]]:
    """How to measure a member against a new reference: the bits of its distance, its likeness.

    For a method other than ``default`` (whose likeness is ``matching.likeness``).
    """

    def bits(record: FileRecord) -> int:
        return (record.fingerprint or 0) if method.name in DISTANCES else 0

    def likeness(a: FileRecord, b: FileRecord) -> float:
        return float(similarities_of(method, [a, b])(np.array([0]), np.array([1]))[0])

    return bits, likeness
