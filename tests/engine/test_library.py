"""The archive library: exact answers, the same matches a scan would make, safe writing."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.fingerprint.shingles import BANDS, band_keys, jaccard, sketch_matrix
from simdup_gui.engine.library import store
from simdup_gui.engine.library.build import add_fingerprints, add_folders, remove
from simdup_gui.engine.library.check import ArticleChecker, check_fingerprint, check_folder
from simdup_gui.engine.library.store import Library, LibraryError, writing
from simdup_gui.engine.match.default_measure import BANDS_K, LEAD_K, contained
from simdup_gui.engine.match.index import brute_force_query
from simdup_gui.engine.options import GroupOptions, ReadOptions, ScanOptions, TextSettings
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Library, np.ndarray]:
    rng = np.random.default_rng(5)
    fps = rng.integers(0, 2**64, 3000, dtype=np.uint64, endpoint=False)
    near = fps[rng.integers(0, 3000, 600)].copy()
    for _ in range(4):
        near ^= np.uint64(1) << rng.integers(0, 64, 600).astype(np.uint64)
    fps = np.concatenate([fps, near])
    folder = tmp_path_factory.mktemp("lib")
    np.save(folder / "fps.npy", fps)
    add_fingerprints(str(folder / "LIB"), str(folder / "fps.npy"), ScanOptions())
    return Library.open(folder / "LIB"), fps


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3599), st.integers(0, 2**64 - 1), st.integers(0, 8), st.booleans())
def test_fingerprint_checks_equal_brute_force(
    imported: tuple[Library, np.ndarray], at: int, noise: int, k: int, random: bool
) -> None:
    library, fps = imported
    query = noise if random else int(fps[at]) ^ (noise & ((1 << 64) - 1) & 0x0101_0101)
    found = check_fingerprint(library, query, k)
    ids, distances = brute_force_query(fps, query, k)
    assert sorted((m.entry, m.distance) for m in found) == sorted(
        zip(ids.tolist(), distances.tolist(), strict=True)
    )
    assert all(library.name_of(m.entry).endswith(f"fps.npy#{m.entry + 1}") for m in found)


def _brute_matches(library_records, targets, k: int, floor: float) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """Every (target, article) pair a scan of both would pair: the rule, pair by pair."""
    loose = k >= BANDS_K and floor > 0
    lib_keys, lib_valid = band_keys(sketch_matrix([r.sketch for r in library_records]))
    tgt_keys, tgt_valid = band_keys(sketch_matrix([r.sketch for r in targets]))
    found = set()
    for a, t in enumerate(targets):
        for b, r in enumerate(library_records):
            distance = (t.fingerprint ^ r.fingerprint).bit_count()
            candidate = distance <= k
            if loose:
                leads = t.lead is not None and r.lead is not None
                candidate |= leads and (t.lead ^ r.lead).bit_count() <= LEAD_K
                candidate |= any(
                    tgt_valid[a, n] and lib_valid[b, n] and tgt_keys[a, n] == lib_keys[b, n]
                    for n in range(BANDS)
                )
            share = jaccard(np.frombuffer(t.sketch, "<u8"), np.frombuffer(r.sketch, "<u8"))
            alike = floor <= 0 or share >= floor or (loose and contained(t, r))
            if candidate and alike:
                found.add((t.path, r.path))
    return found


@pytest.mark.parametrize(("k", "floor"), [(8, 0.4), (3, 0.4), (0, 0.0), (8, 0.0), (6, 0.2)])
def test_article_checks_make_the_pairs_a_scan_would(tmp_path: Path, k: int, floor: float) -> None:
    sample = resource("sample")
    archive, new = tmp_path / "archive", tmp_path / "new"
    shutil.copytree(sample, archive)
    new.mkdir()
    for name in ("zh/春运返乡-转载.txt", "zh/茶园春茶-改写.txt", "en/harbor-lighthouse-edited.md"):
        shutil.move(archive / name, new / Path(name).name)
    shutil.copy(archive / "en/river-cleanup.txt", new / "river-cleanup-copy.txt")
    add_folders(str(tmp_path / "LIB"), [str(archive)], ScanOptions())
    library = Library.open(tmp_path / "LIB")
    targets = scan(str(new)).files
    found = ArticleChecker(library, k, floor).matches(targets)
    got = {
        (t.path, library.name_of(m.entry)) for t, ms in zip(targets, found, strict=True) for m in ms
    }
    assert got == _brute_matches(library.articles(), targets, k, floor)
    if (k, floor) == (8, 0.4):  # what a scan of both together pairs, across the two sides
        both = tmp_path / "both"
        shutil.copytree(archive, both / "archive")
        shutil.copytree(new, both / "new")
        result = scan(str(both))
        across = set()
        for group in result.groups:
            paths = [result.files[m.file].path for m in group.members]
            for a in paths:
                for b in paths:
                    if "/new/" in a and "/archive/" in b:
                        across.add(
                            (
                                a.replace(str(both / "new"), str(new)),
                                b.replace(str(both / "archive"), str(archive)),
                            )
                        )
        assert across <= got
        assert len(got) >= 4  # each moved copy found its original


def test_re_adding_an_unchanged_folder_writes_nothing(tmp_path: Path) -> None:
    add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    first = json.loads((tmp_path / "LIB" / "library.json").read_text())["generation"]
    again = add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    assert not again.written
    assert again.unchanged == 13
    assert json.loads((tmp_path / "LIB" / "library.json").read_text())["generation"] == first


def test_foreign_damaged_and_mismatched_libraries_are_refused(tmp_path: Path) -> None:
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "a.jpg").write_bytes(b"\xff\xd8")
    with pytest.raises(LibraryError, match="not a simdup library"):
        add_folders(str(foreign), [str(resource("sample"))], ScanOptions())
    assert sorted(p.name for p in foreign.iterdir()) == ["a.jpg"]
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(resource("sample"))], ScanOptions())
    other = ScanOptions(read=ReadOptions(text=TextSettings(tokenizer="chars")))
    with pytest.raises(LibraryError, match="other fingerprint settings"):
        add_folders(str(lib), [str(resource("sample"))], other)
    (lib / "library.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(LibraryError, match="damaged library"):
        Library.open(lib)


def test_a_writer_killed_midway_leaves_the_library_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(resource("sample") / "zh")], ScanOptions())
    before = Library.open(lib).fingerprints.tolist()

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # the process dies while writing the new permutations

    monkeypatch.setattr(store.FingerprintIndex, "save", crash)
    with pytest.raises(KeyboardInterrupt):
        add_folders(str(lib), [str(resource("sample") / "en")], ScanOptions())
    assert Library.open(lib).fingerprints.tolist() == before
    assert [p.name for p in lib.glob("gen-*")] == ["gen-000001"]  # the half-written one is gone
    monkeypatch.undo()
    add_folders(str(lib), [str(resource("sample") / "en")], ScanOptions())
    assert len(Library.open(lib).fingerprints) == 13
    # the generation replaced stays for a reader that has it open, until the next write
    assert sorted(p.name for p in lib.glob("gen-*")) == ["gen-000001", "gen-000002"]
    remove(str(lib), [str(resource("sample") / "en")])
    assert sorted(p.name for p in lib.glob("gen-*")) == ["gen-000002", "gen-000003"]


def test_kill_9_during_an_add_never_damages_the_library(tmp_path: Path) -> None:
    lib, archive = tmp_path / "LIB", tmp_path / "archive"
    rng = np.random.default_rng(2)
    np.save(tmp_path / "a.npy", rng.integers(0, 2**64, 200_000, dtype=np.uint64, endpoint=False))
    assert run("library", "add", str(lib), "--fingerprints", str(tmp_path / "a.npy"))[0] == 0
    np.save(tmp_path / "b.npy", rng.integers(0, 2**64, 400_000, dtype=np.uint64, endpoint=False))
    for delay in (0.3, 0.8, 1.5):
        command = [sys.executable, "-m", "simdup_gui.cli", "library", "add", str(lib)]
        child = subprocess.Popen([*command, "--fingerprints", str(tmp_path / "b.npy")])
        time.sleep(delay)
        child.send_signal(signal.SIGKILL)
        child.wait()
        library = Library.open(lib)
        assert len(library.fingerprints) in (200_000, 600_000)
        probe = int(library.fingerprints[-1])
        assert any(m.distance == 0 for m in check_fingerprint(library, probe, 0))
    del archive


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(resource("sample") / "zh")], ScanOptions())
    events: list[str] = []
    holding = threading.Event()

    def first() -> None:
        with writing(str(lib), TextSettings()):
            holding.set()
            time.sleep(0.5)
            events.append("first done")

    thread = threading.Thread(target=first)
    thread.start()
    holding.wait()
    add_folders(str(lib), [str(resource("sample") / "en")], ScanOptions())
    events.append("second done")
    thread.join()
    assert events == ["first done", "second done"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["library", "check", "NOLIB", "--fp", "0123456789abcdef"], "NOLIB: no such library"),
        (["library", "check", "EMPTY", "--fp", "0123456789abcdef"], "the library is empty"),
        (["library", "check", "LIB", "--fp", "xyz"], "--fp: not a fingerprint"),
        (["library", "check", "LIB", "--fp", "0123456789abcdef", "--k", "9"], "k must be"),
        (["library", "check", "LIB", "MISSING"], "MISSING: no such file or folder"),
        (["library", "add", "LIB"], "give folders of articles or --fingerprints"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, argv: list[str], message: str) -> None:
    add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    (tmp_path / "nothing").mkdir()
    add_folders(str(tmp_path / "EMPTY"), [str(tmp_path / "nothing")], ScanOptions())
    names = {"NOLIB", "EMPTY", "LIB", "MISSING"}
    code, _, err = run(*[str(tmp_path / a) if a in names else a for a in argv])
    assert code == 2
    assert err.count("\n") == 1
    assert message in err


def test_check_writes_one_row_per_match_and_a_row_without(tmp_path: Path) -> None:
    add_folders(str(tmp_path / "LIB"), [str(resource("sample") / "zh")], ScanOptions())
    new = tmp_path / "new"
    new.mkdir()
    shutil.copy(resource("sample") / "zh" / "茶园春茶.txt", new / "tea.txt")
    shutil.copy(resource("sample") / "en" / "river-cleanup.txt", new / "river.txt")
    (new / "broken.txt").write_bytes(b"")
    code, _, err = run(
        "library", "check", str(tmp_path / "LIB"), str(new), "--csv", str(tmp_path / "out.csv")
    )
    assert code == 0, err
    text = (tmp_path / "out.csv").read_text(encoding="utf-8-sig")
    rows = [line.split(",") for line in text.splitlines()]
    assert rows[0] == [
        "path",
        "match",
        "distance",
        "similarity",
        "share",
        "match_size",
        "match_mtime",
        "error",
        "notes",
    ]
    by_target: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        by_target.setdefault(Path(row[0]).name, []).append(row)
    assert {Path(r[1]).name for r in by_target["tea.txt"]} == {"茶园春茶.txt", "茶园春茶-改写.txt"}
    shares = {Path(r[1]).name: r[4] for r in by_target["tea.txt"]}
    assert shares["茶园春茶.txt"] == "100.0%"  # the same text: all of it found
    assert 0 < float(shares["茶园春茶-改写.txt"].rstrip("%")) < 100
    assert by_target["river.txt"] == [[str(new / "river.txt"), "", "", "", "", "", "", "", ""]]
    assert by_target["broken.txt"][0][7] == "empty file"
    assert os.path.getsize(resource("sample") / "zh" / "茶园春茶.txt")  # the archive untouched


def test_parquet_fingerprints_are_named_by_their_id_column(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    values = [0x0123456789ABCDEF, 0xFEDCBA9876543210, 2**64 - 1]
    table = pa.table(
        {"id": ["a-1", "b-2", "c-3"], "fingerprint": pa.array(values, type=pa.uint64())}
    )
    pq.write_table(table, tmp_path / "fps.parquet")
    text = pa.table({"id": [7], "fingerprint": ["0123456789abcdef"]})
    pq.write_table(text, tmp_path / "hex.parquet")
    add_fingerprints(str(tmp_path / "LIB"), str(tmp_path / "fps.parquet"), ScanOptions())
    add_fingerprints(str(tmp_path / "LIB"), str(tmp_path / "hex.parquet"), ScanOptions())
    library = Library.open(tmp_path / "LIB")
    found = check_fingerprint(library, 0x0123456789ABCDEF, 0)
    names = sorted(library.name_of(m.entry) for m in found)
    assert names == [f"{tmp_path / 'fps.parquet'}#a-1", f"{tmp_path / 'hex.parquet'}#7"]
    assert [library.name_of(m.entry) for m in check_fingerprint(library, 2**64 - 1, 0)] == [
        f"{tmp_path / 'fps.parquet'}#c-3"
    ]
    (tmp_path / "bad.parquet").write_bytes(b"not parquet at all")
    code, _, err = run(
        "library", "add", str(tmp_path / "LIB"), "--fingerprints", str(tmp_path / "bad.parquet")
    )
    assert code == 2
    assert "cannot read as Parquet" in err


def test_a_library_for_small_k_keeps_one_index_and_refuses_a_larger_k(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    fps = rng.integers(0, 2**64, 2000, dtype=np.uint64, endpoint=False)
    np.save(tmp_path / "fps.npy", fps)
    add_fingerprints(str(tmp_path / "LIB"), str(tmp_path / "fps.npy"), ScanOptions(), max_k=3)
    library = Library.open(tmp_path / "LIB")
    assert [p.name for p in sorted(library.generation.glob("index-*"))] == ["index-k3"]
    query = int(fps[9]) ^ 0b111
    assert [(m.entry, m.distance) for m in check_fingerprint(library, query, 3)] == [(9, 3)]
    with pytest.raises(LibraryError, match="answers k up to 3, not 8"):
        check_fingerprint(library, query, 8)
    with pytest.raises(LibraryError, match="answers k up to 3, not 8"):
        add_fingerprints(str(tmp_path / "LIB"), str(tmp_path / "fps.npy"), ScanOptions(), max_k=8)


def test_a_cancelled_add_leaves_the_library_as_it_was(tmp_path: Path) -> None:
    add_folders(str(tmp_path / "LIB"), [str(resource("sample") / "zh")], ScanOptions())
    before = Library.open(tmp_path / "LIB").meta["generation"]
    done = add_folders(
        str(tmp_path / "LIB"), [str(resource("sample") / "en")], ScanOptions(), cancel=lambda: True
    )
    assert done.cancelled
    library = Library.open(tmp_path / "LIB")
    assert library.meta["generation"] == before
    assert len(library.fingerprints) == 7


def test_stats_count_what_the_library_holds(tmp_path: Path) -> None:
    from simdup_gui.engine.library.store import library_stats

    add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    stats = library_stats(Library.open(tmp_path / "LIB"))
    assert stats.articles == 13
    assert dict(stats.languages) == {"zh": 7, "en": 6}
    assert stats.groups == 3
    assert sum(stats.by_distance) >= 3
    code, out, _ = run("library", "stats", str(tmp_path / "LIB"))
    assert code == 0
    assert "languages: zh 7, en 6" in out


def test_vanished_articles_are_noted_pruned_on_request_and_removed(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    shutil.copytree(resource("sample"), archive)
    lib = str(tmp_path / "LIB")
    add_folders(lib, [str(archive)], ScanOptions())
    (archive / "en" / "river-cleanup.txt").unlink()
    noted = add_folders(lib, [str(archive)], ScanOptions())
    assert noted.vanished == (str(archive / "en" / "river-cleanup.txt"),)
    assert len(Library.open(lib).articles()) == 13  # noted, kept
    pruned = add_folders(lib, [str(archive)], ScanOptions(), prune=True)
    assert pruned.pruned
    assert len(Library.open(lib).articles()) == 12
    code, _, err = run("library", "remove", lib, str(archive / "zh"))
    assert code == 0
    assert "dropped 7 entries" in err
    assert {Path(r.path).parent.name for r in Library.open(lib).articles()} == {"en"}


def test_an_unreadable_article_is_not_gone_and_prune_keeps_it(tmp_path: Path) -> None:
    archive = tmp_path / "archive"
    shutil.copytree(resource("sample") / "en", archive)
    lib = str(tmp_path / "LIB")
    add_folders(lib, [str(archive)], ScanOptions())
    broken = archive / "river-cleanup.txt"
    broken.write_bytes(b"\x00" * 100)  # there, but no longer read as text
    done = add_folders(lib, [str(archive)], ScanOptions(), prune=True)
    assert done.vanished == ()
    assert [r.path for r in done.unreadable] == [str(broken)]
    assert str(broken) in {r.path for r in Library.open(lib).articles()}  # kept as it was


def test_a_parquet_fingerprint_file_without_an_id_column_is_one_line(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pq.write_table(pa.table({"fingerprint": [1, 2, 3]}), tmp_path / "f.parquet")
    code, _, err = run(
        "library", "add", str(tmp_path / "LIB"), "--fingerprints", str(tmp_path / "f.parquet")
    )
    assert code == 2
    assert "no column 'id': need id and fingerprint (it has fingerprint)" in err
    assert err.count("\n") == 1


def test_a_library_built_by_a_simdup_with_other_fingerprints_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same settings, another pipeline version: a check or an add would compare unlike
    fingerprints, so both refuse in one line (exit 2) and the library stays as it was."""
    lib = tmp_path / "LIB"
    add_folders(str(lib), [str(resource("sample"))], ScanOptions())
    before = sorted(p.name for p in lib.iterdir())
    code, _, _ = run("library", "check", str(lib), str(resource("sample")))
    assert code == 0
    monkeypatch.setattr("simdup_gui.engine.options.PIPELINE_VERSION", -1)  # a newer simdup
    (tmp_path / "new").mkdir()
    new = str(tmp_path / "new")
    for argv in (["check", str(lib), str(resource("sample"))], ["add", str(lib), new]):
        code, _, err = run("library", *argv)
        assert code == 2
        assert err.count("\n") == 1
        assert "built by a simdup whose fingerprints differ" in err
        assert "build a new library from its folders" in err
    with pytest.raises(LibraryError, match="fingerprints differ"):
        ArticleChecker(Library.open(lib), 8, 0.4)
    assert sorted(p.name for p in lib.iterdir()) == before
    code, out, _ = run("library", "stats", str(lib))  # what it holds can still be read
    assert code == 0
    assert "articles" in out


