"""Acting on marked files: moves keep relative paths, the trash is recoverable, a manifest."""

from __future__ import annotations

import csv
import os
from pathlib import Path

from simdup_gui.engine.actions import move_files, trash_files, write_manifest

ODD = os.fsdecode(b"caf\xe9.txt")  # a name that is not UTF-8, as the OS gives it to Python


def make(root: Path, *names: str) -> list[str]:
    paths = []
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(name.encode("utf-8", "replace").decode(), encoding="utf-8")
        paths.append(str(path))
    return paths


def test_moves_keep_relative_paths_and_never_overwrite(tmp_path: Path) -> None:
    root, destination = tmp_path / "scan", tmp_path / "moved"
    paths = make(root, "a.txt", "sub/b.txt", ODD)
    (destination / "sub").mkdir(parents=True)
    (destination / "sub" / "b.txt").write_text("already here", encoding="utf-8")
    outcomes = move_files([*paths, str(root / "gone.txt")], str(root), str(destination))
    assert [o.action for o in outcomes] == ["moved", "moved", "moved", "failed"]
    assert (destination / "a.txt").read_text(encoding="utf-8") == "a.txt"
    assert (destination / "sub" / "b.txt").read_text(encoding="utf-8") == "already here"
    assert (destination / "sub" / "b (2).txt").read_text(encoding="utf-8") == "sub/b.txt"
    assert (destination / ODD).exists()
    assert not any(Path(p).exists() for p in paths)
    assert outcomes[3].error


def test_trash_reports_each_file_and_the_manifest_says_what_happened(tmp_path: Path) -> None:
    paths = make(tmp_path, "a.txt", ODD, "b.txt")
    sent: list[str] = []

    def send(path: str) -> None:  # the system trash, recorded instead
        if path.endswith("b.txt"):
            raise OSError("the trash is full")
        sent.append(path)

    outcomes = trash_files(paths, send=send)
    assert sent == paths[:2]
    assert [o.action for o in outcomes] == ["trashed", "trashed", "failed"]
    manifest = write_manifest(outcomes, str(tmp_path))
    with open(manifest, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.reader(stream))
    assert rows[0] == ["path", "action", "destination", "error"]
    assert [row[1] for row in rows[1:]] == ["trashed", "trashed", "failed"]
    assert rows[2][0].endswith("caf\\xe9.txt")  # shown, bytes escaped
    assert rows[3][3] == "the trash is full"
    assert all(Path(p).exists() for p in paths)  # only the recorder was called
