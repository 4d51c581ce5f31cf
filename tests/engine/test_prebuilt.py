"""The kernels built ahead of time: the same results, no numba, safe when they fail."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine import kernels, prebuilt
from simdup_gui.engine.match.index import all_pairs, brute_force_pairs
from simdup_gui.engine.resources import resource

INDEX = "simdup_gui.engine.match.index_kernels"


@pytest.fixture(scope="module")
def built() -> prebuilt.PrebuiltKernels:
    """The built module: wherever there is a C compiler it must build."""
    found = kernels._built_ahead(INDEX)
    if found is None:
        assert shutil.which("cc") is None, "the build failed"
        pytest.skip("no C compiler here: the kernels stay numba's")
    return found


def planted(n: int, k: int, seed: int) -> np.ndarray:
    """Random fingerprints, a fifth of them copies of others with up to ``k`` bits flipped."""
    rng = np.random.default_rng(seed)
    fps = rng.integers(0, 2**64, n, dtype=np.uint64)
    for at in rng.choice(n, n // 5).tolist():
        flips = rng.choice(64, int(rng.integers(0, k + 1)), replace=False).tolist()
        fps[at] = fps[int(rng.integers(n))] ^ np.uint64(sum(1 << bit for bit in flips))
    return fps


def as_set(pairs: object) -> set[tuple[int, int, int]]:
    i, j, d = (getattr(pairs, name).tolist() for name in ("i", "j", "distance"))
    return set(zip(i, j, d, strict=True))


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 3000), k=st.integers(0, 8), seed=st.integers(0, 2**32 - 1))
def test_the_built_kernels_give_brute_forces_pairs(
    built: prebuilt.PrebuiltKernels, n: int, k: int, seed: int
) -> None:
    assert kernels.kernel_module(INDEX) is built
    fps = planted(n, k, seed)
    assert as_set(all_pairs(fps, k)) == as_set(brute_force_pairs(fps, k))


def test_what_a_built_function_does_not_take_goes_to_numba(
    built: prebuilt.PrebuiltKernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strided array would be read as a contiguous one: numba's form takes it instead."""
    import simdup_gui.engine.match.index_kernels as compiled

    called: list[int] = []
    numba_partition = compiled.partition

    def numbas(*args: object) -> object:
        called.append(len(args))
        return numba_partition(*args)

    monkeypatch.setattr(compiled, "partition", numbas)
    fps = planted(400, 3, 1)
    masks, rotations = np.full(4, 0xF, np.uint64), np.zeros(4, np.int64)
    whole = built.partition(np.ascontiguousarray(fps[::2]), masks, rotations, 4)
    assert called == []
    strided = built.partition(fps[::2], masks, rotations, 4)
    assert called == [4]
    for got, wanted in zip(strided, whole, strict=True):
        assert got.tolist() == wanted.tolist()


