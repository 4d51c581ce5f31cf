"""The reuse view's core without Qt: what is measured, and what a pair shows on each side."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from simdup_gui.core.reusing import ReuseChoices, measure, pair_shown
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.results import ScanResult
from simdup_gui.engine.scan import scan

ALPHABET = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过"
)


def prose(rng: random.Random, sentences: int) -> str:
    """Made-up Chinese prose: sentences of 20-40 characters, each ending 。."""
    return "".join(
        "".join(rng.choice(ALPHABET) for _ in range(rng.randint(20, 40))) + "。"
        for _ in range(sentences)
    )


def folder_with_a_copied_paragraph(root: Path) -> tuple[Path, str]:
    """An article whose third paragraph is the second of a source; other unrelated articles."""
    rng = random.Random(7)
    passage = prose(rng, 4)
    source = [prose(rng, 5), passage, prose(rng, 5)]
    article = [prose(rng, 4), prose(rng, 4), passage, prose(rng, 4)]
    root.mkdir()
    (root / "source.txt").write_text("\n\n".join(source), encoding="utf-8")
    (root / "article.txt").write_text("\n\n".join(article), encoding="utf-8")
    for n in range(3):
        (root / f"other{n}.txt").write_text(prose(rng, 12), encoding="utf-8")
    return root, passage


def scanned(root: Path, **group: object) -> ScanResult:
    options = ScanOptions()
    return scan([str(root)], replace(options, group=replace(options.group, **group)))


def test_a_pair_shows_the_copied_paragraph_on_both_sides(tmp_path: Path) -> None:
    root, passage = folder_with_a_copied_paragraph(tmp_path / "news")
    reuse = measure(scanned(root), ReuseChoices())
    copied = next(
        c for c in reuse.articles if reuse.scan.files[c.path].path.endswith("article.txt")
    )
    source = copied.sources[0]
    assert reuse.source_path(source).endswith("source.txt")
    shown = pair_shown(reuse, copied, source)
    marked = passage.removesuffix("。")  # a passage ends with its last unit; its 。 counts
    assert [shown.article.text[a:b] for a, b in shown.article.passages] == [marked]
    assert [shown.source.text[a:b] for a, b in shown.source.passages] == [marked]
    # the share is the exact count: the passage's characters of the article's, no whitespace
    article = "".join(shown.article.text.split())
    assert shown.share == len(passage) / len(article)
    assert [round(share, 6) for _, _, share in shown.paragraphs] == [0, 0, 1, 0]
    assert not shown.whole
    whole = pair_shown(reuse, copied)
    assert whole.whole
    assert whole.article.passages == shown.article.passages


def test_a_groups_member_is_measured_in_the_list_as_when_shown(tmp_path: Path) -> None:
    """A copy's reuse from its reference is measured in the list, the same when shown."""
    root, _ = folder_with_a_copied_paragraph(tmp_path / "news")
    text = (root / "source.txt").read_text(encoding="utf-8")
    (root / "source-repost.txt").write_text("转载：\n\n" + text, encoding="utf-8")
    reuse = measure(scanned(root), ReuseChoices())
    copied = next(c for c in reuse.articles if "repost" in reuse.scan.files[c.path].path)
    assert copied.sources[0].exact
    shown = pair_shown(reuse, copied, copied.sources[0])
    assert shown.share == copied.sources[0].share
    assert shown.article.passages
    assert shown.source.passages
    whole = len("".join(text.split()))
    assert shown.share == whole / (whole + len("转载："))  # the exact count
    assert shown.source_share == 1.0


def test_a_pair_shown_reads_each_text_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Measured and shown from one reading: a group's member, its reference, the whole."""
    from simdup_gui.core import reusing
    from simdup_gui.engine.reuse import sources

    root, _ = folder_with_a_copied_paragraph(tmp_path / "news")
    text = (root / "source.txt").read_text(encoding="utf-8")
    (root / "source-repost.txt").write_text("转载：\n\n" + text, encoding="utf-8")
    reuse = measure(scanned(root), ReuseChoices())
    copied = next(c for c in reuse.articles if "repost" in reuse.scan.files[c.path].path)
    reads: list[str] = []
    read = sources.read_text

    def counted(path: str, *options: object) -> str:
        reads.append(path)
        return read(path, *options)  # type: ignore[arg-type]

    for module in (sources, reusing):
        monkeypatch.setattr(module, "read_text", counted)
    for source in (copied.sources[0], None):
        reads.clear()
        shown = pair_shown(reuse, copied, source)
        assert shown.article.passages
        assert sorted(Path(path).name for path in reads) == ["source-repost.txt", "source.txt"]


def test_the_reference_folders_are_ones_own_articles(tmp_path: Path) -> None:
    """The editor's own archive (去除本人已发表): its articles are sources flagged as one's own,
    and each article's third total leaves them out."""
    root, _ = folder_with_a_copied_paragraph(tmp_path / "news")
    archive = root / "archive"
    archive.mkdir()
    (root / "source.txt").rename(archive / "source.txt")
    everything = measure(scanned(root), ReuseChoices())
    own = measure(scanned(root, reference_folders=(str(archive),)), ReuseChoices())
    for result, flagged in ((everything, False), (own, True)):
        (copied,) = [c for c in result.articles if "article" in result.scan.files[c.path].path]
        (source,) = copied.sources
        assert result.source_path(source) == str(archive / "source.txt")
        assert source.own is flagged
        assert copied.without_own == (0.0 if flagged else copied.share)
        assert copied.without_quotes == copied.share > 0  # nothing in it is cited


def test_quotations_can_be_left_out(tmp_path: Path) -> None:
    root, passage = folder_with_a_copied_paragraph(tmp_path / "news")
    article = root / "article.txt"
    article.write_text(
        article.read_text(encoding="utf-8").replace(passage, f"“{passage}”"), encoding="utf-8"
    )
    result = scanned(root)
    counted = measure(result, ReuseChoices())
    left_out = measure(result, ReuseChoices(quotes=False))
    path = str(article)
    assert any(result.files[c.path].path == path for c in counted.articles)
    assert not any(result.files[c.path].path == path for c in left_out.articles)
