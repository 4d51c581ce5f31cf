"""HTML to plain text with a real parser (selectolax's Lexbor engine, an HTML5 parser).

Scripts, styles, templates and the head are dropped, comments vanish, entities are unescaped,
and block elements become line breaks so that paragraphs stay apart and words stay whole.

Boilerplate removal (on by default) keeps the article and drops the site template around it,
so that two different articles in one site's template do not look alike: navigation, headers,
footers, sidebars and forms; elements whose class or id names such a part (``nav``, ``footer``,
``related``, ``share`` …); and blocks that are mostly links ("related articles", tag clouds,
menus). A part is only dropped when it holds less than half of the page's text outside links,
so an article in a mislabelled wrapper is kept, and a page that would lose more than 90 % of its
text (an index of links, say) is kept whole. How much text was dropped is recorded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from selectolax.lexbor import LexborHTMLParser, LexborNode

_DROPPED = "script, style, noscript, template, head, iframe, object, svg, canvas"
_BLOCKS = (
    "address, article, aside, blockquote, br, dd, details, dialog, div, dl, dt, fieldset,"
    " figcaption, figure, footer, form, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav,"
    " ol, p, pre, section, summary, table, td, th, tr, ul, title, caption"
)
_TEMPLATE_TAGS = frozenset({"nav", "header", "footer", "aside", "form", "menu", "button", "select"})
_TEMPLATE_NAMES = re.compile(
    r"(?:^|[\s_-])(?:nav|navbar|navigation|menu|footer|header|masthead|sidebar|side|breadcrumbs?"
    r"|related|recommend\w*|share|sharing|social|comments?|copyright|advert\w*|ads?|banner"
    r"|toolbar|pagination|pager|subnav|topbar|widget|hot|links?)(?:$|[\s_\d-])",
    re.IGNORECASE,
)
_LINK_BLOCKS = frozenset({"ul", "ol", "dl", "table", "div", "section", "p", "li"})
_CANDIDATES = (  # links, template tags, and blocks with a class or id that may name a part
    f"a, {', '.join(sorted(_TEMPLATE_TAGS))},"
    " :is(div, section, ul, ol, dl, table, td, p):is([class], [id])"
)
MAX_LINK_DENSITY = 0.5
MAX_REMOVED_SHARE = 0.9  # removing more than this would leave no article: keep the page whole
_HTML_START = re.compile(
    r"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|meta|div|p)\b",
    re.IGNORECASE | re.DOTALL,
)


def _name_table(names: list[str]) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Tag names as rows of bytes (zero-padded) and their lengths, for the kernel."""
    table = np.zeros((len(names), max(map(len, names))), dtype=np.uint8)
    for row, name in zip(table, names, strict=True):
        row[: len(name)] = np.frombuffer(name.encode("ascii"), dtype=np.uint8)
    return table, np.array([len(name) for name in names], dtype=np.int64)


_BLOCK_NAMES = _name_table([tag.strip() for tag in _BLOCKS.split(",")])


def _with_block_breaks(markup: str) -> bytes:
    """The markup as UTF-8, with a line break before every block tag (one compiled pass).

    The breaks keep paragraphs apart in the text; inline tags get none, so words stay whole.
    """
    from simdup_gui.engine import kernels  # on first use: see kernels.py

    data = np.frombuffer(markup.encode("utf-8", "replace"), dtype=np.uint8)
    return kernels.break_before_tags(data, *_BLOCK_NAMES).tobytes()


@dataclass(frozen=True)
class PageText:
    """The visible text of a page and how many characters of template were dropped."""

    text: str
    removed: int = 0  # non-space characters dropped as template
    total: int = 0  # non-space characters of the page before that

    @property
    def removed_share(self) -> float:
        """Share of the page's text that was template, from 0 to 1."""
        return self.removed / self.total if self.total else 0.0


def looks_like_html(text: str) -> bool:
    """Whether a text file's content is HTML markup."""
    return bool(_HTML_START.match(text[:2048]))


def _nonblank_lines(text: str) -> str:
    """The text's lines without whitespace at either end, blank ones dropped."""
    return "\n".join(filter(None, map(str.strip, text.split("\n"))))


def _visible_length(text: str) -> int:
    """Characters that are not spaces, tabs or line breaks (counted in C, no copies)."""
    return len(text) - text.count(" ") - text.count("\n") - text.count("\t") - text.count("\xa0")


