"""HTML stripping and template (boilerplate) removal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser, LexborNode

from simdup_gui.engine.fingerprint.pipeline import text_features
from simdup_gui.engine.fingerprint.simhash import tf_fingerprint
from simdup_gui.engine.options import TextSettings
from simdup_gui.engine.read import html as html_module
from simdup_gui.engine.read.html import (
    _BLOCKS,
    _DROPPED,
    _LINK_BLOCKS,
    _NAMED_BLOCKS,
    _SELF_CLOSED_ANCHOR,
    _TEMPLATE_NAMES,
    _TEMPLATE_TAGS,
    MAX_LINK_DENSITY,
    MAX_REMOVED_SHARE,
    _nonblank_lines,
    _Page,
    _with_block_breaks,
    html_to_text,
    looks_like_html,
)

HEADLINES = [
    "市政府召开常务会议研究部署冬季供暖工作",
    "新能源汽车销量连续三个月保持增长",
    "高校毕业生就业服务专项行动启动",
    "国家图书馆推出古籍数字化阅读平台",
    "全国铁路冬季运行图今日起调整",
    "气象台发布寒潮蓝色预警提醒市民防寒",
    "博物馆夜场开放时间延长至晚九点",
    "多地出台措施支持小微企业发展",
    "城市轨道交通新线路开通试运营",
    "中小学课后服务覆盖率进一步提高",
]


def page(title: str, body: str, template: int = 1) -> str:
    links = "".join(f'<li><a href="/n/{i}">{h}</a></li>' for i, h in enumerate(HEADLINES * 2))
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title>
<style>.x{{}}</style><script>track()</script></head><body>
<div class="top-nav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sports">体育</a>
<a href="/finance">财经</a> <a href="/tech">科技</a></div>
<header><h2>城市新闻网 · 第{template}版</h2><p>今日天气晴 气温零下三度至五度</p></header>
<div class="main"><article><h1>{title}</h1>{body}</article>
<div class="related"><h3>相关新闻</h3><ul>{links}</ul></div></div>
<aside>热门排行 本周最受欢迎的文章</aside>
<footer><p>版权所有 城市新闻网 未经许可不得转载 联系电话 010-12345678</p></footer>
</body></html>"""


ARTICLE_A = (
    "<p>本市今年新建的十二座社区公园已全部完工，居民在家门口就能散步健身。</p>"
    "<p>公园内设置了儿童游乐区和老年人健身步道，夜间照明也进行了升级改造。</p>"
)
ARTICLE_B = (
    "<p>郊区的草莓采摘园迎来旺季，不少家庭利用周末带着孩子前往体验采摘乐趣。</p>"
    "<p>园区负责人介绍，今年大棚采用了新的滴灌技术，草莓的甜度明显提高。</p>"
)


def fingerprint(text: str) -> int:
    return tf_fingerprint(text_features(text, TextSettings()))


def test_template_is_removed_and_measured() -> None:
    result = html_to_text(page("社区公园全部完工", ARTICLE_A))
    assert "十二座社区公园" in result.text
    assert "社区公园全部完工" in result.text  # the article's own headline stays
    for template_text in ("首页", "城市新闻网", "相关新闻", HEADLINES[0], "版权所有", "热门排行"):
        assert template_text not in result.text
    assert 0.5 < result.removed_share < 1.0


def test_different_articles_in_one_template_stay_apart() -> None:
    a, b = page("社区公园全部完工", ARTICLE_A), page("草莓采摘园迎来旺季", ARTICLE_B)
    kept = (fingerprint(html_to_text(a).text) ^ fingerprint(html_to_text(b).text)).bit_count()
    raw_a = html_to_text(a, boilerplate=False).text
    raw_b = html_to_text(b, boilerplate=False).text
    together = (fingerprint(raw_a) ^ fingerprint(raw_b)).bit_count()
    assert together <= 12  # the template alone makes them look alike
    assert kept >= 20  # the articles alone are as far apart as unrelated texts (~32)


def test_same_article_in_two_templates_stays_together() -> None:
    a = html_to_text(page("社区公园全部完工", ARTICLE_A, template=1)).text
    b = html_to_text(page("社区公园全部完工", ARTICLE_A, template=2)).text
    assert a == b


