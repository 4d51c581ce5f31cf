"""Documents the tests make: an article saved as Word, PDF, OpenDocument, EPUB and RTF.

Word with python-docx, PDF with reportlab (its CID fonts name Chinese glyphs without embedding
a font file, so no font need be installed), OpenDocument, EPUB and RTF written by hand, as the
formats' specifications say, with the least each needs.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

FORMATS = ("docx", "pdf", "odt", "epub", "rtf")


def write_docx(path: Path, title: str, paragraphs: list[str], table: list[list[str]] = ()) -> None:
    """A Word document: its title as a property and a heading, the paragraphs, a table."""
    import docx

    document = docx.Document()
    document.core_properties.title = title
    document.add_heading(title, level=1)
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, cell in enumerate(row):
                grid.cell(r, c).text = cell
    section = document.sections[0]
    section.header.paragraphs[0].text = "本报讯 页眉"  # a running header: not the article's
    document.save(str(path))


def write_pdf(
    path: Path,
    title: str,
    paragraphs: list[str],
    *,
    password: str = "",
    text: bool = True,
    per_page: int = 0,
    font: str = "STSong-Light",
) -> None:
    """A PDF: the paragraphs wrapped into lines, pages with a running header and a number.

    ``text=False``: pages with shapes only, as a scan without a text layer; ``per_page``: lines
    a page (0: all on one); ``font``: a CID font (Chinese, not embedded) or one of PDF's
    standard fonts (Latin text only).
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    page = canvas.Canvas(str(path), encrypt=password or None)
    page.setTitle(title)
    lines = [title, *(piece for p in paragraphs for piece in _wrapped(p))]
    per_page = per_page or len(lines)
    for number, start in enumerate(range(0, len(lines), per_page), 1):
        page.setFont(font, 11)
        if text:
            page.drawString(50, 810, "晨报 · 本地新闻")  # the running header
            y = 780
            for line in lines[start : start + per_page]:
                page.drawString(50, y, line)
                y -= 16
            page.drawString(290, 30, str(number))  # the page number
        else:
            page.rect(50, 100, 400, 600, fill=1)  # a scanned page: pixels, no text
        page.showPage()
    page.save()