def test_a_cut_copy_of_an_archive_article_is_found_inside_it(tmp_path: Path) -> None:
    """As a scan of both would group them: the first third of a library article (under the
    floor as a whole) lies inside it. The CSV says so; the app's check marks it contained."""
    add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    new = tmp_path / "new"
    new.mkdir()
    text = (resource("sample") / "zh" / "春运返乡.txt").read_text(encoding="utf-8")
    (new / "cut.txt").write_text(text[: len(text) // 3], encoding="utf-8")
    code, out, err = run("library", "check", str(tmp_path / "LIB"), str(new))
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert "春运返乡.txt" in {Path(row["match"]).name for row in rows}  # and its other copies
    assert all(Path(row["match"]).name.startswith("春运返乡") for row in rows)
    assert all(float(row["similarity"].rstrip("%")) < 40 for row in rows)
    assert {row["notes"] for row in rows} == {"contained in the match"}
    result = check_folder(Library.open(tmp_path / "LIB"), str(new), ScanOptions())
    (group,) = result.groups
    assert Path(result.files[group.reference].path).name.startswith("春运返乡")
    assert group.members[1].contained
    strict = ArticleChecker(Library.open(tmp_path / "LIB"), 3, 0.4)  # below the loose k: no
    assert strict.matches(result.files[:1]) == [[]]


@settings(max_examples=40)
@given(
    values=st.lists(st.integers(0, 2**32 - 1), max_size=300),
    start=st.integers(-400, 400),
    stop=st.integers(-400, 400),
    dtype=st.sampled_from([np.uint32, np.int64]),
)
def test_an_array_read_from_its_file_slices_as_numpy_does(
    tmp_path_factory: pytest.TempPathFactory,
    values: list[int],
    start: int,
    stop: int,
    dtype: type,
) -> None:
    """The library's lookups read slices of its index files: the same values as numpy's."""
    path = tmp_path_factory.mktemp("npy") / "a.npy"
    array = np.array(values, dtype=dtype)
    np.save(path, array)
    read = store.OnDisk(path)
    assert len(read) == len(array)
    assert read[start:stop].tolist() == array[start:stop].tolist()
    assert read[:].dtype == array.dtype


def test_a_library_lookup_keeps_the_index_out_of_memory(tmp_path: Path) -> None:
    """A passage lookup reads blocks of the index file: nothing of it is mapped."""
    add_folders(str(tmp_path / "LIB"), [str(resource("sample"))], ScanOptions())
    library = Library.open(tmp_path / "LIB")
    assert isinstance(library.passages, store.OnDisk)
    assert isinstance(library.passage_owners, store.OnDisk)
    values = np.asarray(library.passages[:])
    lo, hi = library.passage_ranges(values[:50])
    assert (np.searchsorted(values, values[:50], side="left") == lo).all()
    assert (np.searchsorted(values, values[:50], side="right") == hi).all()


def test_a_library_check_keeps_apart_the_pairs_said_to_be_not_duplicates(tmp_path: Path) -> None:
    """The app's and the command line's check both honour the not-duplicates list."""
    from simdup_gui.core import not_duplicates

    archive = tmp_path / "archive"
    archive.mkdir()
    for name in ("茶园春茶.txt", "社区图书馆.txt"):  # one copy of the tea story only
        shutil.copy(resource("sample") / "zh" / name, archive / name)
    add_folders(str(tmp_path / "LIB"), [str(archive)], ScanOptions())
    new = tmp_path / "new"
    new.mkdir()
    shutil.copy(archive / "茶园春茶.txt", new / "tea.txt")
    target, source = str(new / "tea.txt"), str(archive / "茶园春茶.txt")
    _, _, err = run("library", "check", str(tmp_path / "LIB"), str(new))
    assert "1 of 1 with a match" in err
    library = Library.open(tmp_path / "LIB")
    assert len(check_folder(library, str(new), ScanOptions()).groups) == 1
    not_duplicates.change(add=[(target, source)])
    code, _, err = run("library", "check", str(tmp_path / "LIB"), str(new))
    assert code == 0
    assert "0 of 1 with a match" in err
    apart = ScanOptions(group=GroupOptions(not_duplicates=frozenset(not_duplicates.load())))
    assert check_folder(library, str(new), apart).groups == ()


@pytest.mark.parametrize(
    "damaged", ["passage_fences.npy", "files.npy", "path_ends.npy", "paths.bin"]
)
@pytest.mark.parametrize("checksums", [True, False])
def test_a_library_damaged_where_reuse_reads_late_is_said_in_one_line_before_the_scan(
    tmp_path: Path, damaged: str, checksums: bool
) -> None:
    """With checksums, any change; without (an older library), the structural checks."""
    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(resource("sample") / "zh"))[0] == 0
    generation = next(library.glob("gen-*"))
    if not checksums:
        (generation / "checksums.json").unlink()
    data = bytearray((generation / damaged).read_bytes())
    data[-8:] = b"\xff" * 8
    data[70:80] = b"\x00" * 10  # the header of a .npy, a path of paths.bin
    (generation / damaged).write_bytes(bytes(data))
    code, out, err = run("reuse", str(resource("sample")), "--library", str(library))
    assert code == 2
    assert out == ""  # refused before the scan: no row
    assert len(err.strip().splitlines()) == 1, err
    assert "damaged library" in err


def test_reuse_refuses_a_library_of_other_fingerprints(tmp_path: Path) -> None:
    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(resource("sample") / "zh"))[0] == 0
    meta = json.loads((library / "library.json").read_text(encoding="utf-8"))
    meta["settings_version"] = "an older one"
    (library / "library.json").write_text(json.dumps(meta), encoding="utf-8")
    code, _, err = run("reuse", str(resource("sample")), "--library", str(library))
    assert code == 2
    assert "build a new library" in err
    assert len(err.strip().splitlines()) == 1


