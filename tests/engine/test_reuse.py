"""The reuse report (查重): fingerprints as defined, the winnowing guarantee, shares as counted."""

from __future__ import annotations

import csv
import io
import itertools
import os
import random
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine import kernels
from simdup_gui.engine.fingerprint.codes import RUN_BASE, UNIT_BASE
from simdup_gui.engine.options import GroupOptions, RunOptions, ScanOptions
from simdup_gui.engine.output.reuse_report import COLUMNS as REUSE_COLUMNS
from simdup_gui.engine.resources import resource
from simdup_gui.engine.reuse.align import LEAST, SOURCE, Text, copied_between
from simdup_gui.engine.reuse.passages import (
    GUARANTEE,
    fingerprints,
    passage_fingerprints,
    plain_fingerprints,
)
from simdup_gui.engine.reuse.sources import Holders, find_reuse
from simdup_gui.engine.reuse.units import RUN, _canonical_table, canonical
from simdup_gui.engine.scan import scan
from simdup_gui.engine.text.tokens import Batch, char_flags, code_points, mix

PIECES = st.sampled_from(["春", "运", "火车", "the", "river", "a", " ", "，", "。", "\n", "42"])
TEXTS = st.lists(st.lists(PIECES, max_size=80).map("".join), min_size=1, max_size=5)
OWN = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同"
QUOTED = "春运返乡旅客火车站排队等候记者报道现场情况铁路部门增开列车网络购票"


def sentence(rng: random.Random, alphabet: str, length: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(length)) + "。"


@settings(max_examples=80)
@given(TEXTS)
def test_passage_fingerprints_are_their_definition_in_both_forms(texts: list[str]) -> None:
    batch = Batch.normalized(texts)
    compiled = [fingerprints(kept).tolist() for kept in passage_fingerprints(batch)]
    with kernels.plain_kernels(True):
        plain = [fingerprints(kept).tolist() for kept in passage_fingerprints(batch)]
    assert compiled == plain == [plain_fingerprints(text).tolist() for text in texts]


def test_ascii_is_put_in_the_canonical_form_the_table_gives() -> None:
    """ASCII alone skips the table (it costs 0.3 s to build): each of its 128 the table's form."""
    ascii_codes = np.arange(128, dtype=np.uint32)
    assert canonical(ascii_codes).tolist() == _canonical_table()[:128].tolist()
    assert canonical(np.array([ord("Q"), 0x00C9], np.uint32)).tolist() == [ord("q"), 0x00E9]


@settings(max_examples=60)
@given(
    st.integers(GUARANTEE, 40),
    st.lists(st.sampled_from(OWN), max_size=30),
    st.lists(st.sampled_from(OWN), max_size=30),
    st.randoms(use_true_random=False),
)
def test_any_shared_passage_of_the_guarantee_is_found(
    length: int, before: list[str], after: list[str], rng: random.Random
) -> None:
    """Winnowing's promise: two texts sharing a run of GUARANTEE units share a fingerprint."""
    shared = "".join(rng.choice(QUOTED) for _ in range(length))
    one = "".join(before) + shared
    two = shared + "".join(after)
    assert set(plain_fingerprints(one).tolist()) & set(plain_fingerprints(two).tolist())


