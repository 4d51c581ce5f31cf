"""Word, PDF, OpenDocument, EPUB and RTF articles: read, grouped and checked like text."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from documents_made import (
    FORMATS,
    write_docx,
    write_format,
    write_pdf,
    write_typeset_pdf,
    write_unmapped_pdf,
)

from simdup_gui.cli import main
from simdup_gui.engine.read import pdf_fonts
from simdup_gui.engine.read.documents import (
    ZIP_LIMIT,
    DocumentError,
    document_kind,
    read_document,
)
from simdup_gui.engine.resources import resource
from simdup_gui.engine.scan import scan

STORIES = {"zh": "春运返乡.txt", "en": "harbor-lighthouse.txt"}


def story(language: str) -> tuple[str, list[str]]:
    """A sample article: its title line and its paragraphs."""
    lines = (resource("sample") / language / STORIES[language]).read_text("utf-8").split("\n")
    return lines[0], [line for line in lines[1:] if line.strip()]


def bare(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("language", ["zh", "en"])
@pytest.mark.parametrize("kind", FORMATS)
def test_each_format_gives_the_articles_text_and_title(
    tmp_path: Path, kind: str, language: str
) -> None:
    """The paragraphs in order, nothing a page repeats, the title the document gives itself."""
    title, paragraphs = story(language)
    path = tmp_path / f"article.{kind}"
    if kind == "pdf":  # pages with a running header and numbers, words cut across lines
        write_pdf(path, title, paragraphs, per_page=6)
    else:
        write_format(kind, path, title, paragraphs)
    document = read_document(path.read_bytes(), kind)
    assert bare(document.text) == bare(title + "".join(paragraphs))
    if kind != "rtf":  # a paragraph a line (a PDF's wrapped lines joined, ends of sentences aside)
        lines = [" ".join(line.split()) for line in document.text.split("\n") if line.strip()]
        wanted = [title, *(" ".join(p.split()) for p in paragraphs)]
        assert lines[0] == title
        for line in lines[1:]:
            (whole,) = [p for p in wanted if line in p]  # within one paragraph
            assert whole.endswith(line) or line[-1] in ".。"  # cut at a sentence's end only
        assert len(lines) < 2 * len(wanted) if kind == "pdf" else lines == wanted
    if kind != "rtf":  # RTF keeps its title in an info group striprtf leaves out
        assert document.title == title
    assert document_kind(str(path)) == kind


CJK_FONTS = {  # reportlab's CID fonts, none embedded: simplified, traditional, Japanese, Korean
    "STSong-Light": ["铁路春运首日", "发送旅客三百万人次，增长6.8%。", "Apple 2000 年 11 月"],
    "MSung-Light": ["鐵路春運首日", "發送旅客三百萬人次，增長6.8%。", "Twitter 100 萬"],
    "HeiseiMin-W3": ["東京の桜", "今年は例年より早く開花しました。", "2000年 11月"],
    "HYSMyeongJo-Medium": ["서울의 벚꽃", "올해 예년보다 일찍 피었습니다.", "1100 apple"],
}


@pytest.mark.parametrize("font", CJK_FONTS)
def test_a_pdf_whose_cjk_font_is_not_embedded_reads_as_drawn(tmp_path: Path, font: str) -> None:
    """The box font stands in for the font the PDF names: the text is the PDF's, each
    character once, in its place — though each is its own text object and the heading is
    drawn twice (bold faked) — whatever fonts the machine has."""
    lines = CJK_FONTS[font]
    path = tmp_path / "typeset.pdf"
    write_typeset_pdf(path, lines, font)
    fonts = pdf_fonts.install()
    assert fonts is not None
    boxed = fonts.boxed
    document = read_document(path.read_bytes(), "pdf")
    assert fonts.boxed > boxed  # asked for a CJK font: given the box
    assert [bare(line) for line in document.text.split("\n") if line.strip()] == [
        bare(line) for line in lines
    ]


def test_a_word_tables_cells_are_read_in_order(tmp_path: Path) -> None:
    path = tmp_path / "table.docx"
    write_docx(path, "成绩", ["下表列出各班成绩。"], [["班级", "人数"], ["一班", "42"]])
    text = read_document(path.read_bytes(), "docx").text
    assert text.split("\n")[-2:] == ["班级\t人数", "一班\t42"]
    assert "页眉" not in text  # the header on every page is not the article's


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
NOTES = (
    f'<w:footnotes {W}><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:t>SEPARATOR</w:t>'
    '</w:r></w:p></w:footnote><w:footnote w:id="1"><w:p><w:r><w:t xml:space="preserve">① 数据'
    "来自国家铁路局</w:t></w:r><w:r><w:tab/><w:t>2025 年</w:t></w:r></w:p></w:footnote>"
    "</w:footnotes>"
)


def test_a_word_documents_footnotes_and_content_controls_are_its_text(tmp_path: Path) -> None:
    """Footnotes follow the body (their separators are no text); a paragraph inside a content
    control is read in its place; a line break inside a paragraph starts a line."""
    path = tmp_path / "notes.docx"
    write_docx(path, "春运", ["第一段。", "第二段。"])
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    body = parts["word/document.xml"].decode()
    control = (
        "<w:sdt><w:sdtContent><w:p><w:r><w:t>控件里的段落</w:t><w:br/><w:t>换行之后</w:t>"
        "</w:r></w:p></w:sdtContent></w:sdt>"
    )
    at = body.rindex("<w:p>", 0, body.index("第一段"))  # before the first paragraph
    parts["word/document.xml"] = (body[:at] + control + body[at:]).encode()
    parts["word/footnotes.xml"] = NOTES.encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    lines = read_document(path.read_bytes(), "docx").text.split("\n")
    notes = ["① 数据来自国家铁路局\t2025 年"]
    assert lines == ["春运", "控件里的段落", "换行之后", "第一段。", "第二段。", *notes]


def test_a_document_and_its_text_are_one_article(tmp_path: Path) -> None:
    """The .txt, its .docx, .pdf, .odt, .epub and .rtf versions group; another story not."""
    sample = resource("sample")
    title, paragraphs = story("zh")
    (tmp_path / "story.txt").write_text(
        (sample / "zh" / STORIES["zh"]).read_text("utf-8"), encoding="utf-8"
    )
    for kind in FORMATS:
        write_format(kind, tmp_path / f"story.{kind}", title, paragraphs)
    other_title, others = story("en")
    write_docx(tmp_path / "other.docx", other_title, others)
    result = scan(str(tmp_path))
    names = [[Path(result.files[m.file].path).name for m in g.members] for g in result.groups]
    assert [sorted(group) for group in names] == [
        sorted(["story.txt", *(f"story.{kind}" for kind in FORMATS)])
    ]
    assert names[0][0] in ("story.docx", "story.odt", "story.rtf")  # editable, not an export
    titles = {Path(f.path).name: f.title for f in result.files}
    assert titles["story.docx"] == titles["story.pdf"] == title
    assert titles["other.docx"] == other_title


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_documents_are_articles_to_every_command(tmp_path: Path) -> None:
    """explain, reuse, the library, apply and restore take Word and PDF files as they take text."""
    title, paragraphs = story("zh")
    folder = tmp_path / "articles"
    folder.mkdir()
    write_docx(folder / "story.docx", title, paragraphs)
    write_pdf(folder / "story.pdf", title, paragraphs, per_page=8)
    others = story("en")[1]
    half = paragraphs[: len(paragraphs) // 2]  # half the story inside another article
    write_docx(folder / "digest.docx", "一周要闻", ["本周要闻如下。", *half, *others])
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    report = tmp_path / "report.csv"

    assert run("scan", str(folder), "--csv", str(report), "--no-cache")[0] == 0
    rows = list(csv.DictReader(report.read_text(encoding="utf-8-sig").splitlines()))
    roles = {Path(r["path"]).name: r["role"] for r in rows}
    assert (roles["story.docx"], roles["story.pdf"]) == ("reference", "duplicate")

    code, out, _ = run("explain", str(folder / "story.docx"), str(folder / "story.pdf"))
    assert code == 0
    assert "distance 0 of 64 bits" in out

    reuse = tmp_path / "reuse.csv"
    assert run("reuse", str(folder), "--csv", str(reuse), "--no-cache")[0] == 0
    found = list(csv.DictReader(reuse.read_text(encoding="utf-8-sig").splitlines()))
    copied = {(Path(r["path"]).name, Path(r["source"]).name) for r in found if r["source"]}
    assert ("digest.docx", "story.docx") in copied

    library = tmp_path / "LIB"
    assert run("library", "add", str(library), str(folder))[0] == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "repost.txt").write_text(title + "\n" + "\n".join(paragraphs), encoding="utf-8")
    code, out, _ = run("library", "check", str(library), str(elsewhere))
    assert code == 0
    assert "story.docx" in out or "story.pdf" in out

    moved = tmp_path / "moved"
    code, _, err = run("apply", str(report), "--move-to", str(moved))
    assert code == 0, err
    assert not (folder / "story.pdf").exists()
    (manifest,) = moved.glob("simdup-manifest-*.csv")
    assert run("restore", str(manifest))[0] == 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_every_document_that_gives_no_text_is_a_row_saying_why(tmp_path: Path) -> None:
    title, paragraphs = story("zh")
    write_pdf(tmp_path / "locked.pdf", title, paragraphs, password="secret")
    write_pdf(tmp_path / "scanned.pdf", title, paragraphs, text=False)
    # a full Chinese font's glyph numbers for common characters: a few hundred to about 30,000
    write_unmapped_pdf(tmp_path / "unmapped.pdf", [0x300 + 541 * n for n in range(50)])
    write_docx(tmp_path / "whole.docx", title, paragraphs)
    data = (tmp_path / "whole.docx").read_bytes()
    (tmp_path / "cut.docx").write_bytes(data[: len(data) // 2])  # a download cut short
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    (tmp_path / "old.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    (tmp_path / "bad.rtf").write_bytes(b"not rtf at all")
    with zipfile.ZipFile(tmp_path / "broken.docx", "w") as archive:  # whole zip, broken XML
        archive.writestr("word/document.xml", "<w:document><w:body><w:p>")
    with zipfile.ZipFile(tmp_path / "broken.odt", "w") as archive:
        archive.writestr("content.xml", "<office:document-content>")
    result = scan(str(tmp_path))
    why = {Path(f.path).name: f.error for f in result.files}
    assert why["whole.docx"] == ""
    assert why["locked.pdf"] == "encrypted (password-protected) PDF: not read"
    assert why["scanned.pdf"] == "no text layer — a scanned image: not read"
    assert why["unmapped.pdf"] == "no readable text: the PDF's fonts map to no characters"
    assert why["cut.docx"].startswith("damaged DOCX file")
    assert why["locked.docx"] == "encrypted (password-protected) DOCX file: not read"
    assert why["old.doc"] == "old Word format (.doc): save it as .docx to compare it"
    assert why["bad.rtf"].startswith("damaged RTF file")
    assert why["broken.docx"].startswith("damaged DOCX file")
    assert why["broken.odt"].startswith("damaged ODT file")
    assert main(["scan", str(tmp_path), "--no-cache", "--csv", str(tmp_path.parent / "r.csv")]) == 0


def test_writing_in_any_language_is_not_taken_for_glyph_numbers() -> None:
    """Chinese, Japanese, Korean, European and mixed texts are read; glyph numbers are not."""
    from encodings_corpus import corpus

    from simdup_gui.engine.read.documents import _scrambled

    texts = {text for _, _, text, _ in corpus(per_encoding=20)}
    texts |= {"".join(story(language)[1]) for language in STORIES}
    assert len(texts) > 100
    assert not [text for text in texts if _scrambled(text)]
    assert _scrambled("".join(chr(0x300 + 541 * n) for n in range(50)))


def test_a_zip_bomb_named_docx_is_refused_from_its_directory(tmp_path: Path) -> None:
    """Its parts' unpacked sizes are read from the zip's directory: nothing is unpacked."""
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as part:
            chunk = bytes(1 << 20)
            for _ in range((ZIP_LIMIT >> 20) + 16):
                part.write(chunk)
    assert bomb.stat().st_size < 2 << 20
    with pytest.raises(DocumentError, match="refused: unpacks to"):
        read_document(bomb.read_bytes(), "docx")


def test_a_labelled_folder_of_documents_every_version_pair_found_and_no_false_one(
    tmp_path: Path,
) -> None:
    """Six stories, each as a text and in the five formats: every pair of one story's versions
    in one group (recall), no pair across stories (precision)."""
    stories = {
        "en": ["harbor-walking-tour.txt", "library-hours.txt", "river-cleanup.txt"],
        "zh": ["春运返乡.txt", "社区图书馆.txt", "茶园春茶.txt"],
    }
    truth: dict[str, str] = {}
    for language, names in stories.items():
        for number, name in enumerate(names):
            text = (resource("sample") / language / name).read_text(encoding="utf-8")
            lines = [line for line in text.split("\n") if line.strip()]
            story = f"{language}{number}"
            (tmp_path / f"{story}.txt").write_text(text, encoding="utf-8")
            truth[f"{story}.txt"] = story
            for kind in FORMATS:
                write_format(kind, tmp_path / f"{story}.{kind}", lines[0], lines[1:])
                truth[f"{story}.{kind}"] = story
    result = scan(str(tmp_path))
    assert not [f.error for f in result.files if f.error]
    found = {
        frozenset((Path(result.files[a.file].path).name, Path(result.files[b.file].path).name))
        for group in result.groups
        for a in group.members
        for b in group.members
        if a.file != b.file
    }
    wanted = {frozenset((a, b)) for a in truth for b in truth if a != b and truth[a] == truth[b]}
    assert found - wanted == set()  # precision 1.000
    assert wanted - found == set()  # recall 1.000: 90 pairs
    assert len(wanted) == 90