class _Lengths:
    """Text lengths of a page's elements, in all and outside links, each computed once.

    Each link's length is added to its parent, then sums are passed up the tree once, deepest
    elements first: each element on the links' paths is visited once, however many links lie
    below it. This also finds the blocks that hold two links or more: the menus, link lists
    and "related articles" that can be mostly links.
    """

    def __init__(self, anchors: list[LexborNode]) -> None:
        self._total: dict[int, int] = {}
        self._linked: dict[int, int] = {}
        links: dict[int, int] = {}
        parents: dict[int, int | None] = {}  # every element above a link, by mem_id
        depths: dict[int, int] = {}
        nodes: dict[int, LexborNode] = {}
        for anchor in anchors:
            length = self.total(anchor)
            node = anchor.parent
            if not length or node is None:
                continue
            below = node.mem_id
            self._linked[below] = self._linked.get(below, 0) + length
            links[below] = links.get(below, 0) + 1
            path = []  # the elements above the link not yet seen, from the bottom
            while node is not None and node.mem_id not in depths:
                path.append(node)
                node = node.parent
            top = None if node is None else node.mem_id
            depth = -1 if top is None else depths[top]
            for node in reversed(path):
                key = node.mem_id
                parents[key], depths[key], nodes[key] = top, depth + 1, node
                top, depth = key, depth + 1
        for key in sorted(depths, key=depths.__getitem__, reverse=True):
            parent = parents[key]
            if parent is not None and key in links:
                self._linked[parent] = self._linked.get(parent, 0) + self._linked[key]
                links[parent] = links.get(parent, 0) + links[key]
        self.link_lists = [
            node
            for key, node in nodes.items()
            if links.get(key, 0) > 1 and node.tag in _LINK_BLOCKS
        ]

    def total(self, node: LexborNode) -> int:
        """Visible characters of the node's text."""
        key = node.mem_id
        length = self._total.get(key)
        if length is None:
            length = self._total[key] = _visible_length(node.text(deep=True))
        return length

    def unlinked(self, node: LexborNode) -> int:
        """Visible characters outside links: what an article is made of, unlike a menu."""
        return self.total(node) - self._linked.get(node.mem_id, 0)


def _template_parts(tree: LexborHTMLParser, root: LexborNode) -> tuple[list[LexborNode], _Lengths]:
    """Template elements, by tag, by class/id name, or by link density; never the article.

    An element holding half or more of the page's text outside links holds the article, so it
    stays whatever it is called. One selector finds the links and the named or tagged parts
    (each ``css`` call walks the whole tree).
    """
    anchors, found = [], []
    for node in tree.css(_CANDIDATES):
        tag = node.tag
        if tag == "a":
            anchors.append(node)
        elif tag in _TEMPLATE_TAGS:
            found.append(node)
        else:
            attributes = node.attributes
            names = f"{attributes.get('class') or ''} {attributes.get('id') or ''}"
            if _TEMPLATE_NAMES.search(names):
                found.append(node)
    lengths = _Lengths(anchors)
    limit = lengths.unlinked(root) / 2
    for node in lengths.link_lists:
        length = lengths.total(node)
        if length - lengths.unlinked(node) > MAX_LINK_DENSITY * length:
            found.append(node)
    return [node for node in found if lengths.unlinked(node) < limit], lengths


def _outermost(nodes: list[LexborNode]) -> list[LexborNode]:
    chosen = {node.mem_id: node for node in nodes}
    outer = []
    for node in chosen.values():
        parent = node.parent
        while parent is not None and parent.mem_id not in chosen:
            parent = parent.parent
        if parent is None:
            outer.append(node)
    return outer


def html_to_text(markup: str, *, boilerplate: bool = True) -> PageText:
    """The visible text of an HTML document, one block per line, template dropped if asked."""
    tree = LexborHTMLParser(_with_block_breaks(markup))
    for node in tree.css(_DROPPED):
        node.decompose()
    root = tree.body or tree.root
    if root is None:
        return PageText("")
    removed, page_length = 0, 0
    if boilerplate:
        parts, lengths = _template_parts(tree, root)
        page_length = lengths.total(root)
        for node in _outermost(parts):
            removed += lengths.total(node)
            node.decompose()
    text = _nonblank_lines(root.text(separator="", deep=True))
    if boilerplate and removed > MAX_REMOVED_SHARE * page_length:
        # A page that is nearly all "template" (an index of links, say) is its own content.
        return html_to_text(markup, boilerplate=False)
    return PageText(text, removed, page_length or removed + len("".join(text.split())))
