"""Where two texts share passages: the copied spans of each, and the share of its characters.

A unit of text A is copied from text S when a run of RUN units around it (``units.py``) is also
in S, anywhere (sentences reordered inside a passage still match). Copied units form passages;
passages a few units apart (GAP: a typo, a changed word, a dropped character) are one passage,
and a passage shorter than LEAST units (13: CNKI's rule as editors tell it) is a coincidence,
not a copy. Reworded parts count too: passages REWORDED units apart join where shorter runs
(SEED units) S holds cover half the gap, and such seeded stretches at a passage's edges are its
own; they lengthen passages, never make one. Nor is a text a source for fewer than SOURCE
units (two passages' floor, a sentence or so) copied word for word from it and found in it:
one set phrase two short pages share (a menu's path, an option's line) is no copy, whatever
share of a short page it makes (WCopyfind, likewise, reports no pair below its fewest matching
words). The share is of characters, whitespace not counted: those from a passage's first unit
to its last. Units in material many unrelated texts share (template, ``sources.py``) are never
copied; with ``quotes`` left out, neither are units inside quotation marks, and they count in
no total either.

>>> story = "春运期间，铁路部门今天表示将增开列车，旅客可以通过网络购票。"
>>> a = Text.of("本报讯：" + story + "记者张三报道。")
>>> copied = a.copied_from(Text.of("新华社消息：" + story))
>>> round(a.share(copied), 2), a.passages(copied)
(0.73, [(4, 33)])
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.reuse.retold import Rarity, retold
from simdup_gui.engine.reuse.units import RUN, Units, loops, run_hashes, text_units
from simdup_gui.engine.text.codes import SPACE
from simdup_gui.engine.text.tokens import char_flags, code_points

LEAST = 13  # units a passage holds at least to be a copy
LONGEST_MATCH = 1_000  # the most units a passage may be asked to hold (``--min-match``); the
# least is a run's (``units.RUN``): the alignment matches runs
SOURCE = 2 * LEAST  # units copied from one text, and found in it, for it to be a source
GAP = 3  # passages at most this many units apart are one (an edit inside a copied passage)
SEED, REWORDED = 3, 20  # runs of SEED units the source holds join passages REWORDED apart
SLIP_LETTERS = 3  # a word this long or longer, a letter off the source's beside held words, is it
MENDS = 3  # rounds of mending slips (each mended word may make runs that show the next)
_QUOTED = re.compile(r"「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|\"[^\"\n]*\"")
_ATTRIBUTED = re.compile(
    r"据[^。！？\n]{1,24}?(报道|消息|介绍|统计|显示|称)|转载自|来源[:：]|援引|"
    r"(?i:according to|reported by|\(source:|source:)"
)
_SENTENCE_ENDS = ("。", "！", "？", "!", "?", "\n", ". ")  # where a sentence ends
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Text:
    """A text read for the reuse report: its units and their runs."""

    text: str
    units: Units

    @classmethod
    def of(cls, text: str) -> Text:
        """A text, cut into units."""
        return cls(text, text_units(text))

    @cached_property
    def runs(self) -> npt.NDArray[np.uint64]:
        """The hash of each run of RUN units, in order."""
        return run_hashes(self.units.hashes)

    @cached_property
    def sorted_runs(self) -> npt.NDArray[np.uint64]:
        """The run hashes, sorted (to look others up in)."""
        return np.sort(self.runs)

    @cached_property
    def counted(self) -> npt.NDArray[np.int64]:
        """How many characters that count (not whitespace) come before each place of the text."""
        visible = (char_flags(code_points(self.text)) & SPACE) == 0
        return np.concatenate(([0], np.cumsum(visible)))

    @cached_property
    def weights(self) -> npt.NDArray[np.int64]:
        """Each unit's characters that count: its own and those up to the next unit's start.

        Whitespace never counts; punctuation after a unit counts with it.
        """
        ends = np.append(self.units.starts[1:], len(self.text))
        return self.counted[ends] - self.counted[self.units.starts]

    @property
    def chars(self) -> int:
        """The text's characters that count (whitespace left out)."""
        return int(self.counted[-1])

    def quoted(self) -> Mask:
        """The units inside quotation marks (in one pass: the quotations never overlap)."""
        spans = np.array([m.span() for m in _QUOTED.finditer(self.text)], np.int64).reshape(-1, 2)
        starts, ends = self.units.starts, self.units.ends
        if not len(spans) or not len(starts):
            return np.zeros(len(starts), bool)
        last = np.searchsorted(spans[:, 0], starts, side="right") - 1  # the last that opened
        opened = last >= 0
        within = spans[last.clip(0), 1]
        return opened & (ends <= within)

    def template(self, shared: npt.NDArray[np.uint32], reach: int) -> Mask:
        """The units in material many texts share: runs whose fingerprint is ``shared``.

        ``shared`` are fingerprints (a run hash's top 32 bits, sorted); a passage that holds
        them holds one every ``reach`` runs at least (winnowing's window): the units between
        two such runs so near are shared too.
        """
        nothing = np.zeros(len(self.units), bool)
        if not len(shared) or not len(self.runs):
            return nothing
        tops = self.runs >> np.uint64(32)
        return loops().covered(tops, shared.astype(np.uint64), RUN, reach, nothing)

    def cited(self) -> Mask:
        """The units of cited text: quoted (:meth:`quoted`), or in a sentence naming its source.

        Such a sentence says where its words come from (``据新华社报道``, ``转载自``, ``来源：``,
        ``according to``): a copy check's "去除引用" leaves it out with the quotations.
        """
        cited = self.quoted()
        starts = self.units.starts
        if not len(starts):
            return cited
        for found in _ATTRIBUTED.finditer(self.text):
            start, end = found.span()
            before = [self.text.rfind(mark, 0, start) for mark in _SENTENCE_ENDS]
            sentence_start = max(at + 1 if at >= 0 else 0 for at in before)
            ends = [self.text.find(mark, end) for mark in _SENTENCE_ENDS]
            sentence_end = min([at for at in ends if at >= 0], default=len(self.text))
            cited |= (starts >= sentence_start) & (starts < sentence_end)
        return cited

    def copied_from(
        self, source: Text, left_out: Mask | None = None, shortest: int = LEAST
    ) -> Mask:
        """This text's units copied from ``source``: in passages of ``shortest`` units or more.

        ``left_out``: units never copied (template, quotations). A passage reworded in places
        keeps its units there too (:meth:`aligned`).
        """
        return self.aligned(source, left_out, shortest)[1]

    def aligned(
        self, source: Text, left_out: Mask | None = None, shortest: int = LEAST
    ) -> tuple[Mask, Mask]:
        """The units copied word for word, and those with the passages' reworded parts.

        Word for word: runs of RUN units ``source`` holds, passages a GAP apart joined, of
        ``shortest`` units or more (LEAST, or ``--min-match``); a word mistyped in a copied
        passage is the source's (:meth:`respelt`). Reworded: passages REWORDED
        apart joined where runs of SEED units the source holds cover half the gap, and the
        seeded stretches at a passage's edges.
        """
        if not len(self.runs) or not len(source.runs):
            nothing = np.zeros(len(self.units), bool)
            return nothing, nothing
        hashes, runs, seed_runs = self.units.hashes, self.runs, self.seed_runs
        if left_out is None:
            left_out = np.zeros(len(self.units), bool)
        copied, seeds = self._held(source, runs, seed_runs, left_out)
        for _ in range(MENDS if self.long_words.any() else 0):  # mend slips, align again
            looked_at = _beside(seeds) & _within(copied, REWORDED) & ~seeds & self.long_words
            mended = self.respelt(source, looked_at, hashes, seed_runs)
            if mended is None:
                break
            hashes, runs, seed_runs = mended, run_hashes(mended), run_hashes(mended, SEED)
            copied, seeds = self._held(source, runs, seed_runs, left_out)
        return loops().passages(copied, seeds, shortest, GAP, REWORDED)

    def _held(
        self,
        source: Text,
        runs: npt.NDArray[np.uint64],
        seed_runs: npt.NDArray[np.uint64],
        left_out: Mask,
    ) -> tuple[Mask, Mask]:
        """The units in runs of RUN ``source`` holds, and in runs of SEED it holds; not left out."""
        copied = loops().covered(runs, source.sorted_runs, RUN, 0, left_out)
        return copied, self.seeds_in(source, seed_runs, left_out)

    def respelt(
        self,
        source: Text,
        looked_at: Mask,
        hashes: npt.NDArray[np.uint64] | None = None,
        seed_runs: npt.NDArray[np.uint64] | None = None,
    ) -> npt.NDArray[np.uint64] | None:
        """Its unit hashes with each slip of the keys mended (None: none is, against ``source``).

        A slip: a word of ``looked_at`` (beside and near copied words, in no run the source
        holds) one letter off (changed, dropped or doubled: ``evvents``, ``reegistered``,
        ``akd``) the source's word in its place — the word after a run of SEED units both hold
        just before it, or before one just after it: it takes that word's hash, so a copied
        passage mistyped is copied word for word. Not numbers, nor ideographs (``1998`` and
        ``1999`` are two facts; one character changed is a rewording). ``hashes`` and
        ``seed_runs``: its units' hashes and seed runs as mended so far (None: its own).
        """
        if not looked_at.any():
            return None
        if hashes is None or seed_runs is None:
            hashes, seed_runs = self.units.hashes, self.seed_runs
        starts, ends = self.units.starts, self.units.ends
        at = np.flatnonzero(looked_at & self.long_words)
        if not len(at) or not len(source.seed_runs):
            return None
        order, ordered, mine = source.seed_order, source.sorted_seeds, seed_runs
        mended = {}
        for unit in at.tolist():
            word = self.text[starts[unit] : ends[unit]].casefold()
            if not word.isalpha():
                continue  # (an ideograph is a unit of its own: never this long)
            places = []
            if unit >= SEED:  # the run just before: the source's word after its copy
                places += [p + SEED for p in _places(ordered, order, mine[unit - SEED])]
            if unit + 1 < len(mine):  # the run just after: the word before its copy
                places += [p - 1 for p in _places(ordered, order, mine[unit + 1])]
            for place in places:
                if 0 <= place < len(source.units):
                    theirs = source.text[source.units.starts[place] : source.units.ends[place]]
                    value = int(source.units.hashes[place])
                    if value != hashes[unit] and _one_apart(word, theirs.casefold()):
                        mended[unit] = value
                        break
        if not mended:
            return None
        respelt = hashes.copy()
        respelt[list(mended)] = list(mended.values())
        return respelt

    @cached_property
    def long_words(self) -> Mask:
        """Its units of SLIP_LETTERS characters or more: words that a slip may have made."""
        return self.units.ends - self.units.starts >= SLIP_LETTERS

    @cached_property
    def seed_runs(self) -> npt.NDArray[np.uint64]:
        """The hash of each run of SEED units: the shorter matches a reworded passage keeps."""
        return run_hashes(self.units.hashes, SEED)

    @cached_property
    def seed_order(self) -> npt.NDArray[np.int64]:
        """The seed runs' places, by their hashes (a stable sort: places rising on a tie)."""
        return np.argsort(self.seed_runs, kind="stable")

    @cached_property
    def sorted_seeds(self) -> npt.NDArray[np.uint64]:
        """The seed runs, sorted (``seed_order`` orders them too)."""
        return np.sort(self.seed_runs)

    def seeds_in(
        self,
        source: Text,
        seed_runs: npt.NDArray[np.uint64] | None = None,
        left_out: Mask | None = None,
    ) -> Mask:
        """The units of runs of SEED units that ``source`` holds too (anywhere), not left out.

        ``seed_runs``: the text's own, its words respelt (:meth:`respelt`), if not its own.
        """
        mine = self.seed_runs if seed_runs is None else seed_runs
        out = np.zeros(len(self.units), bool) if left_out is None else left_out
        return loops().covered(mine, source.sorted_seeds, SEED, 0, out)

    def share(self, copied: Mask, counted: Mask | None = None) -> float:
        """The share of the text's characters in ``copied`` units (of ``counted`` ones only)."""
        total = self.chars if counted is None else int(self.weights[counted].sum())
        return float(self.weights[copied].sum()) / total if total else 0.0

    def paragraphs(self, copied: Mask, counted: Mask) -> list[tuple[int, int, float]]:
        """Each line with units: where it starts and ends, and the share of it ``copied``.

        Of the characters of its ``counted`` units.
        """
        breaks = np.flatnonzero(code_points(self.text) == 10)
        starts = np.concatenate(([0], breaks + 1))
        ends = np.append(breaks, len(self.text))
        line = np.searchsorted(starts, self.units.starts, side="right") - 1
        whole = np.bincount(line, self.weights * counted, minlength=len(starts))
        inside = np.bincount(line, self.weights * (copied & counted), minlength=len(starts))
        used = np.flatnonzero(np.bincount(line, minlength=len(starts)))
        return [
            (int(starts[n]), int(ends[n]), float(inside[n] / whole[n]) if whole[n] else 0.0)
            for n in used.tolist()
        ]

    def passages(self, copied: Mask) -> list[tuple[int, int]]:
        """The copied passages, as (start, end) characters of the text."""
        firsts, pasts = loops().run_edges(copied)
        starts, ends = self.units.starts[firsts], self.units.ends[pasts - 1]
        return list(zip(starts.tolist(), ends.tolist(), strict=True))


