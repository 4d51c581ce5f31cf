"""Each article's sources in a scan: which articles it copied passages from, and how much.

An article and its sources, as a copy check (查重) reports them:

1. **Who may copy from whom**: the scan's groups are copies of one story, so within a group
   each member's source is the group's origin (the one that came first: not a named copy,
   then the oldest; else the scan's reference, its kept copy); between groups (and files in
   none) the origins stand for their groups. A member is measured against every source of its
   origin too, and a library's articles, like any article: a copy of a copy is credited to
   the source, not only to the copy it was grouped with.
2. **Template is not reuse, a popular source is**: a passage fingerprint (``passages.py``)
   found in SHARED_TEXTS or more different articles (a group counts once) is material they
   all share — a family's header and footer, a legal notice, a quoted poem — and counts as
   nobody's copy. Two articles that share FAMILY such fingerprints are pages of one family
   (a manual's, a site's): what else they share is the family's too (option lists, a section
   every page repeats), and neither copied it from the other. So is a pair whose shared
   fingerprints are mostly (ELSEWHERE) found in a third article as well: material going
   round, not a copy from one to the other. Unless one article holds that material as its
   body (BODY of its fingerprints): then it is theirs, and every article holding it copied
   it from that one, however many they are (a story reposted inside others); the others do
   not copy it from each other. So is an article from which others took different parts of
   such material: it holds every part they hold, each of them only some (answers cut from
   one text). A family's stub (its header and footer, little between) is such a body too:
   an article holding it at both its ends is a page of the family, no copy.
3. **Candidates**: two articles sharing fingerprints that are not template, at least
   CANDIDATE of ``min_share``'s part of the article's own (a passage copied with slips keeps
   few runs whole: the texts decide); and two sharing
   enough of their rarer terms (``retold.told_candidates``: a retelling keeps no run of
   words), which only a retold passage makes each other's source.
4. **Alignment** (``align.py``) of the two texts, read again: the copied passages (word for
   word, reworded in places, or retold: ``retold.py``, its terms weighed by their rarity in
   the folder), the share of the article's characters, and the source's share found in it.
   A pair is reported (either way round) when its share copied word for word or retold is at
   least ``min_share`` and at least SOURCE units were (a set phrase two short pages share is
   none). A group's member, a copy already, is
   measured without that floor.

A library's articles are sources too (``library_reuse``): found by its passage index, and
measured on their files where they are as they were, else estimated from the fingerprints.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections import defaultdict
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from simdup_gui.engine.arrays import holding_pairs
from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.library.store import Library
from simdup_gui.engine.options import ReadOptions
from simdup_gui.engine.progress import Progress, ProgressEvent, never, no_progress
from simdup_gui.engine.read.walk import display_path, path_key, unchanged
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.reuse.align import LEAST, SOURCE, Between, Text, copied_between
from simdup_gui.engine.reuse.passages import WINDOW, fingerprints, sampled
from simdup_gui.engine.reuse.retold import Rarity, terms_of, told_candidates

log = logging.getLogger(__name__)

CHANGED = "changed during the run"  # a file no longer the text the scan read
SHARED_TEXTS = 5  # a passage in this many different articles (copies once) is template
# of the least share, the part of an article's fingerprints another holds for the two to be
# measured: a passage copied with slips or edits every few words keeps few runs whole (a 6 %
# one with a slip every tenth word: under 2 % of the fingerprints)
CANDIDATE = 0.25
FAMILY = 3  # articles sharing this many template fingerprints are of one family: not reuse
ELSEWHERE = 0.7  # a pair whose shared fingerprints are this much in a third article too: no reuse
GOING_ROUND = 3  # a passage this many articles hold is going round (ELSEWHERE)
BODY = 0.6  # an article this much popular material holds it as its body: the popular source
FULLEST = 0.2  # an article this much of it shared, others holding parts of it: their origin
RETOLD_MOSTLY = 0.5  # of a share, retold: two copies of one source retelling it alike
RETOLD_COVERED = 0.5  # ... where this much of it lies in what the article took from the other
ALSO_IN = 0.9  # a source that gave an article this much of what it took itself from another
# source of the article is only "also in" beside that one
EDGE, EDGE_CHARS = 0.05, 40  # a passage this near a text's start or end is at that end
HALF = 0.5  # a family's page holds its own text between the header and footer: this much
U32 = npt.NDArray[np.uint32]
Mask = npt.NDArray[np.bool_]


class Reuse(NamedTuple):
    """What an article copied from one source."""

    path: int  # the article (an index of the scan's files)
    source: int  # the source (an index of the scan's files, or of the library's: ``library``)
    share: float  # of the article's characters copied from the source
    source_share: float  # of the source's characters found in the article
    passages: tuple[tuple[int, int], ...]  # the article's copied passages, in characters
    largest: int  # the longest copied passage, in characters
    library: bool = False  # the source is a library's article
    exact: bool = True  # measured on both texts (else estimated from the fingerprints)
    source_passages: tuple[tuple[int, int], ...] = ()  # the source's passages found in it
    own: bool = False  # the source is one of the editor's own articles (``find_reuse``'s own)
    firm: float = -1.0  # of ``share``, copied word for word or retold: what makes a source
    # (words changed here and there lengthen passages, never make one; -1: not measured)
    retold: float = 0.0  # of ``share``, in sentences retelling the source's (``retold.py``)
    reworded: tuple[tuple[int, int], ...] = ()  # of ``passages``, the parts not word for word
    source_reworded: tuple[tuple[int, int], ...] = ()  # of ``source_passages``, the same
    also: tuple[Reuse, ...] = ()  # articles that hold what it copied from this source, copied
    # from it too: not sources of their own (``_credited``)


@dataclass(frozen=True)
class Copied:
    """An article's reuse: its sources, and what it copied from any, each character once."""

    path: int
    sources: tuple[Reuse, ...]
    share: float  # total: copied from any source
    largest_source: int | None  # the source it copied most from (an index, as in ``Reuse``)
    paragraphs: tuple[tuple[int, int, float], ...] = field(default=())  # (start, end, share)
    without_quotes: float = 0.0  # the total, text cited (quoted, or named its source) left out
    without_own: float = 0.0  # the total from sources that are not the editor's own articles


