"""Word, PDF, OpenDocument, EPUB and RTF articles, read as the text the engine fingerprints.

Each reader gives a document's text in reading order — paragraphs and headings, tables' cells,
a book's chapters in its spine's order — and the title the document gives itself (its
properties or metadata), with nothing a page repeats: a PDF's running headers and footers
and page numbers are left out, a word hyphenated across lines is joined, and the spaces PDF
extraction puts between Chinese characters are taken out. The readers, chosen by measurement
(``docs/how-it-works.md``): lxml for Word's XML, pypdfium2 (PDFium) for PDF, striprtf for RTF;
OpenDocument and EPUB are zip files of XML and XHTML, read with the standard library and the
HTML reader the engine already has (ebooklib is AGPL, odfpy unmaintained since 2020).

What cannot be read raises :class:`DocumentError`, whose message is the file's problem row: an
encrypted file, a PDF with no text layer (a scan), fonts that map to no characters, a damaged
file, an old binary Word file, and a zip whose parts unpack to more than ``ZIP_LIMIT`` (a zip
bomb is refused from its directory, before anything is unpacked).
"""

from __future__ import annotations

import io
import os
import posixpath
import re
import threading
import zipfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice
from xml.etree import ElementTree

from simdup_gui.engine.read import pdf_fonts
from simdup_gui.engine.read.decode import DecodeError

DOCUMENT_ENDINGS = (".docx", ".pdf", ".odt", ".epub", ".rtf")
OLD_FORMATS = {  # read by no maintained package: what an editor can do instead
    ".doc": "old Word format (.doc): save it as .docx to compare it",
    ".wps": "WPS Writer format (.wps): save it as .docx to compare it",
}
_PDFIUM = threading.Lock()  # PDFium is used by one thread at a time
ZIP_LIMIT = 256 << 20  # a zip document's parts may unpack to this much at most
REPEATED_SHARE = 0.6  # a line at a page's top or bottom on this share of pages is a running one
FULL_LINE = 0.85  # a PDF line this wide (of its usual full line) is wrapped: its paragraph goes on
UNREADABLE_SHARE = 0.3  # more characters than this that map to nothing: fonts without a map
_CJK = r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]"
_CJK_CHAR = re.compile(_CJK)
_SENTENCE_END = '.!?:;。！？：；…"”」』)）'  # a line ending so ends its paragraph, or may
_CJK_SPACE = re.compile(rf"(?<={_CJK})[ \u00a0]+(?={_CJK})")
_DIGITS = re.compile(r"\d+")
_NO_MAP = re.compile(r"[\ue000-\uf8ff\ufffd\x00-\x08\x0b\x0c\x0e-\x1f]")
_ODF = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_DC_TITLE = "{http://purl.org/dc/elements/1.1/}title"
_OPF = "{http://www.idpf.org/2007/opf}"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"


class DocumentError(DecodeError):
    """A document that gives no text; the message says why, for its row.

    Caught wherever undecodable bytes are.
    """


@dataclass(frozen=True)
class Document:
    """A document's text and title, and which reader (with its version) read it."""

    text: str
    title: str
    reader: str


def document_kind(path: str) -> str:
    """The document format a file's ending names: ``docx``, ``pdf``, ``odt`` … ("" for none)."""
    ending = os.path.splitext(path.lower())[1]
    return ending[1:] if ending in DOCUMENT_ENDINGS or ending in OLD_FORMATS else ""


EDITABLE = ("docx", "odt", "rtf")  # the copy an editor edits: kept over a text or an export
EXPORTS = ("pdf", "epub")  # made from another: kept only where nothing else says the same


def editing_rank(encoding: str) -> int:
    """How near a file's format (its record's ``encoding``) is to the copy an editor edits.

    0 a Word, OpenDocument or RTF document; 1 a text or a page; 2 a PDF or EPUB export.
    """
    return 0 if encoding in EDITABLE else 2 if encoding in EXPORTS else 1


def read_document(data: bytes, kind: str, *, cut: bool = False) -> Document:
    """The text of a document of ``kind`` (:func:`document_kind`) whose bytes are ``data``.

    Raises:
        DocumentError: it gives no text (the message says why).
    """
    if f".{kind}" in OLD_FORMATS:
        raise DocumentError(OLD_FORMATS[f".{kind}"])
    if cut:
        raise DocumentError("larger than --max-mb: a document is read whole or not at all")
    reader = {"docx": _docx, "pdf": _pdf, "odt": _odt, "epub": _epub, "rtf": _rtf}[kind]
    try:
        return reader(data)
    except DocumentError:
        raise
    except (zipfile.BadZipFile, SyntaxError, KeyError, IndexError, ValueError) as exc:
        # (malformed XML is a SyntaxError, lxml's and the standard library's alike)
        raise DocumentError(f"damaged {kind.upper()} file ({exc})") from None