@settings(max_examples=60)
@given(st.randoms(use_true_random=False), st.integers(1, 4), st.integers(0, 1))
def test_a_share_is_the_exact_count_of_copied_characters(
    rng: random.Random, passages: int, spaced: int
) -> None:
    """An article of its own sentences with passages of a source's put in: its share is the
    count of the passages' characters (whitespace left out) over all of its own."""
    source_sentences = [sentence(rng, QUOTED, rng.randint(LEAST, 40)) for _ in range(8)]
    source = "".join(source_sentences)
    article, copied = [], 0
    for n in range(6):
        article.append(sentence(rng, OWN, rng.randint(20, 50)))
        if n < passages:
            taken = source_sentences[rng.randrange(len(source_sentences))]
            article.append(" " * spaced + taken)
            copied += len(taken)
    text = "".join(article)
    mine = Text.of(text)
    found = mine.copied_from(Text.of(source))
    assert mine.share(found) == pytest.approx(copied / len("".join(text.split())))


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.integers(LEAST, SOURCE + 10))
def test_a_source_is_named_for_twice_a_passages_floor_or_nothing(seed: int, length: int) -> None:
    """Two texts sharing one passage: its units on both sides when it holds SOURCE units or
    more, else nothing on either (one set phrase is no copy)."""
    rng = random.Random(seed)
    phrase = sentence(rng, QUOTED, length)[:-1]  # between characters neither text shares
    ours, their = OWN[: len(OWN) // 2], OWN[len(OWN) // 2 :]  # no run of three shared by chance
    mine = Text.of(sentence(rng, ours, 30) + "甲" + phrase + "乙" + sentence(rng, ours, 30))
    theirs = Text.of(sentence(rng, their, 40) + "丙" + phrase + "丁" + sentence(rng, their, 20))
    copied, found, *_ = copied_between(mine, theirs)
    if length >= SOURCE:
        assert (copied == mine.copied_from(theirs)).all()
        assert copied.sum() == length
        assert (found == theirs.copied_from(mine)).all()
        assert found.sum() == length
    else:
        assert not copied.any()
        assert not found.any()


def test_a_phrase_two_short_pages_share_is_no_reuse(tmp_path: Path) -> None:
    """A set phrase of LEAST units or more, a tenth of each of two short pages, is no source;
    a sentence of SOURCE units is."""
    rng = random.Random(11)
    for length, named in ((SOURCE - 6, False), (SOURCE + 2, True)):
        folder = tmp_path / str(length)
        folder.mkdir()
        phrase = sentence(rng, QUOTED, length)
        for name in ("help-a", "help-b"):
            own = [sentence(rng, OWN, rng.randint(30, 50)) for _ in range(4)]
            write(folder, f"{name}.txt", "\n".join([*own[:2], phrase, *own[2:]]))
        _, rows, _ = reuse_csv(str(folder), "--no-cache")
        assert bool(rows) == named
        assert all(float(row["share"]) > 0.05 for row in rows)


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def reuse_csv(*argv: str) -> tuple[int, list[dict[str, str]], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["reuse", *argv], out, err)
    return code, list(csv.DictReader(io.StringIO(out.getvalue()))), err.getvalue()


@pytest.fixture
def newsroom(tmp_path: Path) -> Path:
    """A wire story, an article lifting three of its paragraphs, and articles of their own."""
    rng = random.Random(7)
    folder = tmp_path / "news"
    folder.mkdir()
    wire = [sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(8)]
    write(folder, "wire.txt", "\n".join(wire))
    own = [sentence(rng, OWN, rng.randint(30, 60)) for _ in range(10)]
    write(folder, "rewrite.txt", "\n".join([*own[:4], *wire[2:5], *own[4:]]))
    for n in range(3):
        write(folder, f"other{n}.txt", "\n".join(sentence(rng, OWN, 50) for _ in range(8)))
    theirs = [sentence(rng, OWN, rng.randint(30, 60)) for _ in range(6)]
    quoted = "\n".join([*theirs[:3], "“" + wire[0] + "”", *theirs[3:]])
    write(folder, "quoting.txt", quoted)
    return folder


def test_an_article_lifting_paragraphs_names_its_source_and_share(newsroom: Path) -> None:
    code, rows, err = reuse_csv(str(newsroom), "--no-cache")
    assert code == 0, err
    by_path = {(Path(r["path"]).name, Path(r["source"]).name): r for r in rows}
    lifted = by_path[("rewrite.txt", "wire.txt")]
    mine = Text.of((newsroom / "rewrite.txt").read_text(encoding="utf-8"))
    wire = (newsroom / "wire.txt").read_text(encoding="utf-8").split("\n")
    assert float(lifted["share"]) == pytest.approx(sum(map(len, wire[2:5])) / mine.chars, abs=1e-4)
    assert lifted["passages"] == "1"  # three paragraphs in a row: one passage
    assert float(lifted["total_share"]) == float(lifted["share"])
    assert Path(lifted["largest_source"]).name == "wire.txt"
    assert ("quoting.txt", "wire.txt") in by_path
    assert not any(name.startswith("other") for pair in by_path for name in pair)


def test_quotations_can_be_left_out(newsroom: Path) -> None:
    _, rows, _ = reuse_csv(str(newsroom), "--no-cache", "--no-quotes")
    assert not any(Path(r["path"]).name == "quoting.txt" for r in rows)


def test_ones_own_archive_is_a_source_flagged_and_left_out_of_the_third_total(
    newsroom: Path,
) -> None:
    archive = newsroom / "mine"
    archive.mkdir()
    (newsroom / "wire.txt").rename(archive / "wire.txt")
    _, rows, _ = reuse_csv(str(newsroom), "--no-cache", "--own", str(archive))
    lifted = [r for r in rows if Path(r["source"]).name == "wire.txt"]
    assert lifted
    assert all(r["own_source"] == "yes" for r in lifted)
    for row in lifted:  # each article here copied from the archive only
        assert float(row["total_without_own"]) == 0.0 < float(row["total_share"])
    _, rows, _ = reuse_csv(str(newsroom), "--no-cache")
    for row in rows:  # what is left out of a total never adds to it
        assert float(row["total_without_quotes"]) <= float(row["total_share"])
        assert float(row["total_without_own"]) <= float(row["total_share"])
    assert all(r["own_source"] == "" for r in rows)
    assert all(r["total_without_own"] == r["total_share"] for r in rows if r["source"])


def _runs(mask: list[bool]) -> list[list[int]]:
    """Each run of true values: [start, end), in order."""
    found: list[list[int]] = []
    for at, value in enumerate(mask):
        if value and found and found[-1][1] == at:
            found[-1][1] = at + 1
        elif value:
            found.append([at, at + 1])
    return found


def _plain_passages(
    copied: list[bool], seeds: list[bool], shortest: int = LEAST, reworded: int | None = None
) -> list[bool]:
    """The definition of a text's copied passages, one unit at a time (``align.py``)."""
    from simdup_gui.engine.reuse.align import GAP, REWORDED

    reworded = REWORDED if reworded is None else reworded
    joined: list[list[int]] = []
    for start, end in _runs(copied):  # joined across a short gap, or a longer one mostly seeded
        if joined:
            gap, seeded = start - joined[-1][1], sum(seeds[joined[-1][1] : start])
            if gap <= GAP or (gap <= reworded and 2 * seeded >= gap):
                joined[-1][1] = end
                continue
        joined.append([start, end])
    out = [False] * len(copied)
    for start, end in joined:
        if end - start >= shortest:
            out[start:end] = [True] * (end - start)
    stretches: list[list[int]] = []
    for start, end in _runs(seeds):  # seeded stretches, runs a GAP apart at most joined
        if stretches and start - stretches[-1][1] <= GAP:
            stretches[-1][1] = end
        else:
            stretches.append([start, end])
    edged = list(out)
    for start, end in stretches:  # ... touching a passage (or inside one): its edges
        if any(out[max(start - 1, 0) : end + 1]):
            edged[start:end] = [True] * (end - start)
    return edged


REUSE_KERNELS = "simdup_gui.engine.reuse.kernels"


def _each_form(function: str) -> list[Callable[..., object]]:
    """A loop of the alignment in the form in force, as numba compiles it, and its numpy twin."""
    import importlib

    in_force = getattr(kernels.kernel_module(REUSE_KERNELS), function)
    with kernels.plain_kernels():
        twin = getattr(kernels.kernel_module(REUSE_KERNELS), function)
    return [in_force, getattr(importlib.import_module(REUSE_KERNELS), function), twin]


def _plain_unit_hash(unit: str) -> int:
    """A unit's hash, by its definition (``reuse/kernels.py``, ``units_of``)."""
    total = sum(
        ord(char) * pow(UNIT_BASE, min(place, 255) + 1, 1 << 64) for place, char in enumerate(unit)
    )
    return mix((total % (1 << 64)) ^ len(unit))


@settings(max_examples=200)
@given(
    st.lists(
        st.sampled_from(
            ["春", "運", "Ｆｕｌｌ", "the", "Don't", "42", " ", "，", "\n", "é", "q" * 300]
        )
    )
)
def test_units_and_their_runs_are_their_definition(pieces: list[str]) -> None:
    """Ideographs alone, other letters and digits in runs; hashed as defined, in each form."""
    text = "".join(pieces)
    codes = canonical(code_points(text))
    form = "".join(map(chr, codes.tolist()))
    units = [unit for word in re.findall(r"[^\W_]+", form) for unit in _ideographs_alone(word)]
    wanted = [_plain_unit_hash(unit) for unit in units]
    runs = [_plain_run_hash(wanted[at : at + RUN]) for at in range(len(wanted) - RUN + 1)]
    for units_of in _each_form("units_of"):
        starts, ends, hashes = units_of(codes, char_flags(codes))
        assert [form[a:b] for a, b in zip(starts.tolist(), ends.tolist(), strict=True)] == units
        assert hashes.tolist() == wanted
    for run_hashes in _each_form("run_hashes"):
        assert run_hashes(np.array(wanted, np.uint64), RUN).tolist() == runs


def _ideographs_alone(word: str) -> list[str]:
    """A run of letters and digits cut so that each ideograph stands alone."""
    return re.findall(r"[\u4e00-\u9fff]|[^\u4e00-\u9fff]+", word)


def _plain_run_hash(units: list[int]) -> int:
    """A run's hash, by its definition: a polynomial of its units' hashes, mixed."""
    last = len(units) - 1
    total = sum(value * pow(RUN_BASE, last - place, 1 << 64) for place, value in enumerate(units))
    return mix(total % (1 << 64))


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.integers(1, 20), st.booleans(), st.booleans()), max_size=14),
    st.integers(1, 30),
)
def test_passages_and_their_reworded_parts_are_their_definition(
    blocks: list[tuple[int, bool, bool]], shortest: int
) -> None:
    """Runs of copied units (runs of six the source holds) and of seeded ones (runs of three).

    The loop in each form against the definition.
    """
    from simdup_gui.engine.reuse.align import GAP, REWORDED

    copied = np.array([c for size, c, _ in blocks for _ in range(size)], bool)
    seeds = np.array([s for size, _, s in blocks for _ in range(size)], bool)
    exact_wanted = _plain_passages(copied.tolist(), [False] * len(copied), shortest, 0)
    wanted = _plain_passages(copied.tolist(), seeds.tolist(), shortest)
    for passages in _each_form("passages"):
        exact, found = passages(copied, seeds, shortest, GAP, REWORDED)
        assert (exact.tolist(), found.tolist()) == (exact_wanted, wanted)