@dataclass(frozen=True)
class ReuseResult:
    """The reuse of every article of a scan that copied at least ``min_share`` from a source."""

    scan: ScanResult
    articles: tuple[Copied, ...]
    min_share: float
    library_paths: tuple[str, ...] = ()  # the library articles named as sources, by index
    quotes: bool = True  # whether quoted text counted
    template: U32 = field(default_factory=lambda: np.empty(0, np.uint32), compare=False)
    problems: tuple[tuple[int, str], ...] = ()  # scanned files not measured again, and why
    min_match: int = LEAST  # the shortest passage found, in units (``--min-match``)

    def source_path(self, reuse: Reuse) -> str:
        """The path of a reuse's source."""
        if reuse.library:
            return self.library_paths[reuse.source]
        return self.scan.files[reuse.source].path


class Texts:
    """A scan's texts read again, each once (kept while a report is made or a pair shown)."""

    def __init__(self, files: Sequence[FileRecord], options: ReadOptions) -> None:
        self._files, self._options = files, options
        self._known: dict[int, Text | str] = {}  # a text, or why it cannot be read

    def __call__(self, file: int) -> Text | None:
        """The file's text (None: it cannot be read again, ``problem`` says why)."""
        known = self._read(file)
        return known if isinstance(known, Text) else None

    def problem(self, file: int) -> str:
        """Why the file's text cannot be read again ("" when it can)."""
        known = self._read(file)
        return "" if isinstance(known, Text) else known

    def forget(self, file: int) -> None:
        """Let the file's text go (why it could not be read is kept)."""
        if isinstance(self._known.get(file), Text):
            del self._known[file]

    def problems(self) -> tuple[tuple[int, str], ...]:
        """The files that could not be read again, and why, by index."""
        return tuple(sorted((n, t) for n, t in self._known.items() if isinstance(t, str)))

    def _read(self, file: int) -> Text | str:
        if file not in self._known:
            record = self._files[file]
            try:
                if not unchanged(record.path, record.size, record.mtime_ns):
                    raise OSError(CHANGED)  # its copying is not the text the scan read
                self._known[file] = Text.of(read_text(record.path, self._options))
            except (OSError, ValueError) as exc:
                log.warning("%s could not be read again", display_path(record.path))
                self._known[file] = str(exc)
        return self._known[file]


def find_reuse(
    result: ScanResult,
    *,
    min_share: float = 0.05,
    quotes: bool = True,
    own: Callable[[str], bool] = lambda path: False,
    library: Library | None = None,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
    min_match: int = LEAST,
) -> ReuseResult:
    """Each article's sources among the scan's files (see the module).

    ``quotes``: whether text in quotation marks counts (False: CNKI's "去除引用"); ``own``: the
    editor's own articles (its archive), sources like any other but flagged, so that each
    article's total is also given without them ("去除本人已发表"), as it is without cited text.
    ``min_match``: the shortest passage found, in units (Turnitin's and WCopyfind's "shortest
    match"); a source is named for twice as many copied at least.
    """
    files = result.files
    texts = Texts(files, result.options.read)
    first = _firstness(files)
    origins = _origins(result, first)  # each group, the copy that came first first
    stands = _stands_for(result, origins)  # each file's representative among the groups
    shown = sorted({stands[n] for n in range(len(files)) if files[n].ok and files[n].passages})
    kept = {n: fingerprints(files[n].passages) for n in shown}
    counted = _counted(kept)
    popular = counted[0][counted[1] >= SHARED_TEXTS]
    holders = Holders(kept)
    owned = _bodies(kept, counted, holders)  # a source's body, however many hold it
    shared = np.setdiff1d(popular, np.concatenate([*owned.values(), popular[:0]]))  # template
    found: dict[int, list[Reuse]] = defaultdict(list)
    candidates = _candidates(kept, popular, min_share)
    pairs = [p for p in candidates if _own_pair(p, kept, counted, owned)]
    pairs = [*pairs, *_origin_pairs(kept, owned, shared, min_share, holders)]
    words = {n: terms_of(files[n].terms) for n in shown}
    rarity = Rarity.of(list(words.values()))
    told = {p for p in told_candidates(words, rarity) if _told_pair(p, kept, counted, owned)}
    told -= set(pairs)  # found by their words only: only a retelling makes either a source
    keys = [path_key(record.path) for record in files]  # a file seen twice is no pair
    pairs = sorted(p for p in {*pairs, *told} if keys[p[0]] != keys[p[1]])
    bodies = np.concatenate([*owned.values(), popular[:0]])
    left_out = {  # by source: template, and the popular sources' bodies but the source's
        n: np.union1d(shared, np.setdiff1d(bodies, owned.get(n, popular[:0]))) for n in [*owned, -1]
    }

    def reuse_of(article: int, source: int, retold_only: bool = False) -> Reuse | None:
        """What ``article`` copied from ``source``, if that makes it a source."""
        pair = _measured(
            article,
            source,
            texts,
            left_out.get(source, left_out[-1]),
            quotes,
            2 * min_match,
            rarity=rarity,
            shortest=min_match,
        )
        if pair is None or pair.firm < min_share or _family(pair, owned, texts):
            return None  # rewording adds to a share, never makes one reach the floor
        if retold_only and pair.retold < min_share:
            return None  # found by its terms: only what it retold makes a source
        return pair._replace(own=True) if own(files[source].path) else pair

    measuring = _members_measured(
        result, origins, shared, quotes, (min_share, min_match), own, progress, cancel
    )
    with measuring as members_copied:  # in worker processes while the pairs are compared
        for done, (a, b) in enumerate(pairs):
            if cancel():
                break
            if done % 50 == 0:
                progress(ProgressEvent("comparing", done, len(pairs)))
            for article, source in ((a, b), (b, a)):
                pair = reuse_of(article, source, (a, b) in told)
                if pair is not None:
                    found[article].append(pair)
        _one_way(found, first, texts, set(owned))
        beyond: dict[int, list[Reuse]] = defaultdict(list)  # members' sources but their origin
        for group in origins:  # a copy of a copy: credited to the source, not only its copy
            sources = sorted({r.source for r in found.get(group[0], ()) if not r.library})
            for member, source in itertools.product(group[1:], sources):
                if not cancel() and (pair := reuse_of(member, source)) is not None:
                    beyond[member].append(pair)
            for member in group[1:] if sources else ():
                if member not in beyond:
                    texts.forget(member)  # a folder of copies would hold every text
        names: list[str] = []
        if library is not None and library.article_count and len(library.passages):
            scanned = set(keys)
            members_read = (m for group in origins for m in group[1:] if files[m].ok)
            everyone = sorted({*shown, *(m for m in members_read if files[m].passages)})
            for done, article in enumerate(everyone):
                if cancel():
                    break
                if done % 200 == 0:
                    progress(ProgressEvent("checking the library", done, len(everyone)))
                # a member's sources beyond its origin
                mine = found if stands[article] == article else beyond
                for pair in library_reuse(
                    article, files[article], library, texts, min_share, scanned, min_match
                ):
                    mine[article].append(pair._replace(source=_named(names, library, pair.source)))
                if article not in mine:
                    texts.forget(article)
        members, unread = members_copied()
    members = _with_beyond(members, beyond, texts, shared, quotes)
    others = [_copied(n, found[n], texts, shared, quotes) for n in sorted(found) if found[n]]
    articles = tuple(
        sorted(_credited([*members, *others], texts, shared, quotes), key=lambda c: c.path)
    )
    problems = tuple(sorted({*texts.problems(), *unread}))
    return ReuseResult(
        result, articles, min_share, tuple(names), quotes, shared, problems, min_match
    )


