"""The reuse report's speed: a folder's report against its scan, one article against 10^6.

    python tests/bench/bench_reuse.py [--folder DIR] [--articles 1000000] [--repeat 3]

1. ``--folder`` (a folder of articles, such as bench_scan.py's 42 MB Chinese folder): the
   whole ``simdup reuse`` command and the whole ``simdup scan`` command, each with an empty
   cache, alternated ``--repeat`` times; the ratio of the medians.
2. A library of ``--articles`` articles: a real library of the sample's articles, to which
   the benchmark adds synthetic articles' passage fingerprints (as many as a 5,000-character
   article's sample holds, random) and their files' sizes, times and paths; then one
   5,000-character article that lifts passages of a real one, checked against it by the
   whole ``simdup reuse --library`` command: its seconds and its peak memory (the baseline:
   the same command against the library before the synthetic articles were added).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.library.store import FENCE  # noqa: E402
from simdup_gui.engine.resources import resource  # noqa: E402

SIMDUP = [str(Path(sys.executable).with_name("simdup"))]


# The command run in a fresh interpreter that says its own peak memory when it ends: a child's
# peak as /usr/bin/time reports it can include pages of the process that started it.
_PEAK = (
    "import atexit, sys; from simdup_gui.cli import run;"
    " atexit.register(lambda: sys.stderr.write([l for l in open('/proc/self/status')"
    " if l.startswith('VmHWM')][0].split()[1] + '\\n'));"
    " sys.argv = ['simdup', *sys.argv[1:]]; run()"
)


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int]:
    """A command's seconds and peak memory (KB, the process's own high-water mark)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *argv[1:]], capture_output=True, text=True, env=env
    )
    if done.returncode not in (0, 1):
        raise RuntimeError(done.stderr)
    return time.perf_counter() - start, int(done.stderr.strip().splitlines()[-1])


def folder_ratio(folder: Path, repeat: int) -> None:
    reuse, scans = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "SIMDUP_CACHE_DIR": cache}
            scans.append(
                timed([*SIMDUP, "scan", str(folder), "--quiet", "--csv", f"{cache}/s.csv"], env)[0]
            )
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "SIMDUP_CACHE_DIR": cache}
            reuse.append(
                timed([*SIMDUP, "reuse", str(folder), "--quiet", "--csv", f"{cache}/r.csv"], env)[0]
            )
    scan_s, reuse_s = statistics.median(scans), statistics.median(reuse)
    ratio = reuse_s / scan_s
    print(f"| folder {folder.name} | scan {scan_s:.2f} s | reuse {reuse_s:.2f} s | {ratio:.2f}x |")


def grow(library: Path, articles: int, rng: np.random.Generator) -> None:
    """Add ``articles`` synthetic articles' passage fingerprints to the library's generation."""
    from simdup_gui.engine.library.store import Library
    from simdup_gui.engine.library.store import _write_checksums as write_checksums

    opened = Library.open(library)
    generation = opened.generation
    real = opened.article_count
    per = 280  # a 5,000-character article's sampled fingerprints
    values = (rng.integers(0, 2**30, articles * per, dtype=np.uint64) * 4).astype(np.uint32)
    owners = np.repeat(np.arange(real, real + articles, dtype=np.uint32), per)
    values = np.concatenate([opened.passages[:], values])
    owners = np.concatenate([opened.passage_owners[:], owners])
    order = np.argsort(values, kind="stable")
    np.save(generation / "passages.npy", values[order])
    np.save(generation / "passage_fences.npy", values[order][::FENCE])
    np.save(generation / "passage_owners.npy", owners[order])
    counts = np.concatenate([np.asarray(opened.passage_counts), np.full(articles, per, np.uint32)])
    np.save(generation / "passage_counts.npy", counts)
    # the synthetic articles as entries: fingerprints, and their files' sizes, times, paths
    fingerprints = rng.integers(0, 2**63, articles, dtype=np.uint64)
    np.save(generation / "fingerprints.npy", np.concatenate([opened.fingerprints, fingerprints]))
    files = np.concatenate([np.load(generation / "files.npy"), np.ones((articles, 2), np.int64)])
    np.save(generation / "files.npy", files)
    names = b"".join(f"/archive/{n}.txt\0".encode() for n in range(articles))
    paths = (generation / "paths.bin").read_bytes() + names
    (generation / "paths.bin").write_bytes(paths)
    ends = np.flatnonzero(np.frombuffer(paths, np.uint8) == 0) + 1
    np.save(generation / "path_ends.npy", ends.astype(np.int64))
    contents = json.loads((generation / "contents.json").read_text(encoding="utf-8"))
    contents["articles"] = real + articles
    (generation / "contents.json").write_text(json.dumps(contents), encoding="utf-8")
    write_checksums(generation)  # as the library writes a generation's: else it is damaged


def library_check(articles: int) -> None:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        archive, new = root / "archive", root / "new"
        shutil.copytree(resource("sample"), archive)
        new.mkdir()
        story = (archive / "zh" / "茶园春茶.txt").read_text(encoding="utf-8")
        picker = random.Random(1)
        own = "".join(
            picker.choice("的一是在不了有和人这中大为上个国我以要他时来用们生") for _ in range(4300)
        )
        (new / "article.txt").write_text(own[:2000] + story[:700] + own[2000:], encoding="utf-8")
        env = {**os.environ, "SIMDUP_CACHE_DIR": str(root / "cache")}
        subprocess.run(
            [*SIMDUP, "library", "add", str(root / "LIB"), str(archive)],
            env=env,
            check=True,
            capture_output=True,
        )
        command = [
            *SIMDUP,
            "reuse",
            str(new),
            "--library",
            str(root / "LIB"),
            "--quiet",
            "--no-cache",
        ]
        base = [timed(command, env) for _ in range(3)]
        # grown in a process of its own: a child started from a large process would show the
        # parent's memory as its own peak (Linux carries the high-water mark over a fork)
        grower = [
            sys.executable,
            __file__,
            "--grow",
            str(root / "LIB"),
            "--articles",
            str(articles),
        ]
        subprocess.run(grower, check=True)
        grown = [timed(command, env) for _ in range(3)]
        seconds, memory = statistics.median(s for s, _ in grown), max(m for _, m in grown)
        print(
            f"| one 5,000-character article against {articles:,} library articles |"
            f" {seconds:.2f} s, {memory / 1024:.0f} MB |"
            f" against the sample's {statistics.median(s for s, _ in base):.2f} s,"
            f" {max(m for _, m in base) / 1024:.0f} MB |"
        )
        size = sum(p.stat().st_size for p in (root / "LIB").rglob("passage*.npy"))
        print(f"(the library's passage index: {size / 1e9:.2f} GB)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--folder", type=Path)
    parser.add_argument("--articles", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--grow", type=Path, help=argparse.SUPPRESS)  # the library to grow
    args = parser.parse_args()
    if args.grow:
        grow(args.grow, args.articles, np.random.default_rng(40))
        return
    print(f"# reuse, {machine()}\n")
    if args.folder:
        folder_ratio(args.folder, args.repeat)
    library_check(args.articles)


if __name__ == "__main__":
    main()
