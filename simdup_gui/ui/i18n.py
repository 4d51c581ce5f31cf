"""UI languages: English (the source texts) and Chinese, from Qt translation files."""

from __future__ import annotations

import logging
import os

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from simdup_gui.engine.output.words import Words
from simdup_gui.engine.resources import resource

log = logging.getLogger(__name__)

LANGUAGES = ("en", "zh_CN")
_installed: dict[str, QTranslator | str] = {"language": "en"}


def system_language() -> str:
    """zh_CN when the system locale is Chinese, else en."""
    return "zh_CN" if QLocale.system().language() == QLocale.Language.Chinese else "en"


def current_language() -> str:
    """The language in use."""
    return str(_installed["language"])


def report_words() -> Words:
    """The words of the reports the app writes: in its own language (as ``--lang``)."""
    return Words("zh" if current_language().startswith("zh") else "en")


def install_language(language: str) -> bool:
    """Switch the application's translators; returns False if the translation is missing.

    Ours, and Qt's own (``qtbase``: the dialogs' standard buttons, Yes, No, Cancel) when Qt
    ships it.
    """
    app = QCoreApplication.instance()
    for name in ("translator", "qt"):
        old = _installed.pop(name, None)
        if app is not None and isinstance(old, QTranslator):
            app.removeTranslator(old)
    _installed["language"] = "en"
    if language == "en" or app is None:
        return True
    translator = QTranslator(app)
    if not translator.load(str(resource("i18n", f"simdup_{language}.qm"))):
        return False
    app.installTranslator(translator)
    _installed["translator"] = translator
    _installed["language"] = language
    qt = QTranslator(app)
    for folder in qt_translations():
        if qt.load(f"qtbase_{language}", folder):
            app.installTranslator(qt)
            _installed["qt"] = qt
            log.info("Qt's own words: %s", qt.filePath())
            break
    else:  # the file dialogs stay in English: say so where someone can find it
        log.warning("no qtbase_%s.qm in %s", language, " or ".join(qt_translations()))
    return True


def qt_translations() -> list[str]:
    """Where Qt's own translations may be: Qt's own idea, then beside PySide6 (a bundle's)."""
    import PySide6

    beside = os.path.join(os.path.dirname(PySide6.__file__), "Qt", "translations")
    return list(
        dict.fromkeys([QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath), beside])
    )


def counted(number: int, one: str, other: str) -> str:
    """``one`` or ``other``, translated texts with ``{0}``, for ``number``: 1 file, 2 files."""
    return (one if number == 1 else other).format(number)
