"""The clean copy's padding check: every text asked about, against only those the choice keeps.

    python tests/bench/bench_padding.py [--parts 200] [--members 20] [--lines 30]

Makes ``--parts`` groups of ``--members`` near-copies of a ``--lines``-line Chinese text (two
lines retyped in each, a navigation line added to every third, the last two lines cut from
every fourth) and chooses each group's copy to keep in two ways, timed in the same run: the
plain reference (``padded_copies``: every text asked whether it is another's, padded, then the
best one not padded) and the choice as ``choose_reference`` makes it (the best text asked, then
the next, until one is not padded). Both must choose the same text.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.fingerprint.lines import lines_of  # noqa: E402
from simdup_gui.engine.match.groups import Padding, padded_copies  # noqa: E402
from simdup_gui.engine.text.tokens import Batch  # noqa: E402

WORDS = "春运首日铁路部门共发送旅客三百万人次各地车站秩序井然旅客陆续返乡"


def part(rng: np.random.Generator, members: int, lines: int) -> list[bytes]:
    """One group's texts, by their lines."""
    base = [f"第{n}段：" + "".join(rng.choice(list(WORDS), 40).tolist()) for n in range(lines)]
    texts = []
    for i in range(members):
        text = list(base)
        for k in rng.choice(lines, 2, replace=False).tolist():
            text[k] = text[k][:10] + "改" + text[k][11:]
        if i % 3 == 0:
            text.insert(0, "新闻中心")
        if i % 4 == 0:
            text = text[:-2]
        texts.append("\n".join(text))
    return list(lines_of(Batch.normalized(texts)))


def every_text(lines: list[bytes], order: list[int]) -> int:
    """The plain reference: every text asked about, then the best not padded."""
    padded = padded_copies(lines)
    return min(order, key=lambda n: (n in padded, order.index(n)))


def as_chosen(lines: list[bytes], order: list[int]) -> int:
    """As ``choose_reference`` asks: the best first, until one is not padded."""
    padding = Padding(lines)
    for n in order:
        if not padding.padded(n):
            return n
    return order[0]


def main() -> None:
    """Time both ways over the same parts and print the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, default=200)
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--lines", type=int, default=30)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    parts = [part(rng, args.members, args.lines) for _ in range(args.parts)]
    orders = [rng.permutation(args.members).tolist() for _ in parts]
    print(machine())
    chosen: dict[str, list[int]] = {}
    seconds: dict[str, float] = {}
    for name, choose in (("every text", every_text), ("as chosen", as_chosen)):
        started = time.perf_counter()
        chosen[name] = [choose(lines, order) for lines, order in zip(parts, orders, strict=True)]
        seconds[name] = time.perf_counter() - started
        print(f"{name}: {seconds[name]:.3f} s for {args.parts} parts of {args.members}")
    assert chosen["every text"] == chosen["as chosen"], "the two ways chose differently"
    ratio = seconds["every text"] / seconds["as chosen"]
    print(f"the same choices; as chosen {ratio:.1f}× as fast")


if __name__ == "__main__":
    main()