def test_without_numba_what_is_not_built_runs_plain(
    built: prebuilt.PrebuiltKernels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As in the standalone app, which carries no numba: a call a built function does not take
    goes to the plain form, with the same result."""
    monkeypatch.setattr(prebuilt, "HAS_NUMBA", False)
    plain = kernels._plain_twin(INDEX)
    called: list[int] = []
    plain_partition = plain.partition
    monkeypatch.setattr(
        plain, "partition", lambda *args: called.append(len(args)) or plain_partition(*args)
    )
    fps = planted(300, 3, 4)
    masks, rotations = np.full(4, 0xF, np.uint64), np.zeros(4, np.int64)
    whole = built.partition(np.ascontiguousarray(fps[::2]), masks, rotations, 4)
    strided = built.partition(fps[::2], masks, rotations, 4)
    assert called == [4]
    for got, wanted in zip(strided, whole, strict=True):
        assert got.tolist() == wanted.tolist()


def test_a_portable_build_serves_where_this_cpu_has_none(
    built: prebuilt.PrebuiltKernels, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A standalone app's build (for any CPU of its kind) is loaded when there is no build for
    this CPU; this CPU's own is preferred."""
    portable = tmp_path / "kernels_ahead-any-0.so"
    shutil.copy2(prebuilt.built_path(), portable)
    monkeypatch.setattr(prebuilt, "portable_path", lambda: portable)
    assert prebuilt.found_path() == prebuilt.built_path()
    monkeypatch.setattr(prebuilt, "built_path", lambda: tmp_path / "kernels_ahead-none.so")
    assert prebuilt.found_path() == portable
    loaded = prebuilt.load(kernels._plain_twin)
    assert loaded is not None
    fps = planted(500, 3, 5)
    assert as_set(all_pairs(fps, 3)) == as_set(brute_force_pairs(fps, 3))


def test_the_portable_key_is_this_kinds_not_this_cpus() -> None:
    assert prebuilt._key(None) != prebuilt._key("another CPU")
    assert prebuilt.portable_path().name.startswith("kernels_ahead-any-")
    assert prebuilt.portable_cpu() in (*prebuilt.PORTABLE_CPUS.values(), "generic")


def test_the_pairs_command_needs_no_numba_once_built(
    built: prebuilt.PrebuiltKernels, tmp_path: Path
) -> None:
    np.save(tmp_path / "fps.npy", planted(20_000, 8, 2))
    code = (
        "import io, sys\nfrom simdup_gui.cli import main\n"
        "out = io.StringIO()\n"
        f"main(['pairs', {str(tmp_path / 'fps.npy')!r}, '--k', '8'], out, io.StringIO())\n"
        "print(len(out.getvalue().splitlines()), 'numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rows, numba = done.stdout.split()
    assert numba == "False"
    assert int(rows) - 1 == len(all_pairs(planted(20_000, 8, 2), 8)) > 0


SCANS = """
import sys
from simdup_gui.engine import kernels
from simdup_gui.engine.methods import method_named
from simdup_gui.engine.options import (
    GroupOptions, ReadOptions, RunOptions, ScanOptions, TextSettings
)
from simdup_gui.engine.scan import scan
kernels.PLAIN_BYTES = kernels.PLAIN_FILES = 0  # the compiled form, however small the folder
for method in ("default", "simhash", "minhash", "sentences", "pinyin"):
    text = TextSettings(method=method_named(method))
    options = ScanOptions(read=ReadOptions(text), run=RunOptions(1, processes=False))
    result = scan(sys.argv[1], options)
    assert result.groups, method
    result.regroup(GroupOptions(k=8))
print("numba" in sys.modules)
"""


def test_every_call_of_a_scan_fits_a_built_signature(
    built: prebuilt.PrebuiltKernels, tmp_path: Path
) -> None:
    """Else it would go to numba's form: the same result, but numba loaded (or compiled)."""
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    done = subprocess.run(
        [sys.executable, "-c", SCANS, str(folder)], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False"]


def test_an_argument_passes_only_as_its_signature_says() -> None:
    data = np.frombuffer(b"12345678" * 4, np.uint64)  # read-only, as bytes are: the kernels read
    assert prebuilt._passes(prebuilt._check(prebuilt.U8), data)
    assert not prebuilt._passes(prebuilt._check(prebuilt.U8), data.astype(np.int64))
    assert not prebuilt._passes(prebuilt._check(prebuilt.U8), data[::2])
    assert not prebuilt._passes(prebuilt._check(prebuilt.U8_2D), data)
    assert prebuilt._passes(prebuilt._check(prebuilt.U8_2D), data.reshape(2, 2))
    assert not prebuilt._passes(prebuilt._check(prebuilt.U8), list(data))
    assert prebuilt._passes(prebuilt._check(prebuilt.INT), np.int64(3))
    assert not prebuilt._passes(prebuilt._check(prebuilt.INT), 2**64)
    assert not prebuilt._passes(prebuilt._check(prebuilt.INT), 3.0)


def test_a_damaged_build_is_not_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    damaged = tmp_path / "kernels_ahead-0123.so"
    damaged.write_bytes(b"not a shared library")
    monkeypatch.setattr(prebuilt, "built_path", lambda: damaged)
    with caplog.at_level(logging.WARNING):
        assert prebuilt.load(kernels._plain_twin) is None
    assert "do not load" in caplog.text


def test_a_failed_build_is_noted_and_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As where the compiler fails: numba's kernels serve, and no build is waited for again."""
    monkeypatch.setattr(prebuilt, "built_path", lambda: tmp_path / "kernels_ahead-1.so")
    monkeypatch.setattr(prebuilt, "portable_path", lambda: tmp_path / "kernels_ahead-any-1.so")
    monkeypatch.setattr(prebuilt.shutil, "which", lambda name: f"/usr/bin/{name}")
    runs: list[list[str]] = []

    def compiler_fails(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        runs.append(command)
        return subprocess.CompletedProcess(command, 1, "", "error: command 'cc' failed")

    monkeypatch.setattr(subprocess, "run", compiler_fails)
    monkeypatch.setattr(kernels, "_ahead", None)
    assert kernels._built_ahead(INDEX) is None
    assert prebuilt.failed()
    assert "'cc' failed" in (tmp_path / "kernels_ahead-1.failed").read_text()
    monkeypatch.setattr(kernels, "_ahead", None)
    assert kernels._built_ahead(INDEX) is None
    assert len(runs) == 1
    fps = planted(500, 4, 3)
    assert as_set(all_pairs(fps, 4)) == as_set(brute_force_pairs(fps, 4))  # numba's


def test_the_key_follows_the_kernels_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "index_kernels.py"
    monkeypatch.setattr(prebuilt, "_source", lambda name: source)
    keys = []
    for text in ("a = 1\n", "a = 2\n", "a = 1\n"):
        source.write_text(text)
        prebuilt._key.cache_clear()
        keys.append(prebuilt._key("a CPU"))
    prebuilt._key.cache_clear()
    assert keys[0] != keys[1]
    assert keys[0] == keys[2]


def test_a_read_only_install_keeps_the_build_in_simdups_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(prebuilt.os, "access", lambda path, mode: False)
    prebuilt._folder.cache_clear()
    try:
        assert prebuilt.built_path().parent == Path(os.environ["SIMDUP_CACHE_DIR"]) / "kernels"
    finally:
        monkeypatch.undo()
        prebuilt._folder.cache_clear()
    assert prebuilt.built_path().parent == Path(prebuilt.__file__).resolve().parent / "__pycache__"


def test_a_build_makes_its_folder_when_python_writes_no_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With PYTHONDONTWRITEBYTECODE=1 there is no __pycache__ for the kernels to go in: the
    build makes it (tools/build_app.py stopped there). The compiler itself is stood in for."""
    import warnings

    with warnings.catch_warnings():  # numba says pycc is to go; the build uses it meanwhile
        warnings.simplefilter("ignore")
        import numba.pycc
        import numba.pycc.compiler

    class Compiler:  # numba.pycc.CC's part a build uses: the module written to output_dir
        def __init__(self, name: str) -> None:
            self.name = name

        def export(self, name: str, signature: object) -> object:
            return lambda function: function

        def compile(self) -> None:
            (Path(self.output_dir) / f"{self.name}.so").write_bytes(b"built")  # type: ignore[attr-defined]

    monkeypatch.setattr(numba.pycc, "CC", Compiler)
    target = tmp_path / "engine" / "__pycache__" / "kernels-any-test.so"
    prebuilt._build_here(target, "generic")
    assert target.read_bytes() == b"built"
