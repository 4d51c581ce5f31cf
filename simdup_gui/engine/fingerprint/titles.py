"""What an article calls itself, for people: the groups list, the CSV and the HTML report.

A web page's ``<title>`` (else its first ``<h1>``); a text's first line with words (a
Markdown heading's ``#`` marks and a front matter's ``title:`` understood, a repost notice
passed over). Taken from the
decoded text, never the bytes; whitespace collapsed, control characters dropped, at most
MAX_TITLE characters.
"""

from __future__ import annotations

import re

from simdup_gui.engine.text.telltales import notice_line

MAX_TITLE = 120
_LOOKED_AT = 4_096  # characters of a text's start searched for its first line
_SPACES = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_RULE = re.compile(r"^[-=_*#~`\s]*$")  # a Markdown underline, a fence, a rule: no words
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_FRONT_TITLE = re.compile(r"^title\s*:\s*(.+)$", re.MULTILINE | re.IGNORECASE)


def clean_title(text: str) -> str:
    """A title as shown: one line, control characters dropped, at most MAX_TITLE characters."""
    text = _SPACES.sub(" ", _CONTROL.sub("", text)).strip()
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1].rstrip() + "…"


def text_title(text: str) -> str:
    """A plain or Markdown text's title: its first line with words (empty if none).

    A line that reads like a repost notice or an ad is passed over.
    """
    start = text[:_LOOKED_AT]
    if start.startswith("---\n"):  # YAML front matter: its title, else the first line after it
        end = start.find("\n---", 3)
        if end > 0:
            named = _FRONT_TITLE.search(start, 4, end)
            if named:
                return clean_title(named[1].strip().strip("\"'"))
            start = start[end + 4 :]
    for line in start.splitlines():
        if not _RULE.match(line) and not notice_line(line):  # not "reposted from …"
            return clean_title(_HEADING.sub("", line))
    return ""