@settings(max_examples=200)
@given(st.lists(st.booleans(), max_size=40))
def test_the_runs_of_a_mask_are_their_definition(mask: list[bool]) -> None:
    """Where each run of copied units starts and ends (past it), in each form."""
    for run_edges in _each_form("run_edges"):
        firsts, pasts = run_edges(np.array(mask, bool))
        edges = zip(firsts.tolist(), pasts.tolist(), strict=True)
        assert [list(edge) for edge in edges] == _runs(mask)


@settings(max_examples=300)
@given(
    st.lists(st.integers(0, 7), max_size=60),
    st.lists(st.integers(0, 7), max_size=20),
    st.integers(1, 6),
    st.integers(0, 8),
    st.integers(0, 400),
    st.data(),
)
def test_the_units_runs_cover_are_their_definition(
    mine: list[int], theirs: list[int], width: int, reach: int, more: int, data: st.DataObject
) -> None:
    """A run held covers its ``width`` units; two held ``reach`` apart, those between too.

    ``more`` values the runs never hold: many of them make the loop search, not hash.
    """
    theirs = theirs + list(range(100, 100 + more))
    units = len(mine) + width - 1 if mine else int(data.draw(st.integers(0, 5)))
    left_out = data.draw(st.lists(st.booleans(), min_size=units, max_size=units))
    held = [at for at, run in enumerate(mine) if run in theirs]
    wanted = [False] * units
    for at in held:
        wanted[at : at + width] = [True] * len(wanted[at : at + width])
    for at, after in itertools.pairwise(held):
        if after - at <= reach:
            wanted[at:after] = [True] * (after - at)
    wanted = [w and not out for w, out in zip(wanted, left_out, strict=True)]
    runs = np.array(mine, np.uint64)
    sorted_theirs = np.sort(np.array(theirs, np.uint64))
    for covered in _each_form("covered"):
        found = covered(runs, sorted_theirs, width, reach, np.array(left_out, bool))
        assert found.tolist() == wanted


REWRITES = Path(__file__).with_name("rewrites")
SOURCES = {"en": ("en", "harbor-lighthouse.txt"), "zh": ("zh", "茶园春茶.txt")}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_lightly_reworded_passage_is_measured_whole_and_rewording_alone_names_no_source(
    tmp_path: Path, language: str
) -> None:
    """Written by hand (``rewrites/``): paragraphs with words swapped for synonyms count whole
    (their runs of three words or characters join the runs of six between them); a passage
    retold (``heavy``) is no copy by itself, and names no source that is not its own."""
    import shutil

    source = resource("sample", *SOURCES[language])
    shutil.copy(source, tmp_path / "source.txt")
    for kind in ("light", "heavy"):
        shutil.copy(REWRITES / f"{kind}-{language}.txt", tmp_path / f"{kind}.txt")
    shutil.copy(resource("sample", "en", "harbor-walking-tour.txt"), tmp_path / "other.txt")
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0, err
    found = {(Path(r["path"]).stem, Path(r["source"]).stem): r for r in rows if r["source"]}
    lines = [
        line
        for line in (REWRITES / f"light-{language}.txt").read_text("utf-8").split("\n")
        if line.strip()
    ]
    reworded = Text.of("\n".join(lines[2:-1])).chars / Text.of("\n".join(lines)).chars
    share = float(found[("light", "source")]["share"])
    assert 0.95 * reworded <= share <= 1.01 * reworded  # word for word alone: 35 %, 57 % of it
    assert not [pair for pair in found if "heavy" in pair]
    assert not [pair for pair in found if "light" in pair and "source" not in pair]


