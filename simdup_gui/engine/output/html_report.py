"""The HTML report: the groups as a page an editor can open, share and print.

One self-contained file (no script, no outside resource): a summary, then each group as a table
under its reference's title (the reference first, then its copies with their titles, their
distance and text similarity to it, and what each copy changed: every differing passage, the
reference's struck through, the copy's underlined, with a little text around it — open for
the first groups), then the files that could not be read. In English or Chinese
(``words``), sizes in KB and MB, times in local time to the minute. Every path, title,
message and passage is escaped; links open the files.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterator
from pathlib import Path

from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.match.default_measure import containment_share
from simdup_gui.engine.match.groups import reference_extra
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.output.words import ENGLISH, Words, human_size, local_minute
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.text.textdiff import diff_hunks

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; white-space: nowrap; }
tr.reference td { color: #1a5fb4; font-weight: bold; }
del { background: #ffd8d8; } ins { background: #d8f5d8; text-decoration: none; }
p.extra { color: #a05a00; }
details { margin: .2em 0 .6em 1.5em; } li { margin: .2em 0; }
"""
DIFF_GROUPS = 300  # groups whose copies' differences are shown (texts read again for them)
CONTEXT = 30  # characters of the text shown around a differing passage
PASSAGES = 50  # differing passages listed for one copy at most
OPEN_GROUPS = 10  # groups whose differences are shown open (the rest one click away)


def _link(path: str) -> str:
    """The file's path shown, linked to the file (its exact bytes, percent-encoded)."""
    target = Path(os.path.abspath(path)).as_uri()  # file:///C:/… on Windows
    return f'<a href="{html.escape(target)}">{html.escape(display_path(path))}</a>'


def html_lines(result: ScanResult, words: Words = ENGLISH) -> Iterator[str]:
    """The report's lines, in the language of ``words``."""
    duplicates = sum(len(g) - 1 for g in result.groups)
    yield "<!DOCTYPE html>"
    yield f'<html lang="{words.language}"><head><meta charset="utf-8">'
    yield f"<title>{words('simdup report')}</title>"
    yield f"<style>{_STYLE}</style></head><body>"
    yield f"<h1>simdup: {html.escape(display_path(result.root))}</h1>"
    summary = words(
        "{files}, {groups}, {duplicates}, {unreadable} unreadable",
        files=words.count(len(result.files), "file"),
        groups=words.count(len(result.groups), "group"),
        duplicates=words.count(duplicates, "duplicate"),
        unreadable=len(result.errors),
    )
    conditions = words.note(result.options.describe())
    yield f"<p>{summary}{words(' ({conditions}).', conditions=html.escape(conditions))}</p>"

    def distance(bits: int) -> str:
        return str(bits) if result.options.method.distances else ""

    heads = ("File", "Title", "Similarity", "Distance", "Size", "Modified", "Encoding")
    for group in result.groups:
        title = result.files[group.reference].title
        heading = words("Group {id} · {count} files", id=group.id, count=len(group))
        named = f" — {html.escape(title)}" if title else ""
        yield f"<h2>{heading}{named}</h2>"
        extra = reference_extra(group, result.files)
        if extra.lines:
            said = words(
                "The copy kept has short lines a copy lacks ({lines} lines, {chars} characters): a"
                " header, a notice or an ad may still be in it.",
                lines=extra.lines,
                chars=extra.chars,
            )
            yield f'<p class="extra">⚑ {said}</p>'
        yield "<table><tr><th></th>" + "".join(f"<th>{words(h)}</th>" for h in heads) + "</tr>"
        for n, member in enumerate(group.members):
            record = result.files[member.file]
            role, css = ("reference", ' class="reference"') if n == 0 else ("copy", "")
            if n and member.file in result.kept:
                role = "kept"
            share = f"{100 * member.similarity:.1f}%"
            if member.contained:  # one text inside the other: how much of the shorter
                inside = containment_share(record, result.files[group.reference])
                share += f" · {100 * inside:.0f}% {words('inside')}"
            yield (
                f"<tr{css}><td>{words(role)}</td><td>{_link(record.path)}</td>"
                f"<td>{html.escape(record.title)}</td>"
                f'<td class="n">{share}</td><td class="n">{distance(member.distance)}</td>'
                f'<td class="n">{human_size(record.size)}</td>'
                f"<td>{local_minute(record.mtime_ns)}</td>"
                f"<td>{html.escape(record.encoding)}</td></tr>"
            )
        yield "</table>"
        if group.id <= DIFF_GROUPS:
            copies = [m.file for m in group.members[1:]]
            opened = group.id <= OPEN_GROUPS
            yield from _differences(result, group.reference, copies, words, opened)
    if result.errors:
        yield f"<h2>{words('Not read')}</h2>"
        yield f"<table><tr><th>{words('File')}</th><th>{words('Why')}</th></tr>"
        for record in result.errors:
            why = html.escape(words.reason(record.error))
            yield f"<tr><td>{_link(record.path)}</td><td>{why}</td></tr>"
        yield "</table>"
    yield "</body></html>"


def _differences(
    result: ScanResult, reference: int, copies: list[int], say: Words, opened: bool
) -> Iterator[str]:
    """What each copy changed against the reference, read again from the files."""
    try:
        original = read_text(result.files[reference].path, result.options.read)
    except (OSError, ValueError) as exc:
        why = html.escape(str(exc))
        yield f"<p>{say('The reference could not be read again: {why}', why=why)}</p>"
        return
    for file in copies:
        name = html.escape(display_path(result.files[file].path))
        try:
            text = read_text(result.files[file].path, result.options.read)
        except (OSError, ValueError) as exc:
            why = html.escape(str(exc))
            yield f"<p>{say('{name} could not be read again: {why}', name=name, why=why)}</p>"
            continue
        hunks = diff_hunks(original, text)
        if not hunks:
            continue
        phrase = "{name}: 1 difference" if len(hunks) == 1 else "{name}: {count} differences"
        summary = say(phrase, name=name, count=len(hunks))
        yield f"<details{' open' if opened else ''}><summary>{summary}</summary><ol>"
        for (a0, a1), (b0, b1) in hunks[:PASSAGES]:
            before = html.escape(original[max(0, a0 - CONTEXT) : a0])
            after = html.escape(original[a1 : a1 + CONTEXT])
            removed = f"<del>{html.escape(original[a0:a1])}</del>" if a1 > a0 else ""
            added = f"<ins>{html.escape(text[b0:b1])}</ins>" if b1 > b0 else ""
            yield f"<li>…{before}{removed}{added}{after}…</li>"
        if len(hunks) > PASSAGES:
            yield f"<li>{say('and {count} more', count=len(hunks) - PASSAGES)}</li>"
        yield "</ol></details>"


def write_html_report(
    result: ScanResult, destination: str | os.PathLike[str], words: Words = ENGLISH
) -> Path:
    """Write the HTML report in the language of ``words`` atomically (UTF-8); its path."""
    lines = html_lines(result, words)
    return write_atomically(destination, lambda stream: stream.write("\n".join(lines) + "\n"))
