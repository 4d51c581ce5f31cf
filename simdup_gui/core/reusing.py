"""The app's reuse view (查重), with no Qt: what is measured, and what one pair shows.

A scan's reuse is measured on demand (``find_reuse``: each article's sources among the scan's
files, and the library's when the scan checked a folder against one) with the choices the view
offers: the least share reported, the shortest passage found (``--min-match``), and whether
quoted text counts (去除引用). The reference
folders are the editor's own archive: sources flagged as one's own, each total also given
without them (去除本人已发表), as without cited text. A pair chosen in the view
is read again and its passages found on both sides (:func:`pair_shown`); an article chosen
alone shows everything it copied, beside its largest source.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.library.store import Library, LibraryError
from simdup_gui.engine.progress import Progress, never, no_progress
from simdup_gui.engine.read.walk import display_path, in_folders
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.reuse.align import LEAST, LONGEST_MATCH
from simdup_gui.engine.reuse.sources import (
    Copied,
    Reuse,
    ReuseResult,
    Texts,
    find_reuse,
    measured,
    paragraph_shares,
)
from simdup_gui.engine.reuse.units import RUN

SHOWN_LIMIT = 400_000  # characters of a text shown
MATCHES = (RUN, LONGEST_MATCH)  # the shortest passage one may ask for, and the longest


@dataclass(frozen=True)
class ReuseChoices:
    """What the view measures with."""

    min_share: float = 0.05  # a source is reported from this share of an article's text
    quotes: bool = True  # whether quoted text counts (False: 去除引用)
    min_match: int = LEAST  # the shortest passage found, in units (a source: twice as many)


def measure(
    result: ScanResult,
    choices: ReuseChoices,
    progress: Progress = no_progress,
    cancel: Callable[[], bool] = never,
) -> ReuseResult:
    """Each article's sources in ``result`` (and its library's articles, when it has one)."""
    own = result.options.group.reference_folders
    library = None
    if result.library:
        try:
            library = Library.open(result.library)
        except LibraryError:
            library = None  # gone since the check: its articles are not sources
    return find_reuse(
        result,
        min_share=choices.min_share,
        quotes=choices.quotes,
        own=lambda path: bool(own) and in_folders(path, own),
        library=library,
        progress=progress,
        cancel=cancel,
        min_match=choices.min_match,
    )


@dataclass(frozen=True)
class Side:
    """One text of a pair as the view shows it."""

    title: str
    text: str  # "" when it cannot be read (``problem`` says why)
    passages: tuple[tuple[int, int], ...]  # the copied passages, in characters of ``text``
    problem: str = ""
    reworded: tuple[tuple[int, int], ...] = ()  # of the passages, the parts not word for word


@dataclass(frozen=True)
class PairShown:
    """An article beside a source: both texts with their copied passages, and the figures."""

    article: Side
    source: Side
    paragraphs: tuple[tuple[int, int, float], ...]  # the article's paragraphs and their shares
    share: float  # of the article's text copied (from this source, or from any: ``whole``)
    source_share: float  # of the source's text found in the article
    passages: int  # how many passages the article copied from this source
    largest: int  # the longest, in characters
    whole: bool  # the article's reuse from all its sources, beside its largest source
    also_in: tuple[str, ...] = ()  # the articles that hold what it copied from the source, and
    # took it from the source too (``Reuse.also``), by path


def pair_shown(reuse: ReuseResult, copied: Copied, source: Reuse | None = None) -> PairShown:
    """What the view shows of ``copied`` beside ``source``.

    ``source`` None: everything the article copied, beside its largest source. Reads the texts
    again, each once, to measure and to show: off the GUI thread for long ones.
    """
    whole = source is None
    texts = Texts(reuse.scan.files, reuse.scan.options.read)
    chosen = measured(reuse, copied.sources[0] if source is None else source, texts)
    if whole:  # every source's passages (only the chosen one's otherwise)
        everyone = [chosen, *(measured(reuse, one, texts) for one in copied.sources[1:])]
        mine = tuple(sorted(span for one in everyone for span in one.passages))
        reworded = tuple(sorted(span for one in everyone for span in one.reworded))
    else:
        mine, reworded = chosen.passages, chosen.reworded
    article = _scanned(reuse, texts, copied.path, mine, reworded)
    if chosen.library:
        theirs = _library_side(
            reuse.source_path(chosen), chosen.source_passages, chosen.source_reworded
        )
    else:
        theirs = _scanned(
            reuse, texts, chosen.source, chosen.source_passages, chosen.source_reworded
        )
    paragraphs = tuple(paragraph_shares(article.text, article.passages, reuse.quotes))
    return PairShown(
        article,
        theirs,
        paragraphs,
        copied.share if whole else chosen.share,
        chosen.source_share,
        len(chosen.passages),
        chosen.largest,
        whole,
        tuple(reuse.source_path(other) for other in chosen.also),
    )


def _scanned(
    reuse: ReuseResult,
    texts: Texts,
    file: int,
    passages: tuple[tuple[int, int], ...],
    reworded: tuple[tuple[int, int], ...] = (),
) -> Side:
    """A scanned file as the view shows it: its text as it was measured."""
    title = display_path(reuse.scan.files[file].path)
    text = texts(file)
    if text is None:
        return Side(title, "", (), texts.problem(file))
    shown = text.text[:SHOWN_LIMIT]  # a long text is shown in part
    return Side(title, shown, _within(passages, shown), "", _within(reworded, shown))


def _library_side(
    path: str, passages: tuple[tuple[int, int], ...], reworded: tuple[tuple[int, int], ...] = ()
) -> Side:
    """A library article's file as the view shows it: read as the library measured it."""
    try:
        text = read_text(path)[:SHOWN_LIMIT]
    except (OSError, ValueError) as exc:
        return Side(display_path(path), "", (), str(exc))
    return Side(display_path(path), text, _within(passages, text), "", _within(reworded, text))


def _within(passages: tuple[tuple[int, int], ...], text: str) -> tuple[tuple[int, int], ...]:
    """The passages cut to the text shown (a long text is shown in part)."""
    return tuple((a, min(b, len(text))) for a, b in passages if a < len(text))