def test_a_passage_copied_with_slips_of_the_keys_is_copied_word_for_word() -> None:
    """A letter doubled, dropped or changed in a word beside copied ones (``vesssels``,
    ``registred``, ``akd``): the word is the source's, the passage copied word for word
    whole. Words changed for others are no slips, nor is a number changed (a fact)."""
    source = (
        "The harbour master said the procedure is already registered with the port authority, "
        "and the specified vessels may enter the basin at night after the tide has turned. "
        "Pilots must report their positions every fifteen minutes while inside the breakwater, "
        "as the rules of 1998 say for every ship that comes in."
    )
    slipped = source.replace("registered", "registred").replace("vessels", "vesssels")
    slipped = slipped.replace(" and ", " akd ").replace("positions", "posetions")
    synonyms = source.replace("registered", "recorded").replace("vessels", "ships")
    synonyms = synonyms.replace(" and ", " so ").replace("positions", "locations")
    theirs = Text.of(source)
    for text, whole in ((slipped, True), (synonyms, False)):
        mine = Text.of("An article of its own begins here.\n" + text)
        verbatim, _ = mine.aligned(theirs)
        copied = Text.of(text).chars / mine.chars
        if whole:
            assert mine.share(verbatim) == pytest.approx(copied, abs=0.01)
        else:
            assert mine.share(verbatim) < 0.7 * copied
    mine = Text.of(slipped)
    respelt = mine.respelt(theirs, ~mine.seeds_in(theirs))
    assert respelt is not None
    assert set(respelt.tolist()) <= set(theirs.units.hashes.tolist())  # each word the source's
    assert np.count_nonzero(respelt != mine.units.hashes) == 4
    dated = Text.of(source.replace("1998", "1999"))
    assert dated.respelt(theirs, ~dated.seeds_in(theirs)) is None


HARBOUR = str.split(
    "harbour pilot vessel tide basin breakwater cargo crane quay berth anchor rope signal "
    "lantern keeper storm winter summer market fisher boat net salt timber engine railway "
    "station platform ticket carriage freight bridge river valley mountain village school "
    "teacher student library museum garden orchard farmer tractor harvest grain mill bakery"
)
COUNCIL = str.split(
    "council budget election mayor committee vote policy tax housing transport office clerk "
    "minister debate statement campaign survey report meeting agenda contract tender audit "
    "spending revenue deficit pension hospital clinic doctor nurse patient ward court judge"
)


def test_a_short_passage_copied_with_many_slips_is_measured_though_few_fingerprints_survive(
    tmp_path: Path,
) -> None:
    """A 6 % passage with a letter doubled every tenth word keeps under a fortieth of the
    article's passage fingerprints (each slip breaks the runs over it); it is measured, and
    named with its share, all the same."""
    rng = random.Random(1)
    source = [rng.choice(HARBOUR) for _ in range(3000)]  # 3 % of it copied: one way only
    passage = [w[:2] + w[2] + w[2:] if n % 10 == 3 else w for n, w in enumerate(source[600:690])]
    own = [rng.choice(COUNCIL) for _ in range(1300)]  # (else the two are grouped: one topic)
    article = " ".join(own[:650] + passage + own[650:])
    write(tmp_path, "source.txt", " ".join(source))
    write(tmp_path, "article.txt", article)
    mine, theirs = Text.of(article), Text.of(" ".join(source))
    kept = [plain_fingerprints(text) for text in (article, " ".join(source))]
    shared = len(np.intersect1d(*kept))
    assert 2 <= shared < 0.05 / 2 * min(map(len, kept))  # fewer than half the share's
    share = mine.share(mine.aligned(theirs)[1])
    assert 0.06 < share < 0.07
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache", "--quiet")
    assert code == 0, err
    named = [r for r in rows if r["source"]]
    assert [(Path(r["path"]).name, Path(r["source"]).name) for r in named] == [
        ("article.txt", "source.txt")
    ]
    assert float(named[0]["share"]) == pytest.approx(share, abs=1e-4)


@pytest.mark.parametrize("told_by", ["name", "age", "paragraphs", "nothing"])
def test_of_two_articles_each_found_copying_the_other_the_copy_is_told_where_files_tell(
    tmp_path: Path, told_by: str
) -> None:
    """An original and a commentary quoting half of it: each holds a fair part of the other.
    Its name (``-评论`` added) or its age says which came first; else the one holding the
    quoted half as a paragraph of its own, where the other says it within a paragraph that
    goes on; else both rows stay (each holds it as whole paragraphs)."""
    rng = random.Random(3)
    story = [sentence(rng, QUOTED, 40) for _ in range(6)]
    comment = [sentence(rng, OWN, 40) for _ in range(5)]
    names = ("春运.txt", "春运-评论.txt") if told_by == "name" else ("a.txt", "b.txt")
    if told_by == "paragraphs":  # the story in two paragraphs, the quote one of the comment's
        write(tmp_path, names[0], "".join(story[:4]) + "\n" + "".join(story[4:]))
        write(tmp_path, names[1], "\n".join([*comment[:2], "".join(story[:3]), *comment[2:]]))
    else:  # a sentence a line, in both
        write(tmp_path, names[0], "\n".join(story))
        write(tmp_path, names[1], "\n".join([*comment[:2], *story[:3], *comment[2:]]))
    if told_by == "age":
        os.utime(tmp_path / names[0], (1_700_000_000, 1_700_000_000))  # a year older
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0, err
    pairs = {(Path(r["path"]).name, Path(r["source"]).name) for r in rows if r["source"]}
    assert (names[1], names[0]) in pairs  # the commentary copied from the story
    assert ((names[0], names[1]) in pairs) is (told_by == "nothing")


def test_the_three_totals_of_a_copy_check_stand_side_by_side(tmp_path: Path) -> None:
    """All copied text; without what is cited (quoted, or a sentence naming its source); without
    one's own articles: three numbers in one row, each the exact count."""
    rng = random.Random(11)
    wire = [sentence(rng, QUOTED, 40) for _ in range(6)]
    mine = [sentence(rng, QUOTED, 40) for _ in range(6)]
    own = tmp_path / "mine"
    own.mkdir()
    write(tmp_path, "wire.txt", "\n".join(wire))
    write(own, "earlier.txt", "\n".join(mine))
    body = [sentence(rng, OWN, 40) for _ in range(8)]
    cited = "据新华社报道，" + wire[1]  # a sentence naming its source
    article = [body[0], wire[0], body[1], cited, body[2], mine[0], mine[1], *body[3:]]
    write(tmp_path, "article.txt", "\n".join(article))
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache", "--own", str(own))
    assert code == 0, err
    (row, *_) = [r for r in rows if Path(r["path"]).name == "article.txt"]
    text = Text.of("\n".join(article))

    def chars(*lines: str) -> int:
        return sum(len("".join(line.split())) for line in lines)

    total = chars(wire[0], wire[1], mine[0], mine[1]) / text.chars
    assert float(row["total_share"]) == pytest.approx(total, abs=1e-4)
    assert float(row["total_without_quotes"]) == pytest.approx(  # of all its characters
        chars(wire[0], mine[0], mine[1]) / text.chars, abs=1e-4
    )
    assert float(row["total_without_own"]) == pytest.approx(
        chars(wire[0], wire[1]) / text.chars, abs=1e-4
    )


