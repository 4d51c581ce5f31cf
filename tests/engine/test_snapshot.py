"""Folder snapshots: records packed into numpy columns and back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.store.snapshot import READABLE_LAYOUTS, SNAPSHOT_LAYOUT, pack, unpack

TEXT = st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=8)
FINGERPRINT = st.none() | st.integers(0, 2**64 - 1)
RECORD = st.builds(
    FileRecord,
    path=TEXT,
    size=st.integers(0, 2**40),
    mtime_ns=st.integers(0, 2**62),
    encoding=TEXT,
    encoding_method=TEXT,
    fingerprint=FINGERPRINT,
    features=st.integers(0, 10**6),
    chars=st.integers(0, 10**9),
    converted_chars=st.integers(0, 10**9),
    notice_chars=st.integers(0, 10**9),
    language=TEXT,
    boilerplate=st.floats(0, 1),
    notes=st.lists(TEXT.filter(lambda t: t and "\n" not in t), max_size=3).map(tuple),
    error=TEXT,
    sketch=st.lists(st.binary(min_size=8, max_size=8), max_size=5).map(b"".join),
    lead=FINGERPRINT,
    signature=st.lists(st.binary(min_size=4, max_size=4), max_size=5).map(b"".join),
    lines=st.lists(st.binary(min_size=8, max_size=8), max_size=5).map(b"".join),
    passages=st.lists(st.binary(min_size=4, max_size=4), max_size=5).map(b"".join),
    title=TEXT,
    terms=st.lists(st.binary(min_size=4, max_size=4), max_size=5).map(b"".join),
)


@given(st.lists(RECORD, max_size=12))
def test_records_come_back_as_they_went_in(records: list[FileRecord]) -> None:
    assert unpack(pack(records)) == tuple(records)


def test_a_blob_written_before_records_had_lines_is_read_with_none() -> None:
    """A library (or a saved result) written by an earlier simdup has no lines, passages,
    title or terms."""
    record = FileRecord("a.txt", 3, sketch=b"s" * 16, signature=b"g" * 4)
    later = {"lines": b"l" * 8, "passages": b"p" * 4, "title": "Title", "terms": b"t" * 4}
    blob = pack([record._replace(**later)])
    starts = [at for at in range(len(blob)) if blob.startswith(b"\x93NUMPY", at)]
    # each bytes field is two columns (lengths, bytes), the title one: the last seven columns
    assert unpack(blob[: starts[-7]]) == (record,)
    assert unpack(blob[: starts[-5]]) == (record._replace(lines=b"l" * 8),)
    assert unpack(blob[: starts[-3]]) == (record._replace(lines=b"l" * 8, passages=b"p" * 4),)
    assert unpack(blob[: starts[-2]]) == (
        record._replace(lines=b"l" * 8, passages=b"p" * 4, title="Title"),
    )
    assert unpack(blob) == (record._replace(**later),)
    assert SNAPSHOT_LAYOUT in READABLE_LAYOUTS
    assert len(READABLE_LAYOUTS) == 5


@pytest.mark.parametrize(
    "blob",
    [
        b"",
        b"\x93NUMPY",
        b"garbage" * 10,
        pack([FileRecord("a")])[:-3],
        pack([FileRecord("a", sketch=b"s" * 16)])[:-3],  # a sketch cut short
    ],
)
def test_anything_else_is_refused(blob: bytes) -> None:
    with pytest.raises(ValueError, match="not a snapshot"):
        unpack(blob)


EDGES = [  # (field, value): each just past what a scan writes, or just within it
    *((name, -1) for name in ("size", "mtime_ns", "features", "chars", "notice_chars")),
    *(("boilerplate", share) for share in (-0.1, 1.1, float("nan"), float("inf"), 0.0, 1.0)),
    *(("sketch", bytes(n)) for n in (3, 1025, 1032, 0, 8, 1024)),
    *(("signature", bytes(n)) for n in (2, 513, 516, 0, 4, 512)),
    *(("lines", bytes(n)) for n in (4, 32776, 32784, 0, 8, 32768)),
    *(("passages", bytes(n)) for n in (2, (1 << 22) + 4, 0, 4, 1 << 22)),
    *(("terms", bytes(n)) for n in (2, 16388, 16392, 0, 4, 16384)),
]


@pytest.mark.parametrize(("field", "value"), EDGES)
@settings(max_examples=25)
@given(records=st.lists(RECORD, max_size=4), at=st.integers(0, 4))
def test_a_snapshot_is_refused_exactly_when_a_record_is_impossible(
    field: str, value: object, records: list[FileRecord], at: int
) -> None:
    """The column-wise screen never lets an impossible record through: each record's own
    check (``FileRecord.impossible``) is the reference."""
    damaged = FileRecord("damaged")._replace(**{field: value})
    records.insert(at, damaged)
    why = damaged.impossible()
    if why:
        with pytest.raises(ValueError, match=why):
            unpack(pack(records))
    else:
        assert unpack(pack(records)) == tuple(records)
