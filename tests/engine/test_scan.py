"""Scanning folders: the bundled sample's planted groups, and bad files reported, never fatal."""

from __future__ import annotations

import os
import socket
import sys
import threading
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path

import pytest

from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.match.default_measure import contained, similarity
from simdup_gui.engine.options import ReadOptions, RunOptions, ScanOptions
from simdup_gui.engine.progress import CancelToken, ProgressEvent
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.resources import resource
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.run.batches import BATCHES_PER_JOB, THREAD_BATCH_FILES, process_context
from simdup_gui.engine.run.workers import WorkerPool
from simdup_gui.engine.scan import scan

SAMPLE = resource("sample")
PLANTED = [
    {"harbor-lighthouse.txt", "harbor-lighthouse-repost.html", "harbor-lighthouse-edited.md"},
    {"春运返乡.txt", "春运返乡-转载.txt", "春运返乡-镜像.html"},
    {"茶园春茶.txt", "茶园春茶-改写.txt"},
]


def group_names(result) -> list[set[str]]:  # type: ignore[no-untyped-def]
    return [{Path(result.files[m.file].path).name for m in g.members} for g in result.groups]


def test_sample_folder_finds_its_planted_groups() -> None:
    result = scan(str(SAMPLE))
    assert sorted(map(sorted, group_names(result))) == sorted(map(sorted, PLANTED))
    assert not result.errors
    assert not result.cancelled
    encodings = {Path(f.path).name: f.encoding for f in result.files}
    assert encodings["春运返乡-转载.txt"] == "gbk"
    assert encodings["春运返乡.txt"] == "utf-8"


def test_groups_are_deterministic_and_keep_the_original_not_the_repost() -> None:
    first, second = (
        scan(str(SAMPLE), ScanOptions(run=RunOptions(jobs=1))),
        scan(str(SAMPLE), ScanOptions(run=RunOptions(jobs=2))),
    )
    assert [g.members for g in first.groups] == [g.members for g in second.groups]
    kept = {Path(first.files[g.reference].path).name for g in first.groups}
    # the reposts carry a notice or a site template: text of their own, so they are not kept
    assert {"harbor-lighthouse.txt", "春运返乡.txt"} <= kept
    assert not kept & {"harbor-lighthouse-repost.html", "春运返乡-转载.txt", "春运返乡-镜像.html"}
    for group in first.groups:
        assert group.members[0].distance == 0
        ref = first.files[group.reference].fingerprint
        for member in group.members:
            fp = first.files[member.file].fingerprint
            assert member.distance == (fp ^ ref).bit_count()  # type: ignore[operator]


def test_regroup_changes_groups_without_rescanning() -> None:
    result = scan(str(SAMPLE))
    strict = result.regroup(replace(result.options.group, k=0))
    assert strict.files is result.files
    assert len(strict.groups) < len(result.groups) or sum(map(len, strict.groups)) < sum(
        map(len, result.groups)
    )
    assert result.regroup(result.options.group).groups == result.groups


ARTICLE = "Editors read the article about the harbour lighthouse and its restoration. " * 20


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    """A folder with one of each kind of bad input, plus two good duplicates."""
    (tmp_path / "good.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "good-copy.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (tmp_path / "nul.txt").write_bytes(b"text\x00with\x00nul" * 50)
    (tmp_path / "garbage.txt").write_bytes(bytes(range(128, 256)) * 20)
    (tmp_path / "whitespace.txt").write_text("   \n\n  ", encoding="utf-8")
    (tmp_path / "dangling.txt").symlink_to(tmp_path / "missing-target.txt")
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / "again").symlink_to(tmp_path, target_is_directory=True)
    os.mkfifo(tmp_path / "pipe.txt")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock.txt"))
    sock.close()
    locked = tmp_path / "locked.txt"
    locked.write_text(ARTICLE, encoding="utf-8")
    locked.chmod(0)
    odd = os.fsencode(tmp_path) + b"/bad-\xff-name.txt"
    with open(odd, "wb") as handle:
        handle.write(ARTICLE.encode())
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "hidden.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "photo.jpg").write_bytes(b"\xff\xd8\xff" + bytes(100))
    return tmp_path