def test_group_members_measured_in_worker_processes_give_the_same_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from simdup_gui.engine.output.reuse_report import reuse_rows
    from simdup_gui.engine.reuse import sources

    one = find_reuse(scan(str(resource("sample")), ScanOptions(run=RunOptions(1))))
    monkeypatch.setattr(sources, "MEMBERS_IN_PROCESSES", 1)
    monkeypatch.setattr(sources, "GROUPS_A_TASK", 1)
    two = find_reuse(scan(str(resource("sample")), ScanOptions(run=RunOptions(2))))
    rows = list(reuse_rows(one))
    assert sum(1 for g in one.scan.groups for _ in g.members[1:]) == 5
    assert rows == list(reuse_rows(two))


def test_a_cancel_while_members_are_measured_in_processes_leaves_no_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psutil

    from simdup_gui.engine.reuse import sources

    result = scan(str(resource("sample")), ScanOptions(run=RunOptions(2)))
    monkeypatch.setattr(sources, "MEMBERS_IN_PROCESSES", 1)
    monkeypatch.setattr(sources, "GROUPS_A_TASK", 1)
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    started: list[psutil.Process] = []

    def progress(event: object) -> None:  # the members' workers, running
        started.extend(p for p in psutil.Process().children() if p.pid not in before)

    reuse = find_reuse(result, progress=progress, cancel=lambda: bool(started))
    assert started  # it stopped at its first step, the members' workers started already
    _, alive = psutil.wait_procs(started, timeout=10)
    alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert [p for p in alive if "resource_tracker" not in " ".join(p.cmdline())] == []
    whole = find_reuse(result)
    assert len(reuse.articles) < len(whole.articles)


def test_the_report_is_the_same_on_every_run_and_worker_count(newsroom: Path) -> None:
    from simdup_gui.engine.output.reuse_report import reuse_rows

    one = find_reuse(scan(str(newsroom), ScanOptions(run=RunOptions(1))))
    two = find_reuse(scan(str(newsroom), ScanOptions(run=RunOptions(2, processes=True))))
    assert list(reuse_rows(one)) == list(reuse_rows(two)) == list(reuse_rows(one))


def test_the_html_report_marks_the_copied_passages(newsroom: Path, tmp_path: Path) -> None:
    page = tmp_path / "reuse.html"
    code, _, err = reuse_csv(str(newsroom), "--no-cache", "--html", str(page), "--quiet")
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count("<mark>") >= 2
    assert 'lang="' not in html or html.startswith("<!DOCTYPE html>")


def test_a_family_and_a_quoted_passage_are_no_ones_reuse(
    tmp_path: Path,
    write_family: Callable[[Path, random.Random], dict[str, str]],
    sentence: Callable[[random.Random, int], str],
) -> None:
    """Pages sharing their family's header and footer, articles sharing a quoted passage."""
    write_family(tmp_path, random.Random(43))
    rng = random.Random(44)
    passage = "".join(sentence(rng, 40) for _ in range(3))
    for n in range(6):
        own = [sentence(rng, rng.randint(40, 70)) for _ in range(6)]
        own.insert(2, passage)
        write(tmp_path, f"article{n}.txt", "\n".join(own))
    _, rows, _ = reuse_csv(str(tmp_path), "--no-cache")
    pairs = {frozenset((Path(r["path"]).stem, Path(r["source"]).stem)) for r in rows}
    copies = {frozenset(p) for p in (("page0", "page0-copy"), ("page1", "page1-copy"))}
    assert pairs == copies | {frozenset(("stub", "stub-copy"))}


@given(
    st.dictionaries(st.integers(0, 30), st.sets(st.integers(0, 50), max_size=20), max_size=12),
    st.sets(st.integers(0, 60), max_size=10),
)
def test_the_holders_of_fingerprints_are_every_article_holding_them(
    kept: dict[int, set[int]], wanted: set[int]
) -> None:
    holders = Holders({n: np.array(sorted(v), np.uint32) for n, v in kept.items()})
    articles, counts = holders.of(np.array(sorted(wanted), np.uint32))
    expected = {n: len(v & wanted) for n, v in kept.items() if v & wanted}
    assert dict(zip(articles.tolist(), counts.tolist(), strict=True)) == expected


@pytest.mark.parametrize("copiers", [2, 3, 4, 5, 8, 12])
def test_a_story_reposted_inside_n_articles_is_their_source_for_every_n(
    tmp_path: Path, copiers: int
) -> None:
    """However many repost it, a story is their source, each share the exact count; it is
    no one's copy, and the articles reposting it are not each other's (it was template from
    five on, and "going round" from three)."""
    rng = random.Random(copiers)
    story = [sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(6)]
    write(tmp_path, "story.txt", "\n".join(story))
    for n in range(copiers):
        own = [sentence(rng, OWN, rng.randint(30, 60)) for _ in range(14)]
        at = rng.randint(1, 13)
        write(tmp_path, f"host{n}.txt", "\n".join([*own[:at], *story, *own[at:]]))
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0, err
    pairs = {(Path(r["path"]).stem, Path(r["source"]).stem): r for r in rows if r["source"]}
    assert set(pairs) == {(f"host{n}", "story") for n in range(copiers)}
    for (host, _), row in pairs.items():
        mine = Text.of((tmp_path / f"{host}.txt").read_text(encoding="utf-8"))
        assert float(row["share"]) == pytest.approx(sum(map(len, story)) / mine.chars, abs=1e-4)
        assert float(row["source_share"]) == pytest.approx(1.0)