def test_a_reader_outlives_two_writers_that_remove_its_generation(tmp_path: Path) -> None:
    """A copy check against a library two `library add` replaced meanwhile: read as it was."""
    from simdup_gui.engine.reuse.sources import find_reuse

    library = tmp_path / "LIB"
    folders = [tmp_path / name for name in ("one", "two", "three")]
    shutil.copytree(resource("sample") / "en", folders[0])
    for folder in folders[1:]:
        shutil.copytree(resource("sample") / "zh", folder)
    assert run("library", "add", str(library), str(folders[0]))[0] == 0
    reader = Library.open(library)
    reader.check_lookups()
    first = reader.generation
    for folder in folders[1:]:
        assert run("library", "add", str(library), str(folder))[0] == 0
    assert not first.exists()  # both writers done: the reader's generation is gone
    result = scan(str(resource("sample") / "en"))  # what copied from the first folder's
    reuse = find_reuse(result, library=reader)
    sources = {reuse.source_path(s) for c in reuse.articles for s in c.sources if s.library}
    assert sources  # the library's articles, read from the generation the reader opened
    assert all(Path(path).parent == folders[0] for path in sources)


@pytest.mark.skipif(os.name != "posix", reason="modes are POSIX's")
def test_a_librarys_files_take_the_mode_the_umask_gives(tmp_path: Path) -> None:
    """A colleague can read a shared library: library.json is not private (it was 0600)."""
    old = os.umask(0o022)
    try:
        assert run("library", "add", str(tmp_path / "LIB"), str(resource("sample") / "zh"))[0] == 0
    finally:
        os.umask(old)
    assert (tmp_path / "LIB" / "library.json").stat().st_mode & 0o777 == 0o644
    generation = next((tmp_path / "LIB").glob("gen-*"))
    assert {p.stat().st_mode & 0o777 for p in generation.rglob("*") if p.is_file()} == {0o644}


