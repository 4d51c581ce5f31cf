"""Passages retold in other words (``reuse/retold.py``): its fast paths against plain definitions,
and the rewrites written by hand (``rewrites/eval-*.txt``) found in a folder."""

from __future__ import annotations

import csv
import io
import itertools
import math
import os
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.resources import resource
from simdup_gui.engine.reuse import retold
from simdup_gui.engine.reuse.align import Text
from simdup_gui.engine.reuse.retold import Rarity, kept_terms, terms_of, told_candidates
from simdup_gui.engine.text.codes import IDEOGRAPH
from simdup_gui.engine.text.tokens import Batch

REWRITES = Path(__file__).with_name("rewrites")
WORDS = [
    "harbour",
    "lighthouse",
    "keeper",
    "cottage",
    "museum",
    "volunteers",
    "storm",
    "ferry",
    "the",
    "of",
    "and",
    "was",
    "in",
]
HANZI = "春运返乡旅客火车站排队等候记者报道铁路部门增开列车的了是在和"


def _sentence(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=12))) + ". "
    return "".join(draw(st.lists(st.sampled_from(HANZI), min_size=4, max_size=24))) + "。"


@st.composite
def _texts(draw: st.DrawFn) -> str:
    """Sentences, some ending a line or a paragraph (a blank line after them)."""
    ends = st.sampled_from(["", "", "\n", "\n\n"])
    return "".join(_sentence(draw) + draw(ends) for _ in range(draw(st.integers(1, 8))))


def plain_terms(text: Text, paragraphs: bool = False) -> list[Counter[int]]:
    """Each sentence's (or paragraph's) terms as :func:`retold._terms` defines them, one unit
    at a time."""
    split = retold._paragraphs if paragraphs else retold._sentences
    sentences = split(text).tolist()
    terms, of, count = retold._terms(text, np.array(sentences, np.int64), None)
    bags: list[Counter[int]] = [Counter() for _ in range(count)]
    for term, sentence in zip(terms.tolist(), of.tolist(), strict=True):
        bags[sentence][term] += 1
    return bags


def plain_seeds(
    a: Text, b: Text, rarity: Rarity | None, paragraphs: bool = False
) -> set[tuple[int, int, int, int]]:
    """The seeds by their definition: tf-isf (or idf) cosine, Dice, shared terms, nearest (of
    sentences, or of paragraphs at the paragraphs' floors); their rare terms and rivals'."""
    mine, theirs = plain_terms(a, paragraphs), plain_terms(b, paragraphs)
    similar = retold.PARAGRAPH_SIMILAR if paragraphs else retold.SIMILAR
    dice_floor = retold.PARAGRAPH_DICE if paragraphs else retold.DICE
    df = Counter(term for bag in mine + theirs for term in bag)

    def weight(term: int) -> float:
        if rarity is None:
            return math.log((len(mine) + len(theirs)) / df[term])
        return float(rarity.weights(np.array([term], np.uint64))[0])

    def rare(term: int) -> bool:
        return rarity is None or bool(rarity.rare(np.array([term], np.uint64))[0])

    found = {}
    for (i, x), (j, y) in itertools.product(enumerate(mine), enumerate(theirs)):
        both = set(x) & set(y)
        if not both:
            continue
        dot = sum(x[t] * y[t] * weight(t) ** 2 for t in both)
        norms = [math.sqrt(sum((n * weight(t)) ** 2 for t, n in bag.items())) for bag in (x, y)]
        cosine = dot / (norms[0] * norms[1]) if norms[0] * norms[1] else math.nan
        dice = 2 * len(both) / (len(x) + len(y))
        if (
            cosine >= similar - 1e-9
            and dice >= dice_floor
            and len(both) >= retold.SHARED
            and min(len(x), len(y)) >= retold.WORDY
        ):
            found[i, j] = (cosine, sum(map(rare, both)))
    best_of_i = {i: max(c for (k, _), (c, _) in found.items() if k == i) for i, _ in found}
    best_of_j = {j: max(c for (_, k), (c, _) in found.items() if k == j) for _, j in found}
    told = {  # the rare terms of every two sentences sharing any term
        (i, j): sum(map(rare, set(x) & set(y)))
        for (i, x), (j, y) in itertools.product(enumerate(mine), enumerate(theirs))
        if set(x) & set(y)
    }

    def rivals(i: int, j: int) -> int:
        """The most rare terms either shares with another of the other text."""
        return max((n for (k, m), n in told.items() if (k == i) != (m == j)), default=0)

    return {
        (i, j, rares, rivals(i, j))
        for (i, j), (c, rares) in found.items()
        if math.isclose(c, best_of_i[i]) or math.isclose(c, best_of_j[j])
    }


