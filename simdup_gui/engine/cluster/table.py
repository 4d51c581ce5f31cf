"""A table's rows fingerprinted on a Dask cluster, and grouped there when they are many.

Batches of rows go to the workers, at most two per worker thread in flight; their records stay
there. The client keeps a light copy of each (no sketch, no word counts: what the report
shows). Up to CLIENT_RECORDS rows the full records come back and are grouped here, as
``table_scan`` groups them; beyond, they are grouped on the cluster (``cluster/grouping.py``).
Either way, the same groups.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from simdup_gui.engine.cluster.grouping import cluster_groups
from simdup_gui.engine.fingerprint.file_records import Fingerprinted, fingerprint_rows
from simdup_gui.engine.fingerprint.simhash import with_tfidf
from simdup_gui.engine.match.groups import Group
from simdup_gui.engine.match.matching import Grouper, group_here
from simdup_gui.engine.methods.default import Default
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.read.tables import ROWS_PER_BATCH, table_rows
from simdup_gui.engine.records import FileRecord, Pairs
from simdup_gui.engine.results import ScanResult

if TYPE_CHECKING:
    from distributed import Client, Future

CLIENT_RECORDS = 2_000_000  # more rows than this are grouped on the cluster (about 2 GB here)
GROUPING_ROWS = 50_000  # rows of a part the cluster's grouping takes (batches joined)


def scan_table_on_cluster(
    client: Client,
    paths: list[str],
    text_column: str,
    options: ScanOptions | None = None,
    *,
    id_column: str | None = None,
    html: bool = False,
    group_on_cluster: bool | None = None,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ScanResult:
    """:func:`~simdup_gui.engine.table_scan.scan_table` on the cluster of ``client``.

    ``group_on_cluster``: group there (True), here (False), or there beyond CLIENT_RECORDS
    rows (None). TF-IDF weights and the other methods group here.
    """
    options = options or ScanOptions()
    started = time.perf_counter()
    window = 2 * max(1, sum(client.nthreads().values()))
    parts: list[Future] = []
    light: list[FileRecord] = []
    bounds = [0]
    pending: deque[Future] = deque()

    done_bytes = [0]

    def collect(done: Future) -> None:
        records = done.result()
        light.extend(records)
        bounds.append(len(light))
        done_bytes[0] += sum(record.size for record in records)
        progress(ProgressEvent("fingerprinting", len(light), 0, done_bytes[0]))

    for batch in table_rows(paths, text_column, id_column):
        if cancel():
            break
        part = client.submit(fingerprint_rows, batch, options.read, html, pure=False)
        parts.append(part)
        pending.append(client.submit(_light, part, pure=False))
        while len(pending) >= window:
            collect(pending.popleft())
    while pending:
        collect(pending.popleft())
    simple = _simple(options)
    if group_on_cluster is None:
        group_on_cluster = len(light) > CLIENT_RECORDS
    progress(ProgressEvent("grouping", 0, 1))
    if group_on_cluster and simple and parts:
        step = max(1, GROUPING_ROWS // ROWS_PER_BATCH)  # batches joined into larger parts
        cuts = [*range(0, len(parts), step), len(parts)]
        records = [client.submit(_records, parts[lo:hi], pure=False) for lo, hi in pairwise(cuts)]
        paths_of = [record.path for record in light]
        pairs, groups = cluster_groups(
            client, records, [bounds[c] for c in cuts], paths_of, options
        )
        files = tuple(light)
    else:
        outcomes = [outcome for part in client.gather(parts) for outcome in part]
        full = [record for record, _ in outcomes]
        if options.read.text.whole_folder:
            full = with_tfidf(full, [features for _, features in outcomes])
        files = tuple(full)
        pairs, groups = group_here(files, options, cancel)
    progress(ProgressEvent("done", len(files), len(files)))
    return ScanResult(
        ", ".join(paths), files, pairs, groups, options, cancel(), time.perf_counter() - started
    )


def cluster_grouper(client: Client) -> Grouper:
    """A folder scan's grouping: on the cluster beyond CLIENT_RECORDS files, else here.

    The records are here already (they came back for the cache); what moves to the cluster is
    the grouping's work and memory (candidates, sketches side by side, components).
    """

    def group(
        files: tuple[FileRecord, ...], options: ScanOptions, cancel: Callable[[], bool]
    ) -> tuple[Pairs, tuple[Group, ...]]:
        if len(files) <= CLIENT_RECORDS or not _simple(options):
            return group_here(files, options, cancel)
        cuts = [*range(0, len(files), GROUPING_ROWS), len(files)]
        parts = client.scatter([list(files[lo:hi]) for lo, hi in pairwise(cuts)], hash=False)
        return cluster_groups(client, parts, cuts, [f.path for f in files], options)

    return group


def _simple(options: ScanOptions) -> bool:
    """Whether the cluster can group the records: the default method, each file's own weights.

    (TF-IDF weights need the whole folder's counts; the other methods group where they are.)
    """
    return isinstance(options.method, Default) and not options.read.text.whole_folder


def _records(parts: list[list[Fingerprinted]]) -> list[FileRecord]:
    """The records of several batches, in order."""
    return [record for outcomes in parts for record, _ in outcomes]


def _light(outcomes: list[Fingerprinted]) -> list[FileRecord]:
    """The records as the client keeps them: what the report shows (no sketch)."""
    return [record._replace(sketch=b"", signature=b"") for record, _ in outcomes]
