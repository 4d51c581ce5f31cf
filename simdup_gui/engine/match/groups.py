"""Duplicate groups: files around a reference, each member checked against it.

The verified pairs only say which files may belong together. A group is made around a
**reference**, the file that best represents the others, and a file joins it only when it meets
the thresholds against that reference itself (:class:`Thresholds`): a chain a~b~c never puts a
and c together unless c matches a. What is left of a connected part of the pair graph is grouped
again the same way, around a reference of its own.

The reference is the cleanest copy: a file in a reference folder if there is one; not one that
holds all of another member's lines and short lines besides (a header, a footer, a repost
notice, a site's navigation: :func:`padded_copies`); then a file whose name does not say it is a
copy of another (``report (1).txt`` beside ``report.txt``); then the one with the smallest share
of characters a conversion leaves behind (half-width punctuation in Chinese, traditional
characters in a simplified text); then the one with typing slips against the fewest of the others
(``slips.py``: a character doubled, dropped or replaced); then the member the others share the
most text with (its mean text similarity to them, to two digits; in a large part, to an even
sample of them), then the one whose lines they share the most (exact: :func:`line_likeness`);
then the fewest characters in lines that read like a notice or an ad, the least site template,
the most text (a copy cut short or with sentences deleted is not kept); then the oldest, the
encoding most of the group uses, UTF-8, the fewest bytes, the earliest path. Members carry the
distance and similarity to the reference that put them in the group. Groups are sorted by size,
largest first, then by the reference's path, so the same input always gives the same groups with
the same ids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import distinct
from simdup_gui.engine.read.documents import editing_rank
from simdup_gui.engine.read.walk import in_folders
from simdup_gui.engine.records import FileRecord, Pairs

if TYPE_CHECKING:
    from simdup_gui.engine.match.slips import Reread
    from simdup_gui.engine.run.workers import Pool

LOOSE_K = 7  # from this k on ("loose"), a text alike enough is grouped whatever its distance
PADDING_LINE = 20  # lines another copy lacks, this short on average (non-space characters), are
# padding: a header, a footer, a notice; longer ones may as well be a paragraph the other lost
EDITED_PADDING = 2  # short lines beyond an edited copy that make padding (one: a heading it lost)
PADDING_MEMBERS = 32  # larger parts are not compared line by line (their pairs grow as squares)
SHARED_DIGITS = 2  # mean similarities equal to this many digits are a tie
LINES_DIGITS = 9  # the lines' likeness is exact: these digits only hide the sums' rounding
VOTERS = 64  # a part larger than this picks its reference by similarity to a sample this big

Similarities = Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]], npt.NDArray[np.float64]]


class Member(NamedTuple):
    """One file of a group: its index in the scan's file list and its distance to the reference.

    A named tuple: groups of a large folder make many, and these are cheap to make.
    """

    file: int
    distance: int
    similarity: float = 1.0  # its text's similarity to the reference's, as shown (Measure.shown)
    contained: bool = False  # matched as one text inside the other (a cut or wrapped copy)


@dataclass(frozen=True, slots=True)
class Group:
    """A duplicate group; ``members[0]`` is the reference."""

    id: int
    members: tuple[Member, ...]

    @property
    def reference(self) -> int:
        """The file index of the reference member."""
        return self.members[0].file

    def __len__(self) -> int:
        return len(self.members)

    def with_reference(
        self,
        file: int,
        fingerprints: Mapping[int, int],
        likeness: Callable[[int, int], tuple[float, bool]],
    ) -> Group:
        """The same group with ``file`` as its reference, distances measured from it.

        Args:
            file: the file index of the new reference (a member of this group).
            fingerprints: each member's fingerprint, by file index.
            likeness: two files' text similarity and whether one holds the other, by index.
        """
        if all(m.file != file for m in self.members):
            raise ValueError(f"file {file} is not in group {self.id}")
        ref = fingerprints[file]
        members = sorted(
            (
                Member(
                    m.file,
                    (fingerprints[m.file] ^ ref).bit_count(),
                    *((1.0, False) if m.file == file else likeness(file, m.file)),
                )
                for m in self.members
            ),
            key=lambda m: (m.file != file, m.distance, m.file),
        )
        return Group(self.id, tuple(members))


@dataclass(frozen=True)
class Thresholds:
    """What a member must meet against its group's reference.

    * ``k`` below LOOSE_K (identical, strict, normal): fingerprints at most ``k`` bits apart
      (``k = 0``: the same fingerprint) and, with a floor, texts at least that alike.
    * ``k`` from LOOSE_K on (loose), with a floor: texts at least that alike, whatever the
      distance (copies whose fingerprint an added notice or template moved far).
    * No floor: fingerprints at most ``k`` bits apart, nothing else.
    """

    k: int
    min_similarity: float = 0.0
    loose: bool = True  # whether a loose k lets text alone decide (the default method's way)

    @property
    def by_text(self) -> bool:
        """Whether text similarity alone decides (loose, with a floor)."""
        return self.loose and self.k >= LOOSE_K and self.min_similarity > 0

    def met(
        self,
        distance: npt.NDArray[np.integer],
        similarity: npt.NDArray[np.floating],
        contained: npt.NDArray[np.bool_],
    ) -> npt.NDArray[np.bool_]:
        """Which of these distances, similarities and containments meet the thresholds.

        Where text alone decides, a text held by the other (or holding it) meets them too.
        """
        ok = similarity >= self.min_similarity
        return ok | contained if self.by_text else ok & (distance <= self.k)


def no_containments(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """No text holds another: what every method but the default measures."""
    return np.zeros(len(a), np.bool_)


@dataclass(frozen=True)
class Measure:
    """What a method gives grouping: distances, confirmed candidates, similarity, thresholds.

    ``containments(a, b)`` says whether one text of each pair of nodes holds the other.
    ``similarities`` decide; ``shown`` gives the figure a pair is shown with, the same at every
    threshold (None: the similarities themselves). The default method decides a pair just
    above the floor on its whole texts, but shows every pair its estimate: a figure that
    changed with the floor would give one pair two similarities.
    """

    fingerprints: npt.NDArray[np.uint64]  # what distances are measured on (zeros: none)
    candidates: Pairs  # node pairs that meet the thresholds
    similarities: Similarities
    thresholds: Thresholds
    containments: Callable[
        [npt.NDArray[np.int64], npt.NDArray[np.int64]], npt.NDArray[np.bool_]
    ] = no_containments
    shown: Similarities | None = None

    @classmethod
    def confirmed(
        cls,
        fingerprints: npt.NDArray[np.uint64],
        found: Pairs,
        similarities: Similarities,
        thresholds: Thresholds,
    ) -> Measure:
        """The measure whose candidates are those of ``found`` that meet the thresholds."""
        share = similarities(found.i, found.j)
        keep = thresholds.met(found.distance, share, np.zeros(len(found), bool))
        kept = Pairs(found.i[keep], found.j[keep], found.distance[keep])
        return cls(fingerprints, kept, similarities, thresholds)


@dataclass(frozen=True)
class Nodes:
    """The distinct texts being grouped: what grouping needs to know of each.

    ``similarities(a, b)`` gives the text similarity of each pair of nodes ``a[n], b[n]``
    (``shown``: the figure shown for it, :attr:`Measure.shown`), ``containments(a, b)``
    whether one of the two holds the other; ``weights`` counts a node's exact copies (itself
    included).
    """

    fingerprints: npt.NDArray[np.uint64]
    weights: npt.NDArray[np.int64]
    named_copies: npt.NDArray[np.bool_]  # whose name is another's with something added
    converted: npt.NDArray[np.int64]  # per mille of characters a conversion leaves behind
    notices: npt.NDArray[np.int64]  # characters in lines that read like a notice or an ad
    boilerplate: npt.NDArray[np.float64]  # share of an HTML page dropped as site template
    chars: npt.NDArray[np.int64]  # of text, whitespace not counted
    mtimes: npt.NDArray[np.int64]  # to the minute
    encodings: Sequence[str]
    sizes: npt.NDArray[np.int64]  # bytes
    paths: Sequence[str]
    similarities: Similarities
    containments: Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64]], npt.NDArray[np.bool_]]
    kept: npt.NDArray[np.bool_]  # in a reference folder: a group's reference when it has one
    apart: frozenset[tuple[int, int]] = frozenset()  # node pairs (lower first) said apart
    lines: Sequence[bytes] = ()  # each node's lines by hash (``fingerprint/lines.py``)
    texts: Reread | None = None  # the nodes' texts read again (None: they cannot be)
    shown: Similarities | None = None  # the figures shown (None: ``similarities``)


class NodeGroup(NamedTuple):
    """A group in node terms: its reference node, and each member node with its measures."""

    nodes: npt.NDArray[np.int64]  # the reference first
    distances: npt.NDArray[np.int64]
    similarities: npt.NDArray[np.float64]
    contained: npt.NDArray[np.bool_]


def kept_files(files: Sequence[FileRecord], folders: Sequence[str]) -> frozenset[int]:
    """The files in reference folders: never marked, moved or trashed."""
    if not folders:
        return frozenset()
    return frozenset(n for n, record in enumerate(files) if in_folders(record.path, folders))


def components(n: int, pairs: Pairs) -> list[list[int]]:
    """Connected components with two or more nodes, each sorted, from a pair list.

    Labels are hooked and shortcut in numpy (each node ends labelled with the smallest node
    of its component), a few passes over the edges rather than a Python loop per edge.
    """
    label = np.arange(n)
    left, right = pairs.i.astype(np.int64), pairs.j.astype(np.int64)
    while True:
        a, b = label[left], label[right]
        hooked = label.copy()
        np.minimum.at(hooked, np.maximum(a, b), np.minimum(a, b))  # root of larger to smaller
        while True:  # shortcut until every node points at a root
            jumped = hooked[hooked]
            if np.array_equal(jumped, hooked):
                break
            hooked = jumped
        if np.array_equal(hooked, label):
            break
        label = hooked
    nodes = distinct(np.concatenate([left, right]))
    order = nodes[np.argsort(label[nodes], kind="stable")]
    cuts = [0, *(np.flatnonzero(np.diff(label[order])) + 1).tolist(), len(order)]
    ordered = order.tolist()
    return [ordered[lo:hi] for lo, hi in pairwise(cuts)] if ordered else []


class _Part(NamedTuple):
    """A connected part: its nodes, and where its pairs are (made only if it is split again)."""

    nodes: npt.NDArray[np.int64]
    within: npt.NDArray[np.int64]
    local: Pairs
    rows: npt.NDArray[np.int64]

    def pairs(self) -> Pairs:
        """The pairs among the part's nodes."""
        i, j = self.local.i[self.rows], self.local.j[self.rows]
        return Pairs(self.within[i], self.within[j], self.local.distance[self.rows])


