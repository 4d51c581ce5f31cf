"""The columns of the groups view, declared once, by name: what each shows and sorts by."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from simdup_gui.engine.match.groups import Member
from simdup_gui.engine.output.words import human_size, local_minute
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.records import FileRecord

GroupRule = Literal["count", "total", "least", "most", "reference"]


@dataclass(frozen=True)
class Column:
    """One column: its name (the untranslated title), a member's text and its sort key.

    ``groups_by`` says how groups sort by the column: by their number of members (``count``),
    their members' total (``total``), their least or most of the members' keys, or their
    reference's key.
    """

    name: str
    text: Callable[[FileRecord, Member, str], str]  # record, member, scanned folder
    key: Callable[[FileRecord, Member], object]
    groups_by: GroupRule


def _name(record: FileRecord) -> str:
    return os.path.basename(display_path(record.path))


def _folder(record: FileRecord, root: str) -> str:
    return display_path(os.path.relpath(os.path.dirname(record.path) or ".", root))


COLUMNS: tuple[Column, ...] = (
    Column("File", lambda r, m, root: _name(r), lambda r, m: _name(r).casefold(), "count"),
    Column("Title", lambda r, m, root: r.title, lambda r, m: r.title.casefold(), "reference"),
    Column(
        "Similarity",
        lambda r, m, root: f"{100 * m.similarity:.1f}%",
        lambda r, m: m.similarity,
        "least",
    ),
    Column("Distance", lambda r, m, root: str(m.distance), lambda r, m: m.distance, "most"),
    Column("Size", lambda r, m, root: human_size(r.size), lambda r, m: r.size, "total"),
    Column(
        "Modified",
        lambda r, m, root: local_minute(r.mtime_ns),
        lambda r, m: r.mtime_ns,
        "reference",
    ),
    Column("Encoding", lambda r, m, root: r.encoding, lambda r, m: r.encoding, "reference"),
    Column(
        "Folder",
        lambda r, m, root: _folder(r, root),
        lambda r, m: display_path(r.path).casefold(),
        "reference",
    ),
)
COLUMN_NAMES = tuple(c.name for c in COLUMNS)


def column_named(name: str) -> int:
    """The position of the column called ``name``."""
    return COLUMN_NAMES.index(name)