@settings(max_examples=80, deadline=None)
@given(_texts(), _texts(), st.booleans(), st.booleans())
def test_seeds_are_their_definition(a: str, b: str, folder: bool, paragraphs: bool) -> None:
    """The seeds (compiled by term, products capped) are the plain tf-isf definition's, of
    sentences and of paragraphs."""
    mine, theirs = Text.of(a), Text.of(b)
    rarity = Rarity.of([terms_of(kept) for kept in kept_terms(Batch.normalized([a, b, a]))])
    rarity = rarity if folder else None
    split = retold._paragraphs if paragraphs else retold._sentences
    x = retold._terms(mine, split(mine), None)
    y = retold._terms(theirs, split(theirs), None)
    floors = (retold.PARAGRAPH_SIMILAR, retold.PARAGRAPH_DICE) if paragraphs else ()
    found = set() if not len(x[0]) or not len(y[0]) else retold._seeds(x, y, rarity, *floors)
    plain = plain_seeds(mine, theirs, rarity, paragraphs)
    assert {tuple(seed) for seed in np.asarray(found).tolist()} == plain


def test_paragraphs_are_blocks_between_blank_lines_else_lines() -> None:
    """A unit's paragraph: blank lines part them where the text has any, else line breaks."""
    blocks = Text.of("第一段第一行\n第一段第二行\n\n第二段\n \n第三段")
    lines = Text.of("第一行\n第二行\n第三行")
    assert sorted(set(retold._paragraphs(blocks).tolist())) == [0, 1, 2]
    assert retold._paragraphs(blocks).tolist() == [0] * 12 + [1] * 3 + [2] * 3
    assert retold._paragraphs(lines).tolist() == [0] * 3 + [1] * 3 + [2] * 3


@settings(max_examples=60, deadline=None)
@given(st.lists(_texts(), min_size=1, max_size=5))
def test_a_record_keeps_every_term_a_retelling_compares(texts: list[str]) -> None:
    """The terms a scan keeps (from the batch, normalised) hold every text's compared terms."""
    for text, kept in zip(texts, kept_terms(Batch.normalized(texts)), strict=True):
        read = Text.of(text.strip())
        compared = retold._terms(read, retold._sentences(read), None)[0]
        tops = set((compared >> np.uint64(32)).astype(np.uint32).tolist())
        assert tops <= set(terms_of(kept).tolist())


def plain_kept(batch: Batch) -> list[list[int]]:
    """:func:`kept_terms` by its definition: each unit's terms (``retold._unit_terms``)."""
    from simdup_gui.engine.text.tokens import char_spans, text_of

    starts, ends = char_spans(batch)
    owners = text_of(batch.bounds, starts)
    ideograph = (batch.flags[starts] & IDEOGRAPH) != 0
    joined = np.append(owners[1:] == owners[:-1], False)
    hashes, units = retold._unit_terms(batch.codes, starts, ends, ideograph, None, joined)
    found: list[set[int]] = [set() for _ in range(len(batch.bounds) - 1)]
    for value, owner in zip(
        (hashes >> np.uint64(32)).tolist(), owners[units].tolist(), strict=True
    ):
        found[owner].add(value)
    return [sorted(terms) for terms in found]


@settings(max_examples=80, deadline=None)
@given(st.lists(_texts(), min_size=1, max_size=6))
def test_the_terms_kernel_is_their_definition(texts: list[str]) -> None:
    """The compiled pass over a batch gives each text's terms as the plain definition does."""
    batch = Batch.normalized(texts)
    found = [terms_of(kept).tolist() for kept in kept_terms(batch)]
    assert found == plain_kept(batch)


