"""Grab the README screenshots from the real app, offscreen: python tests/make_screenshots.py.

Install a CJK font first (Debian: ``apt-get install fonts-noto-cjk``) so Chinese renders.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from simdup_gui.app import create_window
from simdup_gui.engine.resources import resource
from simdup_gui.ui.models import ItemRole
from simdup_gui.ui.settings_dialog import SettingsDialog

OUT = resource("screenshots")


def wait(app: QApplication, condition, seconds: float = 60) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    app.processEvents()


def select(window, name: str) -> None:  # type: ignore[no-untyped-def]
    proxy = window.groups_view_model
    for g in range(proxy.rowCount()):
        parent = proxy.index(g, 0)
        for m in range(proxy.rowCount(parent)):
            index = proxy.index(m, 0, parent)
            if Path(index.data(ItemRole).record.path).name == name:
                window.groups_panel.tree.setCurrentIndex(index)


def main() -> None:
    app = QApplication(sys.argv)
    for language, suffix in (("en", ""), ("zh_CN", "-zh")):
        settings = QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat)
        settings.setValue("language", language)
        window = create_window(settings=settings)
        window.resize(1400, 820)
        window.show()
        if not suffix:
            wait(app, lambda: False, 0.3)
            window.grab().save(str(OUT / "start.png"))
        window.scans.start(str(resource("sample")))
        wait(app, lambda w=window: not w.runner.busy and w.result is not None)
        select(window, "茶园春茶-改写.txt")
        wait(app, lambda: False, 0.3)
        window.grab().save(str(OUT / f"main{suffix}.png"))
        select(window, "harbor-lighthouse-edited.md")
        wait(app, lambda: False, 0.3)
        window.compare.grab().save(str(OUT / f"compare{suffix}.png"))
        panel = window.reuse_panel  # the reuse view: the commentary beside its source
        window.views.setCurrentWidget(panel)
        wait(app, lambda w=window: not w.runner.busy and w.reuse_panel.reuse is not None)
        name = "春运返乡-评论.txt" if suffix else "harbor-walking-tour.txt"
        row = next(r for r in range(panel.model.rowCount()) if name in panel.model.item(r).text())
        panel.tree.setCurrentIndex(panel.model.item(row).child(0).index())
        wait(app, lambda: False, 0.5)
        window.grab().save(str(OUT / f"reuse{suffix}.png"))
        window.views.setCurrentIndex(0)
        if not suffix:  # the settings, another fingerprint method chosen
            dialog = SettingsDialog(settings, window)
            dialog.method.setCurrentIndex(dialog.method.findData("minhash"))
            dialog.show()
            wait(app, lambda: False, 0.3)
            dialog.grab().save(str(OUT / "settings.png"))
            dialog.reject()
        window.close()
    print(f"screenshots in {OUT}")


if __name__ == "__main__":
    main()