def _with_beyond(
    members: list[Copied],
    beyond: dict[int, list[Reuse]],
    texts: Texts,
    shared: U32,
    quotes: bool,
) -> list[Copied]:
    """The group members' reuse with their sources beyond their origin (``beyond``) added."""
    by_path = {copied.path: copied for copied in members}
    for member, sources in beyond.items():
        known = by_path[member].sources if member in by_path else ()
        by_path[member] = _copied(member, [*known, *sources], texts, shared, quotes)
    return list(by_path.values())


def _credited(articles: list[Copied], texts: Texts, shared: U32, quotes: bool) -> list[Copied]:
    """The articles' sources, what a source copied itself credited to its own source.

    Of an article's sources, Y is only "also in" beside X (``Reuse.also``) when Y copied from
    X (X is among Y's own sources; not both ways: then nothing tells) and ALSO_IN of what the
    article took from Y lies in what it took from X: two answers cut from one text are the
    text's copies, not each other's. What Y gave beyond X keeps it a source (a repost of an
    article that quoted X copied the article) — unless what the article has of Y is mostly
    retold (RETOLD_MOSTLY) and RETOLD_COVERED of it lies in what it took from X: two
    retellings of one text tell it alike, in their own words (what it retold of Y's own
    material, beyond X, keeps Y a source).
    """
    taken = {copied.path: {(r.library, r.source) for r in copied.sources} for copied in articles}
    out = []
    for copied in articles:
        sources = list(copied.sources)
        under: dict[int, int] = {}  # a source's place -> the place of the one it copied
        for y, mine in enumerate(sources):
            if mine.library or not mine.passages:
                continue
            for x, theirs in enumerate(sources):
                key = (theirs.library, theirs.source)
                if x == y or key not in taken.get(mine.source, ()) or not theirs.passages:
                    continue
                if not theirs.library and (False, mine.source) in taken.get(theirs.source, ()):
                    continue  # each copied the other: nothing tells which came first
                covered = _covered(mine.passages, theirs.passages)
                if covered >= ALSO_IN or (_retold(mine) and covered >= RETOLD_COVERED):
                    under[y] = x
                    break
        if not under:
            out.append(copied)
            continue
        top = {y: _top(y, under) for y in under}
        also: dict[int, list[Reuse]] = defaultdict(list)
        for y, x in top.items():
            if x is not None:
                also[x].append(sources[y])
        kept = [  # (a circle of sources copying one another: each stays one)
            reuse._replace(also=tuple(also.get(n, ())))
            for n, reuse in enumerate(sources)
            if top.get(n) is None
        ]
        out.append(_copied(copied.path, kept, texts, shared, quotes))
    return out


def _retold(reuse: Reuse) -> bool:
    """Whether what an article took from a source it took mostly retold, not copied."""
    return reuse.retold >= RETOLD_MOSTLY * reuse.share


def _top(place: int, under: dict[int, int]) -> int | None:
    """The source a source's material goes back to, following ``under`` (None: a circle)."""
    seen = {place}
    while place in under:
        place = under[place]
        if place in seen:
            return None
        seen.add(place)
    return place


def _covered(spans: Sequence[tuple[int, int]], within: Sequence[tuple[int, int]]) -> float:
    """The share of the characters of ``spans`` that ``within`` covers (both sorted)."""
    total = sum(end - start for start, end in spans)
    if not total:
        return 0.0
    covered, at = 0, 0
    for start, end in spans:
        while at < len(within) and within[at][1] <= start:
            at += 1
        n = at
        while n < len(within) and within[n][0] < end:
            covered += min(end, within[n][1]) - max(start, within[n][0])
            n += 1
    return covered / total


