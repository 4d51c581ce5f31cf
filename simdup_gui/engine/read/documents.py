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
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from xml.etree import ElementTree

from simdup_gui.engine.read.decode import DecodeError

DOCUMENT_ENDINGS = (".docx", ".pdf", ".odt", ".epub", ".rtf")
OLD_FORMATS = {  # read by no maintained package: what an editor can do instead
    ".doc": "old Word format (.doc): save it as .docx to compare it",
    ".wps": "WPS Writer format (.wps): save it as .docx to compare it",
}
_PDFIUM = threading.Lock()  # PDFium is used by one thread at a time
ZIP_LIMIT = 256 << 20  # a zip document's parts may unpack to this much at most
REPEATED_SHARE = 0.6  # a line at a page's top or bottom on this share of pages is a running one
UNREADABLE_SHARE = 0.3  # more characters than this that map to nothing: fonts without a map
_CJK = r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]"
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


def readers_version() -> str:
    """The readers and their versions (a document's record depends on them: a cache key)."""
    return ", ".join(_reader(name) for name in ("lxml", "pypdfium2", "striprtf"))


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


def _reader(name: str) -> str:
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:
        return name


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _docx(data: bytes) -> Document:
    """A Word document's body: paragraphs and tables in order (not its headers and footers).

    Read from ``word/document.xml`` with lxml: python-docx gave the same text at a tenth of
    the speed (0.7-1.1 against 6-13 MB/s, one thread: tests/bench/bench_documents.py).
    """
    with _zip(data, "docx") as archive:
        body = _xml(archive.read("word/document.xml")).find(f"{_W}body")
        core = (
            archive.read("docProps/core.xml") if "docProps/core.xml" in archive.namelist() else b""
        )
    if body is None:
        raise DocumentError("damaged DOCX file (no body)")
    lines, heading = [], ""
    for child in body:
        if child.tag == f"{_W}p":
            line = _word_text(child)
            lines.append(line)
            style = child.find(f"{_W}pPr/{_W}pStyle")
            named = style.get(f"{_W}val", "") if style is not None else ""
            if not heading and line.strip() and named.startswith(("Heading", "Title")):
                heading = line.strip()
        elif child.tag == f"{_W}tbl":
            for row in child.iter(f"{_W}tr"):
                cells = dict.fromkeys(_word_text(cell) for cell in row.iter(f"{_W}tc"))
                lines.append("\t".join(cells))  # a merged cell once
    title = ""
    if core:
        found = _xml(core).find(f".//{_DC_TITLE}")
        title = (found.text or "").strip() if found is not None else ""
    return Document("\n".join(lines), title or heading, _reader("lxml") + " (Word XML)")


def _word_text(element: object) -> str:
    """The text of a paragraph (or a cell's paragraphs, a line each): runs, tabs, breaks."""
    parts = []
    for node in element.iter(f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr", f"{_W}p"):  # type: ignore[attr-defined]
        tag = node.tag
        if tag == f"{_W}t":
            parts.append(node.text or "")
        elif tag == f"{_W}tab":
            parts.append("\t")
        elif tag != f"{_W}p" or node is not element:
            parts.append("\n")
    return "".join(parts).strip("\n")


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
    text = "\n".join(_without_running_lines(pages))
    seen = "".join(text.split())
    if not seen:
        raise DocumentError("no text layer — a scanned image: not read")
    if len(_NO_MAP.findall(seen)) > UNREADABLE_SHARE * len(seen):
        raise DocumentError("no readable text: the PDF's fonts map to no characters")
    return Document(_CJK_SPACE.sub("", text), title, _reader("pypdfium2"))


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
