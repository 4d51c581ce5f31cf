"""The survey's fingerprint methods (``--method``): each against its plain definition, each pairing
against brute force, and each through a whole scan, the cache, the report and the command."""

from __future__ import annotations

import csv
import io
import itertools
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.cli import main
from simdup_gui.engine.match.index import brute_force_pairs
from simdup_gui.engine.methods import (
    NAMES,
    NUM_PERM,
    FingerprintMethod,
    method_class,
    method_from_dict,
    method_named,
)
from simdup_gui.engine.methods.keys import RUN_WINDOW, all_shingles, linked
from simdup_gui.engine.methods.minhash import _permutations, lsh_bands, minhash
from simdup_gui.engine.methods.pinyin import LETTERS, letter_vector
from simdup_gui.engine.methods.sentences import longest_sentences, sentences
from simdup_gui.engine.options import (
    GroupOptions,
    ReadOptions,
    RunOptions,
    ScanOptions,
    TextSettings,
)
from simdup_gui.engine.output.report import COLUMNS, report_rows
from simdup_gui.engine.progress import never
from simdup_gui.engine.records import FileRecord
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan
from simdup_gui.engine.store.cache import FingerprintCache
from simdup_gui.engine.store.saved import load_result, save_result

SAMPLE = resource("sample")
PLANTED = [
    {"harbor-lighthouse.txt", "harbor-lighthouse-repost.html", "harbor-lighthouse-edited.md"},
    {"春运返乡.txt", "春运返乡-转载.txt", "春运返乡-镜像.html"},
    {"茶园春茶.txt", "茶园春茶-改写.txt"},
]
WORDS = st.sampled_from(
    ["春运", "返乡", "火车", "the", "river", "lighthouse", "茶园", "42", "新闻"]
)
TEXT = st.lists(WORDS, min_size=1, max_size=60).map(" ".join)


def options_for(name: str, **method: int) -> ScanOptions:
    return ScanOptions(
        read=ReadOptions(text=TextSettings(method=method_named(name, **method))),
        group=GroupOptions(min_similarity=method_class(name).floor),
    )


def names(result) -> list[set[str]]:  # type: ignore[no-untyped-def]
    return sorted(
        ({Path(result.files[m.file].path).name for m in g.members} for g in result.groups),
        key=sorted,
    )


# --- each signature against its plain definition ---------------------------------------------
@settings(deadline=None)  # a first example may load a kernel or a table
@given(TEXT)
def test_minhash_is_the_least_value_of_each_hash_function(text: str) -> None:
    a, b = _permutations()
    wanted = [
        min(((int(a[n]) * int(h) + int(b[n])) % 2**64) >> 32 for h in all_shingles(text))
        for n in range(NUM_PERM)
    ]
    values, count = minhash(text)
    assert values.tolist() == wanted
    assert count == len(set(all_shingles(text).tolist()))


@settings(max_examples=40, deadline=None)
@given(TEXT, TEXT)
def test_minhash_estimates_the_jaccard_similarity(left: str, right: str) -> None:
    a, b = set(all_shingles(left).tolist()), set(all_shingles(right).tolist())
    exact = len(a & b) / len(a | b)
    x, y = minhash(left)[0], minhash(right)[0]
    assert abs(float((x == y).mean()) - exact) <= 0.2  # 4.5 standard errors at 128 values


