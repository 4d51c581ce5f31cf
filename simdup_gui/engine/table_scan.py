"""Scan a corpus held in tables: each row an article, grouped as a folder's files are.

The rows stream from Parquet or JSON Lines files in batches (``read/tables.py``); each batch is
fingerprinted on this machine's processes (``cluster/table.py`` does it on a Dask cluster)
and the outcomes come back in order, at most a few batches in
flight. Records, pairs and groups are then those of a folder scan: each record's ``path`` is
the row's id. Nothing is cached: a row has no modification time to know it unchanged by.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import partial

from simdup_gui.engine.fingerprint.file_records import fingerprint_rows
from simdup_gui.engine.fingerprint.pipeline import warm_up
from simdup_gui.engine.fingerprint.simhash import Features, with_tfidf
from simdup_gui.engine.match.matching import group_here
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.read.tables import table_rows
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.run.batches import BATCHES_PER_JOB, in_order, process_context
from simdup_gui.engine.run.workers import process_pool


def scan_table(
    paths: list[str],
    text_column: str,
    options: ScanOptions | None = None,
    *,
    id_column: str | None = None,
    html: bool = False,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ScanResult:
    """The tables' rows fingerprinted and grouped.

    Args:
        paths: Parquet or JSON Lines files (``read.tables.table_files`` checks them).
        text_column: the column holding each article's text (HTML when ``html``).
        options: how to fingerprint and group (extensions and folders do not apply).
        id_column: the column naming each row (default: the file's name and the row number).
        html: the texts are web pages: strip them as a folder's HTML files are.
        progress: receives a ``fingerprinting`` event per batch (rows done; the total unknown).
        cancel: polled between batches; once true, the rows done so far are grouped.

    Raises:
        TableError: a file is not a table, a column is missing, or there are no rows.
    """
    options = options or ScanOptions()
    started = time.perf_counter()
    with _local_executor(options) as executor:
        run = partial(fingerprint_rows, options=options.read, html=html)
        window = BATCHES_PER_JOB * options.run.jobs
        records: list[FileRecord] = []
        features: list[Features | None] = []
        done_bytes = 0
        batches = table_rows(paths, text_column, id_column)
        for (record, feats), _ in in_order(executor, batches, run, window, cancel):
            records.append(record)
            features.append(feats)
            done_bytes += record.size
            if len(records) % 256 == 0:
                progress(ProgressEvent("fingerprinting", len(records), 0, done_bytes))
    if options.read.text.whole_folder:
        records = with_tfidf(records, features)
    files = tuple(records)
    progress(ProgressEvent("grouping", 0, 1, done_bytes))
    pairs, groups = group_here(files, options, cancel, jobs=options.run.jobs)
    progress(ProgressEvent("done", len(files), len(files), done_bytes))
    return ScanResult(
        ", ".join(paths), files, pairs, groups, options, cancel(), time.perf_counter() - started
    )


def _local_executor(options: ScanOptions) -> Executor:
    """This machine's cores: worker processes, or one thread for ``jobs = 1``."""
    if options.run.jobs == 1 or options.run.processes is False:
        warm_up(options.read.text)
        return ThreadPoolExecutor(1)
    context = process_context()
    if context.get_start_method() == "fork":
        warm_up(options.read.text)  # loaded once, inherited by every worker
    return process_pool(options.run.jobs, context)