READERS_VERSION = 3  # bump when a reader here gives another text (cached records made again)


def readers_version() -> str:
    """The readers and their versions (a document's record depends on them: a cache key)."""
    packages = ", ".join(_reader(name) for name in ("lxml", "pypdfium2", "striprtf"))
    return f"{READERS_VERSION}: {packages}"


def _zip(data: bytes, kind: str) -> zipfile.ZipFile:
    """The document's zip, refused when it is none or unpacks to more than ZIP_LIMIT."""
    if data.startswith(b"\xd0\xcf\x11\xe0"):  # an OLE compound file: how Office encrypts
        raise DocumentError(f"encrypted (password-protected) {kind.upper()} file: not read")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise DocumentError(f"damaged {kind.upper()} file (not a zip archive)") from None
    unpacked = sum(info.file_size for info in archive.infolist())
    if unpacked > ZIP_LIMIT:
        raise DocumentError(
            f"refused: unpacks to {unpacked >> 20} MB (over {ZIP_LIMIT >> 20} MB: a zip bomb?)"
        )
    return archive


@cache
def _reader(name: str) -> str:
    """The reader package ``name`` and its version (asked of the package's metadata once)."""
    from importlib.metadata import PackageNotFoundError, version  # 20 ms: when first asked

    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return name


_W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_WORD_TEXT = f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
 xmlns:w="{_W_NS}">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/">
 <xsl:apply-templates select="w:document/w:body//w:p[not(ancestor::w:p or ancestor::w:tbl)]
  | w:document/w:body//w:tbl[not(ancestor::w:tbl)]
  | w:footnotes/w:footnote[not(@w:type)]/w:p | w:endnotes/w:endnote[not(@w:type)]/w:p"/>
</xsl:template>
<xsl:template match="w:p">
 <xsl:apply-templates select=".//w:t | .//w:tab | .//w:br | .//w:cr"/>
 <xsl:text>&#10;</xsl:text>
</xsl:template>
<xsl:template match="w:t"><xsl:value-of select="."/></xsl:template>
<xsl:template match="w:tab"><xsl:text>&#9;</xsl:text></xsl:template>
<xsl:template match="w:br | w:cr"><xsl:text>&#10;</xsl:text></xsl:template>
<xsl:template match="w:tbl">
 <xsl:for-each select=".//w:tr">
  <xsl:for-each select="w:tc">
   <xsl:if test="position() &gt; 1"><xsl:text>&#9;</xsl:text></xsl:if>
   <xsl:for-each select=".//w:p">
    <xsl:if test="position() &gt; 1"><xsl:text>&#10;</xsl:text></xsl:if>
    <xsl:apply-templates select=".//w:t | .//w:tab | .//w:br | .//w:cr"/>
   </xsl:for-each>
  </xsl:for-each>
  <xsl:text>&#10;</xsl:text>
 </xsl:for-each>
</xsl:template>
</xsl:stylesheet>"""
_HEADING = (
    "//w:body//w:p[w:pPr/w:pStyle[starts-with(@w:val, 'Heading') or starts-with(@w:val, 'Title')]]"
)
_NOTES = ("word/footnotes.xml", "word/endnotes.xml")
_local = threading.local()  # each thread's compiled stylesheet


def _docx(data: bytes) -> Document:
    """A Word document's text: its body's paragraphs and tables in order, then its notes.

    Footnotes and endnotes follow the body; headers and footers are left out. Read with lxml,
    the text taken by one XSLT stylesheet (libxslt): python-docx gave the same text at a
    twentieth of the speed (0.7-1.1 against 15-24 MB/s, one thread:
    tests/bench/bench_documents.py), the body's paragraphs walked in Python at a half.
    """
    with _zip(data, "docx") as archive:
        names = set(archive.namelist())
        document = _xml(archive.read("word/document.xml"))
        notes = [_xml(archive.read(name)) for name in _NOTES if name in names]
        core = archive.read("docProps/core.xml") if "docProps/core.xml" in names else b""
    if document.find(f"{{{_W_NS}}}body") is None:  # type: ignore[attr-defined]
        raise DocumentError("damaged DOCX file (no body)")
    text = "".join(str(_word_text()(part)) for part in (document, *notes))
    title = ""
    if core:
        found = _xml(core).find(f".//{_DC_TITLE}")  # type: ignore[attr-defined]
        title = (found.text or "").strip() if found is not None else ""
    return Document(text.rstrip("\n"), title or _heading(document), _reader("lxml") + " (Word XML)")


def _heading(document: object) -> str:
    """A Word document's first heading (or title paragraph) that holds text: its title else."""
    for paragraph in document.xpath(_HEADING, namespaces={"w": _W_NS}):  # type: ignore[attr-defined]
        heading = paragraph.xpath("string(.)").strip()
        if heading:
            return heading
    return ""


