"""The HTML report: the groups as a page an editor can open, share and print.

One self-contained file (no script, no outside resource): a summary, then each group as a table
(the reference first, then its copies with their distance and text similarity to it), then the
files that could not be read. Every path and message is escaped; links open the files.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from simdup_gui.engine.output.cells import modified_text
from simdup_gui.engine.output.outputs import write_atomically
from simdup_gui.engine.read.walk import display_path
from simdup_gui.engine.results import ScanResult

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 1.6em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #ddd; }
td.n { text-align: right; white-space: nowrap; }
tr.reference td { color: #1a5fb4; font-weight: bold; }
"""


def _link(path: str) -> str:
    """The file's path shown, linked to the file (its exact bytes, percent-encoded)."""
    target = "file://" + quote(os.fsencode(os.path.abspath(path)))
    return f'<a href="{html.escape(target)}">{html.escape(display_path(path))}</a>'


def html_lines(result: ScanResult) -> Iterator[str]:
    """The report's lines."""
    duplicates = sum(len(g) - 1 for g in result.groups)
    yield "<!DOCTYPE html>"
    yield '<html><head><meta charset="utf-8"><title>simdup report</title>'
    yield f"<style>{_STYLE}</style></head><body>"
    yield f"<h1>simdup: {html.escape(display_path(result.root))}</h1>"
    yield (
        f"<p>{len(result.files)} files, {len(result.groups)} groups, {duplicates} duplicates,"
        f" {len(result.errors)} unreadable (k = {result.options.k}, text similarity at least"
        f" {result.options.min_similarity:.0%}).</p>"
    )
    for group in result.groups:
        yield f"<h2>Group {group.id} · {len(group)} files</h2>"
        yield "<table><tr><th></th><th>File</th><th>Similarity</th><th>Distance</th>"
        yield "<th>Size</th><th>Modified</th><th>Encoding</th></tr>"
        for n, member in enumerate(group.members):
            record = result.files[member.file]
            role, css = ("reference", ' class="reference"') if n == 0 else ("duplicate", "")
            if n and member.file in result.kept:
                role = "kept"
            yield (
                f"<tr{css}><td>{role}</td><td>{_link(record.path)}</td>"
                f'<td class="n">{100 * member.similarity:.1f}%</td>'
                f'<td class="n">{member.distance}</td><td class="n">{record.size}</td>'
                f"<td>{html.escape(modified_text(record.mtime_ns))}</td>"
                f"<td>{html.escape(record.encoding)}</td></tr>"
            )
        yield "</table>"
    if result.errors:
        yield "<h2>Not read</h2><table><tr><th>File</th><th>Why</th></tr>"
        for record in result.errors:
            yield f"<tr><td>{_link(record.path)}</td><td>{html.escape(record.error)}</td></tr>"
        yield "</table>"
    yield "</body></html>"


def write_html_report(result: ScanResult, destination: str | os.PathLike[str]) -> Path:
    """Write the HTML report atomically (UTF-8) and return its path."""
    return write_atomically(
        destination, lambda stream: stream.write("\n".join(html_lines(result)) + "\n")
    )