class Between(NamedTuple):
    """Two texts' copied units (:func:`copied_between`)."""

    copied: Mask  # the first text's units copied from the second, reworded parts too
    found: Mask  # the second's found in the first
    verbatim: Mask  # the first's copied word for word
    retold: Mask  # the first's in sentences retelling the second's (``retold.py``)
    found_verbatim: Mask  # the second's found word for word in the first


def copied_between(
    mine: Text,
    theirs: Text,
    mine_out: Mask | None = None,
    theirs_out: Mask | None = None,
    least: int = SOURCE,
    rarity: Rarity | None = None,
    shortest: int = LEAST,
    retell_below: float = math.inf,
    counted: Mask | None = None,
) -> Between:
    """Each text's units copied from the other (``*_out``: never copied), in passages.

    Word for word (:meth:`Text.aligned`) and, in what is left, retold sentence by sentence
    (``retold.py``; ``rarity`` weighs its terms). Nothing at all where either holds fewer
    than ``least`` units copied word for word or retold: no source (words changed here and
    there never make one; a copy already known, a group's member, is measured with no floor).
    ``shortest``: the units a passage holds at least (LEAST; a retold one twice as many);
    retold sentences are looked for where ``mine`` copied less than ``retell_below`` of its
    ``counted`` units (all: None) otherwise (always by default; a copy already known is
    measured on what it copied, unless that is little).
    """
    (exact, copied), (found_exact, found) = (
        mine.aligned(theirs, mine_out, shortest),
        theirs.aligned(mine, theirs_out, shortest),
    )
    mine_left, theirs_left = _with(mine_out, exact), _with(theirs_out, found_exact)
    if retell_below == math.inf or mine.share(copied, counted) < retell_below:
        told, told_back = retold(mine, theirs, mine_left, theirs_left, rarity, 2 * shortest)
    else:
        told, told_back = np.zeros_like(exact), np.zeros_like(found_exact)
    if min(np.count_nonzero(exact | told), np.count_nonzero(found_exact | told_back)) < least:
        nothing = np.zeros_like(copied)
        none = np.zeros_like(found)
        return Between(nothing, none, nothing, nothing, none)
    return Between(copied | told, found | told_back, exact, told, found_exact)


