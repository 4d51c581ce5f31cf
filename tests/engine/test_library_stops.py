"""A library survives every stop, a second writer, a reader mid-write, and damage on disk."""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import filelock
import pytest

from simdup_gui.cli import main
from simdup_gui.engine.library import store
from simdup_gui.engine.library.build import add_folders
from simdup_gui.engine.library.check import ArticleChecker
from simdup_gui.engine.library.store import Library, LibraryError
from simdup_gui.engine.options import GroupOptions, ReadOptions, ScanOptions
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan

SAMPLE = resource("sample")
ONE = SAMPLE / "zh" / "茶园春茶.txt"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


def simdup(*argv: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "simdup_gui.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def works(lib: Path) -> None:
    """The library answers: every article of the sample is found in it."""
    code, _, err = run("library", "check", str(lib), str(ONE))
    assert code == 0, err
    assert "1 of 1 with a match" in err, err


@pytest.mark.skipif(
    filelock.FileLock is filelock.SoftFileLock,
    reason="no OS file lock here (SIMDUP_POSIXLESS hides fcntl; Windows has its own): a soft"
    " lock killed before it wrote its owner cannot be told from a live one",
)
def test_a_first_add_killed_when_its_lock_appears_leaves_a_folder_the_next_add_makes(
    tmp_path: Path,
) -> None:
    """Kill -9 at the moment the ``.lock`` appears, and a little later: the next add succeeds."""
    for n, wait in enumerate((0.0, 0.05, 0.3)):
        lib = tmp_path / f"LIB{n}"
        child = simdup("library", "add", str(lib), str(SAMPLE))
        while not (lib / ".lock").exists() and child.poll() is None:
            time.sleep(0.0005)
        time.sleep(wait)
        child.send_signal(signal.SIGKILL)
        child.communicate()
        for command in ("check", "stats"):  # not a library yet: said so, in one line
            argv = ["library", command, str(lib), *([str(ONE)] if command == "check" else [])]
            code, _, err = run(*argv)
            assert code in (0, 2), err
            assert err.count("\n") <= 1, err
        assert run("library", "add", str(lib), str(SAMPLE))[0] == 0
        works(lib)
        names = sorted(p.name for p in lib.iterdir() if p.name != ".lock")  # (a soft lock goes)
        assert names in (
            ["gen-000001", "library.json"],
            ["gen-000001", "gen-000002", "library.json"],
        )


def test_what_a_writer_left_is_cleaned_and_anything_else_is_not_touched(tmp_path: Path) -> None:
    lib = tmp_path / "LIB"
    (lib / "gen-000001").mkdir(parents=True)
    (lib / "gen-000001" / "records.bin").write_bytes(b"half")
    (lib / "library.json.k2j3.tmp").write_text("{", encoding="utf-8")
    assert run("library", "add", str(lib), str(SAMPLE))[0] == 0
    assert sorted(p.name for p in lib.iterdir() if p.name != ".lock") == [
        "gen-000001",
        "library.json",
    ]
    works(lib)
    other = tmp_path / "notes"
    other.mkdir()
    (other / "todo.txt").write_text("mine", encoding="utf-8")
    code, _, err = run("library", "add", str(other), str(SAMPLE))
    assert code == 2
    assert "other files: not touched" in err
    assert [p.name for p in other.iterdir()] == ["todo.txt"]


def test_a_mistyped_library_is_said_and_never_made(tmp_path: Path) -> None:
    for command in (["remove"], ["stats"], ["check"]):
        argv = ["library", *command, str(tmp_path / "mistyped"), str(ONE)][: 4 if command else 3]
        code, _, err = run(*argv[: 3 if command == ["stats"] else 4])
        assert code == 2
        assert "no such library" in err
        assert err.count("\n") == 1, err
    assert not (tmp_path / "mistyped").exists()


def test_two_first_adds_at_once_make_one_library(tmp_path: Path) -> None:
    lib = tmp_path / "LIB"
    runs = [simdup("library", "add", str(lib), str(SAMPLE / part)) for part in ("zh", "en")]
    errors = [child.communicate()[1].decode() for child in runs]
    assert [child.returncode for child in runs] == [0, 0], errors
    articles = {Path(r.path).parent.name for r in Library.open(lib).articles()}
    assert articles == {"zh", "en"}


def test_a_reader_keeps_its_generation_while_a_writer_replaces_it(tmp_path: Path) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(SAMPLE / "zh")], ScanOptions())
    reader = Library.open(lib)  # a check has opened the library ...
    add_folders(str(lib), [str(SAMPLE / "en")], ScanOptions())  # ... when an add finishes
    records = scan(str(SAMPLE / "zh"), ScanOptions()).files
    checker = ArticleChecker(reader, 8, GroupOptions().min_similarity, ReadOptions())
    found = checker.matches(list(records))
    assert all(matches for matches in found)  # every file of zh/ found, in the old generation
    assert len(reader.articles()) == len(records)


