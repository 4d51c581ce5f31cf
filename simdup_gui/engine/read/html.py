"""HTML to plain text with a real parser (selectolax's Lexbor engine, an HTML5 parser).

Scripts, styles, templates and the head are dropped, comments vanish, entities are unescaped,
and block elements become line breaks so that paragraphs stay apart and words stay whole. A
page whose block elements nest over 10,000 deep (Lexbor's time grows with depth times tags: a
minute at 100,000) is refused in milliseconds as "too complex", its file's error row.

Boilerplate removal (on by default) keeps the article and drops the site template around it,
so that two different articles in one site's template do not look alike: navigation, headers,
footers, sidebars and forms; elements whose class or id names such a part (``nav``, ``footer``,
``related``, ``share`` …); and blocks that are mostly links ("related articles", tag clouds,
menus). A part is only dropped when it holds less than half of the page's text outside links,
so an article in a mislabelled wrapper is kept; a name alone drops neither a section whose id
is its heading's words nor a long part with the article's text on both sides; a block of links
holding most of the page (an index, a body that is a table of contents) is the page's content;
and a page that would lose more than 90 % of its text is kept whole, with a note. How much
text was dropped is recorded. An XHTML anchor closed by ``/>`` holds no text (an HTML parser
would let it run on and take the text after it for a link).

Lexbor parses; the tree it writes back is read in one compiled pass (``html_kernels.py``) that
yields the text and, for every element, its text's length inside and outside links: the rules
above then take a few numpy operations, with no Python walk over the tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from selectolax.lexbor import LexborHTMLParser, LexborNode

from simdup_gui.engine.kernels import kernel_module
from simdup_gui.engine.read.html_codes import HIDDEN, RAW, VOID, words

Index = npt.NDArray[np.int64]

_DROPPED = frozenset(
    {"script", "style", "noscript", "template", "head", "iframe", "object", "svg", "canvas"}
)
_BLOCKS = (
    "address, article, aside, blockquote, br, dd, details, dialog, div, dl, dt, fieldset,"
    " figcaption, figure, footer, form, h1, h2, h3, h4, h5, h6, header, hr, li, main, nav,"
    " ol, p, pre, section, summary, table, td, th, tr, ul, title, caption"
)
_TEMPLATE_TAGS = frozenset({"nav", "header", "footer", "aside", "form", "menu", "button", "select"})
_TEMPLATE_NAMES = (  # zero-width edges: the names of elements on consecutive lines each match
    r"(?<![^\s_-])(?:nav|navbar|navigation|menu|footer|header|masthead|sidebar|side|breadcrumbs?"
    r"|related|recommend\w*|share|sharing|social|comments?|copyright|advert\w*|ads?|banner"
    r"|toolbar|pagination|pager|subnav|topbar|widget|hot|links?)(?=$|[\s_\d-])"
)
_TEMPLATE_NAMES_ANY_CASE = re.compile(_TEMPLATE_NAMES, re.IGNORECASE)
_TEMPLATE_NAMES_LOWER = re.compile(_TEMPLATE_NAMES)  # the same on lower-cased ASCII, 2x faster
_LINK_BLOCKS = frozenset({"ul", "ol", "dl", "table", "div", "section", "p", "li"})
_NAMED_BLOCKS = frozenset({"div", "section", "ul", "ol", "dl", "table", "td", "p"})  # by class/id
_VOID = frozenset(  # elements without an end tag
    {"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input"}
    | {"keygen", "link", "meta", "param", "source", "track", "wbr"}
)
_RAW_TEXT = frozenset(  # elements whose text is written unescaped
    {"script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"}
)
MAX_LINK_DENSITY = 0.5
# A part found by its name alone, holding this many visible characters outside links with as
# many of the page's kept text on either side, is a section of the article: an ad or a share
# box set between paragraphs is a line or two, a footer a few; a long one there is article.
ARTICLE_SECTION_CHARS = 400
_HEADING_CHARS = 200  # an element's first words are within these characters of its text
MAX_REMOVED_SHARE = 0.9  # removing more would leave no article: keep the page whole
_SELF_CLOSED_ANCHOR = re.compile(r"<a(\s[^<>]*?)?/>", re.IGNORECASE)  # XHTML's <a id="x"/>
MAX_TAG_CHARS = 8192  # a start tag longer than this keeps its name only: no page needs more
# An overlong start tag, its name kept: Lexbor's attribute handling is quadratic in a tag's
# attributes (10^5 of them took 70 s), while this regex is linear.
# (A tag a read cut short never closes: it ends at the end of the data.)
_OVERLONG_TAG = re.compile(rb"<([A-Za-z][^\s/>]{0,64})[\s/][^>]{%d,}(?:>|\Z)" % MAX_TAG_CHARS)
_HTML_START = re.compile(
    r"^\s*(<!--.*?-->\s*)*<(!doctype\s+html|html|head|body|meta|div|p)\b",
    re.IGNORECASE | re.DOTALL,
)


_BLOCK_WORDS = words(*(tag.strip() for tag in _BLOCKS.split(",")))
_TAGS = sorted({"a"} | _TEMPLATE_TAGS | _LINK_BLOCKS | _NAMED_BLOCKS | _VOID | _RAW_TEXT | _DROPPED)


def _tags_in(tags: frozenset[str]) -> npt.NDArray[np.bool_]:
    """Which of ``_TAGS`` are in ``tags``, and a last False for the other tags (row -1)."""
    return np.array([tag in tags for tag in _TAGS] + [False])


_IS_TEMPLATE_TAG, _IS_LINK_BLOCK = _tags_in(_TEMPLATE_TAGS), _tags_in(_LINK_BLOCKS)


@cache
def _tag_tables() -> tuple[object, ...]:
    """The tags ``html_kernels.read_page`` tells apart, and what it must know of each."""
    flags = [
        (VOID if tag in _VOID else 0)
        | (RAW if tag in _RAW_TEXT else 0)
        | (HIDDEN if tag in _DROPPED else 0)
        for tag in _TAGS
    ]
    return *words(*_TAGS), np.array(flags, np.uint8), _tags_in(_NAMED_BLOCKS), _TAGS.index("a")


def _with_block_breaks(markup: str) -> bytes:
    """The markup as UTF-8, with a line break before every block tag (one compiled pass).

    The breaks keep paragraphs apart in the text; inline tags get none, so words stay whole.
    Start tags longer than MAX_TAG_CHARS lose their attributes (they hold no text).
    """
    html_kernels = kernel_module("simdup_gui.engine.read.html_kernels")

    raw = markup.encode("utf-8", "replace")
    if len(raw) > MAX_TAG_CHARS:
        raw = _OVERLONG_TAG.sub(rb"<\1>", raw)
    data = np.frombuffer(raw, dtype=np.uint8)
    return html_kernels.break_before_tags(data, *_BLOCK_WORDS).tobytes()


@dataclass(frozen=True)
class PageText:
    """The visible text of a page and how many characters of template were dropped."""

    text: str
    removed: int = 0  # non-space characters dropped as template
    total: int = 0  # non-space characters of the page before that
    kept_template: bool = False  # what looked like template was kept: it was most of the page
    title: str = ""  # the page's <title>, else its first <h1> (as written: not yet cleaned)

    @property
    def removed_share(self) -> float:
        """Share of the page's text that was template, from 0 to 1."""
        return self.removed / self.total if self.total else 0.0