def _parts(within: npt.NDArray[np.int64], pairs: Pairs) -> list[_Part]:
    """The connected parts of ``pairs`` among the sorted nodes ``within``, each with its pairs.

    Pairs with an end outside ``within`` are left out; the work is linear in the pairs and
    the nodes given, not in every node there is.
    """
    at_i = np.searchsorted(within, pairs.i).clip(0, max(len(within) - 1, 0))
    at_j = np.searchsorted(within, pairs.j).clip(0, max(len(within) - 1, 0))
    keep = (within[at_i] == pairs.i) & (within[at_j] == pairs.j) if len(within) else at_i < 0
    local = Pairs(at_i[keep], at_j[keep], pairs.distance[keep])
    found = components(len(within), local)
    part_of = np.full(len(within), -1, dtype=np.int64)
    for n, part in enumerate(found):
        part_of[part] = n
    order = np.argsort(part_of[local.i], kind="stable")
    cuts = np.searchsorted(part_of[local.i][order], np.arange(len(found) + 1)).tolist()
    return [
        _Part(within[part], within, local, order[cuts[n] : cuts[n + 1]])
        for n, part in enumerate(found)
    ]


class Padding:
    """Which of a part's texts (their lines, ``fingerprint/lines.py``) are another's, padded.

    A text that holds every line of another and more lines, short ones on average (under
    PADDING_LINE characters: a header, a footer, a notice, a site's navigation), is that text
    with material added; so is one whose lines beyond another's outnumber the other's beyond
    it, all short (the rule :func:`reference_extra` flags by: a copy edited as well, its lines
    reflowed or retyped), EDITED_PADDING of them at least (one short line is as likely a
    heading or a byline the other copy lost; the flag asks a person to look at one). Longer
    added lines decide nothing: a paragraph one copy has and the other lacks may as well have
    been cut from the other. Each text is asked about on its own (the choice of a reference
    asks only of the texts it would keep).
    """

    def __init__(self, lines: Sequence[bytes]) -> None:
        from simdup_gui.engine.fingerprint.lines import line_values

        self.ordered = [line_values(text) for text in lines]
        self.distinct = [np.unique(values) for values in self.ordered]
        self.values = [_Lines.of(values) for values in self.ordered]

    def padded(self, a: int) -> bool:
        """Whether text ``a`` is another of them with material added."""
        return any(self._pads(a, b) for b in range(len(self.ordered)) if b != a)

    def _pads(self, a: int, b: int) -> bool:
        held, more = self.distinct[b], self.distinct[a]
        if len(more) <= len(held) or not np.isin(held, more).all():
            return _beyond(self.values[a], self.values[b]).lines >= EDITED_PADDING
        added = self.ordered[a][~np.isin(self.ordered[a], held)]
        return bool((added >> np.uint64(48)).astype(np.int64).mean() < PADDING_LINE)  # lengths