def _word_text() -> object:
    """This thread's compiled stylesheet taking a Word part's text (paragraphs a line each)."""
    if not hasattr(_local, "word_text"):
        from lxml import etree

        deny = etree.XSLTAccessControl.DENY_ALL  # reads and writes nothing but its input
        stylesheet = etree.XML(_WORD_TEXT.encode())
        _local.word_text = etree.XSLT(stylesheet, access_control=deny)
    return _local.word_text


def _xml(data: bytes) -> object:
    """A document's XML part, parsed without entities or network (no billion laughs)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    return etree.fromstring(data, parser)


def _pdf(data: bytes) -> Document:
    """A PDF's text layer, page by page, without running headers, footers and page numbers.

    PDFium is not thread-safe (two threads in it crash the process): one PDF at a time in a
    process; worker processes read theirs side by side.
    """
    with _PDFIUM:
        pdf_fonts.install()
        return _pdf_read(data)


def _pdf_read(data: bytes) -> Document:
    import pypdfium2

    try:
        pdf = pypdfium2.PdfDocument(data)
    except pypdfium2.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise DocumentError("encrypted (password-protected) PDF: not read") from None
        raise DocumentError(f"damaged PDF file ({exc})") from None
    try:
        pages = []
        for page in pdf:
            textpage = page.get_textpage()
            pages.append(textpage.get_text_range().replace("\ufffe", "").replace("\r\n", "\n"))
            textpage.close()
            page.close()
        title = str(pdf.get_metadata_dict().get("Title", "")).strip()
    finally:
        pdf.close()
    text = _unwrapped("\n".join(_without_running_lines(pages)))
    seen = "".join(text.split())
    if not seen:
        raise DocumentError("no text layer — a scanned image: not read")
    if len(_NO_MAP.findall(seen)) > UNREADABLE_SHARE * len(seen) or _scrambled(seen):
        raise DocumentError("no readable text: the PDF's fonts map to no characters")
    text = text if text.isascii() else _CJK_SPACE.sub("", text)
    return Document(text, title, _reader("pypdfium2"))


SCRIPT_SAMPLE = 4000  # letters looked at for :func:`_scrambled`
SCATTERED = 6  # letters in this many scripts or more may be a font's glyph numbers


def _scrambled(text: str) -> bool:
    """Whether the letters are scattered over scripts as no writing is: glyph numbers.

    A font without a character map: PDFium then gives its glyphs' numbers as characters. A
    text's letters are nearly all in its three commonest scripts (Chinese, Latin and
    full-width forms; Japanese's kanji and kana); a Chinese font's glyph numbers land in a
    dozen (Cyrillic, Arabic, Ethiopic, Hangul...): SCATTERED scripts or more, with more than
    a tenth of the letters outside the three commonest.
    """
    import unicodedata

    if text.isascii():
        return False  # its letters are Latin: one script
    scripts: Counter[str] = Counter()
    for letter, count in Counter(islice(filter(str.isalpha, text), SCRIPT_SAMPLE)).items():
        scripts[unicodedata.name(letter, "?").split(" ")[0]] += count  # each letter named once
    letters = sum(scripts.values())
    common = sum(count for _, count in scripts.most_common(3))
    return len(scripts) >= SCATTERED and letters - common > 0.1 * letters


def _without_running_lines(pages: list[str]) -> list[str]:
    """The pages without the lines most of them repeat at their top or bottom (numbers aside)."""
    if len(pages) < 3:
        return pages
    split = [page.split("\n") for page in pages]

    def edges(lines: list[str]) -> set[str]:
        shown = [line for line in lines if line.strip()]
        return {_DIGITS.sub("#", line.strip()) for line in shown[:2] + shown[-2:]}

    counts: dict[str, int] = {}
    for lines in split:
        for line in edges(lines):
            counts[line] = counts.get(line, 0) + 1
    running = {line for line, n in counts.items() if n >= REPEATED_SHARE * len(pages)}
    running.add("#")  # a bare page number
    kept = []
    for lines in split:
        shown = [n for n, line in enumerate(lines) if line.strip()]
        ends = set(shown[:2] + shown[-2:])
        kept.append(
            "\n".join(
                line
                for n, line in enumerate(lines)
                if n not in ends or _DIGITS.sub("#", line.strip()) not in running
            )
        )
    return kept


def _unwrapped(text: str) -> str:
    """A PDF's lines the layout wrapped joined again into their paragraphs.

    A line as wide as FULL_LINE of the text's usual full line (its widest but for a tenth of
    its lines) and no wider goes on in the next one, over a page's end too, unless it ends a
    sentence; a paragraph's last line is shorter; the title (the first line), a table's row
    are not joined. Chinese joins Chinese with no space, the rest with one. Words cut across
    lines are then tokenised whole (a Word file and its PDF export give the same words).
    """
    lines = text.split("\n")
    widths = [  # a CJK character is two wide
        len(line.strip()) + (0 if line.isascii() else len(_CJK_CHAR.findall(line)))
        for line in lines
    ]
    usual = sorted(widths)[int(0.9 * (len(widths) - 1))]
    title = next((n for n, line in enumerate(lines) if line.strip()), 0)
    joined = lines[:1]
    for n, (width, line) in enumerate(zip(widths, lines[1:], strict=False)):
        last = joined[-1].rstrip()
        wrapped = FULL_LINE * usual <= width <= usual and n != title
        if not wrapped or not last or last[-1] in _SENTENCE_END or not line.strip():
            joined.append(line)
            continue
        line = line.lstrip()
        cjk = _CJK_CHAR.match(last[-1]) and _CJK_CHAR.match(line[0])
        joined[-1] = last + ("" if cjk else " ") + line
    return "\n".join(joined)


def _odt(data: bytes) -> Document:
    """An OpenDocument text's paragraphs, headings and table cells, in order."""
    with _zip(data, "odt") as archive:
        content = ElementTree.fromstring(archive.read("content.xml"))
        meta = archive.read("meta.xml") if "meta.xml" in archive.namelist() else b""
    lines, heading = [], ""
    for element in _odf_blocks(content):
        line = _odf_text(element)
        lines.append(line)
        if not heading and element.tag == f"{_ODF}h" and line.strip():
            heading = line.strip()
    title = ""
    if meta:
        found = ElementTree.fromstring(meta).find(f".//{_DC_TITLE}")
        title = (found.text or "").strip() if found is not None else ""
    return Document("\n".join(lines), title or heading, "odt (standard library)")