def _one_way(
    found: dict[int, list[Reuse]],
    first: Callable[[int], tuple[bool, int]],
    texts: Texts,
    origins: Collection[int] = (),
) -> None:
    """Of two articles each found copying the other, the copy's row only, where it is told.

    ``first``: what tells which came first (:func:`_firstness`); where it does not, one of
    ``origins`` (material going round is theirs: ``_bodies``) is the original; else the one
    that holds the passages in its own paragraphs (:func:`_set_apart`).

    Shared passages are measured both ways; both pass when each is a fair part of both texts
    (an original and a commentary quoting half of it). Which was first: the one whose name is
    not the other's with something added (``春运返乡-评论.txt`` beside ``春运返乡.txt``), then
    the older (to the minute). Where nothing tells, both rows stay (a repost notice or
    conversion marks tell a whole repost from its original, not who quoted whom: on the
    labelled set they named the wrong one in 14 of 278 pairs).
    """
    rows = {(r.path, r.source): r for listed in found.values() for r in listed if not r.library}
    for article, source in sorted(rows):
        if article < source and (source, article) in rows:
            mine, theirs = first(article), first(source)
            if mine == theirs:
                mine, theirs = (article not in origins, 0), (source not in origins, 0)
            if mine == theirs:
                mine, theirs = _set_apart(rows[article, source], texts, article, source)
            if mine == theirs:
                continue
            original = article if mine < theirs else source  # its row says it copied: dropped
            copy = source if original == article else article
            found[original] = [r for r in found[original] if r.library or r.source != copy]


def _set_apart(row: Reuse, texts: Texts, article: int, source: int) -> tuple[bool, bool]:
    """Which of two articles sharing passages, nothing else telling, holds them set apart.

    A copier pastes what it takes as paragraphs of its own; the original says it in its
    paragraphs' flow, the passage one part of a paragraph that goes on around it. So where
    the passages (copied, not retold: a retelling's are the sentences found) are whole lines
    of one text (nothing but marks and spaces beside them on their lines) and not of the
    other, the first is the copy: (True, False) for the article that way, (False, True) for
    its source, else a tie.
    """
    mine, theirs = texts(article), texts(source)
    if mine is None or theirs is None or row.retold:
        return False, False  # a retelling's passages are where its sentences were found
    apart = _whole_lines(mine.text, row.passages), _whole_lines(theirs.text, row.source_passages)
    return apart if apart[0] != apart[1] else (False, False)


