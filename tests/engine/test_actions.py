"""Acting on duplicates: re-checked, written ahead, never over anything, undone by restore."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from simdup_gui.engine.output import actions
from simdup_gui.engine.output.actions import (
    ActionOutcome,
    Manifest,
    Seen,
    act,
    read_manifest,
    restore,
)

ODD = os.fsdecode(b"caf\xe9.txt")  # a name that is not UTF-8, as the OS gives it to Python


def make(root: Path, *names: str) -> list[Seen]:
    files = []
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(os.fsencode(name) * 3)
        info = path.stat()
        files.append(Seen(str(path), info.st_size, info.st_mtime_ns))
    return files


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith("simdup-manifest")
    }


def test_moves_keep_relative_paths_and_never_overwrite(tmp_path: Path) -> None:
    root, destination = tmp_path / "scan", tmp_path / "moved"
    files = make(root, "a.txt", "sub/b.txt", ODD, "c.txt")
    (destination / "sub").mkdir(parents=True)
    (destination / "sub" / "b.txt").write_text("already here", encoding="utf-8")
    (destination / "c.txt").symlink_to(tmp_path / "nowhere")  # a dangling link is something
    gone = Seen(str(root / "gone.txt"), 1)
    manifest = Manifest(tmp_path / "manifest.csv")
    outcomes = act([*files, gone], manifest, move_to=str(destination), root=str(root))
    manifest.close()
    assert [o.action for o in outcomes] == ["moved"] * 4 + ["skipped"]
    assert outcomes[-1].error == "no longer there"
    assert (destination / "sub" / "b.txt").read_text(encoding="utf-8") == "already here"
    assert (destination / "sub" / "b (2).txt").read_bytes() == b"sub/b.txt" * 3
    assert (destination / "c.txt").is_symlink()
    assert (destination / "c (2).txt").is_file()
    assert (destination / ODD).exists()
    assert not any(Path(f.path).exists() for f in files)
    rows = read_manifest(tmp_path / "manifest.csv")
    assert [r.action for r in rows] == ["moving", "moved"] * 4 + ["skipped"]
    moved = ActionOutcome(files[2].path, "moved", str(destination / ODD), "", files[2].size)
    assert rows[5] == moved._replace(mtime_ns=files[2].mtime_ns)  # exact: paths, size, time


def test_what_changed_since_the_scan_is_skipped_with_the_reason(tmp_path: Path) -> None:
    a, b, c, d, ref = make(tmp_path / "scan", "a.txt", "b.txt", "c.txt", "d.txt", "ref.txt")
    Path(a.path).write_text("a longer text now", encoding="utf-8")
    os.utime(b.path, ns=(b.mtime_ns, b.mtime_ns + 5_000_000_000))
    c = c._replace(fingerprint=7)
    d = d._replace(reference=str(tmp_path / "scan" / "deleted-reference.txt"))
    ref = ref._replace(fingerprint=9)
    outcomes = act(
        [a, b, c, d, ref],
        None,
        move_to=str(tmp_path / "moved"),
        fingerprint_of=lambda path: 9,
    )
    assert [(o.action, o.error) for o in outcomes] == [
        ("skipped", "changed since the scan (size)"),
        ("skipped", "changed since the scan (modification time)"),
        ("skipped", "changed since the scan (text)"),
        ("skipped", "its group's reference is gone: kept"),
        ("moved", ""),
    ]
    assert sorted(p.name for p in (tmp_path / "scan").iterdir()) == sorted(
        ["a.txt", "b.txt", "c.txt", "d.txt"]
    )


def test_links_and_special_files_are_never_acted_on(tmp_path: Path) -> None:
    (real,) = make(tmp_path, "real.txt")
    link = tmp_path / "link.txt"
    link.symlink_to(real.path)
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    outcomes = act(
        [Seen(str(link), real.size), Seen(str(fifo), 0)], None, move_to=str(tmp_path / "m")
    )
    assert [o.error for o in outcomes] == [
        "a symbolic link: only real files are acted on",
        "not a regular file",
    ]
    assert link.is_symlink()
    assert fifo.exists()


def test_the_manifest_is_written_ahead_so_a_crash_can_be_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, destination = tmp_path / "scan", tmp_path / "moved"
    files = make(root, "=cmd|' /C calc'!A0.txt", "b.txt", "c.txt")
    before = snapshot(root)
    real_move = actions.move_file
    calls = []

    def crash_on_the_second(source: str, target: Path) -> Path:
        calls.append(source)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the power goes out
        return real_move(source, target)

    monkeypatch.setattr(actions, "move_file", crash_on_the_second)
    manifest = Manifest(tmp_path / "manifest.csv")
    with pytest.raises(KeyboardInterrupt):
        act(files, manifest, move_to=str(destination), root=str(root))
    # what is on disk before the manifest is closed is what a crash leaves
    rows = read_manifest(tmp_path / "manifest.csv")
    assert [r.action for r in rows] == ["moving", "moved", "moving"]
    assert rows[0].path == files[0].path  # and read back exactly
    manifest.close()
    monkeypatch.setattr(actions, "move_file", real_move)
    outcomes = restore(tmp_path / "manifest.csv")
    assert [o.action for o in outcomes] == ["restored", "skipped"]
    assert snapshot(root) == before
    assert [o.action for o in restore(tmp_path / "manifest.csv")] == ["skipped", "skipped"]


def test_a_move_across_file_systems_is_copied_verified_then_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, destination = tmp_path / "scan", tmp_path / "moved"
    good, bad = make(root, "good.txt", "bad.txt")

    def across(source: str, target: Path) -> Path:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(actions, "_move_within", across)
    real_cmp = actions.filecmp.cmp
    monkeypatch.setattr(
        actions.filecmp, "cmp", lambda a, b, shallow: "bad" not in a and real_cmp(a, b, shallow)
    )
    outcomes = act([good, bad], None, move_to=str(destination), root=str(root))
    assert [o.action for o in outcomes] == ["moved", "failed"]
    assert outcomes[1].error == "the copy differs from the original"
    assert (destination / "good.txt").read_bytes() == b"good.txt" * 3
    assert not Path(good.path).exists()
    assert Path(bad.path).read_bytes() == b"bad.txt" * 3  # kept, and no partial copy left
    assert sorted(p.name for p in destination.iterdir()) == ["good.txt"]


def test_trash_and_restore_through_the_real_trash_with_an_empty_xdg_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", "")  # empty means unset: ~/.local/share
    monkeypatch.chdir(tmp_path)
    files = make(tmp_path / "scan", "a.txt", ODD)
    before = snapshot(tmp_path / "scan")
    manifest = Manifest(tmp_path / "m.csv")
    outcomes = act(files, manifest)
    manifest.close()
    assert [o.action for o in outcomes] == ["trashed", "trashed"], outcomes
    assert not (tmp_path / "Trash").exists()
    trash = tmp_path / "home" / ".local" / "share" / "Trash" / "files"
    assert sorted(p.name for p in trash.iterdir()) == sorted(["a.txt", ODD])
    assert [o.action for o in restore(tmp_path / "m.csv")] == ["restored", "restored"]
    assert snapshot(tmp_path / "scan") == before
    assert not list(trash.iterdir())


def test_simdups_own_trash_keeps_files_on_their_volume_and_gives_them_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows and macOS: the file moves into the user data folder's trash (same volume
    here), the manifest says where, and restore takes it back, twice harmlessly."""
    monkeypatch.setattr(actions, "SYSTEM_TRASH", False)
    files = make(tmp_path / "scan", "a.txt", ODD, "sub/a.txt")
    before = snapshot(tmp_path / "scan")
    manifest = Manifest(tmp_path / "m.csv")
    outcomes = act(files, manifest)
    manifest.close()
    assert [o.action for o in outcomes] == ["trashed"] * 3, outcomes
    trash = Path(os.environ["XDG_DATA_HOME"]) / "simdup" / "trash"
    kept = sorted(p.name for p in trash.rglob("*") if p.is_file())
    assert kept == sorted(["a.txt", "a (2).txt", ODD])  # two a.txt: neither over the other
    rows = read_manifest(tmp_path / "m.csv")
    assert [r.action for r in rows] == ["trashing", "trashed"] * 3
    assert all(Path(r.destination).is_relative_to(trash) for r in rows)
    assert not any(Path(f.path).exists() for f in files)
    assert [o.action for o in restore(tmp_path / "m.csv")] == ["restored"] * 3
    assert snapshot(tmp_path / "scan") == before
    assert [o.action for o in restore(tmp_path / "m.csv")] == ["skipped"] * 3