def test_bad_inputs_are_reported_per_file(messy: Path) -> None:
    result = scan(str(messy))
    by_name = {Path(f.path).name: f for f in result.files}
    errors = {name: f.error for name, f in by_name.items() if f.error}
    assert errors["empty.txt"] == "empty file"
    assert "PNG" in errors["image.txt"]
    assert "NUL" in errors["nul.txt"]
    assert "undecodable" in errors["garbage.txt"]
    assert errors["whitespace.txt"] == "no text"
    assert errors["dangling.txt"] == "dangling symbolic link"
    assert "FIFO" in errors["pipe.txt"]
    assert "socket" in errors["sock.txt"]
    if os.geteuid() != 0:  # root reads any file
        assert errors["locked.txt"] == "permission denied"
    odd = by_name[os.fsdecode(b"bad-\xff-name.txt")]  # the OS's own name: it can be opened
    assert odd.ok
    assert "file name is not valid UTF-8" in odd.notes
    assert display_path(odd.path).endswith("bad-\\xff-name.txt")  # shown as such
    assert read_text(odd.path).strip() == ARTICLE.strip()
    assert "hidden.txt" not in by_name
    assert "photo.jpg" not in by_name
    assert not result.cancelled
    grouped = {Path(result.files[m.file].path).name for g in result.groups for m in g.members}
    assert {"good.txt", "good-copy.txt", os.fsdecode(b"bad-\xff-name.txt")} <= grouped


def test_links_are_rows_that_name_their_target_never_duplicates(tmp_path: Path) -> None:
    folder, outside = tmp_path / "articles", tmp_path / "elsewhere.txt"
    folder.mkdir()
    (folder / "story.txt").write_text(ARTICLE, encoding="utf-8")
    (folder / "link-to-story.txt").symlink_to(folder / "story.txt")
    outside.write_text(ARTICLE, encoding="utf-8")
    (folder / "link-out.txt").symlink_to(outside)
    (folder / "copy.txt").write_text(ARTICLE, encoding="utf-8")
    for hidden in (".git", "node_modules"):
        (folder / hidden).mkdir()
        (folder / hidden / "x.txt").write_text(ARTICLE, encoding="utf-8")
    result = scan(str(folder))
    by_name = {Path(f.path).name: f for f in result.files}
    assert by_name["link-to-story.txt"].error == (
        f"symbolic link to {folder / 'story.txt'} (read there)"
    )
    assert by_name["link-out.txt"].error == (
        f"symbolic link to {outside} (outside the folder: not read)"
    )
    assert [Path(f.path).name for f in result.links] == ["link-out.txt", "link-to-story.txt"]
    assert result.errors == ()
    (group,) = result.groups
    assert sorted(Path(result.files[m.file].path).name for m in group.members) == [
        "copy.txt",
        "story.txt",
    ]
    assert sorted(Path(p).name for p in result.skipped_folders) == [".git", "node_modules"]


def test_a_link_to_a_folder_is_a_row_whatever_its_name(tmp_path: Path) -> None:
    folder, elsewhere = tmp_path / "articles", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (elsewhere / "story.txt").write_text(ARTICLE, encoding="utf-8")
    (folder / "story.txt").write_text(ARTICLE, encoding="utf-8")
    (folder / "sections").symlink_to(elsewhere)  # no article extension: not a file of a type
    (folder / "loop").symlink_to(folder)
    (folder / "notes.md").symlink_to(elsewhere)
    result = scan(str(folder))
    by_name = {Path(f.path).name: f for f in result.files}
    for name in ("sections", "loop", "notes.md"):
        assert by_name[name].error == "symbolic link to a folder, not followed"
    assert sorted(Path(f.path).name for f in result.links) == ["loop", "notes.md", "sections"]
    assert result.other_types == ()
    assert [Path(f.path).name for f in result.files if f.ok] == ["story.txt"]


