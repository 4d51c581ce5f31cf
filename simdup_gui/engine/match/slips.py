r"""Typing slips: which of two copies of a text was typed again, told by where they differ.

A copy retyped or scanned by hand carries slips its original lacks: a character doubled,
dropped or replaced (``就业业岗位``, ``coreutils`` → ``correutils``). Where two copies differ
by a short edit (at most SLIP_UNITS units on each side: an ideograph, a word or a mark, as the
compare view's differences are cut, ``text/textdiff.py``), at least SLIP_GAP characters from
any other difference, the side whose text, with the character on each side of it, the other
copy also holds somewhere is spelt as that copy spells it; the side the other copy holds
nowhere is a slip. A sentence moved, cut or added, a line added or reflowed are no slips:
they are longer, or they lie outside the lines one copy has in place of the other's.

Only such lines are compared (difflib on the two texts' lines), and two copies are read again
only where their records' line values show some (:func:`may_slip`, ``fingerprint/lines.py``);
what a pair gave is remembered by the files' versions (:func:`losses`).

>>> slips("其中就业岗位三百个。\n就业是民生之本。", "其中就业业岗位三百个。\n就业是民生之本。")
(0, 1)
"""

from __future__ import annotations

import difflib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING, Protocol

from simdup_gui.engine.fingerprint.lines import line_lengths, line_values
from simdup_gui.engine.text.textdiff import diff_hunks, units

if TYPE_CHECKING:
    from simdup_gui.engine.run.workers import Pool

SLIP_UNITS = 2  # an edit of more units on either side is an edit, not a slip
SLIP_GAP = 10  # characters of agreement around a slip on both sides (else: a rewritten passage)
SLIP_MEMBERS = 8  # more copies tied for the reference than this are not compared for slips
REMEMBERED = 1 << 16  # pairs whose slips are remembered (a few hundred bytes each)


def may_slip(a: bytes, b: bytes) -> bool:
    """Whether two texts, by their line values, have lines retyped (:func:`retyped`)."""
    mine, theirs = line_values(a), line_values(b)
    blocks = retyped(mine.tolist(), theirs.tolist(), line_lengths(mine), line_lengths(theirs))
    return next(blocks, None) is not None