@pytest.mark.parametrize("answers", [3, 4, 6, 9])
def test_answers_cutting_parts_of_one_text_are_its_copies_not_each_others(
    tmp_path: Path, answers: int
) -> None:
    """Answers that each cut four paragraphs of one text, overlapping one another's (so each
    paragraph goes round three articles or more, from five on "template"), have the text as
    their only source, each share the exact count: the text holds every part they took, none
    of them holds another's whole."""
    rng = random.Random(answers)
    lifted = [sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(2 * answers + 4)]
    write(tmp_path, "text.txt", "\n".join(lifted))
    cuts = {}
    for n in range(answers):
        own = [sentence(rng, OWN, rng.randint(30, 60)) for _ in range(2)]
        cuts[f"answer{n}"] = lifted[2 * n : 2 * n + 4]
        write(tmp_path, f"answer{n}.txt", "\n".join([own[0], *cuts[f"answer{n}"], own[1]]))
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0, err
    pairs = {(Path(r["path"]).stem, Path(r["source"]).stem): r for r in rows if r["source"]}
    assert set(pairs) == {(answer, "text") for answer in cuts}
    for (answer, _), row in pairs.items():
        mine = Text.of((tmp_path / f"{answer}.txt").read_text(encoding="utf-8"))
        exact = sum(map(len, cuts[answer])) / mine.chars
        assert float(row["share"]) == pytest.approx(exact, abs=1e-4)


def answers_cut_alike(folder: Path) -> tuple[dict[str, str], list[str]]:
    """A text and three answers cutting the same four of its paragraphs, each with two short
    sentences of its own (so they group as copies), written in that order an hour apart.

    Returns the files' texts by name and the paragraphs the answers cut.
    """
    rng = random.Random(3)
    lifted = [sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(12)]
    texts = {"text.txt": "\n".join(lifted)}
    for n in range(3):
        own = [sentence(rng, OWN, rng.randint(20, 30)) for _ in range(2)]
        texts[f"answer{n}.txt"] = "\n".join([own[0], *lifted[2:6], own[1]])
    for age, (name, text) in enumerate(texts.items()):
        write(folder, name, text)
        os.utime(folder / name, (age * 3600, age * 3600))
    return texts, lifted[2:6]


def test_a_source_that_copied_what_it_gave_is_also_in_beside_the_source(tmp_path: Path) -> None:
    """Three answers cut the same four paragraphs of one text and are grouped as copies: the
    first is the others' group origin, and it took those paragraphs from the text; the others
    name the text as their source, the first only "also in" (before: a source of its own)."""
    texts, cut = answers_cut_alike(tmp_path)
    assert [len(group) for group in scan(str(tmp_path)).groups] == [3]
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0, err
    found = {(Path(r["path"]).stem, Path(r["source"]).stem): r for r in rows if r["source"]}
    assert set(found) == {(f"answer{n}", "text") for n in range(3)}
    assert found["answer0", "text"]["also_in"] == ""
    for n in (1, 2):
        assert Path(found[f"answer{n}", "text"]["also_in"]).name == "answer0.txt"
        mine = Text.of(texts[f"answer{n}.txt"])
        exact = sum(map(len, cut)) / mine.chars
        assert float(found[f"answer{n}", "text"]["share"]) == pytest.approx(exact, abs=1e-4)


def test_a_groups_member_has_its_measured_share_not_an_estimate(tmp_path: Path) -> None:
    """A repost grouped with its source reads the characters it copied, counted (an estimate
    from the fingerprints read a verbatim copy as 80 %)."""
    rng = random.Random(5)
    story = "\n".join(sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(12))
    write(tmp_path, "story.txt", story)
    notice = "本文转载自某网站，如有侵权请联系删除。"
    write(tmp_path, "repost.txt", notice + "\n" + story)
    result = scan(str(tmp_path))
    assert [len(g) for g in result.groups] == [2]
    (copied,) = find_reuse(result).articles
    (reuse,) = copied.sources
    mine = Text.of((tmp_path / "repost.txt").read_text(encoding="utf-8"))
    assert reuse.exact
    assert reuse.share == pytest.approx(len("".join(story.split())) / mine.chars, abs=1e-9)
    assert reuse.source_share == pytest.approx(1.0)


def test_a_copy_of_a_copy_has_one_share_from_the_source_alone_in_a_folder_or_a_library(
    tmp_path: Path,
) -> None:
    """A repost of an article that lifted five of a source's paragraphs is grouped with that
    article, its origin. Its share from the source is the exact count whether it is checked
    alone with the source, in the whole folder (not only credited to the article it was
    grouped with), or against a library holding the source."""
    rng = random.Random(11)
    lifted = [sentence(rng, QUOTED, rng.randint(30, 60)) for _ in range(8)]
    own = [sentence(rng, OWN, rng.randint(30, 60)) for _ in range(8)]
    article = "\n".join([*own[:4], *lifted[:5], *own[4:]])
    texts = {
        "source.txt": "\n".join(lifted),
        "article.txt": article,
        "repost.txt": "本文转载自某网站，如有侵权请联系删除。\n" + article,
    }
    folders = {"folder": list(texts), "alone": ["source.txt", "repost.txt"]}
    folders |= {"archive": ["source.txt"], "copies": ["article.txt", "repost.txt"]}
    for folder, names in folders.items():
        (tmp_path / folder).mkdir()
        for age, name in enumerate(names):
            write(tmp_path / folder, name, texts[name])
            os.utime(tmp_path / folder / name, (age * 3600, age * 3600))  # in that order
    library = str(tmp_path / "LIB")
    assert main(["library", "add", library, str(tmp_path / "archive")], *_streams()) == 0
    exact = sum(map(len, lifted[:5])) / Text.of(texts["repost.txt"]).chars
    for folder, extra in (("folder", ()), ("alone", ()), ("copies", ("--library", library))):
        code, rows, err = reuse_csv(str(tmp_path / folder), "--no-cache", *extra)
        assert code == 0, err
        shares = {
            Path(r["source"]).name: float(r["share"])
            for r in rows
            if Path(r["path"]).name == "repost.txt"
        }
        assert shares["source.txt"] == pytest.approx(exact, abs=1e-4), folder
        if folder != "alone":  # and the article it reposts, whole
            whole = Text.of(article).chars / Text.of(texts["repost.txt"]).chars
            assert shares["article.txt"] == pytest.approx(whole, abs=1e-4)


