"""Memory of a whole scan as the folder grows: records are kept, texts are not.

    python tests/bench/bench_memory.py [--files 100000] [--small 1000]

Builds folders of ``--small`` and ``--files`` articles (hard links to the files of
``../shared/eval/corpus``, a thousand to a subfolder; copies where links cannot be made), runs
the whole ``simdup scan --no-cache`` command on each, as a user would, and samples the resident
memory of its process and its worker processes together every 20 ms. Reported: the peak, the
bytes of files scanned, and what each file more costs (the difference between the two folders
over the difference in files) — against the size of its text.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

CORPUS = HERE.parents[2] / "shared" / "eval" / "corpus"


def build_folder(folder: Path, count: int) -> int:
    """``count`` article files under ``folder``; returns their bytes."""
    sources = [p for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    total = 0
    for n in range(count):
        source = sources[n % len(sources)]
        target = folder / f"{n // 1000:03}" / f"{n:06}{source.suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(source, target)
        except OSError:
            shutil.copyfile(source, target)
        total += source.stat().st_size
    return total


def peak_memory(command: list[str]) -> tuple[float, float]:
    """Peak resident bytes of the command and its children together, and its seconds."""
    start = time.perf_counter()
    process = psutil.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while process.poll() is None:
        try:
            tree = [process, *process.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass  # a worker ended between the listing and the reading
        time.sleep(0.02)
    if process.returncode:
        raise SystemExit(f"{command} failed with {process.returncode}")
    return peak, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found: {CORPUS}")
    print(f"# memory of a whole scan, {machine()}\n")
    print("| files | MB of files | seconds | peak memory (command + workers) |")
    print("|---:|---:|---:|---:|")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in (args.small, args.files):
            folder = Path(tmp) / f"f{count}"
            size = build_folder(folder, count)
            command = [sys.executable, "-m", "simdup_gui.cli", "scan", str(folder), "--no-cache"]
            command += ["--quiet", "--csv", str(Path(tmp) / f"report{count}.csv")]
            peak, seconds = peak_memory(command)
            rows.append((count, size, peak))
            row = f"| {count:,} | {size / 1e6:.0f} | {seconds:.1f} | {peak / 1e6:.0f} MB |"
            print(row, flush=True)
            shutil.rmtree(folder)
    (small, small_size, small_peak), (large, large_size, large_peak) = rows
    per_file = (large_peak - small_peak) / (large - small)
    text_per_file = (large_size - small_size) / (large - small)
    print(
        f"\neach file more: {per_file / 1e3:.1f} KB of memory for {text_per_file / 1e3:.1f} KB"
        f" of file ({per_file / text_per_file:.2f} of its size)"
    )


if __name__ == "__main__":
    main()