def test_mislabelled_wrapper_holding_the_article_is_kept() -> None:
    markup = f'<html><body><div class="sidebar-layout">{ARTICLE_A}</div></body></html>'
    result = html_to_text(markup)
    assert "十二座社区公园" in result.text
    assert result.removed == 0


def test_plain_stripping() -> None:
    markup = (
        "<html><head><title>T</title><style>p{}</style></head><body>"
        "<script>var x = 'hidden';</script><!-- comment --><p>Hello &amp; <b>wo</b>rld</p>"
        "<div>second&nbsp;block</div><noscript>no</noscript><template>tpl</template></body></html>"
    )
    text = html_to_text(markup).text
    assert text.splitlines() == ["Hello & world", "second\xa0block"]
    assert looks_like_html(markup)
    assert not looks_like_html("just <b>text</b>")


def test_page_that_is_all_links_is_kept_whole() -> None:
    links = "".join(
        f'<li><a href="/m/{i}">module number {i} documentation</a></li>' for i in range(30)
    )
    markup = f'<html><body><div class="related"><ul>{links}</ul></div></body></html>'
    result = html_to_text(markup)
    assert "module number 7 documentation" in result.text
    assert result.removed == 0


BLOCK_NAMES = [t.strip() for t in _BLOCKS.split(",")]
MARKUP = st.lists(
    st.one_of(
        st.sampled_from(
            ["<", "</", ">", "/", " ", "\n", "=", '"', "-", "é", "中"]
            + BLOCK_NAMES
            + [n.upper() for n in BLOCK_NAMES]
            + ["a", "b", "span", "h7", "pre1", "div2"]
        ),
        st.text(max_size=3),
    ),
    max_size=30,
).map("".join)


@given(MARKUP)
@example("<P>x</p ><br/><DIV\tclass=a>y</div><h1x><h1><figcaption>")
def test_block_breaks_are_where_the_tag_regex_puts_them(markup: str) -> None:
    names = "|".join(sorted(BLOCK_NAMES, key=len, reverse=True))
    tag = re.compile(rf"<(?=/?(?:{names})[ \t\n\r\f\v/>])", re.IGNORECASE)
    expected = tag.sub("\n<", markup).encode("utf-8", "replace")
    assert _with_block_breaks(markup) == expected


def visible(node: LexborNode) -> int:
    text = node.text(deep=True)
    return len(text) - sum(text.count(space) for space in " \n\t\xa0")


def links_below(node: LexborNode) -> list[LexborNode]:
    return [a for a in node.css("a") if a.mem_id != node.mem_id and visible(a)]


def parsed(markup: str) -> LexborNode:
    markup = _SELF_CLOSED_ANCHOR.sub(r"<a\1></a>", markup)  # XHTML's empty anchors
    tree = LexborHTMLParser(_with_block_breaks(markup))
    for node in tree.css(", ".join(_DROPPED)):
        node.decompose()
    return tree.body


def reference(markup: str) -> tuple[str, int, int]:
    """``html_to_text``'s rules applied node by node to selectolax's tree: slow and plain."""
    root = parsed(markup)

    def unlinked(node: LexborNode) -> int:
        return visible(node) - sum(visible(a) for a in links_below(node))

    def link_block(node: LexborNode) -> bool:
        links = links_below(node)
        return (
            node.tag in _LINK_BLOCKS
            and len(links) > 1
            and sum(map(visible, links)) > MAX_LINK_DENSITY * visible(node)
        )

    def content(node: LexborNode | None) -> bool:
        """Inside (or) a block of links that is most of the page."""
        while node is not None and node.is_element_node:
            if link_block(node) and visible(node) > visible(root) / 2:
                return True
            node = node.parent
        return False

    elements = [node for node in root.traverse() if node.is_element_node]
    indexed = any(link_block(node) and visible(node) > visible(root) / 2 for node in elements)
    found = []
    for node in elements:
        names = f"{node.attributes.get('class') or ''} {node.attributes.get('id') or ''}"
        if (
            node.tag in _TEMPLATE_TAGS
            or (node.tag in _NAMED_BLOCKS and re.search(_TEMPLATE_NAMES, names, re.IGNORECASE))
            or (link_block(node) and not content(node))
        ) and (unlinked(node) < unlinked(root) / 2 or (indexed and not content(node))):
            found.append(node)
    chosen = {node.mem_id for node in found}

    def inside_another(node: LexborNode) -> bool:
        parent = node.parent
        while parent is not None:
            if parent.mem_id in chosen:
                return True
            parent = parent.parent
        return False

    outermost = [node for node in found if not inside_another(node)]
    removed, total = sum(map(visible, outermost)), visible(root)
    if removed > MAX_REMOVED_SHARE * total:
        text = _nonblank_lines(root.text(separator="", deep=True))
        return text, 0, len("".join(text.split()))
    for node in outermost:
        node.decompose()
    text = _nonblank_lines(root.text(separator="", deep=True))
    return text, removed, total or removed + len("".join(text.split()))