def _whole_lines(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether each span is whole lines of ``text``: no letter or digit beside it on its lines."""
    for start, end in spans:
        before = text[text.rfind("\n", 0, start) + 1 : start]
        line_end = text.find("\n", end)
        after = text[end : len(text) if line_end < 0 else line_end]
        if any(char.isalnum() for char in before + after):
            return False
    return bool(spans)


def _firstness(files: Sequence[FileRecord]) -> Callable[[int], tuple[bool, int]]:
    """What tells which of two files came first: not a named copy of another, then older.

    A file whose name is another's with something added (``春运返乡-评论.txt``) is a copy;
    ages are compared to the minute (a folder copied at once has one age).
    """
    from simdup_gui.engine.match.matching import MINUTE_NS, named_copies

    copied = named_copies([record.path for record in files])
    return lambda n: (files[n].path in copied, files[n].mtime_ns // MINUTE_NS)


def _origins(result: ScanResult, first: Callable[[int], tuple[bool, int]]) -> list[list[int]]:
    """Each group of copies, its origin first: the one that came first (:func:`_firstness`).

    The kept copy (the scan's reference) is what an editor keeps, not always the first
    published; where nothing tells, the origin is the reference.
    """
    found = []
    for group in result.groups:
        if len(group) > 1:
            files = [member.file for member in group.members]  # the reference first
            origin = min(range(len(files)), key=lambda at: (*first(files[at]), at))
            found.append([files[origin], *files[:origin], *files[origin + 1 :]])
    return found


@contextmanager
def _members_measured(
    result: ScanResult,
    groups: list[list[int]],
    shared: U32,
    quotes: bool,
    floors: tuple[float, int],
    own: Callable[[str], bool],
    progress: Progress,
    cancel: Callable[[], bool],
) -> Iterator[Callable[[], tuple[list[Copied], list[tuple[int, str]]]]]:
    """Each group member's reuse of its origin, measured as any pair's (else estimated).

    ``groups``: each group, its origin first (:func:`_origins`). Gives a call that returns
    the members' reuse, and the members that could not be read again, with why. The groups
    are measured apart, in worker processes when there are MEMBERS_IN_PROCESSES members or
    more and jobs to spare (each member's text is read again: the report's longest step in a
    folder of copies): started on entry, they run while the caller compares the other
    pairs, and the call waits for what is left; left, the block stops what was not done.
    Else the call measures them. ``floors``: the least share reported, and the shortest
    passage.
    """
    files = result.files
    work = [tuple((n, files[n]) for n in group) for group in groups]
    mine = {group[0] for group in groups if own(files[group[0]].path)}
    batches = [work[n : n + GROUPS_A_TASK] for n in range(0, len(work), GROUPS_A_TASK)]
    measure = partial(
        _groups_copied, options=result.options.read, shared=shared, quotes=quotes, floors=floors
    )
    total = sum(len(g) - 1 for g in groups)
    jobs = result.options.run.jobs
    pool = None
    if jobs > 1 and total >= MEMBERS_IN_PROCESSES:
        from simdup_gui.engine.run.batches import process_context
        from simdup_gui.engine.run.workers import process_pool

        pool = process_pool(jobs, process_context())
    outcomes = map(measure, batches) if pool is None else pool.map(measure, batches)
    finished = False

    def collected() -> tuple[list[Copied], list[tuple[int, str]]]:
        nonlocal finished
        found: list[Copied] = []
        problems: list[tuple[int, str]] = []
        done = 0
        for (copied, unread), batch in zip(outcomes, batches, strict=False):
            found += [_owned(one) if one.sources[0].source in mine else one for one in copied]
            problems += unread
            done += sum(len(members) - 1 for members in batch)
            progress(ProgressEvent("measuring copies", done, total))
            if cancel():
                return found, problems
        finished = True
        return found, problems

    if pool is None:
        yield collected
        return
    from simdup_gui.engine.run.batches import stop_now

    try:
        yield collected
    finally:
        if not finished:  # cancelled or failed: the batches not started are dropped
            stop_now(pool)
        pool.shutdown(wait=True)


GROUPS_A_TASK = 16  # groups measured in one worker's task
RETELL_BELOW = 0.5  # a member copied less word for word is looked at for retold sentences
MEMBERS_IN_PROCESSES = 400  # members from which their measuring is spread over processes


def _owned(copied: Copied) -> Copied:
    """A member's reuse of its origin when that is one of the editor's own articles."""
    sources = tuple(reuse._replace(own=True) for reuse in copied.sources)
    return replace(copied, sources=sources, without_own=0.0)


def _groups_copied(
    groups: list[tuple[tuple[int, FileRecord], ...]],
    options: ReadOptions,
    shared: U32,
    quotes: bool,
    floors: tuple[float, int],
) -> tuple[list[Copied], list[tuple[int, str]]]:
    """Each member's reuse of its origin (the group's first), at least ``floors``' share.

    (Its passages of ``floors``' units or more; retold sentences looked for only in a member
    that copied less than RETELL_BELOW otherwise: a copy of the story mostly as it was
    needs none, and they are the slower part.)

    Groups given as (file index, record) pairs. A member's text is let go once measured (a
    folder of copies would hold every text), and an exact copy of a member measured (the
    same bytes' count, fingerprints, sketch and passages) takes its figures: a group of a
    story six times over is measured once. Also: the files not read again, and why.
    """
    found, problems = [], []
    for group in groups:
        records = [record for _, record in group]
        texts = Texts(records, options)  # by the group's own order: the origin is 0
        origin = texts(0)
        out = None if origin is None else _left_out(origin, shared, quotes)
        measured: dict[tuple[object, ...], Copied | None] = {}
        for at, (file, record) in enumerate(group[1:], 1):
            same = (record.size, record.fingerprint, record.lead, record.sketch, record.passages)
            if same not in measured:
                pair = _measured(
                    at,
                    0,
                    texts,
                    shared,
                    quotes,
                    0,
                    out,
                    shortest=floors[1],
                    retell_below=RETELL_BELOW,
                )
                if pair is None:  # unreadable (said in the problems): estimated
                    pair = _estimated(at, 0, records)
                enough = pair.share >= floors[0]
                measured[same] = _copied(at, [pair], texts, shared, quotes) if enough else None
                texts.forget(at)
            copied = measured[same]
            if copied is not None:
                reuses = tuple(r._replace(path=file, source=group[0][0]) for r in copied.sources)
                found.append(replace(copied, path=file, sources=reuses, largest_source=group[0][0]))
        problems += [(group[at][0], why) for at, why in texts.problems()]
    return found, problems


def measured(result: ReuseResult, reuse: Reuse, texts: Texts | None = None) -> Reuse:
    """``reuse`` measured on the two texts: its passages found on both sides.

    An estimate (a group's member and its origin) is measured now; a library's article was
    measured when found, where its file was as the library took it (else it stays estimated);
    a text that cannot be read leaves the pair as it was. ``texts``: the scan's texts as the
    caller reads them too (each read once), else read here.
    """
    if reuse.library or reuse.exact:
        return reuse
    if texts is None:
        texts = Texts(result.scan.files, result.scan.options.read)
    again = _measured(
        reuse.path,
        reuse.source,
        texts,
        result.template,
        result.quotes,
        0,
        shortest=result.min_match,
        retell_below=0.0,
    )
    return reuse if again is None else again._replace(own=reuse.own, also=reuse.also)


def paragraph_shares(
    text: str, passages: Sequence[tuple[int, int]], quotes: bool = True
) -> list[tuple[int, int, float]]:
    """Each paragraph (line) of ``text`` with units: where it is, and its share in ``passages``."""
    mine = Text.of(text)
    copied = _inside(mine, passages)
    counted = np.ones(len(mine.units), bool) if quotes else ~mine.quoted()
    return mine.paragraphs(copied, counted)


def _inside(text: Text, passages: Sequence[tuple[int, int]]) -> Mask:
    """The units of ``text`` that start inside one of ``passages`` (characters)."""
    change = np.zeros(len(text.text) + 1, np.int64)
    for start, end in passages:
        change[start] += 1
        change[end] -= 1
    return (np.cumsum(change) > 0)[text.units.starts]


class Holders:
    """Which articles hold which fingerprints: every (fingerprint, article), by fingerprint."""

    def __init__(self, kept: dict[int, U32]) -> None:
        values = np.concatenate([*kept.values(), np.empty(0, np.uint32)])
        owners = np.concatenate([np.full(len(v), n, np.int64) for n, v in kept.items()] or [[]])
        order = np.argsort(values, kind="stable")
        self.values, self.owners = values[order], owners[order].astype(np.int64)

    def of(self, values: U32) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The articles holding any of ``values`` (distinct), and how many of them each holds."""
        lo = np.searchsorted(self.values, values, "left")
        hi = np.searchsorted(self.values, values, "right")
        lengths = hi - lo
        at = np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        return np.unique(self.owners[at], return_counts=True)


def _bodies(kept: dict[int, U32], counted: Counted, holders: Holders) -> dict[int, U32]:
    """The articles whose body is material going round, and the fingerprints that are theirs.

    Material GOING_ROUND or more articles hold is going round (SHARED_TEXTS or more:
    template), nobody's copy, unless one of them holds it as its body (BODY of its
    fingerprints or more): an article reposted inside others is their source, however many.
    Theirs too: a popular fingerprint only its reposts (holding half its body) hold:
    winnowing picks other runs of a passage where it meets another text, at a repost's edges.
    """
    values, counts = counted
    common = values[counts >= GOING_ROUND]
    found = _fullest(kept, values[counts >= 2], common)
    free = np.setdiff1d(common, np.concatenate([*found.values(), common[:0]]))
    for article, mine in kept.items():
        body = mine[np.isin(mine, free, assume_unique=True)]
        if article not in found and len(mine) and len(body) >= BODY * len(mine):
            found[article] = body
    rest = np.setdiff1d(
        values[counts >= SHARED_TEXTS], np.concatenate([*found.values(), common[:0]])
    )
    if not found or not len(rest):
        return found
    for origin, body in found.items():
        articles, held = holders.of(body)
        reposts = articles[2 * held >= len(body)]
        inside, times = np.unique(
            np.concatenate([np.intersect1d(kept[n], rest, True) for n in reposts.tolist()]),
            return_counts=True,
        )
        everywhere = counts[np.searchsorted(values, inside)]
        found[origin] = np.union1d(body, inside[times == everywhere])  # its reposts' only
    return found


def _fullest(kept: dict[int, U32], shared: U32, common: U32) -> dict[int, U32]:
    """Articles from which others took different parts of what goes round: its origins.

    Of an article's fingerprints others hold too (``shared``), FULLEST or more, some going
    round (``common``: held by GOING_ROUND articles or more); every other article holding some
    holds ALSO_IN of its own shared ones inside the article's (all but one at least), and
    fewer: answers cutting
    parts of one text hold those parts, the text holds them all. Where another holds it all
    alike (one quotation in many articles, one story inside many) it is nobody's here.
    """
    mine_of = {n: v[np.isin(v, shared, assume_unique=True)] for n, v in kept.items()}
    mine_of = {n: v for n, v in mine_of.items() if len(v)}
    holders = Holders(mine_of)
    found = {}
    for article, material in mine_of.items():
        if len(material) < FULLEST * len(kept[article]):
            continue
        if not np.isin(material, common, assume_unique=True).any():
            continue  # nothing goes round: pairs are measured as any pair
        articles, held = holders.of(material)
        others = articles[articles != article]
        sizes = np.array([len(mine_of[n]) for n in others.tolist()], np.int64)
        outside = sizes - held[articles != article]  # (one stray fingerprint is no matter)
        inside = outside <= np.maximum(1, (1 - ALSO_IN) * sizes)
        if len(sizes) >= GOING_ROUND - 1 and inside.all() and (sizes < len(material)).all():
            found[article] = material[np.isin(material, common, assume_unique=True)]
    return found


def _origin_pairs(
    kept: dict[int, U32], owned: dict[int, U32], shared: U32, min_share: float, holders: Holders
) -> list[tuple[int, int]]:
    """Each popular source with every article holding enough of its body (lower first).

    Not a family's pages: a pair sharing FAMILY template fingerprints is none.
    """
    pairs = []
    for origin, body in owned.items():
        articles, held = holders.of(body)
        for other, both in zip(articles.tolist(), held.tolist(), strict=True):
            values = kept[other]
            enough = both >= max(2, CANDIDATE * min_share * min(len(body), len(values)))
            if other == origin or not enough:
                continue
            family = np.intersect1d(kept[origin], values, assume_unique=True)
            if np.count_nonzero(np.isin(family, shared)) < FAMILY:
                pairs.append((min(origin, other), max(origin, other)))
    return pairs


def _family(reuse: Reuse, owned: dict[int, U32], texts: Texts) -> bool:
    """Whether a popular source's body lies at both ends of the article: a family's stub.

    A page that is little but its family's header and footer holds them as its body; a page
    of the family holds them at its top and bottom, the page's own text between them (most
    of it: an article copied from end to end, a few words changed, is a copy). A popular
    source's body is one passage of the article that reposts it.
    """
    if reuse.source not in owned or len(reuse.passages) < 2 or reuse.share >= HALF:
        return False
    mine = texts(reuse.path)
    if mine is None:
        return False
    end = len(mine.text.rstrip())
    edge = max(EDGE_CHARS, EDGE * end)
    first, last = reuse.passages[0], reuse.passages[-1]
    return first[0] <= edge and last[1] >= end - edge


def _own_pair(
    pair: tuple[int, int], kept: dict[int, U32], counted: Counted, owned: dict[int, U32]
) -> bool:
    """Whether what two articles share may be reuse: not a family's, not going round.

    ``counted``: every fingerprint and the articles holding it (:func:`_counted`); what one of
    the two owns (``owned``: material going round that is its own, ``_bodies``) goes round
    from it.
    """
    return _own_held(_held(pair, kept, counted, _owned_by(pair, owned)))


def _owned_by(pair: tuple[int, int], owned: dict[int, U32]) -> U32 | None:
    """The fingerprints either of the two articles owns (None: neither owns any)."""
    theirs = [owned[n] for n in pair if n in owned]
    return np.concatenate(theirs) if theirs else None


def _held(
    pair: tuple[int, int], kept: dict[int, U32], counted: Counted, besides: U32 | None = None
) -> npt.NDArray[np.int64]:
    """How many articles hold each fingerprint the two articles share (``besides`` left out)."""
    common = np.intersect1d(kept[pair[0]], kept[pair[1]], assume_unique=True)
    if besides is not None:
        common = common[~np.isin(common, besides)]
    values, holders = counted
    return holders[np.searchsorted(values, common)]


def _own_held(held: npt.NDArray[np.int64]) -> bool:
    """:func:`_own_pair` of the holders of what the two share."""
    if np.count_nonzero(held >= SHARED_TEXTS) >= FAMILY:
        return False
    mine = held[held < SHARED_TEXTS]
    return bool(len(mine)) and float(np.mean(mine >= GOING_ROUND)) < ELSEWHERE


def _told_pair(
    pair: tuple[int, int], kept: dict[int, U32], counted: Counted, owned: dict[int, U32]
) -> bool:
    """Whether two articles found by their terms may be reuse (:func:`_own_pair`).

    They may share no passage fingerprint at all (a retelling keeps no run of words); what
    they do share must be neither a family's nor going round — but what one of them owns
    (``owned``: material going round that is its own, ``_bodies``) goes round from it.
    """
    held = _held(pair, kept, counted, _owned_by(pair, owned))
    if np.count_nonzero(held < SHARED_TEXTS):  # they share passages: as any pair
        return _own_held(held)
    return np.count_nonzero(held >= SHARED_TEXTS) < FAMILY  # template only: no family's


def _named(names: list[str], library: Library, entry: int) -> int:
    """The place of a library article's name among the result's (added if new)."""
    name = library.name_of(entry)
    if name not in names:
        names.append(name)
    return names.index(name)


def library_reuse(
    article: int,
    record: FileRecord,
    library: Library,
    texts: Callable[[int], Text | None],
    min_share: float,
    scanned: Collection[str] = (),
    min_match: int = LEAST,
) -> list[Reuse]:
    """What an article copied from a library's articles (``source``: the library's entry).

    A library article that is a file of the scan (``scanned``: their :func:`path_key`) is no
    source of its own: the article itself, or measured as the scan's file it is.

    The library keeps a sample of its articles' fingerprints (``passages.sampled``); those of
    the article's sample that five or more library articles hold are template. A library
    article sharing enough of the rest is measured on its file where that is as it was, else
    estimated from the samples.
    """
    mine = sampled(fingerprints(record.passages))
    lo, hi = library.passage_ranges(mine)
    own = (hi > lo) & (hi - lo < SHARED_TEXTS)
    if not own.any():
        return []
    total = int(np.count_nonzero(hi - lo < SHARED_TEXTS))
    holders = np.concatenate(
        [
            library.passage_owners[a:b]
            for a, b in zip(lo[own].tolist(), hi[own].tolist(), strict=True)
        ]
    ).astype(np.int64)
    entries, counts = np.unique(holders, return_counts=True)
    near = counts / max(total, 1) >= min_share / 4
    out = []
    for entry, count in zip(entries[near].tolist(), counts[near].tolist(), strict=True):
        if path_key(library.article_file(entry)[0]) in scanned:
            continue
        measured = _on_files(
            article, texts, library.article_file(entry), entry, 2 * min_match, min_match
        )
        if measured is None:
            share = count / max(total, 1)
            whole = int(library.passage_counts[entry]) if len(library.passage_counts) else 0
            measured = Reuse(article, entry, share, count / max(whole, 1), (), 0, True, False)
        if (measured.firm if measured.exact else measured.share) >= min_share:
            out.append(measured)  # (rewording adds to a measured share, never makes one)
    return out


def share_in(record: FileRecord, library: Library, entry: int) -> float:
    """The share of an article's text found in a library article it matches.

    Measured on the two files where they can be read (a match is a copy already: however short
    the text, its share is measured), else estimated from the library's sample of fingerprints.
    """
    try:
        mine: Text | None = Text.of(read_text(record.path))
    except (OSError, ValueError):
        mine = None
    measured = _on_files(0, lambda _: mine, library.article_file(entry), entry, least=0)
    if measured is not None:
        return measured.share
    ours = sampled(fingerprints(record.passages))
    if not len(ours) or not len(library.passages):
        return 0.0
    lo, hi = library.passage_ranges(ours)
    held = [
        entry in library.passage_owners[a:b] for a, b in zip(lo.tolist(), hi.tolist(), strict=True)
    ]
    return sum(held) / len(ours)


def _on_files(
    article: int,
    texts: Callable[[int], Text | None],
    theirs: tuple[str, int, int],
    entry: int,
    least: int = SOURCE,
    shortest: int = LEAST,
) -> Reuse | None:
    """What ``article`` copied from a library article (its path, size and time), on the files.

    None: one cannot be read, or the library's changed since the library took it. ``least``,
    ``shortest``: as for ``_measured``.
    """
    mine = texts(article)
    path, size, mtime_ns = theirs
    if not unchanged(path, size, mtime_ns):
        return None  # changed since the library took it (or gone): its sample decides
    try:
        other = Text.of(read_text(path))
    except (OSError, ValueError):
        return None
    if mine is None:
        return None
    copied = copied_between(mine, other, least=least, shortest=shortest)
    return _aligned(article, entry, (mine, other), copied, library=True)


def _stands_for(result: ScanResult, origins: list[list[int]]) -> list[int]:
    """Each file's representative: its group's origin (:func:`_origins`), or itself."""
    stands = list(range(len(result.files)))
    for group in origins:
        for member in group:
            stands[member] = group[0]
    return stands


Counted = tuple[U32, npt.NDArray[np.int64]]  # fingerprints, sorted, and how many articles hold each


def _counted(kept: dict[int, U32]) -> Counted:
    """Every fingerprint of these articles, and how many hold it."""
    if not kept:
        return np.empty(0, np.uint32), np.empty(0, np.int64)
    return np.unique(np.concatenate(list(kept.values())), return_counts=True)


def _candidates(kept: dict[int, U32], shared: U32, min_share: float) -> list[tuple[int, int]]:
    """Pairs of articles sharing enough fingerprints that are not template (lower first).

    Enough: two, and CANDIDATE of the least share's part of the smaller's; each pair is then
    measured on its texts, which decides.
    """
    own = {n: v[~np.isin(v, shared)] for n, v in kept.items()}
    if not own:
        return []
    owners = np.concatenate([np.full(len(v), n, np.int64) for n, v in own.items()])
    values = np.concatenate(list(own.values()))
    order = np.lexsort((owners, values))
    owners, values = owners[order], values[order]
    n = max(own) + 1
    first, second = holding_pairs(values, SHARED_TEXTS)  # a fingerprint has fewer holders
    codes, counts = np.unique(owners[first] * n + owners[second], return_counts=True)
    sizes = np.zeros(n, np.int64)
    for article, values_of in own.items():
        sizes[article] = max(len(values_of), 1)
    a, b = codes // n, codes % n
    enough = (counts >= 2) & (counts / np.minimum(sizes[a], sizes[b]) >= CANDIDATE * min_share)
    return list(zip(a[enough].tolist(), b[enough].tolist(), strict=True))


def _measured(
    article: int,
    source: int,
    texts: Texts,
    shared: U32,
    quotes: bool,
    least: int = SOURCE,
    source_out: Mask | None = None,
    rarity: Rarity | None = None,
    shortest: int = LEAST,
    retell_below: float = math.inf,
) -> Reuse | None:
    """What ``article`` copied from ``source``, measured on their texts (None: unreadable).

    ``least``: the units copied, each side, for a source at all (``align.copied_between``);
    ``source_out``: the source's units never copied, when known (``_left_out``); ``rarity``:
    the folder's terms, which weigh a retelling's (``retold.py``); ``shortest``: the units a
    passage holds at least (``--min-match``); ``retell_below``: retold sentences count where
    the article's share copied otherwise is below it (always by default; a group's member, a
    copy already, is measured on what it copied unless that is little).
    """
    mine, theirs = texts(article), texts(source)
    if mine is None or theirs is None:
        return None
    if source_out is None:
        source_out = _left_out(theirs, shared, quotes)
    mine_out = _left_out(mine, shared, quotes)
    counted = None if quotes else ~mine.quoted()
    copied = copied_between(
        mine, theirs, mine_out, source_out, least, rarity, shortest, retell_below, counted
    )
    return _aligned(article, source, (mine, theirs), copied, counted)


def _aligned(
    article: int,
    source: int,
    texts: tuple[Text, Text],
    copied: Between,
    counted: Mask | None = None,
    library: bool = False,
) -> Reuse:
    """The reuse two texts' copied units tell (``align.copied_between``), measured on them.

    ``counted``: the article's units that count in its share (None: all).
    """
    (mine, theirs), (here, there, verbatim, told, there_verbatim) = texts, copied
    passages = tuple(mine.passages(here))
    largest = max((len("".join(mine.text[a:b].split())) for a, b in passages), default=0)
    share, source_share = mine.share(here, counted), theirs.share(there)
    found = tuple(theirs.passages(there))
    firm, retold = mine.share(verbatim | told, counted), mine.share(told, counted)
    return Reuse(
        article,
        source,
        share,
        source_share,
        passages,
        largest,
        library,
        True,
        found,
        False,
        firm,
        retold,
        tuple(mine.passages(here & ~verbatim)),
        tuple(theirs.passages(there & ~there_verbatim)),
    )


def _estimated(article: int, source: int, files: Sequence[FileRecord]) -> Reuse:
    """What a group's member copied from its origin, estimated from their fingerprints.

    For a member whose text cannot be read again (every other pair is measured): a member is
    a copy of its origin (the scan grouped them so), its template as much as the rest; the
    shares of each one's passage fingerprints found in the other estimate the two shares.
    """
    mine, theirs = (fingerprints(files[n].passages) for n in (article, source))
    both = len(np.intersect1d(mine, theirs, assume_unique=True))
    return Reuse(
        article,
        source,
        both / len(mine) if len(mine) else 1.0,
        both / len(theirs) if len(theirs) else 1.0,
        (),
        0,
        exact=False,
    )


def _left_out(text: Text, shared: U32, quotes: bool) -> Mask:
    """The units never copied: template, and quotations when they do not count."""
    out = text.template(shared, WINDOW)
    return out if quotes else out | text.quoted()


def _all_passages(reuse: Reuse) -> list[tuple[int, int]]:
    """A source's copied passages and those of the articles also holding them."""
    return [span for one in (reuse, *reuse.also) for span in one.passages]


def _copied(article: int, sources: list[Reuse], texts: Texts, shared: U32, quotes: bool) -> Copied:
    """An article's reuse from all its sources, each character counted once.

    The sources by their shares, the largest first; of two alike, the library's (an archive's
    article is the one the material came from, a folder's the copy of it).

    Its three totals, as a copy check (查重) prints them, each of all its characters: copied
    from every source; copied and not cited (quoted, or in a sentence naming its source:
    ``Text.cited``); copied from the sources that are not the editor's own. An article whose
    sources are all estimates (a member that cannot be read again) is not read: its totals
    are its largest shares.
    """
    ordered = tuple(sorted(sources, key=lambda r: (-r.share, not r.library, r.source)))
    theirs = [reuse for reuse in ordered if not reuse.own]
    exact = [reuse for reuse in ordered if reuse.exact]
    mine = texts(article) if exact else None
    if mine is None:
        first = ordered[0].share
        return Copied(
            article,
            ordered,
            first,
            ordered[0].source,
            (),
            first,
            max((reuse.share for reuse in theirs), default=0.0),
        )
    copied = _inside(mine, [span for reuse in ordered for span in _all_passages(reuse)])
    counted = np.ones(len(mine.units), bool) if quotes else ~mine.quoted()
    paragraphs = mine.paragraphs(copied, counted)
    total = mine.share(copied, None if quotes else counted)
    without_quotes = mine.share(copied & ~mine.cited(), None if quotes else counted)
    if len(theirs) == len(ordered):  # none of the editor's own: the same units
        not_own = copied
    else:
        not_own = _inside(mine, [span for reuse in theirs for span in _all_passages(reuse)])
    without_own = mine.share(not_own, None if quotes else counted)
    return Copied(
        article, ordered, total, ordered[0].source, tuple(paragraphs), without_quotes, without_own
    )
