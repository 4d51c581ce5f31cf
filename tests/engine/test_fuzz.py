"""Hostile folders and damaged caches, generated: the scan's promises hold for all of them.

Each example builds a folder of random bytes, truncated encodings, broken and nested HTML,
odd names and links, scans it through the command line twice with a cache (damaging the cache
in between), and checks: exit 0; one report row per walked file; no file changed; the report
equal to a clean-cache report. A few examples run by default; ``--hypothesis-profile=long``
runs 500.
"""

from __future__ import annotations

import csv
import io
import os
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS, SKIPPED_FOLDERS

STORY = (
    "铁路部门今天表示，春运期间将增开列车。旅客可以通过网络购票。"
    "The harbour lighthouse reopened after two years of careful repairs. "
)
CODECS = ["utf-8", "utf-8-sig", "gbk", "gb18030", "big5", "utf-16", "latin-1"]


@st.composite
def encoded_text(draw: st.DrawFn) -> bytes:
    text = draw(st.text(min_size=0, max_size=60)) + STORY * draw(st.integers(0, 6))
    data = text.encode(draw(st.sampled_from(CODECS)), errors="replace")
    return data[: draw(st.integers(0, len(data)))]  # maybe cut mid-character


@st.composite
def broken_html(draw: st.DrawFn) -> bytes:
    tags = draw(st.lists(st.sampled_from(["div", "p", "nav", "script", "a", "table"]), max_size=8))
    charset = draw(st.sampled_from(["utf-8", "gbk", "punycode", "rot13", "nonsense", ""]))
    body = "".join(f"<{t} class='{draw(st.sampled_from(['nav', 'content', 'x']))}'>" for t in tags)
    body += STORY * draw(st.integers(0, 4)) + draw(st.text(max_size=30))
    body += "".join(f"</{t}>" for t in reversed(tags[: draw(st.integers(0, len(tags)))]))
    page = f"<html><head><meta charset='{charset}'></head><body>{body}"
    return page.encode("utf-8", errors="replace")[: draw(st.integers(0, 4000))]


CONTENT = st.one_of(st.binary(max_size=300), encoded_text(), broken_html())
NAME = st.one_of(
    st.text(st.characters(blacklist_characters="/\0", blacklist_categories=("Cs",)), max_size=12),
    st.binary(min_size=1, max_size=8)
    .filter(lambda b: b"/" not in b and b"\0" not in b)
    .map(os.fsdecode),
)


@st.composite
def folder_plan(draw: st.DrawFn) -> list[tuple[str, str, object]]:
    """(kind, relative path, content or link target) for each item."""
    items: list[tuple[str, str, object]] = []
    names: set[str] = set()
    for _ in range(draw(st.integers(1, 8))):
        sub = draw(st.sampled_from(["", "sub/", ".hidden/", "node_modules/", "deep/er/"]))
        name = draw(NAME) + draw(st.sampled_from([*DEFAULT_EXTENSIONS, ".md", ".dat"]))
        path = sub + name
        if name in (".", "..") or path in names or name.startswith("/"):
            continue
        names.add(path)
        kind = draw(st.sampled_from(["file", "file", "file", "copy", "link", "dangling"]))
        items.append((kind, path, draw(CONTENT)))
    return items


def build(root: Path, plan: list[tuple[str, str, object]]) -> None:
    made: list[Path] = []
    for kind, relative, content in plan:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            if kind == "link" and made:
                path.symlink_to(made[0])
            elif kind == "dangling":
                path.symlink_to(root / "missing-target.txt")
            elif kind == "copy" and made:
                path.write_bytes(made[-1].read_bytes())
            else:
                path.write_bytes(content)  # type: ignore[arg-type]
                made.append(path)
        except OSError:
            continue  # a name this file system refuses (too long): not part of the folder


def walked(root: Path) -> int:
    """How many files the walk yields: article names outside hidden and tool folders."""
    count = 0
    for _folder, subfolders, files in os.walk(root):
        subfolders[:] = [
            d for d in subfolders if not d.startswith(".") and d not in SKIPPED_FOLDERS
        ]
        wanted = tuple(DEFAULT_EXTENSIONS)
        count += sum(1 for f in files if f.lower().endswith(wanted) and not f.startswith("."))
    return count


def state(root: Path) -> dict[str, tuple[bytes, int]]:
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if path.is_file() and not path.is_symlink():
                out[str(path)] = (path.read_bytes(), path.stat().st_mtime_ns)
    return out


def report(root: Path, *flags: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["scan", str(root), "--jobs", "1", "--quiet", *flags], out, err)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue()


DAMAGE = {  # by kind: 0 cuts the file in half; these run statements in it
    1: [
        "UPDATE files SET sketch = x'00', features = -1, fingerprint = 12345",
        "DELETE FROM snapshots",
        "UPDATE kept_reports SET groups = groups + 1",
    ],
    2: [
        "UPDATE snapshots SET records = x'93'",
        "UPDATE groupings SET members = x'0102030405'",
        "UPDATE kept_reports SET report = x'41'",
    ],
}


def damage(cache: Path, how: int) -> None:
    if how == 0:
        data = cache.read_bytes()
        cache.write_bytes(data[: len(data) // 2])
    elif how in DAMAGE:
        db = sqlite3.connect(cache)
        for statement in DAMAGE[how]:
            db.execute(statement)
        db.commit()
        db.close()


# the default run's few examples; a profile asking for more (``long``) gets them
EXAMPLES = 12 if settings.default.max_examples <= 100 else settings.default.max_examples


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(folder_plan(), st.integers(0, 3))
def test_hostile_folders_and_damaged_caches_keep_every_promise(
    plan: list[tuple[str, str, object]], how: int
) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root, cache = Path(temp) / "articles", Path(temp) / "cache"
        root.mkdir()
        build(root, plan)
        before = state(root)
        old = os.environ.get("SIMDUP_CACHE_DIR")
        os.environ["SIMDUP_CACHE_DIR"] = str(cache)
        try:
            clean_code, clean = report(root, "--no-cache")
            assert clean_code == 0
            rows = list(csv.DictReader(io.StringIO(clean)))
            assert len(rows) == walked(root)
            assert report(root) == (0, clean)  # filling the cache
            damage(cache / "fingerprints.sqlite3", how)
            assert report(root) == (0, clean)  # served from a damaged cache
            assert report(root) == (0, clean)  # and from the rebuilt one
        finally:
            if old is None:
                del os.environ["SIMDUP_CACHE_DIR"]
            else:
                os.environ["SIMDUP_CACHE_DIR"] = old
        assert state(root) == before
