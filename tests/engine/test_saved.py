"""Saved results open again as they were; anything else is one clear error."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

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
