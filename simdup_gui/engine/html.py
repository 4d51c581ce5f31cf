"""HTML to plain text with a real parser (selectolax's Lexbor engine, an HTML5 parser).

Scripts, styles, templates and the head are dropped, comments vanish, entities are unescaped,
and block elements become line breaks so that paragraphs stay apart and words stay whole.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser

_DROPPED = "script, style, noscript, template, head, iframe, object, svg, canvas"
_BLOCKS = (
    "address, article, aside, blockquote, br, dd, details, dialog, div, dl, dt, fieldset,"
    " figcaption, figure, footer, form, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav,"
    " ol, p, pre, section, summary, table, td, th, tr, ul, title, caption"
)
_HTML_START = re.compile(
    r"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|meta|div|p)\b", re.IGNORECASE | re.DOTALL
)
_BLANK_LINES = re.compile(r"[ \t\u3000]*\n[\s\u3000]*")


def looks_like_html(text: str) -> bool:
    """Whether a text file's content is HTML markup."""
    return bool(_HTML_START.match(text[:2048]))


def html_to_text(markup: str) -> str:
    """The visible text of an HTML document, one block per line."""
    tree = LexborHTMLParser(markup)
    for node in tree.css(_DROPPED):
        node.decompose()
    for node in tree.css(_BLOCKS):
        node.insert_before("\n")
        node.insert_after("\n")
    root = tree.body or tree.root
    text = root.text(separator="", deep=True) if root is not None else ""
    return _BLANK_LINES.sub("\n", text).strip()
