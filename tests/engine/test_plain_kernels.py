"""The kernels run as plain Python (a small scan's form) give what the compiled ones give."""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdup_gui.engine import kernels
from simdup_gui.engine import scan as scan_module
from simdup_gui.engine.fingerprint.pipeline import analyze_many, extract_text
from simdup_gui.engine.kernels import kernel_module, loading_no_kernels_here, plain_kernels
from simdup_gui.engine.options import RunOptions, ScanOptions, TextSettings
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from tests.engine.test_fuzz import CONTENT, STORY

FINGERPRINT_KERNELS = "simdup_gui.engine.fingerprint.kernels"
SLOW = settings(
    max_examples=int(os.environ.get("PLAIN_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def as_lists(value: object) -> object:
    """Arrays as lists, within dataclasses and sequences, so that results compare with ``==``."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [as_lists(getattr(value, field.name)) for field in dataclasses.fields(value)]
    if isinstance(value, list | tuple):
        return [as_lists(item) for item in value]
    return value


def outcome(function: Callable[..., object], *args: object) -> object:
    """What the call gives, or the type and message of what it raises."""
    try:
        return as_lists(function(*args))
    except Exception as error:
        return type(error), str(error)


def test_the_plain_form_is_apart_from_the_compiled_one() -> None:
    compiled = kernel_module(FINGERPRINT_KERNELS)
    with plain_kernels():
        plain = kernel_module(FINGERPRINT_KERNELS)
        with plain_kernels(enabled=False):
            assert kernel_module(FINGERPRINT_KERNELS) is plain  # still within the outer block
    assert kernel_module(FINGERPRINT_KERNELS) is compiled
    built = kernels._built_ahead(FINGERPRINT_KERNELS)
    if built is not None:  # the kernels built ahead, with a C compiler
        assert compiled is built
    else:
        assert type(compiled.simhash_many).__name__ == "CPUDispatcher"
    assert plain.simhash_many.__name__ == "simhash_many_numpy"  # its numpy twin
    assert plain.sketches.__wrapped__.__module__ == FINGERPRINT_KERNELS  # the same source


def test_a_thread_that_loads_no_kernels_runs_the_plain_form_of_those_not_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A GUI thread never waits for numba; a scan's threads keep the compiled form.

    As where the kernels cannot be built ahead (built, they load at once, on any thread).
    """
    monkeypatch.setattr(kernels, "_ahead", {})
    compiled = kernel_module(FINGERPRINT_KERNELS)
    with ThreadPoolExecutor(1) as elsewhere, loading_no_kernels_here():
        assert kernel_module(FINGERPRINT_KERNELS) is compiled  # loaded: it costs nothing
        monkeypatch.delitem(sys.modules, FINGERPRINT_KERNELS)  # as in a new process
        plain = kernel_module(FINGERPRINT_KERNELS)
        assert plain is not compiled
        assert FINGERPRINT_KERNELS not in sys.modules  # nothing was loaded
        with loading_no_kernels_here():
            assert kernel_module(FINGERPRINT_KERNELS) is plain
        assert kernel_module(FINGERPRINT_KERNELS) is plain  # still within the outer block
        elsewhere.submit(kernel_module, FINGERPRINT_KERNELS).result()  # another thread loads
        assert FINGERPRINT_KERNELS in sys.modules
        assert type(kernel_module(FINGERPRINT_KERNELS).simhash_many).__name__ == "CPUDispatcher"
    monkeypatch.undo()
    assert kernel_module(FINGERPRINT_KERNELS) is not plain


def test_kernels_built_ahead_serve_even_a_thread_that_loads_no_kernels() -> None:
    built = kernels._built_ahead(FINGERPRINT_KERNELS)
    if built is None:
        assert shutil.which("cc") is None, "the build failed"
        pytest.skip("no C compiler here: the kernels stay numba's")
    with loading_no_kernels_here():
        assert kernel_module(FINGERPRINT_KERNELS) is built


@given(
    st.lists(st.integers(0, 2**64 - 1), max_size=200),
    st.lists(st.sampled_from([0.1, 1 / 3, 0.5, 1.0, 2.0, 3.7]), min_size=200, max_size=200),
    st.integers(1, 6),
)
def test_simhash_in_numpy_is_the_compiled_simhash(
    values: list[int], weights: list[float], count: int
) -> None:
    hashes = np.array(values, np.uint64)
    texts = np.sort(np.arange(len(values)) % count).astype(np.int64)
    weight = np.array(weights[: len(values)], np.float64)
    compiled = kernel_module(FINGERPRINT_KERNELS).simhash_many(hashes, weight, texts, count)
    with plain_kernels():
        plain = kernel_module(FINGERPRINT_KERNELS).simhash_many(hashes, weight, texts, count)
    assert plain.tolist() == compiled.tolist()


@SLOW
@given(st.lists(st.one_of(st.text(max_size=80), st.just(STORY)), min_size=1, max_size=5))
def test_texts_are_analysed_alike(texts: list[str]) -> None:
    compiled = analyze_many(texts, TextSettings())
    with plain_kernels():
        assert as_lists(analyze_many(texts, TextSettings())) == as_lists(compiled)


@SLOW
@given(CONTENT)
def test_pages_are_read_alike(data: bytes) -> None:
    compiled = outcome(extract_text, data, "page.html")
    with plain_kernels():
        assert outcome(extract_text, data, "page.html") == compiled


def test_a_scan_is_the_same_either_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    for n, path in enumerate(sorted(folder.rglob("*.*"))):
        text = path.read_bytes()
        (path.parent / f"cut-{n}{path.suffix}").write_bytes(text[: len(text) * 2 // 3])
    results = []
    for limit in (-1, 1 << 40):  # compiled throughout, then plain throughout
        for name in ("PLAIN_BYTES", "PLAIN_BYTES_UNCOMPILED", "PLAIN_FILES"):
            monkeypatch.setattr(kernels, name, limit)
        monkeypatch.setattr(scan_module, "groups_plain", lambda files, plain=limit > 0: plain)
        results.append(scan(str(folder), ScanOptions(run=RunOptions(jobs=1))))
    compiled, plain = results
    assert plain.files == compiled.files
    assert as_lists(plain.pairs) == as_lists(compiled.pairs)
    assert plain.groups == compiled.groups
    assert len(plain.groups) >= 3