def test_a_full_disk_during_a_write_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(SAMPLE / "zh")], ScanOptions())
    before = sorted(p.name for p in lib.iterdir())

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store.FingerprintIndex, "save", full)
    code, _, err = run("library", "add", str(lib), str(SAMPLE / "en"))
    assert code == 2
    assert err.endswith(f"{lib}: No space left on device\n")
    assert err.count("\n") == 1
    assert sorted(p.name for p in lib.iterdir()) == before
    monkeypatch.undo()
    works(lib)


def damages(path: Path) -> list[tuple[str, bytes | None]]:
    """Ways a file is damaged on disk: zeroed, cut in half, grown, deleted."""
    data = path.read_bytes()
    return [
        ("zeroed", bytes(len(data))),
        ("cut", data[: len(data) // 2]),
        ("grown", data + b"\0"),
        ("deleted", None),
    ]


def test_every_damage_to_a_library_file_is_said_in_one_line(tmp_path: Path) -> None:
    """Each file of a generation, damaged each way: check and stats refuse in one line."""
    good = tmp_path / "GOOD"
    add_folders(str(good), [str(SAMPLE)], ScanOptions())
    generation = Library.open(good).generation
    code, out, _ = run("library", "check", str(good), str(ONE))
    answer = (code, out)
    names = [p.relative_to(generation) for p in sorted(generation.rglob("*")) if p.is_file()]
    assert len(names) > 20
    tried = 0
    for name in names:
        if name.name == "checksums.json":
            continue
        for kind, data in damages(generation / name):
            lib = tmp_path / "LIB"
            shutil.rmtree(lib, ignore_errors=True)
            shutil.copytree(good, lib)
            target = lib / generation.name / name
            if data is None:
                target.unlink()
            elif data == target.read_bytes():
                continue  # an empty file zeroed is the same file
            else:
                target.write_bytes(data)
            tried += 1
            code, out, err = run("library", "check", str(lib), str(ONE))
            assert (code, out) == answer or (code == 2 and "damaged library" in err), (name, kind)
            assert err.count("\n") == 1, err  # the right answer or a refusal: never a wrong one
            code, _, err = run("library", "stats", str(lib))  # reads every file: always said
            assert code == 2, (name, kind)
            assert err.count("\n") == 1
            assert "damaged library" in err, (name, kind)
    assert tried > 80


def test_a_file_managers_copy_of_a_generation_is_left_alone(tmp_path: Path) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(SAMPLE / "zh")], ScanOptions())
    shutil.copytree(lib / "gen-000001", lib / "gen-000001 (copy)")
    assert run("library", "add", str(lib), str(SAMPLE / "en"))[0] == 0
    works(lib)
    assert (lib / "gen-000001 (copy)").is_dir()
    assert json.loads((lib / "library.json").read_text("utf-8"))["generation"] == "gen-000002"


def test_a_generations_checksums_written_again_list_its_files_not_themselves(
    tmp_path: Path,
) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(SAMPLE / "zh")], ScanOptions())
    generation = Library.open(lib).generation
    before = (generation / "checksums.json").read_text()
    store._write_checksums(generation)  # as a tool growing a generation does (bench_reuse.py)
    assert (generation / "checksums.json").read_text() == before
    assert "checksums.json" not in json.loads(before)
    assert Library.open(lib).verify() == len(json.loads(before))


def test_verify_reads_every_file_and_a_large_one_is_checked_by_size_when_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(SAMPLE)], ScanOptions())
    library = Library.open(lib)
    assert library.verify() == len(json.loads((library.generation / "checksums.json").read_text()))
    records = library.generation / "records.bin"
    data = bytearray(records.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one byte changed
    records.write_bytes(bytes(data))
    monkeypatch.setattr(store, "CHECKED_ON_OPEN", 16)  # every file "large"
    library = Library.open(lib)
    library.articles  # noqa: B018 - opened, not read: nothing said yet
    with pytest.raises(LibraryError, match=r"records\.bin has changed"):
        library.verify()
