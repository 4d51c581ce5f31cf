"""The reuse report: a CSV row per (article, source), and an HTML page of the passages.

CSV (UTF-8 with a byte-order mark, cells guarded as the scan's report's): ``path, source,
share, source_share, passages, largest, also_in, total_share, total_without_quotes,
total_without_own, largest_source, own_source`` — ``share`` the part of ``path``'s characters
copied from ``source`` (0–1), ``source_share`` the part of ``source``'s found in ``path``,
``passages`` how many copied passages, ``largest`` the longest in characters (both empty for a
share estimated from fingerprints: a member whose file went, a library article whose file
changed), ``also_in`` the articles that hold what ``path`` copied from ``source`` and copied it
from ``source`` too (``; `` between them: not sources of their own), ``total_share`` what
``path`` copied from all its sources (each character once: CNKI's 总文字复制比), then the
same without cited text (去除引用文献复制比) and without the editor's own articles
(去除本人已发表文献复制比), ``largest_source`` the source it copied most from (单篇最大复制比's),
``own_source`` whether ``source`` is one of the editor's own (``--own``, a yes or empty); a
file that could not be measured again (changed during the run, gone, unreadable) has a row of
its own, with ``error`` saying why.
The page shows each article beside its largest source, the copied passages marked, and each
paragraph's share. Both in the report's language (``words``: English by default, or Chinese,
in CNKI's words).
"""

from __future__ import annotations

import bisect
import csv
import html
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from simdup_gui.engine.output.cells import guarded
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.output.words import ENGLISH, Words
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.reuse.sources import Copied, ReuseResult, Texts, measured

COLUMNS = (
    "path",
    "source",
    "share",
    "source_share",
    "passages",
    "largest",
    "also_in",
    "total_share",
    "total_without_quotes",
    "total_without_own",
    "largest_source",
    "own_source",
    "error",  # a row of its own: a file not measured again, and why
)


def reuse_rows(result: ReuseResult, words: Words = ENGLISH) -> Iterator[list[str]]:
    """A row per (article, source), the articles by their total share, the most copied first.

    Then a row per file that could not be measured again, with why (in ``words``' language).
    """
    for copied in sorted(result.articles, key=lambda c: (-c.share, c.path)):
        path = result.scan.files[copied.path].path
        largest = result.source_path(copied.sources[0])
        for reuse in copied.sources:
            cells = (display_path(path), display_path(result.source_path(reuse)))
            yield [
                *guarded(cells),
                f"{reuse.share:.4f}",
                f"{reuse.source_share:.4f}",
                str(len(reuse.passages)) if reuse.exact else "",  # an estimate finds none
                str(reuse.largest) if reuse.exact else "",
                *guarded(["; ".join(display_path(result.source_path(a)) for a in reuse.also)]),
                f"{copied.share:.4f}",
                f"{copied.without_quotes:.4f}",
                f"{copied.without_own:.4f}",
                *guarded([display_path(largest)]),
                words("yes") if reuse.own else "",
                "",
            ]
    for file, why in result.problems:  # never silent: what could not be measured, and why
        path = display_path(result.scan.files[file].path)
        yield [*guarded([path]), *[""] * (len(COLUMNS) - 2), *guarded([words.reason(why)])]


def write_reuse_rows(stream: TextIO, result: ReuseResult, words: Words = ENGLISH) -> None:
    """Write the header (in the language of ``words``) and rows as CSV."""
    writer = csv.writer(stream, lineterminator="\r\n")
    writer.writerow([words.reuse_column(name) for name in COLUMNS])
    writer.writerows(reuse_rows(result, words))


def write_reuse_report(
    result: ReuseResult, destination: str | os.PathLike[str], words: Words = ENGLISH
) -> Path:
    """Write the CSV report atomically to ``destination`` (UTF-8 with BOM)."""
    return write_atomically(
        destination, lambda stream: write_reuse_rows(stream, result, words), "utf-8-sig"
    )


_STYLE = (
    "body{font:14px/1.5 sans-serif;margin:1.5em;max-width:1400px}"
    "table.side{width:100%;table-layout:fixed;border-collapse:collapse}"
    "table.side td{vertical-align:top;width:50%;padding:0 .8em;white-space:pre-wrap}"
    "mark{background:#f8c9c9;color:#8b0000}mark.reworded{background:#fde7b3;color:#6b4400}"
    "td.share{color:#555;font-size:12px}h2{margin-top:2em}"
)