def plain_candidates(kept: dict[int, np.ndarray], rarity: Rarity) -> set[tuple[int, int]]:
    """:func:`told_candidates` by its definition, pair by pair."""
    n = rarity.articles
    holders = dict(zip(rarity.terms.tolist(), rarity.holders.tolist(), strict=True))
    weight = {a: sum(math.log(max(n, 2) / holders[t]) for t in kept[a].tolist()) for a in kept}
    scored = {}
    for a, b in itertools.combinations(sorted(kept), 2):
        both = [t for t in set(kept[a].tolist()) & set(kept[b].tolist())]
        both = [t for t in both if 2 <= holders[t] <= retold.RARE]
        gain = sum(math.log(max(n, 2) / holders[t]) for t in both)
        share = round(gain / max(min(weight[a], weight[b]), 1e-9), 9)
        if share >= retold.TOLD and len(both) >= retold.SHARED:
            scored[a, b] = share
    chosen = set()
    for article in kept:
        mine = sorted((pair for pair in scored if article in pair), key=lambda p: (-scored[p], p))
        chosen.update(mine[: retold.CANDIDATES])
    return chosen


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.integers(0, 30),
        st.lists(st.integers(0, 40), min_size=1, max_size=25, unique=True),
        min_size=2,
        max_size=12,
    )
)
@example({n: [0, 1, 2] for n in range(1, 8)})  # an article first in one pair, second in five
def test_told_candidates_are_their_definition(terms: dict[int, list[int]]) -> None:
    """The candidates (all pairs at once) are the plain definition's, pair by pair."""
    kept = {n: np.array(sorted(v), np.uint32) for n, v in terms.items()}
    rarity = Rarity.of(list(kept.values()))
    found = told_candidates(kept, rarity)
    assert found == sorted(plain_candidates(kept, rarity))


def cases() -> list[dict[str, str]]:
    """The hand-written rewrites: each passage (its corpus path), language, source, rewrites."""
    found = []
    for language in ("zh", "en"):
        text = (REWRITES / f"eval-{language}.txt").read_text("utf-8")
        for block in text.split("== ")[1:]:
            head, *lines = block.strip().split("\n")
            fields = dict(line.split(": ", 1) for line in lines if ": " in line)
            found.append({"path": head.strip(), "language": language, **fields})
    return found