def test_large_files_are_read_up_to_the_limit(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text(ARTICLE * 50, encoding="utf-8")
    result = scan(str(tmp_path), ScanOptions(read=ReadOptions(max_bytes=4096)))
    (record,) = result.files
    assert record.ok
    assert any("only the first 4096 bytes" in n for n in record.notes)


def test_files_are_not_modified(messy: Path) -> None:
    before = {p: (p.lstat().st_mtime_ns, p.lstat().st_size) for p in messy.rglob("*")}
    scan(str(messy))
    after = {p: (p.lstat().st_mtime_ns, p.lstat().st_size) for p in messy.rglob("*")}
    assert before == after


def test_progress_and_cancel(tmp_path: Path) -> None:
    for n in range(60):
        (tmp_path / f"a{n:02}.txt").write_text(f"article number {n} " + ARTICLE, encoding="utf-8")
    events: list[ProgressEvent] = []
    token = CancelToken()

    def progress(event: ProgressEvent) -> None:
        events.append(event)
        if event.stage == "fingerprinting" and event.done == 10:
            token.cancel()

    result = scan(
        str(tmp_path), ScanOptions(run=RunOptions(jobs=2)), progress=progress, cancel=token
    )
    assert result.cancelled
    assert 10 <= len(result.files) < 60
    assert all(f.ok for f in result.files)
    stages = [e.stage for e in events]
    assert stages[:2] == ["preparing", "fingerprinting"]
    assert stages[-1] == "done"
    done = [e.done for e in events if e.stage == "fingerprinting"]
    assert done == sorted(done)
    assert events[-2].stage == "grouping"


def test_scan_of_a_missing_folder_raises(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError):
        scan(str(tmp_path / "nope"))


def test_rjieba_gives_jiebas_tokens() -> None:
    """The pipeline segments with rjieba; it must cut exactly as jieba does."""
    import jieba
    import rjieba

    from simdup_gui.engine.fingerprint.pipeline import extract_text
    from simdup_gui.engine.text.normalize import normalize

    texts = [extract_text(p.read_bytes(), str(p)).text for p in sorted(SAMPLE.glob("zh/*"))]
    assert len(texts) == 7
    for text in texts:
        normalized = normalize(text)
        assert rjieba.cut(normalized) == jieba.lcut(normalized)


def test_file_vanishing_mid_scan_is_reported(tmp_path: Path) -> None:
    for n in range(40):
        (tmp_path / f"a{n:02}.txt").write_text(f"article {n} " + ARTICLE, encoding="utf-8")
    last = tmp_path / "a39.txt"

    def progress(event: ProgressEvent) -> None:
        if event.stage == "fingerprinting" and event.done == 1:
            last.unlink()

    result = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=1)), progress=progress)
    (vanished,) = result.errors
    assert vanished.path.endswith("a39.txt")
    assert vanished.error == "file vanished before it was read"
    assert len(result.files) == 40


def test_unreadable_file_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from simdup_gui.engine.read import reader

    (tmp_path / "secret.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "open.txt").write_text(ARTICLE, encoding="utf-8")
    real_open = reader._open

    def deny(path: str) -> int:
        if path.endswith("secret.txt"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path)

    monkeypatch.setattr(reader, "_open", deny)
    result = scan(str(tmp_path))
    assert [(Path(f.path).name, f.error) for f in result.errors] == [
        ("secret.txt", "permission denied")
    ]


def test_access_time_is_not_touched(tmp_path: Path) -> None:
    article = tmp_path / "a.txt"
    article.write_text(ARTICLE, encoding="utf-8")
    old = article.stat().st_mtime_ns - 10**12  # atime older than mtime: relatime would update it
    os.utime(article, ns=(old, article.stat().st_mtime_ns))
    assert scan(str(tmp_path)).files[0].ok
    assert article.stat().st_atime_ns == old


def test_oversize_files_can_be_skipped(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text(ARTICLE * 50, encoding="utf-8")
    (tmp_path / "small.txt").write_text(ARTICLE, encoding="utf-8")
    result = scan(str(tmp_path), ScanOptions(read=ReadOptions(max_bytes=8192, skip_oversize=True)))
    errors = {Path(f.path).name: f.error for f in result.errors}
    assert errors == {"big.txt": "larger than 8192 bytes, skipped"}


def test_cancel_stops_after_the_files_in_flight(tmp_path: Path) -> None:
    """After cancel no new file starts: at most the batches already in flight finish, which
    bounds the delay to a few files' work (milliseconds), whatever the folder's size."""
    for n in range(400):
        (tmp_path / f"a{n:03}.txt").write_text(f"article {n} " + ARTICLE * 3, encoding="utf-8")
    token = CancelToken()

    def progress(event: ProgressEvent) -> None:
        if event.stage == "fingerprinting" and event.done == 20:
            token.cancel()

    result = scan(
        str(tmp_path),
        ScanOptions(run=RunOptions(jobs=2, processes=False)),
        progress=progress,
        cancel=token,
    )
    assert result.cancelled
    assert 20 <= len(result.files) <= 20 + BATCHES_PER_JOB * 2 * THREAD_BATCH_FILES
    assert [Path(f.path).name for f in result.files] == [
        f"a{n:03}.txt" for n in range(len(result.files))
    ]


def test_worker_processes_give_the_same_result_as_threads(tmp_path: Path) -> None:
    for n in range(70):
        text = f"article {n % 35} " * 3 + ARTICLE
        (tmp_path / f"a{n:02}.txt").write_text(text, encoding="utf-8")
    (tmp_path / "empty.txt").write_bytes(b"")
    threads = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=2, processes=False)))
    processes = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=2, processes=True)))
    assert processes.files == threads.files
    assert processes.groups == threads.groups


