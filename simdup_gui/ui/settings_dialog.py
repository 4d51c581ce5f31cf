"""Scan settings: file types, minimum text length, tokenizer, weighting, template removal."""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from simdup_gui.engine.options import ScanOptions, TextSettings
from simdup_gui.engine.read.walk import DEFAULT_EXTENSIONS


def _as_bool(value: object) -> bool:
    return value in (True, "true", "1", 1)


def folder_list(settings: QSettings, key: str) -> list[str]:
    """A list of folders kept in ``settings`` ("reference_folders", "excluded_folders")."""
    try:
        folders = json.loads(str(settings.value(key, "[]")))
    except ValueError:
        return []
    return [str(folder) for folder in folders] if isinstance(folders, list) else []


def set_folder_list(settings: QSettings, key: str, folders: list[str]) -> None:
    """Keep a list of folders in ``settings``."""
    settings.setValue(key, json.dumps(folders))


def options_from_settings(settings: QSettings, k: int, min_similarity: float) -> ScanOptions:
    """The scan options saved in ``settings``, at threshold ``k`` and similarity floor."""
    extensions = str(settings.value("extensions", " ".join(DEFAULT_EXTENSIONS))).split()
    text = TextSettings(
        tokenizer=str(settings.value("tokenizer", TextSettings().tokenizer)),
        weighting=str(settings.value("weighting", TextSettings().weighting)),
        boilerplate=_as_bool(settings.value("boilerplate", True)),
    )
    extensions = [e if e.startswith(".") else f".{e}" for e in extensions] or list(
        DEFAULT_EXTENSIONS
    )
    return ScanOptions(
        k=k,
        extensions=tuple(e.lower() for e in extensions),
        text=text,
        min_chars=int(settings.value("min_chars", 0)),
        min_similarity=min_similarity,
        processes=None,  # the app's entry points are import-safe
        reference_folders=tuple(folder_list(settings, "reference_folders")),
        excluded_folders=tuple(folder_list(settings, "excluded_folders")),
    )


class SettingsDialog(QDialog):
    """Edit the scan settings kept in QSettings."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        options = options_from_settings(settings, 0, 0.0)
        self.extensions = QLineEdit(" ".join(options.extensions))
        self.min_chars = QSpinBox()
        self.min_chars.setRange(0, 100_000)
        self.min_chars.setValue(options.min_chars)
        self.tokenizer = QComboBox()
        self.tokenizer.addItem(self.tr("Words (jieba for Chinese)"), "words")
        self.tokenizer.addItem(self.tr("Single characters"), "chars")
        self.tokenizer.setCurrentIndex(self.tokenizer.findData(options.text.tokenizer))
        self.weighting = QComboBox()
        self.weighting.addItem(self.tr("Term frequency, 1.5th power (best measured)"), "tf1.5")
        self.weighting.addItem(self.tr("Term frequency"), "tf")
        self.weighting.addItem(self.tr("TF-IDF over the folder"), "tfidf")
        self.weighting.setCurrentIndex(self.weighting.findData(options.text.weighting))
        self.boilerplate = QCheckBox(self.tr("Remove site templates from HTML pages"))
        self.boilerplate.setChecked(options.text.boilerplate)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("File types:"), self.extensions)
        form.addRow(self.tr("Minimum text length (characters):"), self.min_chars)
        form.addRow(self.tr("Tokenizer:"), self.tokenizer)
        form.addRow(self.tr("Weighting:"), self.weighting)
        form.addRow("", self.boilerplate)
        form.addRow(buttons)
        self.setWindowTitle(self.tr("Scan settings"))

    def accept(self) -> None:
        """Save the settings."""
        self.settings.setValue("extensions", self.extensions.text())
        self.settings.setValue("min_chars", self.min_chars.value())
        self.settings.setValue("tokenizer", self.tokenizer.currentData())
        self.settings.setValue("weighting", self.weighting.currentData())
        self.settings.setValue("boilerplate", self.boilerplate.isChecked())
        super().accept()
