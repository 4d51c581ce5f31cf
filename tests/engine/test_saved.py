"""Saved results open again as they were; anything else is one clear error."""

from __future__ import annotations

import base64
import functools
import json
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.saved import SavedResultError, load_result, save_result


def test_a_saved_result_opens_as_it_was(tmp_path: Path) -> None:
    sample = resource("sample")
    result = scan(
        str(sample), ScanOptions(group=GroupOptions(reference_folders=(str(sample / "zh"),)))
    )
    group = result.groups[0]
    swapped = group.with_reference(
        group.members[-1].file,
        {m.file: result.files[m.file].fingerprint or 0 for m in group.members},
        lambda a, b: (0.5, False),
    )
    edited = replace(result, groups=(swapped, *result.groups[1:]))
    path = tmp_path / "results.simdup"
    save_result(edited, path)
    opened = load_result(path)
    assert opened.files == edited.files
    assert opened.groups == edited.groups  # the reference chosen by hand too
    assert opened.options.group.reference_folders == edited.options.group.reference_folders
    assert opened.kept == edited.kept
    assert opened.kept
    assert opened.root == edited.root
    assert [p.tolist() for p in (opened.pairs.i, opened.pairs.j)] == [
        p.tolist() for p in (edited.pairs.i, edited.pairs.j)
    ]


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\xff\xfe not text",
        b"[1, 2, 3]",
        b'{"format": "something else"}',
        b'{"format": "simdup result", "version": 99}',
    ],
)
def test_what_is_not_a_saved_result_is_one_line(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.simdup"
    path.write_bytes(content)
    with pytest.raises(SavedResultError) as caught:
        load_result(path)
    assert "\n" not in str(caught.value)
    assert str(path) in str(caught.value)


def test_a_damaged_saved_result_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "results.simdup"
    save_result(scan(str(resource("sample"))), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    for key, value in (("records", "AAAA"), ("members", "not base64!"), ("options", {})):
        broken = {**document, key: value}
        path.write_text(json.dumps(broken), encoding="utf-8")
        with pytest.raises(SavedResultError, match="damaged"):
            load_result(path)
    assert not list(tmp_path.glob(".*"))  # nothing half-written was left


@functools.cache
def saved_text() -> str:
    """The sample's saved result, as JSON text (made once)."""
    folder = Path(tempfile.mkdtemp())
    try:
        save_result(scan(str(resource("sample"))), folder / "results.simdup")
        return (folder / "results.simdup").read_text(encoding="utf-8")
    finally:
        shutil.rmtree(folder)


FIELDS = ["records", "pairs", "members", "sizes"]
OPTIONS = [
    ("group", "k", 99),
    ("group", "k", -1),
    ("group", "min_similarity", 7.5),
    ("group", "min_similarity", float("nan")),
    ("group", "min_chars", -5),
    ("read", "max_bytes", 0),
    ("read", "max_bytes", "many"),
    ("walk", "extensions", "txt"),
    ("read", "text", {"tokenizer": "nope"}),
    ("group", "reference_folders", [1, 2]),
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(FIELDS),
    st.integers(0, 10_000),
    st.integers(1, 255),
    st.integers(0, len(OPTIONS) - 1),
    st.booleans(),
)
def test_a_crafted_saved_result_is_refused_in_one_line_or_opens(
    tmp_path_factory: pytest.TempPathFactory,
    field: str,
    at: int,
    flip: int,
    option: int,
    in_options: bool,
) -> None:
    """Any byte of a blob changed, or an option out of its range: never a traceback."""
    document = json.loads(saved_text())
    if in_options:
        stage, name, value = OPTIONS[option]
        document["options"][stage][name] = value  # type: ignore[index]
    else:
        blob = bytearray(base64.b64decode(document[field]))  # type: ignore[arg-type]
        if blob:
            blob[at % len(blob)] ^= flip
        document[field] = base64.b64encode(bytes(blob)).decode("ascii")
    path = tmp_path_factory.mktemp("crafted") / "results.simdup"
    path.write_text(json.dumps(document), encoding="utf-8")
    try:
        result = load_result(path)
    except SavedResultError as exc:
        refused = str(exc)
    else:
        refused = ""
    assert "\n" not in refused
    if refused:
        return
    assert not in_options  # every option above is out of its range: refused
    count = len(result.files)
    assert all(0 <= m.file < count for g in result.groups for m in g.members)
    pairs = result.pairs
    assert all(0 <= a < b < count for a, b in zip(pairs.i.tolist(), pairs.j.tolist(), strict=True))