def _with(left_out: Mask | None, found: Mask) -> Mask:
    """Units left out, and those found already."""
    return found if left_out is None else left_out | found


def _beside(units: Mask) -> Mask:
    """The units next to one of ``units``."""
    found = np.zeros_like(units)
    found[1:] |= units[:-1]
    found[:-1] |= units[1:]
    return found


def _within(units: Mask, reach: int) -> Mask:
    """The units ``reach`` or fewer places from one of ``units``."""
    held = np.concatenate(([0], np.cumsum(units)))
    places = np.arange(len(units))
    low, high = np.maximum(places - reach, 0), np.minimum(places + reach + 1, len(units))
    return held[high] > held[low]


def _places(ordered: npt.NDArray[np.uint64], order: npt.NDArray[np.int64], run: int) -> list[int]:
    """Where a text holds a run (``ordered``: its runs sorted, ``order``: their places)."""
    low = int(np.searchsorted(ordered, run, "left"))
    high = int(np.searchsorted(ordered, run, "right"))
    return order[low:high].tolist()


def _one_apart(a: str, b: str) -> bool:
    """Whether two words differ by one letter: changed, dropped or added."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    at = 0
    while at < len(short) and short[at] == long[at]:
        at += 1
    return short[at:] == long[at + 1 :]