TEXTS = st.sampled_from(
    [
        *("word ", "Ünï ", "中文", " ", "\n", "&amp;", "&lt;b&gt;", "a&nbsp;b", "\xa0", "&quot;"),
        *("<!-- note -->", "<br>", "<img alt=x>", "<hr/>", "<xmp>a<b>&amp;</xmp>"),
        *("<script>x<y</script>", "<style>p{}</style>", "<textarea>t&lt;</textarea>"),
        *("<svg><p>drawn</p></svg>", "<template>tpl</template>", "<noscript>n</noscript>"),
        *("<math><source>k</source><mi>m</mi></math>", "</p>", "<p>", "</div>", "<li>"),
    ]
)
ATTRIBUTES = st.sampled_from(
    [
        *("", ' class="nav"', ' class="main"', ' id="related-links"', ' class="x_ads"'),
        *(' class="Share2"', ' class="inside photo"', " class='menu item' id=top", ' id=""'),
        *(' title="a>b" class="side"', ' class="a&amp;nav"', ' data-x="q&quot;r" class=" hot"'),
    ]
)
PAGES = st.recursive(
    TEXTS | st.just('<a href="x">link</a>') | st.just("<a></a>"),
    lambda inner: st.tuples(
        st.sampled_from(
            ["div", "p", "ul", "li", "span", "a", "nav", "footer", "section", "td", "table", "b"]
        ),
        ATTRIBUTES,
        st.lists(inner, max_size=6),
    ).map(lambda t: f"<{t[0]}{t[1]}>{''.join(t[2])}</{t[0]}>"),
    max_leaves=40,
)


@given(PAGES)
@example('<div class="nav"><a>one</a> <a>two</a></div><p>article text here</p>')
@example('<div><ul><li><a>x</a><li><a>y</a></ul>z</div><section id="share">s</section>')
def test_page_text_equals_a_walk_of_the_tree(body: str) -> None:
    markup = f"<html><head><title>t</title></head><body>{body}</body></html>"
    result = html_to_text(markup)
    assert (result.text, result.removed, result.total) == reference(markup)


@given(PAGES)
def test_element_sums_equal_a_walk_of_the_tree(body: str) -> None:
    # A MathML element named like a void HTML one (<source>) is read as void: its text is
    # counted in its parent's (the page's text is right; see html_kernels).
    assume("<math" not in body)
    root = parsed(f"<html><body>{body}</body></html>")
    page = _Page.of(root)
    nodes = [node for node in root.traverse() if node.is_element_node]
    assert len(page.tags) == len(nodes)
    sums = zip(page.totals, page.linked, page.links, strict=True)
    for (total, linked, count), node in zip(sums, nodes, strict=True):
        links = links_below(node)
        assert total == visible(node)
        assert linked == sum(map(visible, links))
        assert count == len(links)


def _plain_depth(markup: str) -> int:
    depth = deepest = 0
    for closing in re.findall(r"<(/?)(?:div|table|ul)[\s/>]", markup, re.IGNORECASE):
        depth += -1 if closing else 1
        deepest = max(deepest, depth)
    return deepest


@given(st.lists(st.sampled_from(["<div>", "</div>", "<TABLE >", "</table>", "<ul/>", "x"])))
def test_nesting_depth_is_told_exactly_where_it_matters(parts: list[str]) -> None:
    markup = "".join(parts)
    limit = 5
    found = html_module.nesting_depth(markup, limit)
    plain = _plain_depth(markup)
    assert (found > limit) == (plain > limit)
    assert found >= plain