def test_worker_processes_spawned_from_a_thread_give_the_same_result(tmp_path: Path) -> None:
    for n in range(40):
        (tmp_path / f"a{n:02}.txt").write_text(f"article {n % 20} " * 3 + ARTICLE, "utf-8")
    threads = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=2, processes=False)))
    found: list[ScanResult] = []
    options = ScanOptions(run=RunOptions(jobs=2, processes=True))
    worker = threading.Thread(target=lambda: found.append(scan(str(tmp_path), options)))
    worker.start()
    worker.join()
    assert found[0].files == threads.files
    assert found[0].groups == threads.groups


def test_kept_workers_serve_many_scans_and_a_dead_pool_is_replaced(tmp_path: Path) -> None:
    for n in range(40):
        (tmp_path / f"a{n:02}.txt").write_text(f"article {n % 20} " * 3 + ARTICLE, "utf-8")
    threads = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=2, processes=False)))
    options = ScanOptions(run=RunOptions(jobs=2, processes=True))
    workers = WorkerPool()
    try:
        workers.warm(2)
        executor = workers.executor(2)
        for _ in range(2):
            assert scan(str(tmp_path), options, workers=workers).files == threads.files
        assert workers.executor(2) is executor  # the same processes, not new ones
        dying = executor.submit(os._exit, 1)  # a worker process dies
        with pytest.raises(BrokenProcessPool):
            dying.result()
        with pytest.raises(BrokenProcessPool):
            scan(str(tmp_path), options, workers=workers)
        again = scan(str(tmp_path), options, workers=workers)
        assert workers.executor(2) is not executor
        assert again.files == threads.files
    finally:
        workers.shutdown()


def test_kept_workers_say_so_while_the_kernels_are_first_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine's first large scan in the app: its workers compile (or build) the kernels."""
    from simdup_gui.engine import kernels

    for n in range(40):
        (tmp_path / f"a{n:02}.txt").write_text(f"article {n % 20} " * 3 + ARTICLE, "utf-8")
    options = ScanOptions(run=RunOptions(jobs=2, processes=True))
    workers = WorkerPool()

    def stages(compiled: bool) -> list[str]:
        monkeypatch.setattr(kernels, "kernels_compiled", lambda: compiled)
        seen: list[str] = []
        scan(str(tmp_path), options, workers=workers, progress=lambda e: seen.append(e.stage))
        return seen

    try:
        first, later = stages(False), stages(True)
        assert "compiling" in first
        assert first.index("compiling") < first.index("fingerprinting")
        assert "compiling" not in later
    finally:
        workers.shutdown()


@pytest.mark.skipif(
    sys.platform != "linux" or not hasattr(os, "fork"), reason="workers only fork on Linux"
)
def test_workers_fork_only_from_a_lone_main_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    def method() -> str:
        return process_context().get_start_method()

    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert method() == "fork"
    found: list[str] = []
    worker = threading.Thread(target=lambda: found.append(method()))
    worker.start()
    worker.join()
    assert found == ["spawn"]
    monkeypatch.setattr(threading, "active_count", lambda: 2)  # another thread is running
    assert method() == "spawn"