@settings(deadline=None)  # a first example may load a kernel or a table
@given(st.lists(st.text(st.sampled_from("ab甲乙 ,。！?\n"), max_size=12), max_size=8))
def test_the_longest_sentences_are_hashed(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = list(dict.fromkeys(sentences(text)))
    hashes, count = longest_sentences(text, 2)
    by_length = sorted(found, key=lambda s: (-len(s), found.index(s)))[:2]
    wanted = sorted(longest_sentences(s, 1)[0][0] for s in by_length)
    assert hashes.tolist() == wanted
    assert count == len(by_length)


def test_sentences_end_at_chinese_and_english_punctuation_and_lines() -> None:
    text = "第一句话。第二句话！Is this the third? Yes. 3.14 stays whole\n标题"
    assert sentences(text) == [
        "第一句话",
        "第二句话",
        "Isthisthethird",
        "Yes",
        "314stayswhole",
        "标题",
    ]


@settings(max_examples=30, deadline=None)  # the first example loads pypinyin's tables
@given(st.text(st.sampled_from("重庆银行爱啊你好中国人民abcXYZ0129 ,。"), max_size=40))
def test_pinyin_letters_are_pypinyins_initials(text: str) -> None:
    from pypinyin import Style, pinyin

    counts = np.zeros(LETTERS)
    for char in text.lower():
        if char.isascii() and char.isalpha():
            counts[ord(char) - ord("a")] += 1
        elif char.isdigit():
            counts[26 + int(char)] += 1
        elif "\u4e00" <= char <= "\u9fff":
            initial = pinyin(char, style=Style.FIRST_LETTER, heteronym=True)[0][0]
            counts[ord(initial) - ord("a")] += 1
    vector, total = letter_vector(text)
    assert total == counts.sum()
    norm = np.sqrt(counts @ counts)
    assert np.allclose(vector, counts / norm if norm else counts, atol=1e-6)


def test_a_signature_is_the_same_for_the_same_text_and_its_digest_is_the_fingerprint() -> None:
    for name in ("minhash", "sentences", "pinyin"):
        texts = ["同一篇文章。", "同一篇文章。", "另一篇。"]
        one, two, other = method_named(name).signatures(texts)
        assert one == two
        assert one.fingerprint != other.fingerprint


# --- pairing against brute force -------------------------------------------------------------
@settings(deadline=None)  # a first example may load a kernel or a table
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 4)), max_size=60))
def test_owners_sharing_a_key_are_linked_like_brute_force(rows: list[tuple[int, int]]) -> None:
    owner = np.array([o for o, _ in rows], np.int64)
    keys = np.array([k for _, k in rows], np.uint64)
    found = linked(owner, keys, 10, window=len(rows) + 1)
    wanted = {
        (min(a, b), max(a, b))
        for (a, x), (b, y) in itertools.combinations(rows, 2)
        if x == y and a != b
    }
    assert set(zip(found.i.tolist(), found.j.tolist(), strict=True)) == wanted


def records_with(texts: list[str], method: FingerprintMethod) -> list[FileRecord]:
    return [
        FileRecord(f"{n}.txt", chars=len(t), fingerprint=s.fingerprint, signature=s.signature)
        for n, (t, s) in enumerate(zip(texts, method.signatures(texts), strict=True))
    ]


@settings(deadline=None)  # a first example may load a kernel or a table
@given(st.lists(st.lists(st.sampled_from("abcdefg"), min_size=1, max_size=4), max_size=20))
def test_sentence_candidates_are_the_pairs_sharing_enough_sentences(docs: list[list[str]]) -> None:
    method = method_named("sentences", sentences=3, shared=2)
    texts = ["。".join(f"第{s}句" for s in doc) + "。" for doc in docs]
    records = records_with(texts, method)
    measure = method.measure(records, 0, 0.0, never)
    found = set(zip(measure.candidates.i.tolist(), measure.candidates.j.tolist(), strict=True))
    hashes = [set(np.frombuffer(r.signature, "<u8").tolist()) for r in records]
    wanted = {
        (a, b)
        for a, b in itertools.combinations(range(len(records)), 2)
        if len(hashes[a] & hashes[b]) >= 2
    }
    assert found == wanted