def test_a_page_nested_too_deep_is_an_error_row_in_moments(tmp_path: Path) -> None:
    from simdup_gui.engine.scan import scan

    deep = "<html><body>" + "<div>" * 100_000 + "text" + "</div>" * 100_000
    with pytest.raises(html_module.PageTooComplex, match="nested 100,000 deep"):
        html_to_text(deep)
    (tmp_path / "deep.html").write_text(deep, encoding="utf-8")
    (record,) = scan(str(tmp_path)).files
    assert record.error == "too complex: HTML elements nested 100,000 deep"


def test_a_body_that_is_a_table_of_contents_is_the_pages_content() -> None:
    """A documentation index: its body is links, in a wrapper; it is not taken for template."""
    entries = "".join(
        f'<li><a href="/lib/{n}.html">{n}. {title}</a></li>'
        for n, title in enumerate(HEADLINES * 3)
    )
    markup = (
        '<html><body><div class="mobile-nav"><a href="/">Home</a> <a href="/up">Up</a></div>'
        f'<div class="document"><h1>Library reference</h1><ul><li>Part one<ul>{entries}</ul>'
        f"</li><li>Part two<ul>{entries}</ul></li></ul></div>"
        "<footer>© The authors. Built with a generator.</footer></body></html>"
    )
    result = html_to_text(markup)
    assert HEADLINES[0] in result.text
    assert "Library reference" in result.text
    assert "Home" not in result.text


def test_an_index_pages_footer_is_template_though_it_holds_most_unlinked_text() -> None:
    """Beside a body of links (an index), a footer's licence prose is still the site's.

    The footer holds more of the page's text outside links than the body does, which alone
    would keep it as the article; but the page's content is its block of links.
    """
    entries = "".join(f'<li><a href="/lib/{n}.html">{t}</a></li>' for n, t in enumerate(HEADLINES))
    licence = "This page is licensed under the Example Foundation License, version two. " * 4
    markup = (
        f'<html><body><div class="body"><h1>Modules</h1><p>These modules help.</p>'
        f"<ul>{entries * 4}</ul></div>"
        f'<div class="footer">© Copyright the Example Foundation. {licence}</div></body></html>'
    )
    page = html_module._Page.of(LexborHTMLParser(markup).body)
    footer_unlinked = len(licence)  # more than half the page's text outside links
    assert footer_unlinked > (page.totals[0] - page.linked[0]) / 2
    result = html_to_text(markup)
    assert HEADLINES[0] in result.text
    assert "Modules" in result.text
    assert "licensed" not in result.text
    assert "Copyright" not in result.text


def test_an_empty_xhtml_anchor_holds_no_text() -> None:
    """``<a id="x"/>`` ends where it starts; the chapter after it is not link text."""
    chapter = "".join(f"<p>{headline}，详见下文说明。</p>" for headline in HEADLINES)
    markup = (
        '<html><body><div class="nav"><a href="/">首页</a></div>'
        f'<div class="chapter"><a id="c1"/><h2>第一章</h2>{chapter}</div>'
        '<div class="list"><a href="/a">甲</a><a href="/b">乙</a><a id="end"/></div>'
        "</body></html>"
    )
    result = html_to_text(markup)
    assert all(headline in result.text for headline in HEADLINES)
    assert "首页" not in result.text


def test_a_page_that_is_nearly_all_template_is_kept_whole_and_says_so() -> None:
    from simdup_gui.engine.fingerprint.pipeline import extract_text

    menu = "".join(f'<li><a href="/{n}">{h}</a></li>' for n, h in enumerate(HEADLINES))
    markup = f"<html><body><nav><ul>{menu}</ul></nav><footer>联系我们</footer></body></html>"
    extracted = extract_text(markup.encode(), "index.html")
    assert extracted.template_kept
    assert HEADLINES[0] in extracted.text
    assert not extract_text(page("标题", ARTICLE_A).encode(), "a.html").template_kept


SECTIONS = [  # (class, id, its first words, text): sections of a help page or a manual
    ("section", "editing-and-navigation", "3.1 Editing and navigation", "Press the arrow keys."),
    ("section", "side-effects", "Side effects", "None: the call changes nothing."),
    ("", "COPYRIGHT", "COPYRIGHT", "Copyright 1993 the authors; see the licence."),
    ("refsect1", "Related_links", "Related links", "The guide's other chapters say more."),
]


