"""The options by stage: one key each, and every option that changes a result changes its key."""

from __future__ import annotations

import io
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.fingerprint import file_records
from simdup_gui.engine.fingerprint.repeats import Repeats
from simdup_gui.engine.methods import NAMES, method_named
from simdup_gui.engine.options import (
    TOKENIZERS,
    WEIGHTINGS,
    GroupOptions,
    ReadOptions,
    RunOptions,
    ScanOptions,
    TextSettings,
    WalkOptions,
)
from simdup_gui.engine.read.walk import Entry
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache

SAMPLE = resource("sample")
# A page with a site template, a Chinese story, and a text long enough to be cut short.
CONTENTS = {
    "page.html": (SAMPLE / "zh" / "春运返乡-镜像.html").read_bytes(),
    "story.txt": (SAMPLE / "zh" / "茶园春茶.txt").read_bytes(),
    "long.txt": (SAMPLE / "en" / "harbor-lighthouse.txt").read_bytes() * 3,
}
METHODS = st.one_of(
    st.sampled_from([method_named(name) for name in NAMES]),
    st.builds(
        lambda n, shared: method_named("sentences", sentences=n, shared=min(shared, n)),
        st.integers(1, 4),
        st.integers(1, 4),
    ),
    st.sampled_from([method_named("minhash", bands=16, rows=8)]),
)
READS = st.builds(
    ReadOptions,
    st.builds(
        TextSettings,
        st.sampled_from(TOKENIZERS),
        st.booleans(),
        st.sampled_from([w for w in WEIGHTINGS if w != "tfidf"]),  # tfidf: the folder's weights
        st.booleans(),
        METHODS,
    ),
    st.sampled_from([300, 3000, 16 << 20]),
    st.booleans(),
)


def records(folder: Path, options: ReadOptions) -> list[object]:
    """The records of the folder's files read with ``options``, each read alone."""
    entries = [Entry(str(folder / name), (folder / name).stat().st_size) for name in CONTENTS]
    kept, file_records.REPEATS = file_records.REPEATS, Repeats(0)
    try:
        return [file_records.fingerprint_batch([entry], options)[0][0] for entry in entries]
    finally:
        file_records.REPEATS = kept


@settings(max_examples=60)
@given(READS, READS)
def test_options_that_make_other_records_have_other_keys(a: ReadOptions, b: ReadOptions) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        for name, data in CONTENTS.items():
            (folder / name).write_bytes(data)
        if records(folder, a) != records(folder, b):
            assert a.key != b.key


@given(READS)
def test_the_same_options_have_the_same_key(a: ReadOptions) -> None:
    copy = ReadOptions(replace(a.text, method=replace(a.text.method)), a.max_bytes, a.skip_oversize)
    assert copy.key == a.key


@given(
    st.builds(
        GroupOptions,
        st.integers(0, 8),
        st.sampled_from([0.0, 0.3, 0.4]),
        st.sampled_from([0, 100]),
        st.sampled_from([frozenset(), frozenset({("a.txt", "b.txt")})]),
        st.sampled_from([(), ("ref",)]),
    ),
    st.builds(
        GroupOptions,
        st.integers(0, 8),
        st.sampled_from([0.0, 0.3, 0.4]),
        st.sampled_from([0, 100]),
        st.sampled_from([frozenset(), frozenset({("a.txt", "b.txt")})]),
        st.sampled_from([(), ("ref",)]),
    ),
)
def test_every_grouping_option_is_in_its_key(a: GroupOptions, b: GroupOptions) -> None:
    assert (a.key == b.key) == (a == b)


def test_the_groups_key_holds_the_methods_pairing_but_the_records_key_does_not() -> None:
    loose, strict = method_named("minhash", bands=32, rows=4), method_named("minhash")
    a = ScanOptions(read=ReadOptions(TextSettings(method=loose)))
    b = ScanOptions(read=ReadOptions(TextSettings(method=strict)))
    assert a.read.key == b.read.key  # the same signatures: the cache's rows serve both
    assert a.grouping_key != b.grouping_key
    c = replace(a, run=RunOptions(jobs=7), walk=WalkOptions(extensions=(".txt",)))
    assert c.grouping_key == a.grouping_key  # how it runs and what it walks: not the groups'


def test_a_cut_read_is_never_served_the_whole_files_record(tmp_path: Path) -> None:
    """The cache served a plain scan's full-length records to ``--max-mb 0.2`` (issue 42)."""
    (tmp_path / "long.txt").write_bytes(CONTENTS["long.txt"])
    cache = FingerprintCache(tmp_path / "cache.sqlite")
    try:
        whole = scan(str(tmp_path), cache=cache)
        cut = ScanOptions(read=ReadOptions(max_bytes=1000))
        served = scan(str(tmp_path), cut, cache=cache)
        fresh = scan(str(tmp_path), cut)
    finally:
        cache.close()
    assert served.files == fresh.files
    assert served.files[0].chars < whole.files[0].chars
    assert served.files[0].notes == ("only the first 1000 bytes read",)


@pytest.mark.parametrize("flags", [[], ["--skip-oversize"]])
def test_the_command_reads_as_its_options_say_after_a_cached_scan(
    tmp_path: Path, flags: list[str]
) -> None:
    folder = tmp_path / "articles"
    folder.mkdir()
    (folder / "long.txt").write_bytes(CONTENTS["long.txt"] * 40)  # 0.17 MB
    out = io.StringIO()
    assert main(["scan", str(folder), "--quiet"], out, io.StringIO()) == 0
    assert "bytes read" not in out.getvalue()
    assert "skipped" not in out.getvalue()
    out = io.StringIO()
    assert (
        main(["scan", str(folder), "--quiet", "--max-mb", "0.1", *flags], out, io.StringIO()) == 0
    )
    said = "skipped" if flags else "only the first 104857 bytes read"
    assert said in out.getvalue()