@settings(deadline=None)  # a first example may load a kernel or a table
@given(st.lists(st.integers(0, 2**64 - 1), max_size=40), st.integers(0, 8), st.floats(0, 1))
def test_simhash_alone_is_the_pairs_within_k_above_the_floor(
    fps: list[int], k: int, floor: float
) -> None:
    """Every such pair while no run of one table prefix is longer than the window; past it
    (34 copies of one fingerprint) each is checked against the RUN_WINDOW after it: only such
    pairs (the test below: which)."""
    records = [FileRecord(f"{n}", fingerprint=f) for n, f in enumerate(fps)]
    measure = method_named("simhash").measure(records, k, floor, never)
    brute = brute_force_pairs(np.array(fps, np.uint64), k)
    wanted = {
        (i, j)
        for i, j, d in zip(brute.i.tolist(), brute.j.tolist(), brute.distance.tolist(), strict=True)
        if 1 - d / 64 >= floor
    }
    found = set(zip(measure.candidates.i.tolist(), measure.candidates.j.tolist(), strict=True))
    if len(fps) <= RUN_WINDOW + 1:
        assert found == wanted
    else:
        assert found <= wanted


def test_many_copies_of_one_fingerprint_are_each_paired_within_the_window() -> None:
    records = [FileRecord(f"{n}", fingerprint=0) for n in range(40)]
    measure = method_named("simhash").measure(records, 0, 0.0, never)
    found = set(zip(measure.candidates.i.tolist(), measure.candidates.j.tolist(), strict=True))
    assert found == {(a, b) for a, b in itertools.combinations(range(40), 2) if b - a <= RUN_WINDOW}


@pytest.mark.parametrize("name", ["minhash", "pinyin"])
def test_lsh_finds_the_close_pairs_and_keeps_only_those_above_the_floor(name: str) -> None:
    rng = np.random.default_rng(7)
    vocabulary = [f"词{n}" for n in range(400)] + [f"w{n}" for n in range(400)]
    originals = [" ".join(rng.choice(vocabulary, 300)) for _ in range(60)]
    copies = [t.replace(t.split()[5], "改", 1) for t in originals]  # one word changed
    method = method_named(name)
    records = records_with(originals + copies, method)
    floor = method.floor
    measure = method.measure(records, 0, floor, never)
    found = set(zip(measure.candidates.i.tolist(), measure.candidates.j.tolist(), strict=True))
    every = np.array(list(itertools.combinations(range(len(records)), 2)))
    share = measure.similarities(every[:, 0], every[:, 1])
    above = {(int(a), int(b)) for (a, b), s in zip(every, share, strict=True) if s >= floor}
    assert found <= above  # confirmed by the method's own measure
    assert {(n, n + 60) for n in range(60)} <= found  # every copy found


@pytest.mark.parametrize("threshold", [0.3, 0.4, 0.5, 0.7, 0.9])
def test_minhash_bands_and_rows_are_datasketchs(threshold: float) -> None:
    from datasketch.lsh import _optimal_param

    assert lsh_bands(threshold) == _optimal_param(threshold, NUM_PERM, 0.5, 0.5)


# --- whole scans --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_every_method_finds_the_samples_planted_groups(name: str) -> None:
    result = scan(str(SAMPLE), options_for(name))
    assert names(result) == sorted(PLANTED, key=sorted)


@pytest.mark.parametrize("name", ["minhash", "sentences", "pinyin"])
def test_a_methods_report_has_its_own_similarity_no_distance_and_its_name(name: str) -> None:
    result = scan(str(SAMPLE), options_for(name))
    rows = [dict(zip(COLUMNS, r, strict=True)) for r in report_rows(result)]
    grouped = [r for r in rows if r["group_id"]]
    assert grouped
    assert all(r["distance"] == "" for r in grouped)
    for group in result.groups:
        for member in group.members[1:]:
            alike = result.likeness(group.reference, member.file)
            assert member.similarity == pytest.approx(alike)
    assert all(
        row[COLUMNS.index("notes")].startswith(f"method: {name}") for row in report_rows(result)
    )


def test_default_reports_say_no_method_and_keep_their_distances() -> None:
    rows = list(report_rows(scan(str(SAMPLE))))
    assert not any("method:" in row[COLUMNS.index("notes")] for row in rows)
    assert all(row[COLUMNS.index("distance")].isdigit() for row in rows if row[0])


