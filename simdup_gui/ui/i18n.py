"""UI languages: English (the source texts) and Chinese, from Qt translation files."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from simdup_gui.engine.output.words import Words
from simdup_gui.engine.resources import resource

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
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{language}", folder):
        app.installTranslator(qt)
        _installed["qt"] = qt
    return True


def counted(number: int, one: str, other: str) -> str:
    """``one`` or ``other``, translated texts with ``{0}``, for ``number``: 1 file, 2 files."""
    return (one if number == 1 else other).format(number)