def line_likeness(
    distinct: Sequence[npt.NDArray[np.uint64]], weights: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """Each text's mean likeness of lines to the others, each counted ``weights`` times.

    ``distinct``: each text's line values, each once (:attr:`Padding.distinct`). The likeness
    of two texts' lines is the Jaccard similarity of their sets of lines, exact: a line
    retyped, reflowed or with a sentence moved into it is no longer the other's, so of copies
    made from one text, that text's lines are the ones the others share the most.
    """
    alike = np.eye(len(distinct))
    for a, b in combinations(range(len(distinct)), 2):
        both = len(np.intersect1d(distinct[a], distinct[b], assume_unique=True))
        union = len(distinct[a]) + len(distinct[b]) - both
        alike[a, b] = alike[b, a] = both / union if union else 1.0
    mean = (alike @ weights - 1) / max(int(weights.sum()) - 1, 1)
    return np.round(mean, LINES_DIGITS)  # equal sums in another order are equal


def padded_copies(lines: Sequence[bytes]) -> set[int]:
    """Which of these texts are another's, padded (:class:`Padding`), each asked about."""
    padding = Padding(lines)
    return {a for a in range(len(lines)) if padding.padded(a)}


class Extra(NamedTuple):
    """Short lines a group's reference adds to a copy: how many, and their characters."""

    lines: int = 0
    chars: int = 0


def reference_extra(group: Group, files: Sequence[FileRecord]) -> Extra:
    """The short lines ``group``'s reference has beyond one of its copies (none: no extra).

    Where the reference has more lines than a copy and every line it has beyond it is short
    (under PADDING_LINE characters: a header, a notice, an ad's line, a site's navigation),
    the copy kept carries material that copy lacks, and a person is told to look. A line
    edited in a copy (a typo, punctuation) differs on both sides and adds none; a copy cut
    short lacks long lines; neither is extra. The copy it adds the most lines to counts.
    Texts that give no lines (a library's) have no extra.
    """
    others = tuple(files[m.file].lines for m in group.members if m.file != group.reference)
    return _extra(files[group.reference].lines, others)


@lru_cache(maxsize=4_096)  # the groups view asks again for every row it paints
def _extra(reference: bytes, others: tuple[bytes, ...]) -> Extra:
    from simdup_gui.engine.fingerprint.lines import line_values

    mine = _Lines.of(line_values(reference))
    found = Extra()
    for lines in others:
        extra = _beyond(mine, _Lines.of(line_values(lines)))
        if extra.lines > found.lines:
            found = extra
    return found


class _Lines(NamedTuple):
    """A text's line values as Python ints, and as a set (a few dozen lines: no numpy calls)."""

    values: list[int]
    distinct: frozenset[int]

    @classmethod
    def of(cls, values: npt.NDArray[np.uint64]) -> _Lines:
        listed = values.tolist()
        return cls(listed, frozenset(listed))


def _beyond(mine: _Lines, theirs: _Lines) -> Extra:
    """The short lines ``mine`` has beyond ``theirs``, where all it has beyond them are short.

    Lines beyond, counted with their repeats: more of ``mine``'s than of ``theirs``, and at
    least that surplus of them short (under PADDING_LINE characters). Else none.
    """
    from simdup_gui.engine.fingerprint.lines import LINE_HASH_BITS

    if not mine.values or not theirs.values:
        return Extra()
    beyond = [value >> LINE_HASH_BITS for value in mine.values if value not in theirs.distinct]
    surplus = len(beyond) - sum(value not in mine.distinct for value in theirs.values)
    short = [length for length in beyond if length < PADDING_LINE]
    return Extra(len(short), sum(short)) if 0 < surplus <= len(short) else Extra()


def choose_reference(
    part: npt.NDArray[np.int64], nodes: Nodes
) -> tuple[int, npt.NDArray[np.float64] | None]:
    """The node of ``part`` that best represents it (see the module's docstring).

    With it, each node's similarity to it when it voted (else None).
    """
    if len(part) > VOTERS:
        voters = part[np.linspace(0, len(part) - 1, VOTERS).round().astype(np.int64)]
    else:
        voters = part
    left = np.repeat(part, len(voters))
    right = np.broadcast_to(voters, (len(part), len(voters))).ravel()
    alike = nodes.similarities(left, right).reshape(len(part), len(voters))
    weights = nodes.weights[voters].astype(np.float64)
    voting = np.isin(part, voters) if len(part) > VOTERS else 1.0  # its own vote left out
    shared = (alike @ weights - voting) / max(weights.sum() - 1, 1)
    shared = np.round(shared, SHARED_DIGITS)  # what the sketches cannot tell apart is a tie
    usual = Counter[str]()
    for node in part.tolist():
        usual[nodes.encodings[node]] += int(nodes.weights[node])
    padding, by_lines = None, np.zeros(len(part))
    if nodes.lines and len(part) <= PADDING_MEMBERS:
        padding = Padding([nodes.lines[node] for node in part.tolist()])
        by_lines = line_likeness(padding.distinct, nodes.weights[part])
    padded: set[int] = set()  # found so far: the best is asked about until one is not padded
    slips = _slip_losses(part, nodes)

    def rank(n: int) -> tuple[object, ...]:
        return (
            not nodes.kept[part[n]],
            editing_rank(nodes.encodings[part[n]]),  # the Word file over its PDF export
            n in padded,
            bool(nodes.named_copies[part[n]]),
            int(nodes.converted[part[n]]),
            slips[n],
            -shared[n],
            -by_lines[n],
            nodes.notices[part[n]],
            nodes.boilerplate[part[n]],
            -nodes.chars[part[n]],
            nodes.mtimes[part[n]],
            -usual[nodes.encodings[part[n]]],
            nodes.encodings[part[n]] != "utf-8",
            nodes.sizes[part[n]],
            nodes.paths[part[n]],
        )

    best = min(range(len(part)), key=rank)
    while padding is not None and best not in padded and padding.padded(best):
        padded.add(best)  # the same choice as with every text asked about first
        best = min(range(len(part)), key=rank)
    column = np.flatnonzero(voters == part[best])
    # every measure is symmetric: the members' similarities to the reference are its vote's
    return int(part[best]), alike[:, column[0]] if len(column) else None


def _slip_losses(part: npt.NDArray[np.int64], nodes: Nodes) -> list[int]:
    """For each node of ``part``, how many of those tied with it have fewer typing slips.

    Tied: first by the keys the choice asks before (a reference folder, a name saying it is a
    copy, conversion marks), at most SLIP_MEMBERS of them (``slips.py``); others count none.
    """
    from simdup_gui.engine.match.slips import losses

    lost = [0] * len(part)
    tied = _slip_tie(part, nodes)
    if not tied:
        return lost
    node = part[tied].tolist()
    found = losses(node, [nodes.lines[n] for n in node], nodes.texts)  # type: ignore[arg-type]
    for at, count in zip(tied, found, strict=True):
        lost[at] = count
    return lost


def _slip_tie(part: npt.NDArray[np.int64], nodes: Nodes) -> list[int]:
    """The places in ``part`` of the nodes compared for slips (:func:`_slip_losses`), or none."""
    from simdup_gui.engine.match.slips import SLIP_MEMBERS

    if nodes.texts is None or not nodes.lines:
        return []
    first = [
        (not nodes.kept[n], bool(nodes.named_copies[n]), int(nodes.converted[n]))
        for n in part.tolist()
    ]
    tied = [at for at, key in enumerate(first) if key == min(first)]
    return tied if 1 < len(tied) <= SLIP_MEMBERS else []


def node_groups(
    pairs: Pairs,
    nodes: Nodes,
    thresholds: Thresholds,
    cancel: Callable[[], bool],
    jobs: int = 1,
    workers: Pool | None = None,
) -> list[NodeGroup]:
    """Groups of nodes around references, from the pairs that may belong together.

    Each connected part of the pairs gets a reference; the nodes that meet ``thresholds``
    against it (and that a person has not said are not its duplicates) are its group; the
    rest of the part is split along the pairs among it and grouped again. A node with exact
    copies is a group of its copies even when alone. The parts' typing slips are measured
    first, on ``jobs`` worker processes (the kept ``workers`` when running) where there are
    many (``slips.measure_ahead``).
    """
    from simdup_gui.engine.match.slips import measure_ahead

    found: list[NodeGroup] = []
    everyone = distinct(np.concatenate([pairs.i, pairs.j])).astype(np.int64)
    todo = _parts(everyone, pairs)
    if jobs > 1 and nodes.texts is not None:
        ties = [part.nodes[_slip_tie(part.nodes, nodes)].tolist() for part in todo]
        measure_ahead([tie for tie in ties if tie], nodes.lines, nodes.texts, jobs, cancel, workers)
    while todo:
        found_part = todo.pop()
        part = found_part.nodes
        reference, voted = choose_reference(part, nodes) if not cancel() else (int(part[0]), None)
        distance = np.bitwise_count(nodes.fingerprints[part] ^ nodes.fingerprints[reference])
        references = np.full(len(part), reference)
        similarity = nodes.similarities(references, part) if voted is None else voted.copy()
        similarity[part == reference] = 1.0
        contained = np.zeros(len(part), bool)  # matched only as a text inside the other
        if thresholds.by_text:
            alike = similarity >= thresholds.min_similarity
            contained = ~alike & nodes.containments(references, part) & (part != reference)
        inside = thresholds.met(distance, similarity, contained)
        inside[part == reference] = True
        if nodes.apart:  # pairs a person said are not duplicates never share a group
            inside &= _apart_left_out(part, inside, reference, similarity, nodes.apart)
        if inside.sum() > 1 or nodes.weights[reference] > 1:
            kept = np.flatnonzero(inside)
            kept = kept[np.argsort(part[kept] != reference, kind="stable")]  # reference first
            shown = similarity[kept]
            if nodes.shown is not None:
                shown = nodes.shown(references[kept], part[kept])
                shown[part[kept] == reference] = 1.0
            found.append(
                NodeGroup(part[kept], distance[kept].astype(np.int64), shown, contained[kept])
            )
        if (~inside).sum() > 1:
            todo += _parts(part[~inside], found_part.pairs())
    copied = np.flatnonzero(nodes.weights > 1)
    grouped = np.concatenate([c.nodes for c in found]) if found else np.empty(0, np.int64)
    alone = copied[~np.isin(copied, grouped)]
    found += [
        NodeGroup(np.array([n]), np.zeros(1, np.int64), np.ones(1), np.zeros(1, bool))
        for n in alone.tolist()
    ]
    return found


def _apart_left_out(
    part: np.ndarray,
    inside: np.ndarray,
    reference: int,
    similarity: np.ndarray,
    apart: frozenset[tuple[int, int]],
) -> np.ndarray:
    """Which of ``part`` may stay ``inside`` its group: no two a person said apart.

    Of two said apart, a member apart from the reference leaves; of two members, the one less
    alike to the reference (``similarity``), the later on a tie.
    """
    keep = inside.copy()
    rank = np.where(part == reference, np.inf, similarity)  # the reference never leaves
    at = {int(n): position for position, n in enumerate(part.tolist())}
    for pair in sorted(apart):
        positions = [at.get(n) for n in pair]
        if None in positions or not all(keep[p] for p in positions):  # type: ignore[index]
            continue
        first, second = positions
        keep[second if rank[first] >= rank[second] else first] = False
    return keep


def numbered(groups: list[tuple[Member, ...]], paths: Sequence[str]) -> tuple[Group, ...]:
    """Groups sorted by size, largest first, then by the reference's path, numbered from 1."""
    order = sorted(groups, key=lambda members: (-len(members), paths[members[0].file]))
    return tuple(Group(n, members) for n, members in enumerate(order, 1))