def test_the_method_is_part_of_the_cache_key(tmp_path: Path) -> None:
    cache = FingerprintCache(tmp_path / "cache.sqlite")
    try:
        first = scan(str(SAMPLE), options_for("minhash"), cache=cache)
        assert first.cached == 0
        again = scan(str(SAMPLE), options_for("minhash"), cache=cache)
        assert again.files == first.files
        assert again.groups == first.groups
        other = scan(str(SAMPLE), options_for("sentences"), cache=cache)
        assert other.cached == 0
        assert {f.signature for f in other.files}.isdisjoint({f.signature for f in first.files})
        # how sentences pair is not what they are: the fingerprints come from the cache
        folder = tmp_path / "copy"
        shutil.copytree(SAMPLE, folder)
        scan(str(folder), options_for("sentences"), cache=cache)
        looser = scan(str(folder), options_for("sentences", shared=1), cache=cache)
        assert looser.cached == len(looser.files)
    finally:
        cache.close()


def test_methods_run_on_worker_processes_and_give_the_same_result() -> None:
    alone = scan(str(SAMPLE), options_for("minhash"))
    pooled = scan(
        str(SAMPLE),
        ScanOptions(
            read=ReadOptions(text=alone.options.read.text),
            group=GroupOptions(min_similarity=0.4),
            run=RunOptions(jobs=2, processes=True),
        ),
    )
    assert pooled.files == alone.files
    assert names(pooled) == names(alone)


def test_a_cancelled_method_scan_says_so(tmp_path: Path) -> None:
    for n in range(300):
        (tmp_path / f"{n}.txt").write_text(f"第{n}篇文章。" * 20, encoding="utf-8")
    seen = []
    result = scan(
        str(tmp_path),
        options_for("pinyin"),
        progress=lambda event: seen.append(event.stage),
        cancel=lambda: "fingerprinting" in seen,
    )
    assert result.cancelled
    assert len(result.files) < 300


def test_a_saved_result_keeps_its_method(tmp_path: Path) -> None:
    result = scan(str(SAMPLE), options_for("sentences", sentences=4, shared=2))
    save_result(result, tmp_path / "r.simdup")
    loaded = load_result(tmp_path / "r.simdup")
    assert loaded.options.method == method_named("sentences", sentences=4, shared=2)
    assert loaded.groups == result.groups


def test_a_new_reference_is_measured_by_the_method() -> None:
    result = scan(str(SAMPLE), options_for("minhash"))
    group = result.groups[0]
    other = group.members[1].file
    swapped = result.with_reference(group, other)
    assert swapped.reference == other
    for member in swapped.members[1:]:
        assert member.similarity == pytest.approx(result.likeness(other, member.file))
        assert member.distance == 0  # MinHash has no distance


def test_the_default_methods_fingerprints_and_cache_key_are_unchanged() -> None:
    # the digest a library built with this pipeline keeps (library.json): the default method
    # adds nothing to it; it changes only with PIPELINE_VERSION (19: records keep their terms)
    assert TextSettings().version == "e1702cbcb6b8"
    assert TextSettings().version != TextSettings(method=method_named("simhash")).version
    one = method_named("sentences", sentences=3, shared=1)
    two = method_named("sentences", sentences=3, shared=2)
    assert TextSettings(method=one).version == TextSettings(method=two).version
    four = method_named("sentences", sentences=4)
    assert TextSettings(method=one).version != TextSettings(method=four).version


def test_a_method_kept_as_a_dictionary_comes_back_as_it_was() -> None:
    for name in NAMES:
        method = method_named(name)
        assert method_from_dict(method.to_dict()) == method
    # an older version kept every method with all the parameters any of them took
    old = {"name": "minhash", "sentences": 3, "shared": 2, "bands": 16, "rows": 8}
    assert method_from_dict(old) == method_named("minhash", bands=16, rows=8)
    with pytest.raises(ValueError, match="takes no bands"):
        method_named("sentences", bands=4)