def write_typeset_pdf(path: Path, lines: list[str], font: str) -> None:
    """A PDF as some typesetters write one: each character its own text object, placed at its
    advance; a heading drawn twice a hair apart (bold faked); ``font`` a CID font not embedded.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont(font))
    page = canvas.Canvas(str(path))
    page.setFont(font, 16)
    for shift in (0, 0.3):  # the heading, drawn over itself
        page.drawString(50 + shift, 800, lines[0])
    for row, line in enumerate(lines[1:]):
        x = 50.0
        for char in line:
            page.setFont(font, 12)
            page.drawString(x, 770 - 20 * row, char)
            x += pdfmetrics.stringWidth(char, font, 12)
    page.showPage()
    page.save()


def _wrapped(paragraph: str, width: int = 30) -> list[str]:
    """A paragraph cut into lines of ``width`` characters (Chinese) or about (English)."""
    if paragraph.isascii():
        lines, line = [], ""
        for word in paragraph.split():
            if len(line) + len(word) > 2 * width:
                lines.append(line)
                line = ""
            line = f"{line} {word}".strip()
        return [*lines, line]
    return [paragraph[n : n + width] for n in range(0, len(paragraph), width)]


def write_odt(path: Path, title: str, paragraphs: list[str]) -> None:
    """An OpenDocument text: a heading, the paragraphs; its title in meta.xml."""
    text = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
    office = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
    body = f'<text:h text:outline-level="1">{escape(title)}</text:h>' + "".join(
        f"<text:p>{escape(p)}</text:p>" for p in paragraphs
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="{office}"'
        f' xmlns:text="{text}" office:version="1.2"><office:body><office:text>{body}'
        "</office:text></office:body></office:document-content>"
    )
    meta = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-meta xmlns:office="{office}"'
        ' xmlns:dc="http://purl.org/dc/elements/1.1/"><office:meta>'
        f"<dc:title>{escape(title)}</dc:title></office:meta></office:document-meta>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        archive.writestr("meta.xml", meta, zipfile.ZIP_DEFLATED)


def write_epub(path: Path, title: str, paragraphs: list[str]) -> None:
    """An EPUB book of two chapters (the paragraphs halved), in its spine's order."""
    half = max(1, len(paragraphs) // 2)
    chapters = [paragraphs[:half], paragraphs[half:]]
    opf = (
        '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf"'
        ' version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f'<dc:title>{escape(title)}</dc:title><dc:identifier id="id">x</dc:identifier></metadata>'
        "<manifest>"
        + "".join(
            f'<item id="c{n}" href="text/c{n}.xhtml" media-type="application/xhtml+xml"/>'
            for n in range(2)
        )
        + '</manifest><spine><itemref idref="c0"/><itemref idref="c1"/></spine></package>'
    )
    container = (
        '<?xml version="1.0"?><container version="1.0"'
        ' xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
        '<rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/>'
        "</rootfiles></container>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/epub+zip")
        archive.writestr("META-INF/container.xml", container)
        archive.writestr("OEBPS/book.opf", opf, zipfile.ZIP_DEFLATED)
        for n, chapter in enumerate(chapters):
            heading = f"<h1>{escape(title)}</h1>" if n == 0 else ""
            page = (
                '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
                f"<head><title>{escape(title)}</title></head><body>{heading}"
                + "".join(f"<p>{escape(p)}</p>" for p in chapter)
                + "</body></html>"
            )
            archive.writestr(f"OEBPS/text/c{n}.xhtml", page, zipfile.ZIP_DEFLATED)


def write_rtf(path: Path, title: str, paragraphs: list[str]) -> None:
    """An RTF file in code page 936: Chinese as the \\'xx bytes Word writes, ASCII as it is."""

    def escaped(text: str) -> str:
        out = []
        for char in text:
            if char.isascii():
                out.append("\\" + char if char in "\\{}" else char)
            else:
                out.extend(f"\\'{byte:02x}" for byte in char.encode("gbk"))
        return "".join(out)

    body = "\\par\n".join(escaped(p) for p in [title, *paragraphs])
    path.write_bytes(
        (
            "{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0 SimSun;}}\\f0\\fs24 " + body + "\\par}"
        ).encode("ascii")
    )


def write_format(kind: str, path: Path, title: str, paragraphs: list[str]) -> None:
    """The article written as ``kind`` (one of :data:`FORMATS`)."""
    writers = {
        "docx": write_docx,
        "pdf": write_pdf,
        "odt": write_odt,
        "epub": write_epub,
        "rtf": write_rtf,
    }
    writers[kind](path, title, paragraphs)


def write_unmapped_pdf(path: Path, glyphs: list[int]) -> None:
    """A PDF, written by hand, whose one line is ``glyphs`` in a Chinese font neither embedded
    nor mapped to characters (Identity-H, no ToUnicode): PDFium gives the glyph numbers."""
    font = (
        b"<< /Type /Font /Subtype /Type0 /BaseFont /SimSun /Encoding /Identity-H"
        b" /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /BaseFont /SimSun"
        b" /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> >>] >>"
    )
    line = b"BT /F1 12 Tf 72 700 Td <" + "".join(f"{g:04X}" for g in glyphs).encode() + b"> Tj ET"
    parts = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]"
        b" /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(line), line),
        font,
    ]
    out, places = bytearray(b"%PDF-1.4\n"), []
    for number, part in enumerate(parts, 1):
        places.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, part)
    table = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(parts) + 1)
    out += b"".join(b"%010d 00000 n \n" % place for place in places)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(parts) + 1,
        table,
    )
    path.write_bytes(bytes(out))