def reuse_html(result: ReuseResult, words: Words = ENGLISH) -> Iterator[str]:
    """The page's lines: a summary, then each article beside its largest source."""
    root = html.escape(display_path(result.scan.root))
    summary = "{count} articles copied at least {share} % of their text from another."
    least = f"{100 * result.min_share:g}"
    yield "<!DOCTYPE html>"
    yield f'<html lang="{words.language}"><head><meta charset="utf-8">'
    yield f"<title>{words('simdup reuse report')}</title>"
    yield f"<style>{_STYLE}</style></head><body>"
    yield f"<h1>{words('simdup reuse: {root}', root=root)}</h1>"
    yield f"<p>{words(summary, count=len(result.articles), share=least)}</p>"
    legend = words(
        "marked: {verbatim}; {reworded}",
        verbatim="<mark>" + words("copied word for word") + "</mark>",
        reworded='<mark class="reworded">' + words("reworded or retold") + "</mark>",
    )
    yield f"<p>{legend}</p>"
    for copied in sorted(result.articles, key=lambda c: (-c.share, c.path)):
        yield from _article(result, copied, words)
    yield "</body></html>"


def _article(result: ReuseResult, copied: Copied, words: Words) -> Iterator[str]:
    path = result.scan.files[copied.path].path
    best = copied.sources[0]
    texts = Texts(result.scan.files, result.scan.options.read)  # the pair's, each read once
    found = measured(result, best, texts)  # a group's member: its passages found now
    yield f"<h2>{html.escape(display_path(path))}</h2>"
    said = words(
        "copied in all: {total} %; most from {name}: {share} % in {passages} passages",
        total=f"<b>{100 * copied.share:.1f}</b>",
        name=html.escape(display_path(result.source_path(best))),
        share=f"{100 * best.share:.1f}",
        passages=len(found.passages),
    )
    totals = words(
        "without cited text: {quotes} %; without one's own articles: {own} %",
        quotes=f"{100 * copied.without_quotes:.1f}",
        own=f"{100 * copied.without_own:.1f}",
    )
    yield f"<p>{said}<br>{totals}</p>"
    if len(copied.sources) > 1 or best.also:
        yield "<ul>"
        for reuse in copied.sources:
            name = html.escape(display_path(result.source_path(reuse)))
            also = ", ".join(html.escape(display_path(result.source_path(a))) for a in reuse.also)
            held = f" ({words('also in: {names}', names=also)})" if also else ""
            yield f"<li>{name}: {100 * reuse.share:.1f} %{held}</li>"
        yield "</ul>"
    mine, theirs = texts(copied.path), None if best.library else texts(best.source)
    if mine is None or (theirs is None and not best.library):
        yield f"<p>{words('(the texts cannot be read again)')}</p>"
        return
    yield '<table class="side"><tr><td>'
    yield _marked(mine.text, found.passages, found.reworded)
    yield "</td><td>"
    yield _marked(
        "" if theirs is None else theirs.text, found.source_passages, found.source_reworded
    )
    yield "</td></tr></table>"
    shares = ", ".join(f"{100 * share:.0f} %" for _, _, share in copied.paragraphs)
    shown = words("each paragraph's copied share: {shares}", shares=shares)
    yield f'<p class="share">{shown}</p>'


def _marked(
    text: str, passages: tuple[tuple[int, int], ...], reworded: tuple[tuple[int, int], ...] = ()
) -> str:
    """The text escaped, its copied passages marked: the ``reworded`` parts in their colour."""
    out, at = [], 0
    for start, end, kind in _pieces(passages, reworded):
        tag = '<mark class="reworded">' if kind else "<mark>"
        out += [html.escape(text[at:start]), tag, html.escape(text[start:end]), "</mark>"]
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


def _pieces(
    passages: tuple[tuple[int, int], ...], reworded: tuple[tuple[int, int], ...]
) -> list[tuple[int, int, bool]]:
    """The passages as pieces (start, end, reworded): ``reworded`` lies inside them."""
    marks = sorted(reworded)
    pieces = [(a, b, True) for a, b in marks]
    for start, end in passages:
        at, n = start, bisect.bisect_left(marks, (start, start))
        while n < len(marks) and marks[n][0] < end:
            pieces += [(at, marks[n][0], False)] if at < marks[n][0] else []
            at, n = max(at, marks[n][1]), n + 1
        pieces += [(at, end, False)] if at < end else []
    return sorted(pieces)


def write_reuse_html(
    result: ReuseResult, destination: str | os.PathLike[str], words: Words = ENGLISH
) -> Path:
    """Write the HTML page atomically to ``destination``."""
    lines = reuse_html(result, words)
    return write_atomically(
        destination, lambda stream: stream.writelines(f"{line}\n" for line in lines)
    )