def _streams() -> tuple[io.StringIO, io.StringIO]:
    return io.StringIO(), io.StringIO()


BYTES_COLUMNS = {"file_size", "size", "last_modified", "modified", "encoding", "decoded_by"}


def _saved_again(source: Path, folder: Path, resave: Callable[[str], bytes]) -> Path:
    """The sample's text files saved again (their text through ``resave``), the rest as are."""
    for path in source.rglob("*"):
        if path.is_file():
            target = folder / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = path.read_bytes()
            try:
                text = data.decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
            except UnicodeDecodeError:  # a GBK file: its line endings only
                target.write_bytes(_line_ends(data, resave))
                continue
            target.write_bytes(resave(text))
    return folder


def _line_ends(data: bytes, resave: Callable[[str], bytes]) -> bytes:
    crlf = b"\r\n" in resave("a\nb")
    data = data.replace(b"\r\n", b"\n")
    return data.replace(b"\n", b"\r\n") if crlf else data


def test_bytes_that_mean_nothing_change_no_report(tmp_path: Path) -> None:
    """Line endings, a byte-order mark, trailing spaces, decomposed accents: the same groups,
    the same copy kept, the same sources and shares; only the bytes' own columns differ."""
    sample = resource("sample")
    ways = {
        "lf": lambda text: text.encode(),
        "crlf": lambda text: text.replace("\n", "\r\n").encode(),
        "bom-nfd-trailing": lambda text: (
            b"\xef\xbb\xbf"
            + "\n".join(
                line + "  " for line in unicodedata.normalize("NFD", text).split("\n")
            ).encode()
        ),
    }
    reports = {}
    for name, resave in ways.items():
        folder = _saved_again(sample, tmp_path / name, resave)
        rows = []
        for command in ("scan", "reuse"):
            out, err = io.StringIO(), io.StringIO()
            assert main([command, str(folder), "--no-cache"], out, err) == 0, err
            for row in csv.DictReader(io.StringIO(out.getvalue())):
                rows.append(
                    {
                        k: v.replace(str(folder), "")
                        for k, v in row.items()
                        if k not in BYTES_COLUMNS
                    }
                )
        reports[name] = rows
    assert any(row.get("source") for row in reports["lf"])  # the sample has reuse to report
    assert reports["crlf"] == reports["lf"]
    assert reports["bom-nfd-trailing"] == reports["lf"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["/no/such/folder"], "not a folder"),
        (["{folder}", "--min-share", "2"], "must be a number from 0 to 1"),
        (["{folder}", "--own", "/tmp"], "not a folder inside"),
        (["{folder}", "--library", "{folder}"], "not a simdup library"),
        (["{folder}", "--csv", "{folder}/out.csv"], "inside"),
    ],
)
def test_bad_input_is_a_one_line_error(newsroom: Path, argv: list[str], message: str) -> None:
    code, rows, err = reuse_csv(*(a.format(folder=newsroom) for a in argv))
    assert code == 2
    assert message in err
    assert err.count("\n") == 1
    assert rows == []


def test_an_empty_folder_reports_nothing(tmp_path: Path) -> None:
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache")
    assert code == 0
    assert rows == []
    assert "0 copied" in err
    assert np.isfinite(0.0)


def test_a_library_is_a_source_too(newsroom: Path, tmp_path: Path) -> None:
    """The wire story in the archive library: the rewrite still names it and its share; its
    file gone, the share is the library's estimate."""
    archive = tmp_path / "archive"
    archive.mkdir()
    (newsroom / "wire.txt").rename(archive / "wire.txt")
    assert (
        main(["library", "add", str(tmp_path / "LIB"), str(archive)], io.StringIO(), io.StringIO())
        == 0
    )
    code, rows, err = reuse_csv(str(newsroom), "--no-cache", "--library", str(tmp_path / "LIB"))
    assert code == 0, err
    (found,) = [r for r in rows if Path(r["path"]).name == "rewrite.txt"]
    assert Path(found["source"]).name == "wire.txt"
    exact = float(found["share"])
    (archive / "wire.txt").unlink()
    _, rows, _ = reuse_csv(str(newsroom), "--no-cache", "--library", str(tmp_path / "LIB"))
    (estimated,) = [r for r in rows if Path(r["path"]).name == "rewrite.txt"]
    assert estimated["passages"] == ""  # no text to find them in
    assert estimated["largest"] == ""
    assert abs(float(estimated["share"]) - exact) < 0.15


def test_a_group_members_row_is_measured_and_estimated_only_when_unreadable(
    tmp_path: Path,
) -> None:
    """A copy's share of its reference is measured like any pair's (its passages counted);
    a member whose file is gone by then is estimated from fingerprints, said in a row."""
    import shutil

    from simdup_gui.engine.output.reuse_report import reuse_rows

    folder = tmp_path / "sample"
    shutil.copytree(resource("sample"), folder)
    scanned = scan(str(folder))
    members = {
        (scanned.files[m.file].path, scanned.files[g.reference].path): m.file
        for g in scanned.groups
        for m in g.members[1:]
    }
    rows = [dict(zip(REUSE_COLUMNS, row, strict=True)) for row in reuse_rows(find_reuse(scanned))]
    for_members = [row for row in rows if (row["path"], row["source"]) in members]
    assert len(for_members) == len(members) == 5
    assert all(int(row["passages"]) >= 1 for row in rows if row["source"])
    gone = sorted(members)[0]
    os.remove(gone[0])
    rows = [dict(zip(REUSE_COLUMNS, row, strict=True)) for row in reuse_rows(find_reuse(scanned))]
    (estimated,) = [row for row in rows if (row["path"], row["source"]) == gone]
    assert estimated["passages"] == estimated["largest"] == ""  # no text to find them in
    assert any(row["path"] == gone[0] and row["error"] for row in rows)  # and why


