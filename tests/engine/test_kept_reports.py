"""A folder's kept report (store/kept_reports.py): served whole, and only when it is true.

The reference is the same command with ``--no-cache``: whatever happened to the folder, its
options or the time zone, the report and the summary are the ones a scan from nothing gives.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simdup_gui.engine.scan
from simdup_gui.cli import main
from simdup_gui.engine.fingerprint.lines import lines_of
from simdup_gui.engine.match.groups import Group, Member
from simdup_gui.engine.options import REPORT_VERSION, ScanOptions
from simdup_gui.engine.output.report import report_text
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.resources import default_cache_path, resource
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.text.tokens import Batch


class Scans:
    """Counts the scans the command runs (a kept report runs none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = simdup_gui.engine.scan.scan

        def counted(*args: object, **kwargs: object) -> ScanResult:
            self.count += 1
            return real(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(simdup_gui.engine.scan, "scan", counted)


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Scans:
    return Scans(monkeypatch)


@pytest.fixture
def zone() -> Iterator[Callable[[str], None]]:
    """Sets the process's local time zone; the one before is put back."""
    before = os.environ.get("TZ")

    def set_zone(name: str) -> None:
        os.environ["TZ"] = name
        time.tzset()

    yield set_zone
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


def _folder(where: Path) -> Path:
    """A folder of articles with copies, and a subfolder to refer to or leave out."""
    folder = where / "articles"
    shutil.copytree(resource("sample"), folder)
    (folder / "zh" / "again.txt").write_bytes((folder / "zh" / "春运返乡.txt").read_bytes())
    return folder


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _summary(err: str) -> str:
    """The summary line without what differs between runs: its time and the cache's part."""
    line = err.strip().splitlines()[-1]
    return re.sub(r", \d+ from cache| in [\d.]+ s", "", line)


def _scan(folder: Path, report: Path, *options: str) -> tuple[bytes, str]:
    code, out, err = _run("scan", str(folder), "--csv", str(report), "--quiet", *options)
    assert (code, out) == (0, "")
    return report.read_bytes(), _summary(err)


def test_an_unchanged_rescan_serves_the_kept_report(tmp_path: Path, scans: Scans) -> None:
    folder = _folder(tmp_path)
    first = _scan(folder, tmp_path / "first.csv")
    assert scans.count == 1
    again = _scan(folder, tmp_path / "again.csv")
    assert scans.count == 1  # no scan: the kept report
    assert again == first
    assert again == _scan(folder, tmp_path / "fresh.csv", "--no-cache")
    assert "3 groups, 6 duplicates" in first[1]
    code, out, _ = _run("scan", str(folder), "--quiet")  # to standard output: no BOM
    assert (code, scans.count) == (0, 2)  # the --no-cache run scanned; this one did not
    assert out.encode() == first[0].removeprefix(b"\xef\xbb\xbf")


_OPTIONS = {  # an option a step may give, as command-line arguments
    "k": ("--k", "3"),
    "floor": ("--min-similarity", "0.3"),
    "reference": ("--reference", "{folder}/zh"),
    "exclude": ("--exclude", "{folder}/en"),
    "ext": ("--ext", "txt"),
    "simhash": ("--method", "simhash"),
}
_STEPS = ("same", "edit", "touch", "add", "remove", "ignore", "zone", *_OPTIONS)


def _take(step: str, folder: Path, given: dict[str, tuple[str, ...]], zone: Callable) -> None:
    """Change the folder, the options given, the not-duplicates list or the time zone."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    first = files[0]
    if step == "edit":
        with first.open("a", encoding="utf-8") as stream:
            stream.write("\n又一段新的文字。A new paragraph.\n")
    elif step == "touch":
        stat = first.stat()
        os.utime(first, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    elif step == "add":
        shutil.copy(files[-1], folder / f"copy-{len(files)}{files[-1].suffix}")
    elif step == "remove" and len(files) > 2:
        files[-1].unlink()
    elif step == "ignore":
        assert _run("ignore", "add", str(files[0]), str(files[1]))[0] == 0
    elif step == "zone":
        zone("Asia/Shanghai" if os.environ.get("TZ") == "UTC" else "UTC")
    elif step in _OPTIONS and given.pop(step, None) is None:  # given: now not given
        given[step] = tuple(arg.format(folder=folder) for arg in _OPTIONS[step])


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(steps=st.lists(st.sampled_from(_STEPS), min_size=1, max_size=6))
def test_the_report_is_always_a_fresh_scans(
    steps: list[str], scans: Scans, zone: Callable[[str], None]
) -> None:
    zone("UTC")
    with tempfile.TemporaryDirectory() as where:
        folder = _folder(Path(where))
        given: dict[str, tuple[str, ...]] = {}
        _scan(folder, Path(where) / "first.csv")
        for step in steps:
            _take(step, folder, given, zone)
            arguments = [arg for option in given.values() for arg in option]
            before = scans.count
            kept = _scan(folder, Path(where) / "kept.csv", *arguments)
            if step == "same":
                assert scans.count == before  # unchanged: served whole
            fresh = _scan(folder, Path(where) / "fresh.csv", "--no-cache", *arguments)
            assert kept == fresh, step


@pytest.mark.parametrize(
    "damage", ["report = x'41424344'", "groups = groups + 1", "duplicates = 0"]
)
def test_a_damaged_kept_report_is_made_again(tmp_path: Path, scans: Scans, damage: str) -> None:
    folder = _folder(tmp_path)
    first = _scan(folder, tmp_path / "first.csv")
    with sqlite3.connect(default_cache_path()) as db:
        assert db.execute(f"UPDATE kept_reports SET {damage}").rowcount == 1
    db.close()
    assert _scan(folder, tmp_path / "again.csv") == first
    assert scans.count == 2  # not served: made again, and kept again
    assert _scan(folder, tmp_path / "third.csv") == first
    assert scans.count == 2


def test_files_a_rescan_reads_again_keep_no_report(tmp_path: Path, scans: Scans) -> None:
    """An unreadable file (here an empty one) is tried again on every scan."""
    folder = _folder(tmp_path)
    (folder / "empty.txt").write_bytes(b"")
    first = _scan(folder, tmp_path / "first.csv")
    assert _scan(folder, tmp_path / "again.csv") == first
    assert scans.count == 2


def test_an_html_page_or_no_cache_keeps_no_report(tmp_path: Path, scans: Scans) -> None:
    folder = _folder(tmp_path)
    for options in (("--no-cache",), ("--html", str(tmp_path / "groups.html"))):
        _scan(folder, tmp_path / "report.csv", *options)
        _scan(folder, tmp_path / "report.csv", *options)
    assert scans.count == 4
    with sqlite3.connect(default_cache_path()) as db:
        assert db.execute("SELECT COUNT(*) FROM kept_reports").fetchone() == (0,)
    db.close()


def test_a_kept_report_is_served_without_numpy(tmp_path: Path) -> None:
    """The point of keeping it: the rescan loads neither the records nor numpy.

    Nor does a scan load the cluster's client, which only ``--dask`` needs.
    """
    folder = _folder(tmp_path)
    check = (
        "import sys; from simdup_gui.cli import main;"
        f" code = main(['scan', {str(folder)!r}, '--quiet', '--csv', {str(tmp_path / 'r.csv')!r}]);"
        " print(code, 'numpy' in sys.modules, 'simdup_gui.engine.cluster.client' in sys.modules)"
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    runs = [
        subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    assert [run.stdout.split() for run in runs] == [["0", "True", "False"], ["0", "False", "False"]]


def test_a_cache_folder_given_as_a_relative_path(
    tmp_path: Path, scans: Scans, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SIMDUP_CACHE_DIR", "relative cache #1")
    first = _scan(folder, tmp_path / "first.csv")
    assert _scan(folder, tmp_path / "again.csv") == first
    assert scans.count == 1
    assert (tmp_path / "relative cache #1" / "fingerprints.sqlite3").is_file()


def test_cache_clear_forgets_kept_reports(tmp_path: Path, scans: Scans) -> None:
    folder = _folder(tmp_path)
    _scan(folder, tmp_path / "report.csv")
    assert _run("cache", "clear")[0] == 0
    _scan(folder, tmp_path / "report.csv")
    assert scans.count == 2


def test_the_report_format_is_pinned_to_its_version() -> None:
    """A change to the report's rows fails here until REPORT_VERSION is bumped (so that kept
    reports are made again) and the digest below is updated."""
    one, two = lines_of(Batch.normalized(["Page 1\nThe story.", "The story."]))
    files = (
        FileRecord("a/=one.txt", 10, 0, "utf-8", "bom", 1, 5, 20, 0.25, ("a note",), "", lines=one),
        FileRecord("a/two.txt", 12, 0, "gb18030", "chardet", 3, 6, 22, lines=two),
        FileRecord("a/three.txt", 7, 0, "utf-8", "utf-8", 2**63, 4, 9),
        FileRecord("a/bad.txt", 0, 0, error="empty file"),
    )
    groups = (Group(1, (Member(0, 0), Member(1, 2, 0.75, contained=True))),)
    result = ScanResult("a", files, None, groups, ScanOptions(), kept=frozenset({1}))  # type: ignore[arg-type]
    digest = hashlib.blake2b(report_text(result).encode(), digest_size=8).hexdigest()
    assert "carries 1 short line (5 characters) a copy lacks" in report_text(result)
    assert (REPORT_VERSION, digest) == (5, "09cf87b59fc4c4d1")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_report_that_cannot_be_written_is_a_one_line_error(tmp_path: Path) -> None:
    """Made by a scan or kept, a report the disk refuses is exit 2 and one line naming it."""
    folder = _folder(tmp_path)
    for _ in range(2):  # a scan, then the kept report
        code, out, err = _run("scan", str(folder), "--quiet", "--csv", "/dev/full")
        assert (code, out, err) == (2, "", "simdup: error: /dev/full: No space left on device\n")
