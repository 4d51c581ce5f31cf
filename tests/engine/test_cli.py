from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simdup_gui.cli import main
from simdup_gui.engine.match.index import brute_force_pairs
from simdup_gui.engine.output.actions import read_manifest
from simdup_gui.engine.resources import resource


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_scan_sample_to_stdout() -> None:
    code, out, err = run("scan", str(resource("sample")))
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert {r["group_id"] for r in rows if r["group_id"]} == {"1", "2", "3"}
    assert "3 groups" in err
    assert "0 unreadable" in err


def test_scan_to_csv_file(tmp_path: Path) -> None:
    target = tmp_path / "report.csv"
    code, out, _ = run("scan", str(resource("sample")), "--csv", str(target), "--jobs", "1")
    assert code == 0
    assert out == ""
    assert target.read_bytes().startswith(b"\xef\xbb\xbfgroup_id,role,marked,path")


@pytest.mark.parametrize("command", ["scan", "reuse"])
def test_a_csv_named_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """``--csv -`` is standard output, as most commands read it: no file named "-" is made."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(command, str(resource("sample")), "--csv", "-", "--no-cache")
    assert code == 0, err
    assert out.startswith("group_id,role" if command == "scan" else "path,source,share")
    assert list(tmp_path.iterdir()) == []


def test_scan_with_errors_still_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_bytes(b"")
    code, out, err = run("scan", str(tmp_path))
    assert code == 0
    assert "empty file" in out
    assert "1 unreadable" in err


@pytest.fixture
def fingerprints(tmp_path: Path) -> tuple[Path, np.ndarray]:
    rng = np.random.default_rng(3)
    fps = rng.integers(0, 2**64, size=500, dtype=np.uint64, endpoint=False)
    fps[100:150] = fps[:50] ^ np.uint64(0b101)
    fps[200] = fps[0]
    path = tmp_path / "fps.txt"
    lines = [f"{int(v):016x}" for v in fps[:300]] + [format(int(v), "064b") for v in fps[300:]]
    path.write_text("# fingerprints\n" + "\n".join(lines) + "\n")
    return path, fps


def test_pairs_from_text_and_npy_match_brute_force(
    fingerprints: tuple[Path, np.ndarray], tmp_path: Path
) -> None:
    path, fps = fingerprints
    want = brute_force_pairs(fps, 3)
    expected = ["i,j,distance"] + [
        f"{i},{j},{d}" for i, j, d in zip(want.i, want.j, want.distance, strict=True)
    ]
    code, out, _ = run("pairs", str(path), "--k", "3")
    assert code == 0
    assert out.splitlines() == expected
    npy = tmp_path / "fps.npy"
    np.save(npy, fps)
    target = tmp_path / "pairs.csv"
    assert run("pairs", str(npy), "--out", str(target))[0] == 0
    assert target.read_text().splitlines() == expected


def test_query(fingerprints: tuple[Path, np.ndarray]) -> None:
    path, fps = fingerprints
    query = f"{int(fps[0]):016x}"
    code, out, _ = run("query", str(path), query, "--k", "2")
    rows = [line.split(",") for line in out.splitlines()[1:]]
    assert code == 0
    assert [(int(i), int(d)) for _, i, d in rows] == [(0, 0), (100, 2), (200, 0)]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pairs", "MISSING"], "MISSING: cannot read"),
        (["pairs", "BAD", "--k", "3"], "BAD:3: not a fingerprint"),
        (["pairs", "GOOD", "--k", "9"], "k must be an integer from 0 to 8"),
        (["query", "GOOD", "xyz"], "query: not a fingerprint"),
        (["scan", "MISSING"], "not a folder"),
        (["frobnicate"], "invalid choice"),
        (["scan", ".", "--max-mb", "nan"], "--max-mb: must be a number of megabytes"),
        (["scan", ".", "--max-mb", "-1"], "--max-mb: must be a number of megabytes"),
        (["query", "GOOD", "0x1\nabc"], "query: not a fingerprint"),
        (["restore", "MISSING"], "MISSING: No such file"),
        (["pairs", "/dev/zero"], "/dev/zero: not a file of fingerprints"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, argv: list[str], message: str) -> None:
    (tmp_path / "BAD").write_text("0123456789abcdef\nfedcba9876543210\nnot-a-fingerprint\n")
    (tmp_path / "GOOD").write_text("0123456789abcdef\n")
    argv = [str(tmp_path / a) if a in {"MISSING", "BAD", "GOOD"} else a for a in argv]
    code, out, err = run(*argv)
    assert code == 2
    assert out in ("", "query,index,distance\n")
    assert len(err.strip().splitlines()) == 1
    assert message in err
    assert "Traceback" not in err


def test_console_entry_point_runs_as_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "simdup_gui.cli", "pairs", "/nonexistent/fps.txt"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("simdup: error:")


LOADED = """
import io, sys
from simdup_gui.cli import main
code = main(sys.argv[1:], io.StringIO(), io.StringIO())
print(code, " ".join(sorted(m for m in sys.modules if m.startswith("simdup_gui"))))
"""


@pytest.mark.parametrize(
    ("argv", "needed", "not_loaded"),
    [
        (["pairs", "FPS", "--k", "1"], "cli_fingerprints", ["cli_scan", "engine.scan", "library"]),
        (["cache", "path"], "cli_scan", ["cli_fingerprints", "cli_library", "cli_table"]),
    ],
)
def test_a_command_loads_its_own_module_only(
    fingerprints: tuple[Path, np.ndarray], argv: list[str], needed: str, not_loaded: list[str]
) -> None:
    """So a command starts sooner (``simdup pairs`` needs neither the scan nor the library)."""
    argv = [str(fingerprints[0]) if a == "FPS" else a for a in argv]
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, check=True
    )
    code, loaded = done.stdout.split(" ", 1)
    assert code == "0"
    assert f"simdup_gui.{needed}" in loaded.split()
    for name in not_loaded:
        assert f"simdup_gui.{name}" not in loaded, name


def test_an_unchanged_rescan_loads_none_of_the_reading_or_grouping(tmp_path: Path) -> None:
    """Its records and groups come from the cache: about 40 ms of imports it does without."""
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    argv = ["scan", str(folder), "--quiet", "--csv", str(tmp_path / "report.csv")]
    loaded = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", LOADED, *argv], capture_output=True, text=True, check=True
        )
        code, modules = done.stdout.split(" ", 1)
        assert code == "0"
        loaded.append(modules.split())
    reading = [
        "engine.fingerprint.pipeline",
        "engine.read.html",
        "engine.run.batches",
        "engine.match.matching",
        "engine.cluster.table",
        "engine.output.html_report",
    ]
    for name in reading[:4]:
        assert f"simdup_gui.{name}" in loaded[0], name  # the first scan reads and groups
    for name in reading:
        assert f"simdup_gui.{name}" not in loaded[1], name


@pytest.mark.parametrize("where", ["article", "inside", "the folder"])
def test_csv_never_lands_on_an_input(tmp_path: Path, where: str) -> None:
    folder = tmp_path / "articles"
    folder.mkdir()
    article = folder / "a.txt"
    article.write_text("an article " * 30, encoding="utf-8")
    target = {"article": article, "inside": folder / "report.csv", "the folder": folder}[where]
    code, out, err = run("scan", str(folder), "--csv", str(target), "--no-cache")
    assert code == 2
    assert err.count("\n") == 1
    assert "simdup: error:" in err
    assert article.read_text(encoding="utf-8") == "an article " * 30
    assert sorted(p.name for p in folder.iterdir()) == ["a.txt"]
    assert out == ""


def test_a_bad_csv_path_is_refused_before_the_scan(tmp_path: Path) -> None:
    code, _, err = run("scan", str(resource("sample")), "--csv", str(tmp_path / "no" / "r.csv"))
    assert code == 2
    assert err == f"simdup: error: {tmp_path / 'no'}: no such folder\n"  # no scan summary


def test_a_device_is_written_through_never_replaced(tmp_path: Path) -> None:
    code, _, _ = run("scan", str(resource("sample")), "--csv", "/dev/null", "--no-cache")
    assert code == 0
    assert Path("/dev/null").is_char_device()


def test_pairs_out_is_checked_and_whole(tmp_path: Path) -> None:
    prints = tmp_path / "fps.txt"
    prints.write_text("0000000000000000\n0000000000000001\n", encoding="utf-8")
    assert run("pairs", str(prints), "--out", str(prints))[0] == 2
    out = tmp_path / "pairs.csv"
    code, _, err = run("pairs", str(prints), "--out", str(out))
    assert code == 0
    assert out.read_text(encoding="utf-8") == "i,j,distance\n0,1,1\n"
    assert err.startswith("simdup: 1 pair within k=3 among 2 fingerprints in ")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_first_run_that_compiles_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from simdup_gui.engine import kernels

    monkeypatch.setattr(kernels, "kernels_compiled", lambda: False)
    monkeypatch.setattr(kernels, "PLAIN_BYTES_UNCOMPILED", 0)  # the sample counts as large
    code, _, err = run("scan", str(resource("sample")), "--no-cache", "--jobs", "1")
    assert code == 0
    assert "preparing fast kernels, once" in err
    monkeypatch.setattr(kernels, "kernels_compiled", lambda: True)
    assert "preparing fast kernels" not in run("scan", str(resource("sample")), "--no-cache")[2]


def test_a_newcomers_first_scan_compiles_nothing(tmp_path: Path) -> None:
    """Straight after install (no compiled kernels anywhere), the sample is read by the plain
    loops: nothing is compiled, nothing said about it, and the report is the compiled one's."""
    numba_cache = tmp_path / "numba"
    numba_cache.mkdir()
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(numba_cache),
        "SIMDUP_CACHE_DIR": str(tmp_path / "cache"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    report = tmp_path / "first.csv"
    done = subprocess.run(
        [sys.executable, "-c", _NEWCOMER, str(resource("sample")), str(report)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "numba imported: False" in done.stdout
    assert "preparing fast kernels" not in done.stderr
    assert list(numba_cache.iterdir()) == []
    compiled = tmp_path / "compiled.csv"
    assert run("scan", str(resource("sample")), "--no-cache", "--csv", str(compiled))[0] == 0
    assert report.read_text(encoding="utf-8") == compiled.read_text(encoding="utf-8")


_NEWCOMER = """
import sys
from simdup_gui.engine import kernels
kernels.kernels_compiled = lambda: False  # as on a machine that never compiled them
from simdup_gui.cli import main
code = main(["scan", sys.argv[1], "--csv", sys.argv[2]])
print("numba imported:", "numba" in sys.modules)
sys.exit(code)
"""


def _sample_copy(tmp_path: Path) -> tuple[Path, Path, dict[str, bytes]]:
    import shutil

    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    report = tmp_path / "report.csv"
    assert run("scan", str(folder), "--csv", str(report), "--no-cache")[0] == 0
    before = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    return folder, report, before


def test_apply_moves_the_duplicates_and_restore_puts_them_back(tmp_path: Path) -> None:
    folder, report, before = _sample_copy(tmp_path)
    rows = list(csv.DictReader(report.read_text(encoding="utf-8-sig").splitlines()))
    duplicates = {r["path"] for r in rows if r["role"] == "duplicate"}
    references = {r["path"] for r in rows if r["role"] == "reference"}
    changed = sorted(duplicates)[0]
    Path(changed).write_bytes(Path(changed).read_bytes() + b"\n")  # edited since the scan

    code, _, err = run("apply", str(report), "--move-to", str(tmp_path / "moved"), "--dry-run")
    assert code == 0
    assert "(dry run: nothing done)" in err
    assert not (tmp_path / "moved").exists()

    code, _, err = run("apply", str(report), "--move-to", str(tmp_path / "moved"))
    assert code == 0, err
    assert f"simdup: moved {len(duplicates) - 1}, skipped 1, failed 0" in err
    assert "changed since the scan (size)" in err
    assert all(Path(p).exists() for p in references | {changed})
    assert not any(Path(p).exists() for p in duplicates - {changed})
    (manifest,) = (tmp_path / "moved").glob("simdup-manifest-*.csv")

    code, _out, err = run("restore", str(manifest))
    assert code == 0
    assert f"restored {len(duplicates) - 1}" in err
    after = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    edited = str(Path(changed).relative_to(folder))
    assert after == {**before, edited: before[edited] + b"\n"}


def test_apply_and_restore_trust_a_report_and_a_manifest_only_as_far_as_they_recheck(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A row without its time is kept; restore moves back only the file its action moved."""
    folder, report, _ = _sample_copy(tmp_path)
    moved_to = tmp_path_factory.mktemp("moved")  # outside every folder the report names
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("someone else's file", encoding="utf-8")
    rows = list(csv.DictReader(report.read_text(encoding="utf-8-sig").splitlines()))
    group = next(r["group_id"] for r in rows if r["role"] == "reference")
    row = dict.fromkeys(rows[0], "")
    row.update(group_id=group, role="duplicate", path=str(outside), size=outside.stat().st_size)
    with report.open("a", encoding="utf-8", newline="") as stream:  # a path and a size only
        csv.DictWriter(stream, list(rows[0]), lineterminator="\r\n").writerow(row)
    code, _, err = run("apply", str(report), "--move-to", str(moved_to))
    assert code == 0, err
    assert "no modification time recorded" in err
    assert outside.read_text(encoding="utf-8") == "someone else's file"
    (manifest,) = moved_to.glob("simdup-manifest-*.csv")
    moved = [r for r in read_manifest(manifest) if r.action == "moved"]
    assert moved
    assert all(r.size == os.stat(r.destination).st_size for r in moved)

    first, second = moved[0], moved[1]
    Path(first.path).write_text("a new article in its place", encoding="utf-8")
    Path(second.destination).write_bytes(Path(second.destination).read_bytes() + b"!")
    lines = manifest.read_text(encoding="utf-8-sig").splitlines()
    lines.append(f"{tmp_path / 'victim.txt'},moved,{outside},,,,,")  # hand-made, no size or time
    manifest.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8-sig")
    code, _, err = run("restore", str(manifest))
    assert code == 0, err
    assert "another file is in its place: both kept" in err
    assert "already in place" not in err
    assert "the file there is not the one moved" in err
    assert "does not record its size and time" in err
    assert outside.exists()
    assert not (tmp_path / "victim.txt").exists()
    assert Path(first.path).read_text(encoding="utf-8") == "a new article in its place"
    assert Path(first.destination).exists()  # the moved copy stays where it went
    assert Path(second.destination).exists()
    assert f"restored {len(moved) - 2}," in err
    del folder


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("a,b\n1,2\n", encoding="utf-8"), "not a simdup report"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00garbage"), "report.csv"),
        (lambda p: None, "No such file"),
    ],
)
def test_apply_refuses_what_is_not_a_report(tmp_path: Path, make, message: str) -> None:  # type: ignore[no-untyped-def]
    report = tmp_path / "report.csv"
    make(report)
    code, _, err = run("apply", str(report), "--trash")
    assert code == 2
    assert err.count("\n") == 1
    assert message in err


def test_apply_never_moves_into_the_scanned_folder(tmp_path: Path) -> None:
    folder, report, _before = _sample_copy(tmp_path)
    code, _, err = run("apply", str(report), "--move-to", str(folder / "dups"))
    assert code == 2
    assert "inside the input" in err


def test_jobs_are_capped_with_a_note(tmp_path: Path) -> None:
    from simdup_gui.cli_common import max_jobs

    code, _, err = run("scan", str(resource("sample")), "--jobs", "100000", "--no-cache")
    assert code == 0
    assert f"--jobs 100000 lowered to {max_jobs()}" in err


def test_query_rows_are_one_cell_per_value(tmp_path: Path) -> None:
    (tmp_path / "fps").write_text("0123456789abcdef\n")
    code, out, _ = run("query", str(tmp_path / "fps"), " 0123456789ABCDEF")
    assert code == 0
    assert list(csv.reader(out.splitlines())) == [
        ["query", "index", "distance"],
        ["0x0123456789abcdef", "0", "0"],
    ]


def test_the_command_ends_with_everything_written(tmp_path: Path) -> None:
    """The command leaves the heap to the system at its end (a quicker exit), not its output:
    the report on standard output and in the CSV are whole, as the same scan run here gives."""
    report = tmp_path / "report.csv"
    command = [sys.executable, "-m", "simdup_gui.cli", "scan", str(resource("sample"))]
    done = subprocess.run(
        [*command, "--csv", str(report), "--no-cache"], capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr
    here = tmp_path / "here.csv"
    code, _, err = run("scan", str(resource("sample")), "--csv", str(here), "--no-cache")
    assert code == 0
    assert (
        done.stderr.decode().splitlines()[-1].split(" in ")[0]
        == err.splitlines()[-1].split(" in ")[0]
    )  # the summary line, but for its time
    assert report.read_bytes() == here.read_bytes()
    printed = subprocess.run([*command, "--no-cache"], capture_output=True, check=False)
    assert printed.returncode == 0
    assert printed.stdout.decode().replace("\r\n", "\n") == report.read_text("utf-8-sig")


def test_stdout_is_utf8_whatever_the_locale_and_a_full_disk_is_one_line() -> None:
    command = [sys.executable, "-m", "simdup_gui.cli", "scan", str(resource("sample"))]
    env = {**__import__("os").environ, "LC_ALL": "C", "PYTHONIOENCODING": ""}
    done = subprocess.run(command, capture_output=True, env=env, check=False)
    assert done.returncode == 0
    assert "春运返乡".encode() in done.stdout
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().strip().splitlines()[-1] == (
        "simdup: error: cannot write the output: No space left on device"
    )


def test_links_and_skipped_folders_are_counted_and_listed(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    (folder / "again.txt").symlink_to(folder / "zh" / "春运返乡.txt")
    (folder / ".drafts").mkdir()
    code, out, err = run("scan", str(folder), "--verbose", "--no-cache")
    assert code == 0
    assert "0 unreadable, 1 link not read, 1 hidden or tool folder skipped" in err
    assert f"simdup: skipped folder {folder / '.drafts'}" in err
    rows = list(csv.DictReader(out.splitlines()))
    (link,) = [r for r in rows if r["path"].endswith("again.txt")]
    assert link["role"] == "link"
    assert link["error"].startswith("symbolic link to ")


def test_apply_does_nothing_when_its_manifest_cannot_be_written(tmp_path: Path) -> None:
    folder, report, before = _sample_copy(tmp_path)
    code, _, err = run(
        "apply", str(report), "--trash", "--manifest", str(tmp_path / "no" / "such" / "m.csv")
    )
    assert code == 2
    assert "no such folder" in err
    after = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before


def test_a_file_a_library_chokes_on_is_logged_with_its_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simdup_gui.engine.fingerprint import file_records
    from simdup_gui.logs import log_path

    def choke(data: bytes, path: str, *, boilerplate: bool = True, cut: bool = False) -> object:
        raise RuntimeError("the parser fell over")

    monkeypatch.setattr(file_records, "extract_text", choke)
    (tmp_path / "a.txt").write_text("An article.", encoding="utf-8")
    code, out, err = run("scan", str(tmp_path), "--no-cache", "--verbose")
    assert code == 0
    assert "could not be read: RuntimeError: the parser fell over" in out
    assert "a.txt could not be read" in err  # --verbose: the log on stderr too
    logged = log_path().read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in logged
    assert "RuntimeError: the parser fell over" in logged


def test_the_log_file_is_made_at_its_first_record_and_rotated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging

    from simdup_gui import logs

    monkeypatch.setenv("SIMDUP_LOG_DIR", str(tmp_path))
    monkeypatch.setattr(logs, "MAX_BYTES", 300)
    path = logs.start_logging()
    root = logging.getLogger("simdup_gui")
    try:
        assert path == tmp_path / "simdup.log"
        assert not path.exists()  # nothing logged yet
        for n in range(20):
            logging.getLogger("simdup_gui.engine.scan").warning("record %d %s", n, "x" * 60)
        kept = sorted(p.name for p in tmp_path.iterdir())
        assert kept == ["simdup.log", "simdup.log.1", "simdup.log.2", "simdup.log.3"]
        assert "record 19" in path.read_text(encoding="utf-8")
        assert all(p.stat().st_size <= 300 for p in tmp_path.iterdir())
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
            handler.close()


def test_article_formats_are_read_and_other_files_counted(tmp_path: Path) -> None:
    story = (resource("sample") / "en" / "river-cleanup.txt").read_text(encoding="utf-8")
    for name in ("story.rst", "story-copy.adoc", "story.markdown", "page.xhtml"):
        body = story if not name.endswith("xhtml") else f"<html><body><p>{story}</p></body></html>"
        (tmp_path / name).write_text(body, encoding="utf-8")
    for name in ("photo.jpg", "sheet.xlsx", "logo.png", "chart.jpg", "scan.pdf", "notes.docx"):
        (tmp_path / name).write_bytes(b"\x00\x01binary")
    code, out, err = run("scan", str(tmp_path), "--no-cache")
    assert code == 0
    rows = list(csv.DictReader(out.splitlines()))
    assert sorted(Path(r["path"]).name for r in rows) == [
        "notes.docx",  # documents are read: these two are damaged, and say so
        "page.xhtml",
        "scan.pdf",
        "story-copy.adoc",
        "story.markdown",
        "story.rst",
    ]
    grouped = {Path(r["path"]).name for r in rows if r["group_id"] == "1"}
    assert len(grouped) == 4  # the same story in four formats
    assert {r["role"] for r in rows if r["path"].endswith((".pdf", ".docx"))} == {"error"}
    assert "4 files of other types not read (.jpg 2 .png 1 .xlsx 1; --ext adds them)" in err


def test_the_html_report_is_whole_and_escaped(tmp_path: Path) -> None:
    from html.parser import HTMLParser

    folder = tmp_path / "articles"
    folder.mkdir()
    story = (resource("sample") / "en" / "river-cleanup.txt").read_text(encoding="utf-8")
    (folder / "<script>alert(1)<script>.txt").write_text(story, encoding="utf-8")
    (folder / "copy & more.txt").write_text(story + " <b>The end</b>.", encoding="utf-8")
    page = tmp_path / "report.html"
    code, _, _ = run("scan", str(folder), "--html", str(page), "--no-cache")
    assert code == 0
    text = page.read_text(encoding="utf-8")
    assert "<script>" not in text
    assert "&lt;script&gt;alert(1)&lt;script&gt;.txt" in text
    assert "copy &amp; more.txt" in text
    # what the copy changed, the added passage escaped and marked
    assert "&lt;b&gt;The end&lt;/b&gt;." in text  # in <del> or <ins>: whichever is kept
    assert "<b>The end</b>" not in text
    assert ("<del>" in text) != ("<ins>" in text)
    assert ": 1 difference</summary>" in text
    assert "<p>2 files, 1 group, 1 duplicate, 0 unreadable (" in text

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows = 0
            self.links: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.rows += tag == "tr"
            self.links += [v or "" for k, v in attrs if k == "href"]

    tags = Tags()
    tags.feed(text)
    assert tags.rows == 3  # one header, two members
    assert all(link.startswith("file://") for link in tags.links)
    code, _, err = run("scan", str(folder), "--html", str(folder / "r.html"))
    assert code == 2
    assert "inside the input" in err


def test_pairs_kept_apart_from_the_command_line(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    a, b = folder / "zh" / "茶园春茶.txt", folder / "zh" / "茶园春茶-改写.txt"
    assert run("scan", str(folder), "--no-cache")[2].count("3 groups") == 1
    assert run("ignore", "add", str(a), str(b))[0] == 0
    code, out, _ = run("ignore", "list")
    assert out == f"{b}\t{a}\n" if str(b) < str(a) else f"{a}\t{b}\n"
    _, out, err = run("scan", str(folder), "--no-cache")
    assert "2 groups" in err  # the pair is kept apart on every scan
    assert run("ignore", "remove", str(a), str(b))[0] == 0
    code, _, err = run("ignore", "remove", str(a), str(b))
    assert code == 2
    assert "no such pair" in err
    run("ignore", "add", str(a), str(b))
    assert run("ignore", "clear")[0] == 0
    assert run("ignore", "list")[1] == ""
    assert "3 groups" in run("scan", str(folder), "--no-cache")[2]


def test_reference_folders_keep_their_files_and_give_the_references(tmp_path: Path) -> None:
    """An archive folder marked as reference: its copies are kept, never acted on."""
    import shutil

    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    archive = folder / "archive"
    archive.mkdir()
    repost = folder / "zh" / "春运返乡-转载.txt"
    shutil.copy2(repost, archive / "a.txt")
    shutil.copy2(repost, archive / "c.txt")  # two archived copies: one is the reference
    shutil.copy2(folder / "en" / "harbor-lighthouse-edited.md", archive / "b.md")
    report = tmp_path / "report.csv"
    code, _, _ = run("scan", str(folder), "--reference", str(archive), "--csv", str(report))
    assert code == 0
    with report.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    roles = {os.path.relpath(r["path"], folder): r["role"] for r in rows}
    assert {roles["archive/a.txt"], roles["archive/c.txt"]} == {"reference", "kept"}
    assert roles["archive/b.md"] == "reference"
    assert roles["zh/春运返乡-转载.txt"] == "duplicate"
    assert roles["zh/春运返乡.txt"] == "duplicate"
    before = {p: p.read_bytes() for p in archive.iterdir()}
    moved = tmp_path / "moved"
    assert run("apply", str(report), "--move-to", str(moved))[0] == 0
    assert {p: p.read_bytes() for p in archive.iterdir()} == before  # the archive untouched
    assert not (folder / "zh" / "春运返乡.txt").exists()


def test_a_reference_folder_must_be_inside_the_scanned_one(tmp_path: Path) -> None:
    code, _, err = run("scan", str(resource("sample")), "--reference", str(tmp_path))
    assert code == 2
    assert "not a folder inside" in err
    assert len(err.strip().splitlines()) == 1


def test_excluded_folders_are_not_read(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    report = tmp_path / "report.csv"
    code, _, _ = run("scan", str(folder), "--exclude", str(folder / "zh"), "--csv", str(report))
    assert code == 0
    with report.open(encoding="utf-8-sig", newline="") as stream:
        paths = [row["path"] for row in csv.DictReader(stream)]
    assert paths
    assert all(os.path.relpath(path, folder).startswith("en") for path in paths)
    code, _, err = run("scan", str(folder), "--exclude", str(tmp_path))
    assert code == 2
    assert "--exclude" in err


def test_several_folders_are_grouped_together(tmp_path: Path) -> None:
    """Copies in different folders share a group; a folder given twice, or inside another
    given folder, is read once."""
    import shutil

    first, second = tmp_path / "desk", tmp_path / "web"
    shutil.copytree(resource("sample") / "zh", first)
    second.mkdir()
    shutil.copy2(first / "茶园春茶.txt", second / "tea-repost.txt")
    report = tmp_path / "report.csv"
    folders = [str(first), str(second), str(second), str(first / ".." / "desk")]
    code, _, err = run("scan", *folders, "--csv", str(report), "--no-cache")
    assert code == 0, err
    with report.open(encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    paths = [row["path"] for row in rows]
    assert len(paths) == len(set(paths)) == 8  # 7 articles and the repost, each once
    tea = {row["group_id"] for row in rows if "茶园春茶.txt" in row["path"] or "tea" in row["path"]}
    assert len(tea) == 1
    assert tea != {""}  # grouped across the two folders
    code, _, err = run("scan", str(first), str(tmp_path / "missing"))
    assert code == 2
    assert "missing: not a folder" in err


def test_version() -> None:
    from simdup_gui import __version__

    assert run("--version") == (0, f"simdup {__version__}\n", "")
    assert run("-V")[1] == f"simdup {__version__}\n"


def test_a_report_in_chinese_is_kept_apart_from_the_english_one_and_apply_reads_it(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "articles"
    shutil.copytree(resource("sample"), folder)
    english, chinese, again = (tmp_path / name for name in ("en.csv", "zh.csv", "again.csv"))
    assert run("scan", str(folder), "--csv", str(english))[0] == 0
    assert run("scan", str(folder), "--csv", str(chinese), "--lang", "zh")[0] == 0
    assert run("scan", str(folder), "--csv", str(again))[0] == 0  # the kept report, served
    assert english.read_text(encoding="utf-8-sig").startswith("group_id,role,marked,path,title,")
    assert chinese.read_text(encoding="utf-8-sig").startswith("组号,角色,已标记,路径,标题,")
    assert again.read_bytes() == english.read_bytes()
    rows = list(csv.DictReader(chinese.read_text(encoding="utf-8-sig").splitlines()))
    copies = {row["路径"] for row in rows if row["角色"] == "副本"}
    assert len(copies) == 5

    code, _, err = run("apply", str(chinese), "--move-to", str(tmp_path / "moved"))
    assert code == 0, err
    assert "simdup: moved 5, skipped 0, failed 0" in err
    assert not any(Path(path).exists() for path in copies)


def test_the_reuse_report_speaks_the_language_asked_for(tmp_path: Path) -> None:
    page = tmp_path / "reuse.html"
    code, out, _ = run("reuse", str(resource("sample")), "--lang", "zh", "--html", str(page))
    assert code == 0
    assert out.startswith("文章,来源,复制比,来源被复制比,")
    assert '<html lang="zh">' in page.read_text(encoding="utf-8")
    assert "总文字复制比" in page.read_text(encoding="utf-8")
    code, out, _ = run("reuse", str(resource("sample")))
    assert out.startswith("path,source,share,source_share,")


def test_the_summaries_follow_the_reports_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a Chinese locale (or --lang zh) the lines a command ends with are Chinese too."""
    folder = Path(shutil.copytree(resource("sample"), tmp_path / "articles"))
    (folder / "empty.txt").write_bytes(b"")
    (folder / "photo.png").write_bytes(b"\x89PNG")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    page = tmp_path / "r.html"
    code, _, err = run("scan", str(folder), "--html", str(page), "--no-cache")
    assert code == 0
    summary = err.strip().splitlines()[-1]
    assert summary.startswith("simdup：14 个文件")
    assert "3 组，5 个重复，1 个无法读取" in summary
    assert "1 个文件属于其他类型，未读取（.png 1" in summary
    assert summary.endswith("（k=8，文本相似度 ≥ 40%）")
    text = page.read_text(encoding="utf-8")
    assert "（k=8，文本相似度 ≥ 40%）。" in text
    assert "<td>空文件</td>" in text
    code, _, err = run("reuse", str(folder))
    assert err.strip().splitlines()[-1].startswith("simdup：14 个文件：")
    code, _, err = run("scan", str(folder), "--lang", "en", "--no-cache")
    assert "14 files" in err
    assert "(k=8, text similarity >= 40%)" in err


def test_the_librarys_summaries_follow_the_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    library = str(tmp_path / "LIB")
    code, _, err = run("library", "add", library, str(resource("sample") / "zh"))
    assert code == 0
    assert err.strip().splitlines()[-1] == (
        "simdup：新增 7 篇，更新 0 篇，未变 0 篇，消失 0 篇，0 篇无法读取"
    )
    code, _, err = run("library", "check", library, str(resource("sample") / "en"))
    assert err.strip().splitlines()[-1] == "simdup：6 篇中有 0 篇在文章库中有相似文章"


def test_no_report_over_the_librarys_files_nor_two_reports_in_one_file(tmp_path: Path) -> None:
    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(resource("sample") / "zh"))[0] == 0
    before = {p.name: p.read_bytes() for p in library.rglob("*") if p.is_file()}
    sample = str(resource("sample"))
    for argv in (
        ["reuse", sample, "--library", str(library), "--csv", str(library / "library.json")],
        ["reuse", sample, "--library", str(library), "--html", str(library / "new.html")],
        ["reuse", sample, "--csv", str(tmp_path / "r"), "--html", str(tmp_path / "r")],
        [
            "scan",
            sample,
            "--csv",
            str(tmp_path / "s"),
            "--html",
            str(tmp_path / ".." / tmp_path.name / "s"),
        ],
    ):
        code, _, err = run(*argv)
        assert code == 2, argv
        assert len(err.strip().splitlines()) == 1, err
    assert {p.name: p.read_bytes() for p in library.rglob("*") if p.is_file()} == before
    assert not (tmp_path / "r").exists()
    assert not (tmp_path / "s").exists()