def retyped(
    mine: Sequence[Hashable],
    theirs: Sequence[Hashable],
    my_lengths: Sequence[int],
    their_lengths: Sequence[int],
) -> Iterator[tuple[range, range]]:
    """Where two texts' lines (any values telling equal lines) were retyped, as two ranges.

    Lines one text has in place of as many of the other's (difflib), each nearly as long as
    the line in its place: at most a tenth of the longer and SLIP_UNITS characters apart.
    """
    matcher = difflib.SequenceMatcher(None, mine, theirs, autojunk=False)
    for op, lo, hi, their_lo, their_hi in matcher.get_opcodes():
        if op != "replace" or hi - lo != their_hi - their_lo:
            continue
        pairs = zip(my_lengths[lo:hi], their_lengths[their_lo:their_hi], strict=True)
        if all(abs(x - y) <= max(x, y) // 10 + SLIP_UNITS for x, y in pairs):
            yield range(lo, hi), range(their_lo, their_hi)


def slips(a: str, b: str) -> tuple[int, int]:
    """How many slips ``a`` and ``b`` each have against the other (see the module)."""
    lines_a, lines_b = _lines(a), _lines(b)
    lengths_a, lengths_b = map(_lengths, (lines_a, lines_b))
    found = [0, 0]
    for mine, theirs in retyped(lines_a, lines_b, lengths_a, lengths_b):
        x = "\n".join(lines_a[mine.start : mine.stop])
        y = "\n".join(lines_b[theirs.start : theirs.stop])
        for side in _sides(x, y, a, b):
            found[side] += 1
    return found[0], found[1]


def _lines(text: str) -> list[str]:
    """The text's lines that hold more than whitespace, as ``fingerprint/lines.py`` has them."""
    return [line.strip() for line in text.splitlines() if line.strip()]


def _lengths(lines: list[str]) -> list[int]:
    """Each line's characters, whitespace not counted (as a line value's length)."""
    return [len("".join(line.split())) for line in lines]


def _sides(x: str, y: str, a: str, b: str) -> list[int]:
    """Which side (0: ``x``, of ``a``; 1: ``y``, of ``b``) slipped at each short edit."""
    hunks = diff_hunks(x, y)
    found = []
    for at, ((x_lo, x_hi), (y_lo, y_hi)) in enumerate(hunks):
        if len(units(x[x_lo:x_hi])) > SLIP_UNITS or len(units(y[y_lo:y_hi])) > SLIP_UNITS:
            continue
        (_, x_end), (_, y_end) = hunks[at - 1] if at else ((0, -SLIP_GAP), (0, -SLIP_GAP))
        far = (x_hi + SLIP_GAP, 0), (y_hi + SLIP_GAP, 0)
        (x_next, _), (y_next, _) = hunks[at + 1] if at + 1 < len(hunks) else far
        if min(x_lo - x_end, y_lo - y_end, x_next - x_hi, y_next - y_hi) < SLIP_GAP:
            continue
        x_held = x[max(0, x_lo - 1) : x_hi + 1] in b
        y_held = y[max(0, y_lo - 1) : y_hi + 1] in a
        if x_held != y_held:
            found.append(1 if x_held else 0)
    return found


class Reread(Protocol):
    """Texts read again by number (a grouping's nodes: ``match/exact.NodeTexts``)."""

    def reading(self, node: int) -> Reading | None:
        """How to read the text again as the scan read it, or None (there is no text).

        A picklable call (another process may read it), giving None where the text cannot be
        read, or changed since.
        """

    def version(self, node: int) -> Hashable:
        """What tells the text: its file's version and how it was read."""


def losses(nodes: Sequence[int], lines: Sequence[bytes], texts: Reread) -> list[int]:
    """For each of ``nodes`` (their ``lines``), how many of the others have fewer slips than it.

    Texts are compared two by two (:func:`slips`), read only where :func:`may_slip` says their
    lines allow slips; one that cannot be read is compared with none. What a pair gave is
    remembered by the texts' versions (REMEMBERED pairs): a regroup reads nothing again.
    """
    read: dict[int, str | None] = {}

    def text(at: int) -> str | None:
        if at not in read:
            read[at] = _read(texts.reading(nodes[at]))
        return read[at]

    lost = [0] * len(nodes)
    for (a, b), key in _pairs(nodes, texts):
        with _lock:
            found = _found.get(key)
            if found is not None:
                _found.move_to_end(key)
        if found is None:
            found = _pair_slips(lines[a], lines[b], partial(text, a), partial(text, b))
            _remember(key, found)
        lost[a] += found[0] > found[1]
        lost[b] += found[1] > found[0]
    return lost


def _pairs(nodes: Sequence[int], texts: Reread) -> Iterator[tuple[tuple[int, int], Key]]:
    """Every two of ``nodes`` (their places) and the pair's key: the texts' versions, in order."""
    versions = [texts.version(node) for node in nodes]
    order = sorted(range(len(nodes)), key=lambda at: repr(versions[at]))  # a pair's key, once
    for a, b in combinations(order, 2):
        yield (a, b), (versions[a], versions[b])


def _pair_slips(
    lines_a: bytes, lines_b: bytes, text_a: Reading, text_b: Reading
) -> tuple[int, int]:
    """:func:`slips` of two texts, read only where their lines allow some (else none)."""
    if not may_slip(lines_a, lines_b):
        return 0, 0
    x, y = text_a(), text_b()
    return slips(x, y) if x is not None and y is not None else (0, 0)


def _remember(key: Key, found: tuple[int, int]) -> None:
    with _lock:
        _found[key] = found
        if len(_found) > REMEMBERED:
            _found.popitem(last=False)


def forget_slips() -> None:
    """Forget the pairs' slips this process remembers (for a benchmark timing a first scan)."""
    with _lock:
        _found.clear()


AHEAD_PAIRS = 256  # pairs from which they are measured ahead in worker processes (starting
# two takes 20-30 ms, what measuring 100-200 pairs here takes)
AHEAD_TASK = 32  # pairs a worker's task measures


def measure_ahead(
    ties: Sequence[Sequence[int]],
    lines: Sequence[bytes],
    texts: Reread,
    jobs: int,
    cancel: Callable[[], bool],
    workers: Pool | None = None,
) -> None:
    """Measure, in ``jobs`` worker processes, the pairs of each tie that :func:`losses` will ask.

    ``ties``: lists of nodes compared two by two (``lines`` and ``texts`` by node). Each pair
    not remembered is measured in a worker (its texts read there) and remembered here:
    :func:`losses` then reads nothing, and a folder of many near copies reads and compares its
    copies on every core instead of one. Done with AHEAD_PAIRS pairs or more and more than
    one job: on ``workers`` kept between scans when they are running (the app's), else on
    processes forked for it where this process may fork (no other thread: the command
    line's); elsewhere :func:`losses` measures them as it goes. The same figures either way
    (the same calls). Stops with ``cancel``; none of the processes it starts outlives it.
    """
    from simdup_gui.engine.run.workers import WorkerPool

    wanted: dict[Key, tuple[int, int]] = {}
    for tie in ties:
        for (a, b), key in _pairs(tie, texts):
            with _lock:
                known = key in _found
            if not known and len(wanted) < REMEMBERED:
                wanted[key] = tie[a], tie[b]
    if jobs < 2 or len(wanted) < AHEAD_PAIRS:
        return
    keys, pairs = list(wanted), list(wanted.values())
    readings = {node: texts.reading(node) for pair in pairs for node in pair}
    chunks = [pairs[at : at + AHEAD_TASK] for at in range(0, len(pairs), AHEAD_TASK)]
    tasks = [[(a, b, lines[a], lines[b], readings[a], readings[b]) for a, b in c] for c in chunks]
    if isinstance(workers, WorkerPool) and workers.running:
        _remember_all(keys, workers.executor(jobs).map(_measured, tasks), cancel)
        return
    from simdup_gui.engine.run.batches import interrupts_held, process_context, stop_now
    from simdup_gui.engine.run.workers import process_pool

    context = process_context()
    if context.get_start_method() != "fork":
        return  # spawning workers takes longer than measuring here
    pool = process_pool(jobs, context)
    try:
        with interrupts_held():  # the workers fork as the tasks are given
            outcomes = pool.map(_measured, tasks)
        if not _remember_all(keys, outcomes, cancel):
            stop_now(pool)
    finally:
        pool.shutdown(wait=True)


def _remember_all(
    keys: list[Key], outcomes: Iterator[list[tuple[int, int]]], cancel: Callable[[], bool]
) -> bool:
    """Remember the tasks' outcomes under the pairs' keys; False when cancelled first."""
    found = (item for task in outcomes for item in task)
    for key, slipped in zip(keys, found, strict=False):
        _remember(key, slipped)
        if cancel():
            return False
    return True


def _measured(pairs: Task) -> list[tuple[int, int]]:
    """A worker's task for :func:`measure_ahead`: each pair's slips, each text read once."""
    read: dict[int, str | None] = {}

    def text(node: int, reading: Reading | None) -> str | None:
        if node not in read:
            read[node] = _read(reading)
        return read[node]

    return [
        _pair_slips(x, y, partial(text, a, read_a), partial(text, b, read_b))
        for a, b, x, y, read_a, read_b in pairs
    ]


def _read(reading: Reading | None) -> str | None:
    return None if reading is None else reading()


Key = tuple[Hashable, Hashable]  # a pair's texts' versions
Reading = Callable[[], str | None]  # a text read when called (None: it cannot be)
Task = list[tuple[int, int, bytes, bytes, Reading | None, Reading | None]]  # nodes, lines, readings
_found: OrderedDict[Key, tuple[int, int]] = OrderedDict()
_lock = threading.Lock()  # a regroup on the window's thread, a scan on another
