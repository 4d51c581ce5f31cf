"""Write the box font (``resources/fonts/box.ttf``): every character an em-wide box, nothing else.

Run once when it changes: ``pip install fonttools && python tools/make_box_font.py``.

A PDF whose Chinese, Japanese or Korean font is not embedded leaves PDFium to find one on the
machine; it then measures every character's outline in it for the character's box, and the
CJK fonts of a Linux machine (Noto CJK) are PostScript outlines, each interpreted again for
every character read: 16 times the time of the rest of reading. Text extraction needs a box of
the right size, not the outline, so ``read/pdf_fonts.py`` gives PDFium this font instead for
those scripts: every character maps to one glyph, an em-wide box (.notdef is the same box),
read in no time. The text comes from the PDF (its CMap or ToUnicode), never from the font.
"""

from __future__ import annotations

from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

OUT = Path(__file__).resolve().parent.parent / "resources" / "fonts" / "box.ttf"
EM = 1000

ASCENT, DESCENT = 880, -120  # a CJK face's usual ideographic box
CODE_PAGES = 1 | 1 << 17 | 1 << 18 | 1 << 19 | 1 << 20  # Latin 1, JIS, GB 2312, Korean, Big5


def box() -> object:
    """The box: the width of the em, ascent to descent (both glyphs' outline)."""
    pen = TTGlyphPen(None)
    pen.moveTo((0, DESCENT))
    pen.lineTo((0, ASCENT))
    pen.lineTo((EM, ASCENT))
    pen.lineTo((EM, DESCENT))
    pen.closePath()
    return pen.glyph()


def main() -> None:
    """Write the font."""
    font = FontBuilder(EM, isTTF=True)
    font.setupGlyphOrder([".notdef", "box"])
    font.setupCharacterMap({})
    font.setupGlyf({".notdef": box(), "box": box()})
    font.setupHorizontalMetrics({".notdef": (EM, 0), "box": (EM, 0)})
    font.setupHorizontalHeader(ascent=ASCENT, descent=DESCENT)
    font.setupNameTable({"familyName": "simdup box", "styleName": "Regular"})
    font.setupOS2(
        sTypoAscender=ASCENT, sTypoDescender=DESCENT, usWinAscent=ASCENT, usWinDescent=-DESCENT
    )
    font.setupPost()
    every = CmapSubtable.newSubtable(13)  # many to one: every character to the box
    every.platformID, every.platEncID, every.language = 3, 10, 0
    every.cmap = dict.fromkeys(range(0x21, 0x40000), "box")  # one group when written
    font.font["cmap"].tables = [every]
    font.font["OS/2"].ulCodePageRange1 = CODE_PAGES
    OUT.parent.mkdir(exist_ok=True)
    font.save(str(OUT))
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
