"""The copy kept by typing slips: what reading copies again costs grouping, and a regroup.

    python tests/bench/bench_slips.py [--groups 300] [--copies 4] [--lines 30]

Writes ``--groups`` groups of ``--copies`` files each to a temporary folder: a Chinese text of
``--lines`` lines and copies of it with two characters doubled in two of its lines (typing
slips), the clean one dated last and named last (so that nothing but the slips and the lines
the others share keep it). Scans it once (its time printed for scale), then groups its
records three ways, timed in the same run: without reading any text again (no slips: the
baseline), with the slips found (their texts read again, the remembered pairs forgotten
first) and again (a regroup: every pair remembered). Prints each time, its ratio to the
baseline, and how many groups kept the clean copy each way.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.fingerprint.file_records import TextShingles  # noqa: E402
from simdup_gui.engine.match import slips  # noqa: E402
from simdup_gui.engine.match.matching import group_files  # noqa: E402
from simdup_gui.engine.options import RunOptions, ScanOptions  # noqa: E402
from simdup_gui.engine.records import FileRecord  # noqa: E402
from simdup_gui.engine.scan import scan  # noqa: E402

WORDS = "春运首日铁路部门共发送旅客三百万人次各地车站秩序井然旅客陆续返乡记者看到工作人员引导有序"


def write_folder(folder: Path, groups: int, copies: int, lines: int) -> None:
    """The groups' files: copies with slips, then the clean text (named and dated last)."""
    rng = np.random.default_rng(11)
    for group in range(groups):
        text = [f"第{n}段：" + "".join(rng.choice(list(WORDS), 40).tolist()) for n in range(lines)]
        for copy in range(copies):
            mine = list(text)
            if copy < copies - 1:
                for line in rng.choice(lines, 2, replace=False).tolist():
                    at = int(rng.integers(8, 40))
                    mine[line] = mine[line][:at] + mine[line][at] + mine[line][at:]
            path = folder / f"{group:04}-{copy}.txt"
            path.write_text("\n".join(mine), encoding="utf-8")
            os.utime(path, (1_000_000 + copy, 1_000_000 + copy))


def clean_kept(groups: tuple, files: tuple[FileRecord, ...], copies: int) -> int:
    """How many groups kept the clean copy (the last of each group's files)."""
    return sum(files[g.reference].path.endswith(f"-{copies - 1}.txt") for g in groups)


def main() -> None:
    """Time the three groupings of the same records and print their ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=300)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--lines", type=int, default=30)
    args = parser.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        write_folder(folder, args.groups, args.copies, args.lines)
        options = ScanOptions(run=RunOptions(jobs=2))
        started = time.perf_counter()
        files = scan(str(folder), options, cache=None).files
        print(f"the scan, for scale: {time.perf_counter() - started:.2f} s, {len(files)} files")
        texts = TextShingles(files, options.read)
        ways: dict[str, Callable[[], tuple]] = {
            "no text read again": lambda: group_files(files, options.group, options.method),
            "slips, texts read": lambda: group_files(
                files, options.group, options.method, texts=texts
            ),
            "slips, remembered": lambda: group_files(
                files, options.group, options.method, texts=texts
            ),
        }
        seconds: dict[str, float] = {}
        for name, grouping in ways.items():
            if name == "slips, texts read":
                slips._found.clear()  # as in a fresh process
            started = time.perf_counter()
            _, groups = grouping()
            seconds[name] = time.perf_counter() - started
            kept = clean_kept(groups, files, args.copies)
            ratio = seconds[name] / seconds["no text read again"]
            print(
                f"{name}: {seconds[name]:.3f} s ({ratio:.2f}× the baseline), "
                f"the clean copy kept in {kept} of {len(groups)} groups"
            )


if __name__ == "__main__":
    main()