def looks_like_html(text: str) -> bool:
    """Whether a text file's content is HTML markup."""
    return bool(_HTML_START.match(text[:2048]))


_WORD = re.compile(r"[^\W\d_]+")  # letters: an id's words, whatever joins them


def _words(text: str) -> list[str]:
    """The runs of letters, case-folded (digits and punctuation between them dropped)."""
    return _WORD.findall(text.casefold())


def _visible(text: str) -> int:
    """Characters other than the spaces, tabs, line breaks and no-break spaces (as counted)."""
    return len(text) - sum(text.count(space) for space in " \t\n\xa0")


def _nonblank_lines(text: str) -> str:
    """The text's lines without whitespace at either end, blank ones dropped."""
    return "\n".join(filter(None, map(str.strip, text.split("\n"))))


class _Page(NamedTuple):
    """A page's text and, for each element in document order, what ``read_page`` found."""

    text: str
    tags: Index  # of _TAGS, or -1
    lasts: Index  # the last element inside each one
    starts: Index  # where each one's text starts and ends in ``text``
    ends: Index
    totals: Index  # visible characters
    linked: Index  # visible characters inside links
    links: Index  # links with text inside
    name_at: Index  # where each one's line starts in ``names`` (-1: no class nor id)
    names: str  # "class id", a line for each element of _NAMED_BLOCKS with either

    @classmethod
    def of(cls, root: LexborNode) -> _Page:
        """Read the element's markup, as Lexbor writes it back, in one compiled pass."""
        k = kernel_module("simdup_gui.engine.read.html_kernels")

        data = np.frombuffer(root.html.encode("utf-8", "replace"), np.uint8)
        text, elements, names = k.read_page(data, *_tag_tables())
        columns = elements.T
        return cls(
            text.tobytes().decode("utf-8"),
            *(columns[c] for c in (k.TAG, k.LAST, k.START, k.END, k.TOTAL, k.LINKED, k.LINKS)),
            columns[k.NAME_AT],
            names.tobytes().decode("utf-8"),
        )

    def named_parts(self) -> Index:
        """Elements whose class or id names a template part ("nav", "related" …).

        Not an id made of the element's own first words: that names a section of the article
        after its heading (``id="editing-and-navigation"`` over "Editing and navigation", a
        manual's ``id="COPYRIGHT"``), not a part of the site around it. A template part so
        named (``id="comments"`` over "Comments") is then left to its tag, class and links.
        """
        names = self.names
        if names.isascii():
            matches = _TEMPLATE_NAMES_LOWER.finditer(names.lower())
        else:
            matches = _TEMPLATE_NAMES_ANY_CASE.finditer(names)
        lines = np.flatnonzero(self.name_at >= 0)
        found = [match.start() for match in matches]
        elements = lines[np.searchsorted(self.name_at[lines], found, side="right") - 1]
        headings = [self._heading_id(e, at) for e, at in zip(elements, found, strict=True)]
        return elements[~np.array(headings, bool)]

    def _heading_id(self, element: int, at: int) -> bool:
        """Whether the name found at ``at`` is in the element's id, made of its first words."""
        start = int(self.name_at[element])
        line = self.names[start : self.names.index("\n", start)]
        id_at = start + line.rfind(" ") + 1  # "class id": an id holds no space
        if at < id_at:
            return False
        named = _words(line[id_at - start :])
        lead = self.text[int(self.starts[element]) : int(self.ends[element])][:_HEADING_CHARS]
        return bool(named) and _words(lead)[: len(named)] == named

    def template_parts(self) -> list[int]:
        """The outermost template elements: by tag, by link density, or by class/id name.

        An element holding half or more of the page's text outside links holds the article,
        so it stays whatever it is called. A block of links holding most of the page (an index, a
        body that is a table of contents) is the page's content: links alone do not make it,
        nor any block inside it, template; and then what lies outside it is not the article,
        however much of the text outside links it holds (an index page's footer). A name alone
        does not make a long part with the page's text on both sides template
        (:meth:`_sections_of_the_article`).
        """
        tags, totals, linked = self.tags, self.totals, self.linked
        link_block = _IS_LINK_BLOCK[tags] & (self.links > 1) & (linked > MAX_LINK_DENSITY * totals)
        content = np.zeros(len(tags), bool)  # inside a block of links that is most of the page
        for element in np.flatnonzero(link_block & (totals > totals[0] / 2)).tolist():
            content[element : int(self.lasts[element]) + 1] = True
        by_evidence = _IS_TEMPLATE_TAG[tags] | (link_block & ~content)
        found = by_evidence.copy()
        found[self.named_parts()] = True
        unlinked = totals - linked
        found &= (unlinked < unlinked[0] / 2) | (content.any() & ~content)
        outermost = self._outermost(found)
        while sections := self._sections_of_the_article(outermost, by_evidence):
            found[sections] = False  # what they hold is judged on its own
            outermost = self._outermost(found)
        return outermost

    def _outermost(self, found: npt.NDArray[np.bool_]) -> list[int]:
        """The found elements that no other found element holds, in document order."""
        outermost, reach = [], -1
        for element in np.flatnonzero(found).tolist():
            if element > reach:
                outermost.append(element)
                reach = int(self.lasts[element])
        return outermost

    def _sections_of_the_article(
        self, parts: list[int], by_evidence: npt.NDArray[np.bool_]
    ) -> list[int]:
        """The parts found by name alone that are long and lie inside the kept text.

        Inside: the page keeps ARTICLE_SECTION_CHARS visible characters before the part and as
        many after it, once every part is removed. A sidebar, a comment thread or a footer
        lies at the page's edge, with little but other template around it.
        """
        long_named = [
            part
            for part in parts
            if not by_evidence[part]
            and self.totals[part] - self.linked[part] >= ARTICLE_SECTION_CHARS
        ]
        if not long_named:
            return []
        starts, ends, totals = self.starts[parts], self.ends[parts], self.totals[parts]
        sections = []
        for part in long_named:
            start, end = int(self.starts[part]), int(self.ends[part])
            before = _visible(self.text[:start]) - int(totals[ends <= start].sum())
            after = _visible(self.text[end:]) - int(totals[starts >= end].sum())
            if min(before, after) >= ARTICLE_SECTION_CHARS:
                sections.append(part)
        return sections

    def text_without(self, elements: list[int]) -> str:
        """The page's text without these elements' (none inside another)."""
        cuts = [0]
        for element in elements:
            cuts += [int(self.starts[element]), int(self.ends[element])]
        cuts.append(len(self.text))
        return "".join(self.text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True))


