"""Draw simdup's icon (``resources/icon/simdup.png``, 256 px): two pages, the second a copy.

Run once when the icon changes: ``python tools/make_icon.py``. The app sets it as its window
icon; ``tools/build_app.py`` gives it to the executables and the Linux ``.desktop`` entry.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPen

SIZE = 256
OUT = Path(__file__).resolve().parent.parent / "resources" / "icon" / "simdup.png"


def page(painter: QPainter, left: float, top: float, fill: str, ink: str) -> None:
    """One page: a rounded sheet with five lines of text, the last one short."""
    painter.setPen(QPen(QColor(ink), 6))
    painter.setBrush(QColor(fill))
    painter.drawRoundedRect(QRectF(left, top, 130, 165), 14, 14)
    painter.setPen(QPen(QColor(ink), 9, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    for n in range(5):
        y = top + 38 + n * 24
        painter.drawLine(int(left + 24), int(y), int(left + (70 if n == 4 else 106)), int(y))


def main() -> int:
    """Draw the icon and write it."""
    app = QGuiApplication(sys.argv)  # noqa: F841  (QPainter needs one)
    image = QImage(SIZE, SIZE, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    page(painter, 34, 28, "#ffffff", "#35607f")
    page(painter, 92, 64, "#e3f1fb", "#1f7a8c")
    painter.end()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    if not image.save(str(OUT)):
        print(f"cannot write {OUT}", file=sys.stderr)
        return 1
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