def test_group_with_another_reference() -> None:
    result = scan(str(SAMPLE))
    group = result.groups[0]
    prints = {m.file: result.files[m.file].fingerprint for m in group.members}

    def share(a: int, b: int) -> float:
        return similarity(result.files[a], result.files[b])

    def likeness(a: int, b: int) -> tuple[float, bool]:
        return share(a, b), share(a, b) < 0.4 and contained(result.files[a], result.files[b])

    new = group.with_reference(group.members[-1].file, prints, likeness)  # type: ignore[arg-type]
    assert new.reference == group.members[-1].file
    assert new.members[0].distance == 0
    assert {m.file for m in new.members} == {m.file for m in group.members}
    for m in new.members:
        assert m.distance == (prints[m.file] ^ prints[new.reference]).bit_count()  # type: ignore[operator]
        assert m.similarity == (1.0 if m.file == new.reference else share(new.reference, m.file))
        assert m.contained == (m.file != new.reference and likeness(new.reference, m.file)[1])
    with pytest.raises(ValueError, match="not in group"):
        group.with_reference(-1, prints, likeness)  # type: ignore[arg-type]


def test_a_text_the_analysis_fails_on_is_one_files_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from simdup_gui.engine.fingerprint import file_records as fingerprinting

    for n in range(5):
        (tmp_path / f"a{n}.txt").write_text(f"article {n} " + ARTICLE, encoding="utf-8")
    (tmp_path / "poison.txt").write_text("POISON " + ARTICLE, encoding="utf-8")
    real = fingerprinting.analyze_many

    def fragile(texts: list[str], settings: object) -> object:
        if any(t.startswith("POISON") for t in texts):
            raise RuntimeError("segmenter crashed")
        return real(texts, settings)  # type: ignore[arg-type]

    monkeypatch.setattr(fingerprinting, "analyze_many", fragile)
    result = scan(str(tmp_path), ScanOptions(run=RunOptions(jobs=1)))
    by_name = {Path(f.path).name: f for f in result.files}
    assert by_name["poison.txt"].error == (
        "text could not be fingerprinted: RuntimeError: segmenter crashed"
    )
    assert all(by_name[f"a{n}.txt"].ok for n in range(5))  # its batch-mates are fine


def test_in_folders_means_the_folder_itself_or_inside_it(tmp_path: Path) -> None:
    from simdup_gui.engine.read.walk import in_folders

    root = tmp_path / "articles"
    assert in_folders(str(root), [str(root)])
    assert in_folders(str(root / "zh" / "a.txt"), [str(tmp_path / "x"), str(root)])
    assert in_folders(str(root / ".." / "articles" / "b.txt"), [str(root) + os.sep])
    assert not in_folders(str(tmp_path / "articles-2" / "a.txt"), [str(root)])  # a name's prefix
    assert not in_folders(str(tmp_path), [str(root)])


def test_of_exact_copies_the_one_in_the_groups_usual_encoding_is_kept(tmp_path: Path) -> None:
    """The same text saved as UTF-8 and as GBK is one node; beside a GBK near-copy, GBK is kept."""
    story = (Path(resource("sample")) / "zh" / "茶园春茶.txt").read_text(encoding="utf-8")
    edited = story.replace("清明前后", "清明时节", 1)
    (tmp_path / "a.txt").write_text(story, encoding="utf-8")
    (tmp_path / "b.txt").write_text(story, encoding="gbk")
    (tmp_path / "c.txt").write_text(edited, encoding="gbk")
    stamp = (tmp_path / "a.txt").stat().st_mtime_ns
    for name in ("a.txt", "b.txt", "c.txt"):
        os.utime(tmp_path / name, ns=(stamp, stamp))  # as old as each other
    result = scan(str(tmp_path))
    (group,) = result.groups
    names = [Path(result.files[m.file].path).name for m in group.members]
    assert sorted(names) == ["a.txt", "b.txt", "c.txt"]
    assert names[0] == "b.txt"
    assert [result.files[m.file].encoding for m in group.members].count("gbk") == 2
