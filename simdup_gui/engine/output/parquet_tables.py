"""A result as Parquet tables for the next job: ``records``, ``pairs`` and ``groups``.

* ``records.parquet``: one row per article: ``id``, ``size``, ``chars``, ``fingerprint``
  (uint64; null for one that could not be read), ``language``, ``error``, ``notes``.
* ``pairs.parquet``: the verified pairs the groups are made of: ``a``, ``b`` (ids), ``distance``.
* ``groups.parquet``: ``group_id``, ``role`` (reference, duplicate), ``id``, ``distance``,
  ``similarity`` (to the reference).

Each file is written under a temporary name and renamed: a reader never sees half a table.
"""

from __future__ import annotations

import os
from pathlib import Path

from simdup_gui.engine.results import ScanResult

TABLES = ("records", "pairs", "groups")


def write_parquet(result: ScanResult, folder: str | os.PathLike[str]) -> list[Path]:
    """Write the three tables into ``folder`` (made if missing); returns their paths."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files, ids = result.files, [record.path for record in result.files]
    columns = {
        "records": {
            "id": pa.array(ids, pa.string()),
            "size": pa.array([f.size for f in files], pa.int64()),
            "chars": pa.array([f.chars for f in files], pa.int64()),
            "fingerprint": pa.array([f.fingerprint for f in files], pa.uint64()),
            "language": pa.array([f.language for f in files], pa.string()),
            "error": pa.array([f.error for f in files], pa.string()),
            "notes": pa.array(["; ".join(f.notes) for f in files], pa.string()),
        },
        "pairs": {
            "a": pa.array([ids[i] for i in result.pairs.i.tolist()], pa.string()),
            "b": pa.array([ids[j] for j in result.pairs.j.tolist()], pa.string()),
            "distance": pa.array(result.pairs.distance, pa.uint8()),
        },
        "groups": {
            "group_id": pa.array([g.id for g in result.groups for _ in g.members], pa.int64()),
            "role": pa.array(
                [
                    "reference" if n == 0 else "duplicate"
                    for g in result.groups
                    for n in range(len(g))
                ],
                pa.string(),
            ),
            "id": pa.array([ids[m.file] for g in result.groups for m in g.members], pa.string()),
            "distance": pa.array(
                [m.distance for g in result.groups for m in g.members], pa.int64()
            ),
            "similarity": pa.array(
                [m.similarity for g in result.groups for m in g.members], pa.float64()
            ),
        },
    }
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for name in TABLES:
        path = target / f"{name}.parquet"
        partial = target / f".{name}.parquet.partial"
        pq.write_table(pa.table(columns[name]), partial)
        os.replace(partial, path)
        written.append(path)
    return written
