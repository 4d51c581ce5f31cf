"""Grouping at scale: pairing and grouping many fingerprinted files, the reading left out.

    python tests/bench/bench_grouping.py [--files 100000] [--family 10]

Makes ``--files`` records in families of ``--family`` near-copies: each family's texts are one
text of 300 words drawn from jieba's dictionary by their frequencies (so common words and
shingles recur across families, as in real Chinese text) with its end cut a little differently,
and every record gets a random fingerprint and opening (so the permuted index finds nothing and
the sketch bands must find the families). Times ``group_files`` at the defaults.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import jieba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.fingerprint.shingles import sketches  # noqa: E402
from simdup_gui.engine.match.matching import group_files  # noqa: E402
from simdup_gui.engine.options import ScanOptions  # noqa: E402
from simdup_gui.engine.records import FileRecord  # noqa: E402


def family_texts(families: int, rng: np.random.Generator) -> list[str]:
    """One text per family, words drawn from jieba's dictionary by frequency."""
    words, counts = [], []
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as f:
        for line in f:
            word, count = line.split()[:2]
            words.append(word)
            counts.append(int(count))
    weights = np.array(counts, dtype=float) / sum(counts)
    drawn = rng.choice(len(words), size=(families, 300), p=weights)
    return ["".join(words[w] for w in row) for row in drawn]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--family", type=int, default=10)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    texts = family_texts(args.files // args.family, rng)
    files = []
    for lo in range(0, len(texts), 500):
        for n, text in enumerate(texts[lo : lo + 500], lo):
            copies = [text[: len(text) - cut] for cut in range(args.family)]
            for m, sketch in enumerate(sketches(copies)):
                fingerprint, lead = (int(x) for x in rng.integers(0, 2**63, 2))
                files.append(
                    FileRecord(
                        f"/f{n}/{m}.txt",
                        len(text),
                        fingerprint=fingerprint,
                        chars=len(text),
                        sketch=sketch.tobytes(),
                        lead=lead,
                    )
                )
    options = ScanOptions()
    start = time.perf_counter()
    pairs, groups = group_files(tuple(files), options.group)
    seconds = time.perf_counter() - start
    whole = sum(1 for g in groups if len(g) == args.family)
    print(f"# grouping, {machine()}")
    print(
        f"{len(files):,} files in families of {args.family}: {seconds:.1f} s, {len(pairs):,} pairs,"
        f" {len(groups):,} groups ({whole:,} of them a whole family)"
    )


if __name__ == "__main__":
    main()