@pytest.mark.parametrize("kind", ["light", "heavy"])
def test_rewrites_written_by_hand_name_their_source_and_no_other(tmp_path: Path, kind: str) -> None:
    """Forty passages of the corpus and their rewrites, each a file: a rewrite names its own
    passage as its source, never another; light rewrites nine in ten at least (synonyms,
    clauses moved), measured nearly whole; retold ones (most words changed, sentences merged
    and reordered: a paragraph retold whole) seven in ten at least."""
    all_cases = cases()
    assert len(all_cases) == 40
    for n, case in enumerate(all_cases):
        source = tmp_path / f"source-{n:02d}.txt"
        source.write_text(case["source"], "utf-8")
        os.utime(source, (1_700_000_000, 1_700_000_000))  # published a year before
        (tmp_path / f"copy-{n:02d}.txt").write_text(case[kind], "utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["reuse", str(tmp_path), "--no-cache"], out, err) == 0, err.getvalue()
    rows = [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]
    named = {(Path(r["path"]).stem, Path(r["source"]).stem): float(r["share"]) for r in rows}
    for (path, source), _ in named.items():
        assert path.split("-")[1] == source.split("-")[1], (path, source)  # no false source
    for language in ("zh", "en"):
        numbers = [f"{n:02d}" for n, c in enumerate(all_cases) if c["language"] == language]
        shares = [named.get((f"copy-{n}", f"source-{n}")) for n in numbers]
        found = [share for share in shares if share is not None]
        if kind == "light":
            assert len(found) >= 0.9 * len(numbers), (language, len(found))
            assert sum(found) / len(found) >= 0.8  # of each rewrite's characters
        else:
            assert len(found) >= 0.7 * len(numbers), (language, len(found))


def test_what_one_retold_of_a_sources_own_material_keeps_it_a_source(tmp_path: Path) -> None:
    """A commentary quotes a story and adds its own paragraph; an article copies another part
    of the story and retells the commentary's own paragraph: both are its sources (the
    commentary is no mere "also in" beside the story: what was retold is not the story's)."""
    all_cases = cases()
    storm = next(case for case in all_cases if case["path"] == "d04/59603ab8ba.txt")
    zh = [case for case in all_cases if case["language"] == "zh" and case is not storm]
    story = [case["source"] for case in zh[:3]]
    for n, case in enumerate(zh[3:]):  # the folder's other articles (the terms' rarity)
        (tmp_path / f"other-{n:02d}.txt").write_text(case["source"], "utf-8")
    (tmp_path / "story.txt").write_text("\n".join(story), "utf-8")
    (tmp_path / "commentary.txt").write_text(story[0] + "\n" + storm["source"], "utf-8")
    (tmp_path / "article.txt").write_text(story[1] + "\n" + storm["heavy"], "utf-8")
    os.utime(tmp_path / "story.txt", (1_600_000_000, 1_600_000_000))
    os.utime(tmp_path / "commentary.txt", (1_650_000_000, 1_650_000_000))
    out, err = io.StringIO(), io.StringIO()
    assert main(["reuse", str(tmp_path), "--no-cache"], out, err) == 0, err.getvalue()
    rows = [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]
    sources = {Path(r["source"]).stem for r in rows if Path(r["path"]).stem == "article"}
    assert sources == {"story", "commentary"}
    assert ("commentary", "story") in {(Path(r["path"]).stem, Path(r["source"]).stem) for r in rows}


SNOW = """北方遭遇罕见暴雪

本报哈尔滨电 入冬以来最强的一次寒潮本周横扫东北，多地交通受阻。

据气象部门统计，受强冷空气影响，黑龙江省哈尔滨、齐齐哈尔、牡丹江等十三个市县在三天内累计降雪\
四十二毫米，创下一九五六年有气象记录以来的同期最高值。铁路部门临时停开了二十多趟列车，机场航班\
大面积延误。

目前，各地正组织人力清扫积雪，保障居民供暖和蔬菜供应。
"""
NOODLES = """冬天里的一碗热汤

小区门口新开了一家面馆，老板是从山西来的夫妻俩，每天凌晨四点就开始和面。

这几天出门真不容易。从一九五六年起有记录以来，同一时段还没有哪次能比得上：冷空气一路南下，短短三\
天，哈尔滨、牡丹江、齐齐哈尔这十三个市县的雪累计积了四十二毫米，这是气象部门给出的统计。街坊们都\
说，这样的天气最适合来一碗刀削面。

面馆的生意因此格外红火，排队的人一直排到了马路边上。
"""
OUTING = """周末去郊外

本来约好周末去郊外爬山，结果计划全泡汤了。

听说二十多趟列车停开，航班也延误了不少，我们只好待在家里。朋友们干脆聚在一起包饺子，一直聊到深夜。

下个月天气暖和些，再找机会出去走走吧。
"""


def _sourced_rows(tmp_path: Path, language: str, texts: dict[str, str]) -> list[dict[str, str]]:
    """The reuse report's rows naming a source, for ``texts`` (by name) in a folder beside the
    hand-written cases' sources in ``language`` (the terms' rarity); "story" the oldest file."""
    for n, case in enumerate(c for c in cases() if c["language"] == language):
        (tmp_path / f"other-{n:02d}.txt").write_text(case["source"], "utf-8")
    for name, text in texts.items():
        (tmp_path / f"{name}.txt").write_text(text, "utf-8")
    os.utime(tmp_path / "story.txt", (1_600_000_000, 1_600_000_000))
    out, err = io.StringIO(), io.StringIO()
    assert main(["reuse", str(tmp_path), "--no-cache"], out, err) == 0, err.getvalue()
    return [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]


def test_one_sentence_retold_alone_is_a_passage_where_it_keeps_names_and_numbers(
    tmp_path: Path,
) -> None:
    """A column retells, in one sentence among its own, the story's sentence of places and
    figures (merged and reordered: no run of six characters left): the story is its source.
    A diary retelling the story's shorter sentence, of few such terms, is not its copy."""
    texts = {"story": SNOW, "column": NOODLES, "diary": OUTING}
    rows = _sourced_rows(tmp_path, "zh", texts)
    assert [(Path(r["path"]).stem, Path(r["source"]).stem) for r in rows] == [("column", "story")]
    column = Text.of(NOODLES)
    sentence = NOODLES.index("从一九五六年"), NOODLES.index("街坊们")
    retold_chars = column.chars - Text.of(NOODLES[: sentence[0]] + NOODLES[sentence[1] :]).chars
    assert float(rows[0]["share"]) == pytest.approx(retold_chars / column.chars, abs=0.02)
    assert int(rows[0]["passages"]) == 1


FERRY = "\n\n".join(
    [
        "Island ferry keeps its timetable through the winter",
        "The ferry to Kelby Island leaves the north pier at seven every morning and returns at "
        "five. Tickets are sold at the kiosk beside the chandlery, and bicycles travel free on "
        "the lower deck. Cars must be booked two days ahead.",
        "In winter the crossing is cancelled when gales close the Marrow Sound. The harbour "
        "master posts each closure outside the lifeboat station. Islanders then rely on the "
        "mail plane from Dunmore.",
        "A new hybrid vessel, the Gannet, will join the route next spring. It was built at the "
        "Tarrow yard, carries ninety passengers and burns a third less diesel. The county "
        "council paid half of its cost.",
    ]
)

LETTER = "\n\n".join(
    [
        "Letters from the edge of the map",
        "My grandmother never trusted the sea, and after forty years on Kelby she trusted it "
        "even less. She kept a barometer in the hall and tapped it every evening before supper.",
        "Gales can shut the Marrow Sound crossing altogether, and once word goes up by the "
        "lifeboat station, islanders bound for the mainland wait for the post plane out of "
        "Dunmore.",
        "She still writes to me by hand, and her envelopes always smell of peat smoke.",
    ]
)

WALKS = "\n\n".join(
    [
        "A walker's guide to Kelby",
        "Kelby's ferry leaves the north pier, but winter gales on the Marrow Sound stop the "
        "crossing, and then the lifeboat station stands beside an empty slip.",
        "The harbour on the south side shelters fishing boats in winter. A path follows the "
        "shore to the Dunmore monument, where gannets nest on the cliffs in spring.",
        "Walkers should carry water and a map; the island shop closes at noon on Sundays and "
        "the ferry kiosk sells no food.",
    ]
)


def test_a_paragraph_retold_whole_in_one_sentence_names_its_source(tmp_path: Path) -> None:
    """A letter merges the story's paragraph of three sentences into one of its own words (no
    sentence of it seeds: each story sentence holds too little of the merged one). They share
    nine rare terms, under a paragraph's ten, but it shares nearly none with the story's
    other paragraphs: that one paragraph is what it retells. A walker's guide to the same
    island, its paragraph touching two of the story's alike, is no copy."""
    texts = {"story": FERRY, "letter": LETTER, "guide": WALKS}
    rows = _sourced_rows(tmp_path, "en", texts)
    assert [(Path(r["path"]).stem, Path(r["source"]).stem) for r in rows] == [("letter", "story")]
    retold_part = LETTER.split("\n\n")[2]
    share = Text.of(retold_part).chars / Text.of(LETTER).chars
    assert float(rows[0]["share"]) == pytest.approx(share, abs=0.02)


def answers(language: str = "en") -> dict[str, str]:
    """``rewrites/answers-LANGUAGE.txt``: the source (``source``: its lines), and each answer
    (its kind and number: cut, light, heavy or non, written without it) and its text."""
    text = (REWRITES / f"answers-{language}.txt").read_text("utf-8")
    found = {}
    for block in text.split("\n== ")[1:]:
        name, *lines = block.strip().split("\n")
        joined = "\n" if name.strip() == "source" else " "
        found[name.strip()] = joined.join(line.strip() for line in lines).strip()
    return found


@pytest.mark.parametrize(("language", "heavy"), [("en", 1), ("zh", 0)])
def test_answers_written_by_hand_to_one_question_name_the_source_and_no_other(
    tmp_path: Path, language: str, heavy: int
) -> None:
    """Thirteen answers to one question about one text, among the sample's articles: those cut
    from it and those lightly revised name it (six of six), ``heavy`` heavily revised ones at
    least, none written without it names anything, and no answer is another's source (two
    revised from one paragraph were credited to each other, the text was said to copy the
    answers cut from it, and light ones sharing phrases three articles hold were dropped as
    "going round", or as pages of one family)."""
    import shutil

    written = answers(language)
    (tmp_path / "source.txt").write_text(written.pop("source") + "\n", "utf-8")
    for name, text in written.items():
        (tmp_path / f"{name}.txt").write_text(text + "\n", "utf-8")
    for path in sorted(resource("sample", language).iterdir()):
        shutil.copy(path, tmp_path / f"other-{path.name}")
    out, err = io.StringIO(), io.StringIO()
    assert main(["reuse", str(tmp_path), "--no-cache"], out, err) == 0, err.getvalue()
    rows = [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]
    named = {(Path(r["path"]).stem, Path(r["source"]).stem) for r in rows}
    assert {pair for pair in named if pair[0] in written} <= {(n, "source") for n in written}
    assert not {pair for pair in named if pair[1] in written}  # no answer is a source
    assert not {pair for pair in named if pair[0] == "source"}  # nor the text a copy
    assert {n for n, _ in named if n.startswith(("cut", "light"))} == {
        n for n in written if n.startswith(("cut", "light"))
    }
    assert not [n for n, _ in named if n.startswith("non")]
    assert len([n for n, _ in named if n.startswith("heavy")]) >= heavy


def test_reworded_parts_are_marked_apart_from_words_copied_as_they_were(tmp_path: Path) -> None:
    """A light rewrite's passage holds both kinds: its reworded parts lie inside its passages,
    word-for-word parts are left; the HTML page marks each in its own colour, the two kinds'
    marked text together the passages' text."""
    import re
    import shutil

    from simdup_gui.engine.output.reuse_report import reuse_html
    from simdup_gui.engine.resources import resource
    from simdup_gui.engine.reuse.sources import find_reuse
    from simdup_gui.engine.scan import scan

    shutil.copy(resource("sample", "zh", "茶园春茶.txt"), tmp_path / "source.txt")
    os.utime(tmp_path / "source.txt", (1_700_000_000, 1_700_000_000))
    shutil.copy(REWRITES / "light-zh.txt", tmp_path / "light.txt")
    result = find_reuse(scan([str(tmp_path)]))
    (copied,) = result.articles
    (reuse,) = copied.sources
    assert reuse.reworded
    assert set(reuse.reworded) != set(reuse.passages)
    for start, end in reuse.reworded:
        assert any(a <= start and end <= b for a, b in reuse.passages)
    page = "".join(reuse_html(result))
    assert '<mark class="reworded">reworded or retold</mark>' in page  # the legend
    page = page[page.index("<table") :]  # the two texts
    plain = re.findall(r"<mark>([^<]*)</mark>", page)
    reworded = re.findall(r'<mark class="reworded">([^<]*)</mark>', page)
    text = (tmp_path / "light.txt").read_text("utf-8")
    assert plain
    assert reworded
    assert sum(map(len, reworded)) == sum(b - a for a, b in reuse.reworded) + sum(
        b - a for a, b in reuse.source_reworded
    )
    assert sum(map(len, plain + reworded)) == sum(b - a for a, b in reuse.passages) + sum(
        b - a for a, b in reuse.source_passages
    )
    assert text[reuse.reworded[0][0] : reuse.reworded[0][1]] in reworded