# --- the command ------------------------------------------------------------------------------
def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.mark.parametrize("name", NAMES)
def test_scan_method_writes_the_same_columns(name: str) -> None:
    code, out, err = run("scan", str(SAMPLE), "--method", name, "--no-cache", "--jobs", "1")
    assert code == 0, err
    rows = list(csv.DictReader(out.splitlines()))
    assert {r["group_id"] for r in rows if r["group_id"]} == {"1", "2", "3"}
    assert ("method " + name in err) == (name != "default")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--method", "lsh"], "invalid choice: 'lsh'"),
        (
            ["--method", "minhash", "--sentences", "4"],
            "--sentences is not used by --method minhash",
        ),
        (["--method", "sentences", "--k", "3"], "--k is not used by --method sentences"),
        (["--method", "pinyin", "--tokenizer", "chars"], "--tokenizer is not used by --method"),
        (["--method", "sentences", "--min-similarity", "0.5"], "--min-similarity is not used"),
        (["--method", "minhash", "--bands", "8"], "bands and rows are given together"),
        (["--method", "minhash", "--bands", "20", "--rows", "10"], "at most 128, got 200"),
        (["--method", "sentences", "--shared", "4"], "shared sentences must be 1 to 3"),
        (["--bands", "8", "--rows", "8"], "--bands is not used by --method default"),
    ],
)
def test_a_method_option_that_cannot_work_is_a_one_line_error(
    argv: list[str], message: str
) -> None:
    code, out, err = run("scan", str(SAMPLE), "--no-cache", *argv)
    assert code == 2
    assert message in err
    assert err.count("\n") == 1
    assert out == ""


def test_bands_and_rows_given_are_used() -> None:
    code, out, _ = run(
        "scan", str(SAMPLE), "--method", "minhash", "--bands", "32", "--rows", "4", "--no-cache"
    )
    assert code == 0
    assert {r["group_id"] for r in csv.DictReader(out.splitlines()) if r["group_id"]} == {
        "1",
        "2",
        "3",
    }


def test_apply_checks_files_again_by_the_reports_method(tmp_path: Path) -> None:
    folder, report = tmp_path / "articles", tmp_path / "report.csv"
    shutil.copytree(SAMPLE, folder)
    scanned = ("scan", str(folder), "--no-cache", "--csv", str(report))
    assert run(*scanned, "--method", "sentences", "--sentences", "4")[0] == 0
    code, _, err = run("apply", str(report), "--move-to", str(tmp_path / "moved"))
    assert code == 0, err
    assert "moved 5, skipped 0" in err  # each re-checked by its longest sentences, unchanged
    moved = [p for p in (tmp_path / "moved").rglob("*.*") if not p.name.startswith("simdup-")]
    assert len(moved) == 5
    code, _, err = run("apply", str(report), "--trash", "--method", "minhash")
    assert code == 2
    assert err.endswith("made with method: sentences, 4 longest, not --method minhash\n")
    assert err.count("\n") == 1


@settings(deadline=None, max_examples=30)
@given(
    st.lists(
        st.lists(st.sampled_from(["春运", "铁路。", "the ", "harbor. ", "茶园", "a"]), max_size=30),
        min_size=2,
        max_size=6,
    ),
    st.sampled_from(["minhash", "sentences", "pinyin"]),  # simhash's is of an xor: symmetric
)
def test_every_method_measures_a_pair_the_same_both_ways(docs: list[list[str]], name: str) -> None:
    """Grouping reads a node's similarity to its reference from the reference's vote."""
    texts = ["".join(doc) for doc in docs]
    method = method_named(name)
    alike = method.similarities(records_with(texts, method))
    a, b = np.array(list(itertools.permutations(range(len(texts)), 2))).T
    assert alike(a, b).tolist() == alike(b, a).tolist()
