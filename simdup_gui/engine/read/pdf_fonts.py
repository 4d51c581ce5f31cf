"""The fonts PDFium is given for a PDF's fonts that are not embedded.

A PDF may name a font without carrying it (reportlab's and many typesetters' Chinese, Japanese
and Korean fonts: STSong-Light, SimSun …); PDFium then asks the machine for one to stand in,
and reading the text measures each character's outline in it for the character's box. The
CJK fonts a Linux machine has (Noto CJK) are PostScript outlines, interpreted again for every
character read: a page of Chinese took 9 ms, sixteen times the rest of its reading. The text
itself comes from the PDF (its CMap or ToUnicode map), never from the stand-in; what reading
needs of it is a box of a character's size.

So simdup hands PDFium a system font list of its own (``FPDF_SetSystemFontInfo``): a font
asked for with a CJK character set gets the box font (``resources/fonts/box.ttf``: every
character maps to an em-wide box, .notdef is the same box); every other request goes to
PDFium's own list, as before. Installed once in a process, before its first PDF, under the
caller's lock.
"""

from __future__ import annotations

import ctypes
import logging
from functools import cache

from simdup_gui.engine.resources import resource

# Windows' character sets, as PDFium passes them: Shift JIS, Hangul, GB2312, Big5
CJK_CHARSETS = frozenset({128, 129, 134, 136})
WHOLE_FONT = 0  # the table tag that asks for the whole font file
log = logging.getLogger(__name__)


class _FontInfo(ctypes.Structure):
    """``FPDF_SYSFONTINFO`` (``fpdf_sysfontinfo.h``, version 1)."""


_This = ctypes.POINTER(_FontInfo)
_RELEASE = ctypes.CFUNCTYPE(None, _This)
_ENUM_FONTS = ctypes.CFUNCTYPE(None, _This, ctypes.c_void_p)
_MAP_FONT = ctypes.CFUNCTYPE(
    ctypes.c_void_p,
    _This,
    ctypes.c_int,  # weight
    ctypes.c_int,  # italic
    ctypes.c_int,  # charset
    ctypes.c_int,  # pitch and family
    ctypes.c_char_p,  # face
    ctypes.POINTER(ctypes.c_int),  # exact (out)
)
_GET_FONT = ctypes.CFUNCTYPE(ctypes.c_void_p, _This, ctypes.c_char_p)
_FONT_DATA = ctypes.CFUNCTYPE(
    ctypes.c_ulong, _This, ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_ulong
)
_FACE_NAME = ctypes.CFUNCTYPE(
    ctypes.c_ulong, _This, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong
)
_CHARSET = ctypes.CFUNCTYPE(ctypes.c_int, _This, ctypes.c_void_p)
_DELETE = ctypes.CFUNCTYPE(None, _This, ctypes.c_void_p)
_FontInfo._fields_ = [
    ("version", ctypes.c_int),
    ("Release", _RELEASE),
    ("EnumFonts", _ENUM_FONTS),
    ("MapFont", _MAP_FONT),
    ("GetFont", _GET_FONT),
    ("GetFontData", _FONT_DATA),
    ("GetFaceName", _FACE_NAME),
    ("GetFontCharset", _CHARSET),
    ("DeleteFont", _DELETE),
]


class BoxFonts:
    """PDFium's own font list, but the box font for every CJK font it is asked for."""

    def __init__(self, pdfium: ctypes.CDLL, box: bytes) -> None:
        pdfium.FPDF_GetDefaultSystemFontInfo.restype = _This
        self.own = pdfium.FPDF_GetDefaultSystemFontInfo()  # a machine's fonts, as before
        self.box = ctypes.create_string_buffer(box, len(box))
        self.handle = ctypes.addressof(self.box)  # the box font's handle: nothing else has it
        self.name = b"simdup box\0"
        self.charset = 134  # the character set the box font was last asked for
        self.boxed = 0  # requests answered with the box font
        self.info = _FontInfo(
            1,
            _RELEASE(self._release),
            _ENUM_FONTS(self._enum_fonts),
            _MAP_FONT(self._map_font),
            _GET_FONT(self._get_font),
            _FONT_DATA(self._font_data),
            _FACE_NAME(self._face_name),
            _CHARSET(self._charset),
            _DELETE(self._delete),
        )

    def _release(self, this: object) -> None:
        """PDFium is done with the list (it ends): nothing to free while the process lives."""

    def _enum_fonts(self, this: object, mapper: int | None) -> None:
        if self.own:
            self.own.contents.EnumFonts(self.own, mapper)

    def _map_font(
        self,
        this: object,
        weight: int,
        italic: int,
        charset: int,
        pitch: int,
        face: bytes | None,
        exact: object,
    ) -> int | None:
        if charset in CJK_CHARSETS:
            self.charset, self.boxed = charset, self.boxed + 1
            return self.handle
        if not self.own:
            return None
        return self.own.contents.MapFont(self.own, weight, italic, charset, pitch, face, exact)

    def _get_font(self, this: object, face: bytes | None) -> int | None:
        return self.own.contents.GetFont(self.own, face) if self.own else None

    def _font_data(
        self, this: object, font: int | None, table: int, buffer: int | None, size: int
    ) -> int:
        if font != self.handle:
            return self.own.contents.GetFontData(self.own, font, table, buffer, size)
        if table != WHOLE_FONT:
            return 0  # PDFium reads the tables from the file itself
        if buffer and size >= len(self.box):
            ctypes.memmove(buffer, self.box, len(self.box))
        return len(self.box)

    def _face_name(self, this: object, font: int | None, buffer: int | None, size: int) -> int:
        if font != self.handle:
            return self.own.contents.GetFaceName(self.own, font, buffer, size)
        if buffer and size >= len(self.name):
            ctypes.memmove(buffer, self.name, len(self.name))
        return len(self.name)

    def _charset(self, this: object, font: int | None) -> int:
        if font != self.handle:
            return self.own.contents.GetFontCharset(self.own, font)
        return self.charset

    def _delete(self, this: object, font: int | None) -> None:
        if font != self.handle and self.own:
            self.own.contents.DeleteFont(self.own, font)


@cache
def install() -> BoxFonts | None:
    """Give PDFium the font list, once a process (kept alive with it, as PDFium needs).

    Where it cannot be given (a PDFium build without the call), PDFium keeps its own list:
    reading is slower, and where the machine has no CJK font, characters PDFium finds no box
    for may be left out (as before); the reason is logged.
    """
    import pypdfium2.raw  # noqa: F401  (loads and starts PDFium)
    import pypdfium2_raw.bindings

    try:
        pdfium = pypdfium2_raw.bindings._libs["pdfium"]
        fonts = BoxFonts(pdfium, resource("fonts", "box.ttf").read_bytes())
        pdfium.FPDF_SetSystemFontInfo.argtypes = [_This]
        pdfium.FPDF_SetSystemFontInfo(ctypes.byref(fonts.info))
    except (AttributeError, KeyError, OSError) as exc:
        log.warning("PDFium keeps its own fonts for unembedded CJK fonts: %s", exc)
        return None
    return fonts
