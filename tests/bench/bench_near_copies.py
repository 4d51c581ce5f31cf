"""Thousands of near copies of one story (a syndicated wire story): the whole command.

    python tests/bench/bench_near_copies.py [--n 20000 100000]

For each size, a folder of that many copies of one Chinese article, each with a few characters
changed and a numbered repost line, is scanned by the whole ``simdup scan DIR --csv OUT
--no-cache`` command in its own process. Reported: wall time, peak memory of the command's
largest process, the groups found (one group holding every copy is the right answer), and as
a baseline timed in the same run, ``jieba.lcut`` over the same texts on one core.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.resources import resource as bundled  # noqa: E402

COMMAND = [sys.executable, "-m", "simdup_gui.cli", "scan"]
STORY = (bundled("sample") / "zh" / "春运返乡.txt").read_text(encoding="utf-8") * 2


def make_folder(root: Path, n: int, seed: int = 0) -> list[str]:
    """``n`` near copies of STORY in ``root`` (100 per subfolder); returns their texts."""
    rng = random.Random(seed)
    letters = [c for c in STORY if "\u4e00" <= c <= "\u9fff"]
    texts = []
    for i in range(n):
        chars = list(STORY)
        for _ in range(3):
            chars[rng.randrange(len(chars))] = rng.choice(letters)
        text = f"第{i}号转载\n" + "".join(chars)
        folder = root / f"{i // 100:04d}"
        folder.mkdir(exist_ok=True)
        (folder / f"copy-{i}.txt").write_text(text, encoding="utf-8")
        texts.append(text)
    return texts


def jieba_floor(texts: list[str]) -> float:
    """Seconds for jieba.lcut over the texts on one core (dictionary loaded beforehand)."""
    import jieba

    jieba.lcut("预热")
    start = time.perf_counter()
    for text in texts:
        jieba.lcut(text)
    return time.perf_counter() - start


def run(n: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp) / "copies"
        root.mkdir()
        texts = make_folder(root, n)
        floor = jieba_floor(texts[: min(n, 5000)]) * n / min(n, 5000)
        out = Path(temp) / "report.csv"
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "simdup_gui.cli",
                "scan",
                str(root),
                "--csv",
                str(out),
                "--no-cache",
                "--quiet",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        seconds = time.perf_counter() - start
        peak_kb = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
        with open(out, encoding="utf-8-sig") as stream:
            sizes = Counter(row["group_id"] for row in csv.DictReader(stream) if row["group_id"])
        shutil.rmtree(root)
    return {
        "copies": n,
        "exit": done.returncode,
        "seconds": round(seconds, 1),
        "peak_gb": round(peak_kb / 1e6, 2),
        "groups": len(sizes),
        "largest_group": max(sizes.values(), default=0),
        "jieba_floor_seconds": round(floor, 1),
        "x_jieba": round(floor / seconds, 2),
        "summary": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, nargs="+", default=[20_000, 100_000])
    args = parser.parse_args()
    print(machine())
    for n in args.n:
        print(json.dumps(run(n), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