def test_a_second_writer_says_it_waits_for_the_first(tmp_path: Path) -> None:
    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(resource("sample") / "zh"))[0] == 0
    holding = (  # another writer: it holds the lock for 1.5 s
        "import sys, time; from filelock import FileLock; lock = FileLock(sys.argv[1]);"
        " lock.acquire(); print('held', flush=True); time.sleep(1.5); lock.release()"
    )
    with subprocess.Popen(
        [sys.executable, "-c", holding, str(library / ".lock")], stdout=subprocess.PIPE, text=True
    ) as first:
        assert first.stdout is not None
        assert first.stdout.readline().strip() == "held"
        code, _, err = run("library", "add", str(library), str(resource("sample") / "en"))
    assert code == 0
    assert f"simdup: waiting for another writer of {library}…" in err
    assert "6 new" in err
    code, _, err = run("library", "add", str(library), str(resource("sample") / "en"))
    assert "waiting" not in err  # no one else: nothing said


def test_a_library_this_user_may_not_read_says_permission_denied_and_names_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(resource("sample") / "zh"))[0] == 0
    locked = str(library / "library.json")
    read = Path.read_text

    def denied(self: Path, *args: object, **kwargs: object) -> str:
        if str(self) == locked:  # as a colleague's private file (root reads any, so pretended)
            raise PermissionError(13, "Permission denied", locked)
        return read(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "read_text", denied)
    code, _, err = run("library", "check", str(library), str(resource("sample") / "zh"))
    assert code == 2
    assert err.strip() == f"simdup: error: {library}: permission denied: {locked}"