def test_a_short_copy_in_a_group_is_measured_whole(tmp_path: Path) -> None:
    """A group's member is a copy already: measured, its passages are found however short the
    text (the floor of SOURCE units names sources among articles, not copies)."""
    from simdup_gui.engine.reuse.sources import measured

    rng = random.Random(3)
    note = sentence(rng, QUOTED, SOURCE - 6)
    write(tmp_path, "note.txt", note)
    write(tmp_path, "note-copy.txt", note)
    for n in range(3):
        write(tmp_path, f"other{n}.txt", sentence(rng, OWN, 60))
    reuse = find_reuse(scan(str(tmp_path), ScanOptions(run=RunOptions(1))))
    ((copy,),) = [article.sources for article in reuse.articles]
    found = measured(reuse, copy)
    assert found.exact
    assert found.share == pytest.approx(1.0)
    assert found.passages == ((0, len(note) - 1),)  # to its last unit (a full stop is none)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["春运", "铁路", "the", "band", " ", "，", "「", "」", "“", "”", '"', "\n", "‘", "’"]
        ),
        max_size=80,
    )
)
def test_the_quoted_units_are_those_inside_a_quotation_as_defined(pieces: list[str]) -> None:
    """In one pass, the same as the plain definition: each unit inside any one quotation."""
    import re

    from simdup_gui.engine.reuse.align import _QUOTED

    text = Text.of("".join(pieces))
    plain = np.zeros(len(text.units), bool)
    for found in re.finditer(_QUOTED, text.text):
        plain |= (text.units.starts >= found.start()) & (text.units.ends <= found.end())
    assert text.quoted().tolist() == plain.tolist()


def test_an_article_of_24000_quotations_has_each_quoted_unit_marked() -> None:
    """The marks made in one pass (the loop over quotations took about 100 s here)."""
    text = Text.of("据报道，「春运首日铁路发送旅客」。" * 24_000)
    inside = text.quoted()
    assert inside.sum() == 24_000 * len(Text.of("春运首日铁路发送旅客").units)


def test_a_group_members_share_leaves_quotations_out_when_asked(tmp_path: Path) -> None:
    """Without quotations a member's share is measured on its text, not estimated with them."""
    story = (Path(__file__).parents[2] / "resources" / "sample" / "zh" / "春运返乡.txt").read_text(
        encoding="utf-8"
    )
    (tmp_path / "src").mkdir()
    write(tmp_path / "src", "story.txt", story)  # a reference folder's: the group's reference
    write(
        tmp_path,
        "quoting.txt",
        story
        + "\n“"
        + "据当地媒体报道，春运期间客流持续增长，记者在火车站看到旅客排队有序进站。" * 4
        + "”",
    )
    result = scan(
        str(tmp_path), ScanOptions(group=GroupOptions(reference_folders=(str(tmp_path / "src"),)))
    )
    (group,) = result.groups
    assert result.files[group.reference].path.endswith("story.txt")
    shares = {}
    for quotes in (True, False):
        reuse = find_reuse(result, quotes=quotes)
        (copied,) = [c for c in reuse.articles if result.files[c.path].path.endswith("quoting.txt")]
        shares[quotes] = copied.share
    assert shares[True] < 0.95  # the quotation counts, and was copied from no one
    assert shares[False] == pytest.approx(1.0, abs=0.01)  # left out: all the rest is the story


def test_a_file_changed_between_the_scan_and_the_measuring_is_a_row_saying_so(
    tmp_path: Path,
) -> None:
    """Its copying is not silently gone: a row names it, with why (in the report's language)."""
    from simdup_gui.engine.output.reuse_report import COLUMNS as REUSE_COLUMNS
    from simdup_gui.engine.output.reuse_report import reuse_rows
    from simdup_gui.engine.output.words import Words

    sample = Path(__file__).parents[2] / "resources" / "sample" / "zh"
    for name in ("春运返乡.txt", "春运返乡-评论.txt"):
        write(tmp_path, name, (sample / name).read_text(encoding="utf-8"))
    result = scan(str(tmp_path), ScanOptions())
    assert find_reuse(result).articles  # the commentary copied from the story
    write(tmp_path, "春运返乡-评论.txt", "改写后的评论，内容全部不同。" * 20)  # edited meanwhile
    os.utime(tmp_path / "春运返乡-评论.txt", (1_700_000_000, 1_700_000_000))
    reuse = find_reuse(result)
    assert reuse.articles == ()
    (changed,) = reuse.problems
    assert result.files[changed[0]].path.endswith("春运返乡-评论.txt")
    assert changed[1] == "changed during the run"
    (row,) = list(reuse_rows(reuse))
    error = REUSE_COLUMNS.index("error")
    assert row[0].endswith("春运返乡-评论.txt")
    assert row[error] == "changed during the run"
    assert next(iter(reuse_rows(reuse, Words("zh"))))[error] == "运行期间文件已改变"


@pytest.mark.parametrize(("min_match", "reported"), [(13, True), (17, True), (18, False)])
def test_min_match_is_the_shortest_passage_reported(
    tmp_path: Path, min_match: int, reported: bool
) -> None:
    """Two passages of 17 units each copied (34 in all): a source at the default and at
    ``--min-match 17`` (a source needs twice as many), none from 18 on."""
    rng = random.Random(5)
    ours, theirs = OWN[: len(OWN) // 2], OWN[len(OWN) // 2 :]  # no run shared by chance
    first, second = (sentence(rng, QUOTED, 17)[:-1] for _ in range(2))
    source = [sentence(rng, theirs, 40), first + "。", sentence(rng, theirs, 40), second + "。"]
    copy = [sentence(rng, ours, 40), "甲" + first + "乙", sentence(rng, ours, 40), second + "丙"]
    write(tmp_path, "source.txt", "\n".join(source))
    write(tmp_path, "copy.txt", "\n".join(copy))
    os.utime(tmp_path / "source.txt", (1_700_000_000, 1_700_000_000))
    code, rows, err = reuse_csv(str(tmp_path), "--no-cache", "--min-match", str(min_match))
    assert code == 0, err
    named = {(Path(r["path"]).name, Path(r["source"]).name) for r in rows if r["source"]}
    assert (("copy.txt", "source.txt") in named) is reported
    if reported:
        (row,) = [r for r in rows if Path(r["path"]).name == "copy.txt"]
        assert int(row["passages"]) == 2


@pytest.mark.parametrize("value", ["5", "1001", "ten", "13.5"])
def test_a_min_match_outside_its_range_is_one_line_and_exit_2(tmp_path: Path, value: str) -> None:
    code, rows, err = reuse_csv(str(tmp_path), "--min-match", value)
    assert code == 2
    assert rows == []
    assert err.count("\n") == 1
    assert "--min-match" in err
    assert "from 6 to 1000" in err
