"""The fingerprint cache: per-file rows, folder snapshots and groups, in SQLite."""