@pytest.mark.parametrize(("names", "element_id", "heading", "text"), SECTIONS)
def test_a_section_whose_id_is_its_heading_is_the_article(
    names: str, element_id: str, heading: str, text: str
) -> None:
    body = "<p>" + "The manual explains each command in turn, with its options. " * 30 + "</p>"
    section = f'<div class="{names}" id="{element_id}"><h2>{heading}</h2><p>{text}</p></div>'
    result = html_to_text(f"<html><body>{body}{section}</body></html>")
    assert heading in result.text
    assert text in result.text
    assert result.removed == 0


@pytest.mark.parametrize(
    "part",
    [
        '<div id="navigation"><p>Home · About · Contact</p></div>',  # an id, not its words
        '<div class="comments-area" id="comments"><h2>Comments</h2><p>Great post!</p></div>',
        '<div class="footer-copyright">Copyright 2024 City News. All rights reserved.</div>',
        '<aside id="sidebar"><h3>Sidebar</h3><p>Weather: sunny</p></aside>',  # by its tag
    ],
)
def test_a_part_named_as_template_is_still_removed(part: str) -> None:
    body = "<p>" + "The article goes on about the city's twelve new parks. " * 30 + "</p>"
    result = html_to_text(f"<html><body>{body}{part}</body></html>")
    assert "twelve new parks" in result.text
    assert result.removed > 0
    for words in ("Home", "Great post", "All rights", "Weather"):
        assert words not in result.text


PARAGRAPH = "The council voted on Tuesday to open twelve new parks along the river. " * 8
SECTION = "Residents asked for shade, benches and water fountains in every one of them. " * 8


@pytest.mark.parametrize("names", ['class="related"', 'class="side-story"', 'id="hot"'])
def test_a_long_part_named_as_template_inside_the_article_is_kept(names: str) -> None:
    """Between paragraphs of the article, a long block is the article, whatever its name."""
    section = f"<div {names}><p>{SECTION}</p><div class='share'>Share: email</div></div>"
    markup = f"<html><body><p>{PARAGRAPH}</p>{section}<p>{PARAGRAPH}</p></body></html>"
    result = html_to_text(markup)
    assert SECTION.strip() in result.text
    assert "Share: email" not in result.text  # what it holds is judged on its own


@pytest.mark.parametrize("where", ["before", "after", "between a short lead and the article"])
def test_a_long_part_named_as_template_at_the_pages_edge_is_removed(where: str) -> None:
    """A sidebar or a comment thread lies before or after the article, not inside it."""
    sidebar = f'<div class="sidebar"><p>{SECTION}</p></div>'
    article, footer = f"<p>{PARAGRAPH}</p><p>{PARAGRAPH}</p>", "<footer>© City News</footer>"
    body = {
        "before": f"<header>City News</header>{sidebar}{article}{footer}",
        "after": f"{article}{sidebar}<div id='comments'>{SECTION}</div>{footer}",
        "between a short lead and the article": f"<h1>Twelve parks</h1>{sidebar}{article}",
    }[where]
    result = html_to_text(f"<html><body>{body}</body></html>")
    assert "Residents asked" not in result.text
    assert "twelve new parks" in result.text


def test_a_short_part_named_as_template_inside_the_article_is_removed() -> None:
    ad = '<div class="ad">Advertisement: save 50% on hosting this month.</div>'
    result = html_to_text(f"<html><body><p>{PARAGRAPH}</p>{ad}<p>{PARAGRAPH}</p></body></html>")
    assert "Advertisement" not in result.text
    assert "twelve new parks" in result.text


def test_a_long_named_part_inside_a_kept_one_is_judged_inside_the_article_too() -> None:
    note = f'<div class="side-note"><p>{SECTION.upper()}</p></div>'
    section = f'<div class="related">{note}<p>Parks open in May.</p></div>'
    markup = f"<html><body><p>{PARAGRAPH}</p>{section}<p>{PARAGRAPH}</p></body></html>"
    result = html_to_text(markup)
    assert SECTION.upper().strip() in result.text
    assert result.removed == 0