MAX_DEPTH = 10_000  # block elements nested deeper: Lexbor's time grows with depth x tags
_NESTING = re.compile(
    r"<(/?)(?:div|section|article|aside|blockquote|ul|ol|dl|table|form|fieldset|nav|header"
    r"|footer|main|figure|details|center|menu|dir)[\s/>]",
    re.IGNORECASE,
)


class PageTooComplex(ValueError):
    """A page no article is: parsing it would take minutes (its row says so)."""


def nesting_depth(markup: str, limit: int = MAX_DEPTH) -> int:
    """How deep the page's block elements nest (each start tag in, each end tag out).

    Exact when it can pass ``limit``; below that, an upper bound (the start tags' count, or
    with no more than ``limit`` tags at all, their count: no search needed).
    """
    tags = markup.count("<")
    if tags <= limit:
        return tags
    marks = _NESTING.findall(markup)  # "" for a start tag, "/" for an end tag
    if len(marks) <= limit:
        return sum(1 for mark in marks if not mark)  # at most this deep, and cheap
    steps = np.where(np.array(marks) == "/", -1, 1)
    return int(np.cumsum(steps).max(initial=0))


def html_to_text(markup: str, *, boilerplate: bool = True) -> PageText:
    """The visible text of an HTML document, one block per line, template dropped if asked.

    Raises:
        PageTooComplex: block elements nested over MAX_DEPTH deep (no article is).
    """
    depth = nesting_depth(markup)
    if depth > MAX_DEPTH:
        raise PageTooComplex(f"too complex: HTML elements nested {depth:,} deep")
    if "/>" in markup:
        markup = _SELF_CLOSED_ANCHOR.sub(r"<a\1></a>", markup)
    tree = LexborHTMLParser(_with_block_breaks(markup))
    root = tree.body or tree.root
    if root is None:
        return PageText("")
    named = tree.css_first("title") or tree.css_first("h1")
    title = named.text(deep=True) if named is not None else ""
    page = _Page.of(root)
    if boilerplate and len(page.tags):
        parts = page.template_parts()
        removed, page_length = int(page.totals[parts].sum()), int(page.totals[0])
        # A page that is mostly "template" (an index of links, a body that is a table of
        # contents) is its own content: removing it would leave a footer, or nothing.
        if removed <= MAX_REMOVED_SHARE * page_length:
            text = _nonblank_lines(page.text_without(parts))
            total = page_length or removed + len("".join(text.split()))
            return PageText(text, removed, total, title=title)
        text = _nonblank_lines(page.text)
        return PageText(text, 0, len("".join(text.split())), kept_template=True, title=title)
    text = _nonblank_lines(page.text)
    return PageText(text, 0, len("".join(text.split())), title=title)