def _odf_blocks(element: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The paragraphs and headings in order, tables' cells' too; a note's with its paragraph."""
    for child in element:
        if child.tag in (f"{_ODF}p", f"{_ODF}h"):
            yield child
        else:
            yield from _odf_blocks(child)


def _odf_text(element: ElementTree.Element) -> str:
    """A paragraph's text, its spaces, tabs and line breaks as they are written."""
    parts = [element.text or ""]
    for child in element:
        name = child.tag.replace(_ODF, "")
        if name == "s":
            parts.append(" " * int(child.get(f"{_ODF}c", "1")))
        elif name == "tab":
            parts.append("\t")
        elif name == "line-break":
            parts.append("\n")
        elif name not in ("note-citation",):
            parts.append(_odf_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _epub(data: bytes) -> Document:
    """An EPUB book's chapters in its spine's order, each page's text as the HTML reader's."""
    from simdup_gui.engine.read.html import html_to_text

    with _zip(data, "epub") as archive:
        container = ElementTree.fromstring(archive.read("META-INF/container.xml"))
        rootfile = container.find(f".//{_CONTAINER}rootfile")
        if rootfile is None:
            raise DocumentError("damaged EPUB file (no package document)")
        opf_path = rootfile.get("full-path", "")
        package = ElementTree.fromstring(archive.read(opf_path))
        found = package.find(f".//{_DC_TITLE}")
        title = (found.text or "").strip() if found is not None else ""
        items = {item.get("id"): item.get("href", "") for item in package.iter(f"{_OPF}item")}
        folder = posixpath.dirname(opf_path)
        chapters = []
        for ref in package.iter(f"{_OPF}itemref"):
            href = items.get(ref.get("idref"))
            if not href:
                continue
            page = archive.read(posixpath.normpath(posixpath.join(folder, href)))
            chapters.append(html_to_text(page.decode("utf-8", "replace"), boilerplate=False).text)
    return Document("\n".join(chapters), title, "epub (standard library, selectolax)")


_CODE_PAGE = re.compile(rb"\\ansicpg(\d+)")


def _rtf(data: bytes) -> Document:
    """An RTF file's text; its bytes escaped as the code page it names (cp936 for Chinese)."""
    from striprtf.striprtf import rtf_to_text

    if not data.lstrip().startswith(b"{\\rtf"):
        raise DocumentError("damaged RTF file (no {\\rtf header)")
    page = _CODE_PAGE.search(data[:4096])
    codec = f"cp{int(page[1])}" if page else "cp1252"
    try:
        "".encode(codec)
    except LookupError:
        codec = "cp1252"
    text = rtf_to_text(data.decode("latin-1"), encoding=codec, errors="replace")
    return Document(text, "", _reader("striprtf"))
