"""Passages retold: sentences of one text that say what sentences of another say, in other words.

A heavy rewrite keeps no run of words (``align.py`` finds none), but it keeps what is said: the
names, the numbers, the content words, sentence by sentence. So the two texts are compared as
the best systems of PAN's text-alignment task compare them (Sanchez-Perez, Sidorov and Gelbukh,
PAN 2014): **seeds** are sentence pairs whose weighted terms have a cosine of SIMILAR or more
and a Dice coefficient of DICE or more, sharing SHARED terms at least, each sentence WORDY
terms or more and the other's nearest on one side at least (a sentence like many of the
other text's, by its topic's words, seeds with its nearest only); **extension** joins seeds
NEAR sentences apart at most in both texts into passages (merged and split sentences alike);
**filtering** keeps a passage spanning SPAN sentences of the two texts or more (or one
sentence retold alone that shares ALONE rare terms), its seeds sharing SAID rare terms (RARE
articles or fewer hold them), its own sentences holding SOURCE units (a source's floor).
Where no sentence seeds a passage (a heavy rewrite merges, splits and reorders its
sentences), **paragraphs** retold whole are looked for the same way: blocks between blank
lines (else lines) whose terms have a cosine of PARAGRAPH_SIMILAR and a Dice coefficient of
PARAGRAPH_DICE or more, sharing PARAGRAPH_SAID rare terms — or more than SAID, where that is
DISTINCT times what either shares with any other paragraph of the other text and the two hold
SPAN sentences between them (a ratio test: a page on the topic shares its words with several
paragraphs alike; a list's line is no paragraph) — the paragraph holding the floor's units.

Terms: a word's first STEM letters (``repairs`` and ``repaired`` one term), stopwords left
out; in Chinese every two neighbouring ideographs (a word, or a part of one) but those with a
particle (的, 了, 是…), which any sentence may hold. Only a sentence of prose gives terms (PROSE
function words at least: a menu path, an option list, a line of code gives none). A term
weighs its idf in the folder (:class:`Rarity`: each record keeps its terms, :func:`kept_terms`),
else over the two texts' sentences (tf-isf, as PAN's systems weigh them).

>>> from simdup_gui.engine.reuse.align import Text
>>> source = Text.of(
...     "The old lighthouse at the northern end of the harbour was built in 1871. "
...     "Its keepers lived in the cottage beside it until the light was automated in 1962. "
...     "Today the cottage is a small museum run by volunteers."
... )
>>> retelling = Text.of(
...     "Volunteers now run a little museum in the keepers' cottage. "
...     "Built in 1871, the lighthouse guarding the harbour's northern end "
...     "was looked after by keepers living next door until automation came in 1962."
... )
>>> mine, theirs = retold(retelling, source)
>>> bool(mine.all())
True
>>> for start, end in source.passages(theirs):
...     print(source.text[start:end])
The old lighthouse at the northern end of the harbour was built in 1871
Today the cottage is a small museum run by volunteers
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import pairwise
from typing import NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct, holding_pairs, mix
from simdup_gui.engine.fingerprint.codes import PAIR_BASE, STEM, STEM_BASE
from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.reuse.units import Units, canonical, text_units
from simdup_gui.engine.text.codes import IDEOGRAPH
from simdup_gui.engine.text.normalize import stopwords
from simdup_gui.engine.text.tokens import Batch, char_flags, code_points

SOURCE = 26  # units a passage's own sentences hold at least (``align.SOURCE``)
SIMILAR, DICE, SHARED = 0.28, 0.28, 3  # a seed: two sentences saying the same
PARAGRAPH_SIMILAR, PARAGRAPH_DICE = 0.3, 0.2  # a paragraph retold whole, its sentences merged
PARAGRAPH_SAID = 10  # rare terms a paragraph retold shares at least (two seeds' worth) ...
DISTINCT = 2  # ... or over SAID, and this many times what either shares with another paragraph
NEAR = 2  # seeds at most this many sentences apart, in each text, are one passage
SPAN, SAID = 3, 5  # sentences of the two texts a passage spans, rare terms its seeds share
ALONE = 3 * SAID  # rare terms one sentence retold alone shares (names, numbers): a passage
WORDY = 4  # terms a sentence holds at least to be a seed's
PROSE = 2  # function words (the, of; 的, 了) a sentence holds at least: prose, not a list
CROSSINGS = 1 << 22  # products of two sentences' shared terms made at most (memory)
MOST_TERMS = 4_096  # terms a record keeps at most
RARE, TOLD, CANDIDATES = 20, 0.1, 5  # who may retell whom (:func:`told_candidates`)
_PARTICLES = "的了着过是在和与及也就都而把被之其所或且吗吧呀呢啊哦么"
_BLANK_LINE = re.compile(r"\n[ \t\u3000]*\n")  # between paragraphs
_ENDS = "。！？；!?;\n"  # characters ending a sentence (and a full stop before a space)
U64 = npt.NDArray[np.uint64]
Mask = npt.NDArray[np.bool_]


class Read(Protocol):
    """A text and its units (``align.Text`` is one)."""

    text: str
    units: Units


def kept_terms(batch: Batch) -> list[bytes]:
    """Each text's distinct terms, as its record keeps them: hashes' top 32 bits, sorted.

    The terms :func:`retold` compares (a word's stem, two ideographs), of the normalised
    text; MOST_TERMS at most (the lowest: the same terms of every text). They tell who may
    have retold whom (:func:`told_candidates`) and how rare each term is in a folder.
    """
    kernels = kernel_module("simdup_gui.engine.fingerprint.kernels")

    hashes, owners = kernels.term_hashes(
        batch.codes, batch.flags, batch.bounds, _stopword_stems(), _particles()
    )
    keys = distinct(owners * (1 << 32) + (hashes >> np.uint64(32)).astype(np.int64))
    cuts = np.searchsorted(keys >> 32, np.arange(len(batch.bounds))).tolist()
    values = (keys & 0xFFFFFFFF).astype("<u4")
    return [values[lo : min(hi, lo + MOST_TERMS)].tobytes() for lo, hi in pairwise(cuts)]


def terms_of(kept: bytes) -> npt.NDArray[np.uint32]:
    """A record's terms (:func:`kept_terms`)."""
    return np.frombuffer(kept, dtype="<u4").astype(np.uint32)


class Rarity(NamedTuple):
    """How many of a folder's articles hold each term (its records' :func:`kept_terms`)."""

    terms: npt.NDArray[np.uint32]  # sorted
    holders: npt.NDArray[np.int64]  # of each
    articles: int

    @classmethod
    def of(cls, kept: Sequence[npt.NDArray[np.uint32]]) -> Rarity:
        """Count the articles' terms."""
        values = np.concatenate([*kept, np.empty(0, np.uint32)])
        terms, holders = np.unique(values, return_counts=True)
        return cls(terms, holders, len(kept))

    def rare(self, hashes: U64) -> Mask:
        """Whether RARE articles or fewer hold each term."""
        return self._holders(hashes) <= RARE

    def weights(self, hashes: U64) -> npt.NDArray[np.float64]:
        """Each term's idf: the log of the articles over its holders (one if none holds it)."""
        return self.idf(self._holders(hashes))

    def idf(self, holders: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The log of the articles over the holders (a term's weight)."""
        return np.log(max(self.articles, 2) / np.minimum(holders, self.articles))

    def _holders(self, hashes: U64) -> npt.NDArray[np.int64]:
        """How many articles hold each term (one if none: the text at hand holds it)."""
        if not len(self.terms):
            return np.ones(len(hashes), np.int64)
        tops = (hashes >> np.uint64(32)).astype(np.uint32)
        at = np.searchsorted(self.terms, tops).clip(0, len(self.terms) - 1)
        return np.where(self.terms[at] == tops, self.holders[at], 1)


def told_candidates(
    kept: dict[int, npt.NDArray[np.uint32]], rarity: Rarity
) -> list[tuple[int, int]]:
    """Pairs of articles (lower first) sharing enough of their rarer terms to be compared.

    ``kept``: each article's terms (:func:`terms_of`), counted in ``rarity``. A term RARE
    articles or fewer hold weighs its idf; a pair is a candidate when the terms it shares
    weigh TOLD of the lighter article's terms at least: each article's CANDIDATES heaviest
    pairs only (a folder of one topic is not all compared).
    """
    if len(kept) < 2:
        return []
    names = np.array(sorted(kept), np.int64)
    owners = np.concatenate([np.full(len(kept[n]), at, np.int64) for at, n in enumerate(names)])
    values = np.concatenate([kept[n] for n in names])
    which = np.searchsorted(rarity.terms, values)
    holders = rarity.holders[which]
    idf = rarity.idf(holders)
    weights = np.bincount(owners, idf, minlength=len(names))
    rare = (holders >= 2) & (holders <= RARE)
    order = np.lexsort((owners[rare], which[rare]))
    owners, which, idf = owners[rare][order], which[rare][order], idf[rare][order]
    first, second = holding_pairs(which, RARE + 1)  # a rare term's holders, two by two
    pairs, where = np.unique(owners[first] * len(names) + owners[second], return_inverse=True)
    weight = np.bincount(where, idf[first], minlength=len(pairs))
    shared = np.bincount(where, minlength=len(pairs))
    a, b = pairs // len(names), pairs % len(names)
    share = np.round(weight / np.maximum(np.minimum(weights[a], weights[b]), 1e-9), 9)
    keep = (share >= TOLD) & (shared >= SHARED)
    a, b, share = a[keep], b[keep], share[keep]
    side = np.concatenate([a, b])  # each pair once for each of its articles
    pair = np.tile(np.arange(len(a)), 2)
    order = np.lexsort((pair, -np.tile(share, 2), side))  # by article, heaviest first
    rank = np.arange(len(order)) - np.searchsorted(side[order], side[order])
    found = np.unique(pair[order[rank < CANDIDATES]])
    return sorted(zip(names[a[found]].tolist(), names[b[found]].tolist(), strict=True))


def retold(
    mine: Read,
    theirs: Read,
    mine_out: Mask | None = None,
    theirs_out: Mask | None = None,
    rarity: Rarity | None = None,
    least: int = SOURCE,
) -> tuple[Mask, Mask]:
    """The units of each text in passages the other retells (see the module).

    ``*_out``: units that give no terms (template, quotations, what is already found copied);
    ``rarity``: the folder's terms, which weigh them (else the two texts' sentences do);
    ``least``: the units a passage's own sentences hold at least.
    """
    none = np.zeros(len(mine.units), bool), np.zeros(len(theirs.units), bool)
    if sum(len(units) for units in (mine.units, theirs.units)) < 2 * least:
        return none
    if mine_out is not None and np.count_nonzero(~mine_out) < least:
        return none  # too little of it left to retell anything
    ours, their = _sentences(mine), _sentences(theirs)
    a, b = _terms(mine, ours, mine_out), _terms(theirs, their, theirs_out)
    if not len(a[0]) or not len(b[0]):
        return none
    seeds = _seeds(a, b, rarity)
    own, found = _passages(seeds, ours, least) if len(seeds) else ([], [])
    if own:
        told, told_back = np.isin(ours, own), np.isin(their, found)
    elif rarity is not None:  # no sentence retold alone: a paragraph retold whole?
        told, told_back = _paragraphs_retold(mine, theirs, mine_out, theirs_out, rarity, least)
    else:
        return none
    return _without(told, mine_out), _without(told_back, theirs_out)


def _paragraphs_retold(
    mine: Read,
    theirs: Read,
    mine_out: Mask | None,
    theirs_out: Mask | None,
    rarity: Rarity,
    least: int,
) -> tuple[Mask, Mask]:
    """The units of each text in paragraphs the other's retell whole (see the module)."""
    ours, their = _paragraphs(mine), _paragraphs(theirs)
    a, b = _terms(mine, ours, mine_out), _terms(theirs, their, theirs_out)
    if not len(a[0]) or not len(b[0]):
        return np.zeros(len(mine.units), bool), np.zeros(len(theirs.units), bool)
    seeds = _seeds(a, b, rarity, PARAGRAPH_SIMILAR, PARAGRAPH_DICE)
    sizes = np.bincount(ours)
    said, rivals = seeds[:, 2], seeds[:, 3]
    spanned = (
        _sentence_counts(mine, ours)[seeds[:, 0]] + _sentence_counts(theirs, their)[seeds[:, 1]]
    )
    several = spanned >= SPAN  # paragraphs of sentences, one merged from several: not list lines
    distinctive = several & (said > SAID) & (said >= DISTINCT * rivals)  # it retells that one
    kept = seeds[((said >= PARAGRAPH_SAID) | distinctive) & (sizes[seeds[:, 0]] >= least)]
    return np.isin(ours, kept[:, 0]), np.isin(their, kept[:, 1])


def _sentence_counts(text: Read, paragraphs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """How many sentences each paragraph's units start in."""
    if not len(paragraphs):
        return np.zeros(0, np.int64)
    both = distinct(paragraphs * (len(text.text) + 1) + _sentences(text))
    return np.bincount(both // (len(text.text) + 1), minlength=int(paragraphs.max()) + 1)


def _without(units: Mask, left_out: Mask | None) -> Mask:
    return units if left_out is None else units & ~left_out


def _paragraphs(text: Read) -> npt.NDArray[np.int64]:
    """Each unit's paragraph, counted from 0: blocks between blank lines, else lines."""
    blank = np.array([found.start() for found in _BLANK_LINE.finditer(text.text)], np.int64)
    breaks = blank if len(blank) else np.flatnonzero(code_points(text.text) == ord("\n"))
    return np.searchsorted(breaks, text.units.starts)


def _sentences(text: Read) -> npt.NDArray[np.int64]:
    """Each unit's sentence, counted from 0."""
    codes = code_points(text.text)
    ends = np.isin(codes, np.array([ord(c) for c in _ENDS], np.uint32))
    stops = np.flatnonzero(codes[:-1] == ord("."))
    ends[stops[np.isin(codes[stops + 1], np.array([32, 9], np.uint32))]] = True
    return np.searchsorted(np.flatnonzero(ends), text.units.starts)


def _terms(
    text: Read, sentence: npt.NDArray[np.int64], left_out: Mask | None
) -> tuple[U64, npt.NDArray[np.int64], int]:
    """The text's terms, each with its sentence, and how many sentences the text has.

    Only a sentence of prose gives terms: one holding PROSE function words at least.
    """
    units = text.units
    if not len(units):
        return np.empty(0, np.uint64), np.empty(0, np.int64), 0
    codes = canonical(code_points(text.text))
    firsts = codes[units.starts]
    ideograph = (char_flags(firsts) & IDEOGRAPH) != 0
    function = np.where(ideograph, np.isin(firsts, _function_chars()), False)
    words = np.flatnonzero(~ideograph)
    stems = np.zeros(len(units), np.uint64)
    stems[words] = _stems(codes, units.starts[words], units.ends[words])
    function[words] = np.isin(stems[words], _stopword_stems())
    prose = np.bincount(sentence, function) >= PROSE  # by sentence: a list or a menu's is not
    counted = prose[sentence] if left_out is None else prose[sentence] & ~left_out
    joined = np.append(sentence[1:] == sentence[:-1], False)
    terms, at = _unit_terms(codes, units.starts, units.ends, ideograph, counted, joined, stems)
    return terms, sentence[at], int(sentence[-1]) + 1


def _unit_terms(
    codes: npt.NDArray[np.uint32],
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    ideograph: Mask,
    counted: Mask | None,
    joined: Mask,
    stems: U64 | None = None,
) -> tuple[U64, npt.NDArray[np.int64]]:
    """The terms of units (a word, or an ideograph each), and the unit each starts at.

    A word that is no stopword gives its stem; two ideographs side by side (``joined``: the
    next unit is of the same sentence or text), neither a particle, give their pair.
    ``counted``: the units that may give terms (None: all); ``stems``: each word unit's
    stem, where already known.
    """
    can = np.ones(len(starts), bool) if counted is None else counted
    words = np.flatnonzero(~ideograph & can)
    stems = _stems(codes, starts[words], ends[words]) if stems is None else stems[words]
    content = ~np.isin(stems, _stopword_stems())
    particle = np.isin(codes[starts], _particles())
    single = ideograph & can & ~particle
    pairs = np.flatnonzero(single[:-1] & single[1:] & joined[:-1] & (ends[:-1] == starts[1:]))
    with np.errstate(over="ignore"):
        first = codes[starts[pairs]].astype(np.uint64) * np.uint64(PAIR_BASE)
        bigrams = mix(first + codes[starts[pairs + 1]].astype(np.uint64))
    return np.concatenate((stems[content], bigrams)), np.concatenate((words[content], pairs))


def _stems(
    codes: npt.NDArray[np.uint32], starts: npt.NDArray[np.int64], ends: npt.NDArray[np.int64]
) -> U64:
    """The hash of each word's first STEM characters (canonical: case folded)."""
    if not len(starts):
        return np.empty(0, np.uint64)
    kept = np.minimum(ends - starts, STEM)
    places = np.arange(STEM)
    at = np.minimum(starts[:, None] + places, len(codes) - 1)
    values = np.where(places < kept[:, None], codes[at], 0).astype(np.uint64)
    with np.errstate(over="ignore"):
        total = np.zeros(len(starts), np.uint64)
        for place in range(STEM):
            total = total * np.uint64(STEM_BASE) + values[:, place]
    return mix(total ^ kept.astype(np.uint64))


@cache
def _stopword_stems() -> U64:
    words = " ".join(sorted(stopwords("en")))
    units = text_units(words)
    return distinct(_stems(canonical(code_points(words)), units.starts, units.ends))


@cache
def _function_chars() -> npt.NDArray[np.uint32]:
    """The Chinese stopwords of one character (不, 也, 在, 的…): prose holds some."""
    return np.array(sorted(ord(w) for w in stopwords("zh") if len(w) == 1), np.uint32)


@cache
def _particles() -> npt.NDArray[np.uint32]:
    """The particles' code points, sorted."""
    return np.array(sorted(ord(c) for c in _PARTICLES), np.uint32)


def _seeds(
    a: tuple[U64, npt.NDArray[np.int64], int],
    b: tuple[U64, npt.NDArray[np.int64], int],
    rarity: Rarity | None = None,
    similar: float = SIMILAR,
    dice_floor: float = DICE,
) -> npt.NDArray[np.int64]:
    """Sentence pairs saying the same: rows of i (the first text's), j, rare terms, rivals'.

    The rare terms the two share, and the most either shares with another sentence of the other
    text (its rivals). Their cosine is ``similar`` and their Dice ``dice_floor`` at least
    (paragraphs alike, given the paragraphs' terms). Each text's terms as (terms, their
    sentences, sentences); only the terms both hold are multiplied, term by term (a term many
    sentences of both hold adds little: at most CROSSINGS such products are made, the rarest
    terms' first).
    """
    (a_terms, a_of, a_count), (b_terms, b_of, b_count) = a, b
    values, ids = np.unique(np.concatenate((a_terms, b_terms)), return_inverse=True)
    a_s, a_t, a_c = _entries(a_of, ids[: len(a_terms)], len(values))
    b_s, b_t, b_c = _entries(b_of, ids[len(a_terms) :], len(values))
    df = np.bincount(a_t, minlength=len(values)) + np.bincount(b_t, minlength=len(values))
    if rarity is None:
        isf = np.log((a_count + b_count) / np.maximum(df, 1))
    else:
        isf = rarity.weights(values)
    a_w, b_w = a_c * isf[a_t], b_c * isf[b_t]
    a_norm = np.sqrt(np.bincount(a_s, a_w**2, minlength=a_count))
    b_norm = np.sqrt(np.bincount(b_s, b_w**2, minlength=b_count))
    a_size = np.bincount(a_s, minlength=a_count)
    b_size = np.bincount(b_s, minlength=b_count)
    # the pairs of entries of one term: a's entries sorted by term, b's too
    lo = np.searchsorted(b_t, a_t)
    hi = np.searchsorted(b_t, a_t, side="right")
    many = hi - lo
    order = np.argsort(-isf[a_t], kind="stable")
    allowed = order[np.cumsum(many[order]) <= CROSSINGS]
    a_at = np.repeat(allowed, many[allowed])
    if not len(a_at):
        return np.empty((0, 4), np.int64)
    starts = np.repeat(np.cumsum(many[allowed]) - many[allowed], many[allowed])
    b_at = lo[a_at] + np.arange(len(a_at)) - starts
    keys, where = np.unique(a_s[a_at] * b_count + b_s[b_at], return_inverse=True)
    dot = np.bincount(where, a_w[a_at] * b_w[b_at])
    shared = np.bincount(where)
    i, j = keys // b_count, keys % b_count
    with np.errstate(divide="ignore", invalid="ignore"):
        cosine = dot / (a_norm[i] * b_norm[j])
        dice = 2 * shared / (a_size[i] + b_size[j])
    rare = np.ones(len(values), bool) if rarity is None else rarity.rare(values)
    telling = np.bincount(where, rare[a_t[a_at]], minlength=len(keys)).astype(np.int64)
    rivals = np.maximum(_runner_up(i, telling), _runner_up(j, telling))
    found = (cosine >= similar) & (dice >= dice_floor) & (shared >= SHARED)
    found &= (a_size[i] >= WORDY) & (b_size[j] >= WORDY)
    found &= _best(i, j, cosine, found)
    return np.stack((i[found], j[found], telling[found], rivals[found]), axis=1)


def _runner_up(
    side: npt.NDArray[np.int64], telling: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """For each pair, the most rare terms its ``side``'s sentence shares in any other pair."""
    if not len(side):
        return np.zeros(0, np.int64)
    order = np.lexsort((-telling, side))
    ordered, told = side[order], telling[order]
    first = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    starts = np.flatnonzero(first)
    group = np.cumsum(first) - 1
    sizes = np.diff(np.append(starts, len(ordered)))
    second = np.where(sizes > 1, told[np.minimum(starts + 1, len(told) - 1)], 0)
    out = np.empty(len(side), np.int64)
    out[order] = np.where(first, second[group], told[starts][group])
    return out


def _best(
    i: npt.NDArray[np.int64], j: npt.NDArray[np.int64], cosine: npt.NDArray[np.float64], found: Mask
) -> Mask:
    """The seeds each of whose sentences is the other's nearest, on one side at least.

    A sentence retold is retold once (or merged into one, split in two); a sentence like
    many of the other text's (its topic's words) is no seed with any but its nearest.
    """
    score = np.where(found, cosine, -1.0)
    best = np.zeros(len(i), bool)
    for side in (i, j):
        nearest = np.full(int(side.max(initial=-1)) + 1, -1.0)
        np.maximum.at(nearest, side, score)
        best |= np.isclose(score, nearest[side])
    return best


def _entries(
    of: npt.NDArray[np.int64], ids: npt.NDArray[np.int64], terms: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Each (sentence, term) once, with its count: sorted by term."""
    keys, counts = np.unique(ids * (int(of.max(initial=0)) + 1) + of, return_counts=True)
    sentences = int(of.max(initial=0)) + 1
    return keys % sentences, keys // sentences, counts.astype(np.float64)


def _passages(
    seeds: npt.NDArray[np.int64], sentences: npt.NDArray[np.int64], least: int
) -> tuple[list[int], list[int]]:
    """The sentences of each text in passages (see the module).

    A passage spans SPAN sentences of the two texts or more (two retold as two, or one
    merged from two) — or one sentence retold alone sharing ALONE rare terms, a long sentence
    of names and numbers — its seeds share SAID rare terms in all (``Rarity.rare``), and its
    own sentences hold ``least`` units or more.
    """
    sizes = np.bincount(sentences)
    order = np.lexsort((seeds[:, 1], seeds[:, 0]))
    groups: list[list[tuple[int, int, int]]] = []
    for i, j, shared, _ in seeds[order].tolist():
        for group in groups[-4:]:
            if i - group[-1][0] <= NEAR and min(abs(j - seed[1]) for seed in group) <= NEAR:
                group.append((i, j, shared))
                break
        else:
            groups.append([(i, j, shared)])
    mine: list[int] = []
    theirs: list[int] = []
    for group in groups:
        own, found = sorted({seed[0] for seed in group}), sorted({seed[1] for seed in group})
        said = sum(seed[2] for seed in group)
        spans = len(own) + len(found) >= SPAN or said >= ALONE
        if spans and said >= SAID and sizes[own].sum() >= least:
            mine += own
            theirs += found
    return mine, theirs