def test_another_volumes_files_go_to_a_trash_at_its_top(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    volume = tmp_path / "volume"
    (path,) = make(volume / "news", "a.txt")
    monkeypatch.setattr(actions, "_device", lambda folder: -1)  # the data folder: elsewhere
    monkeypatch.setattr(actions.os.path, "ismount", lambda folder: Path(folder) == volume)
    place = actions.own_trash(path.path)
    assert place.parent.parent == volume / ".simdup-trash"
    assert place.name == "a.txt"


def test_without_hard_links_a_move_renames_to_a_free_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Windows: no link of a file itself; still nothing at the target is replaced."""
    monkeypatch.setattr(actions, "_LINKS", False)
    files = make(tmp_path / "scan", "a.txt")
    (tmp_path / "moved").mkdir()
    (tmp_path / "moved" / "a.txt").write_bytes(b"there before")
    outcomes = act(files, None, move_to=str(tmp_path / "moved"), root=str(tmp_path / "scan"))
    assert outcomes[0].destination == str(tmp_path / "moved" / "a (2).txt")
    assert (tmp_path / "moved" / "a.txt").read_bytes() == b"there before"
    assert (tmp_path / "moved" / "a (2).txt").read_bytes() == b"a.txt" * 3


def test_a_dry_run_touches_nothing(tmp_path: Path) -> None:
    files = make(tmp_path / "scan", "a.txt")
    before = snapshot(tmp_path)
    outcomes = act(files, None, move_to=str(tmp_path / "moved"), dry_run=True)
    assert outcomes == [ActionOutcome(files[0].path, "would move", str(tmp_path / "moved/a.txt"))]
    assert snapshot(tmp_path) == before
    assert not (tmp_path / "moved").exists()


def test_manifest_cells_are_safe_in_a_spreadsheet_and_read_back_exactly(tmp_path: Path) -> None:
    row = ActionOutcome("=HYPERLINK(1)", "moved", "+1", "'-quoted")
    manifest = Manifest(tmp_path / "m.csv")
    manifest.write(row)
    manifest.close()
    text = (tmp_path / "m.csv").read_text(encoding="utf-8-sig")
    assert "'=HYPERLINK(1),moved,'+1,''-quoted" in text
    assert read_manifest(tmp_path / "m.csv") == [row]


def test_a_file_that_is_not_a_manifest_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.csv"
    other.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a simdup manifest"):
        restore(other)
