"""Scan settings: file types, text length, template removal, fingerprint method and its settings."""

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

from simdup_gui.engine.options import NUM_PERM, Method, ScanOptions, TextSettings
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


def _method(settings: QSettings) -> Method:
    """The fingerprint method kept in ``settings`` (the default if what is kept is not one)."""
    default = Method()
    try:
        return Method(
            str(settings.value("method", default.name)),
            int(settings.value("method_sentences", default.sentences)),
            int(settings.value("method_shared", default.shared)),
            int(settings.value("method_bands", default.bands)),
            int(settings.value("method_rows", default.rows)),
        )
    except ValueError:
        return default


def options_from_settings(settings: QSettings, k: int, min_similarity: float) -> ScanOptions:
    """The scan options saved in ``settings``, at threshold ``k`` and similarity floor."""
    extensions = str(settings.value("extensions", " ".join(DEFAULT_EXTENSIONS))).split()
    text = TextSettings(
        tokenizer=str(settings.value("tokenizer", TextSettings().tokenizer)),
        weighting=str(settings.value("weighting", TextSettings().weighting)),
        boilerplate=_as_bool(settings.value("boilerplate", True)),
        method=_method(settings),
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
        self.extensions.setCursorPosition(0)  # the list shown from its start
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
        method = options.text.method
        self.method = QComboBox()
        for name, label in (
            ("default", self.tr("simdup's combination (most accurate)")),
            ("simhash", self.tr("Simhash alone")),
            ("minhash", self.tr("MinHash with LSH bands")),
            ("sentences", self.tr("Longest sentences")),
            ("pinyin", self.tr("Pinyin initials (letter frequencies)")),
        ):
            self.method.addItem(label, name)
        self.method.setCurrentIndex(self.method.findData(method.name))
        self.sentences = QSpinBox()
        self.sentences.setRange(1, 64)
        self.sentences.setValue(method.sentences)
        self.shared = QSpinBox()
        self.shared.setRange(1, 64)
        self.shared.setValue(method.shared)
        self.bands, self.rows = QSpinBox(), QSpinBox()
        for box, value in ((self.bands, method.bands), (self.rows, method.rows)):
            box.setRange(0, NUM_PERM)
            box.setSpecialValueText(self.tr("from the similarity floor"))
            box.setValue(value)
        self.method.currentIndexChanged.connect(self._fit_to_method)
        self.sentences.valueChanged.connect(self._fit_to_method)
        self.bands.valueChanged.connect(self._fit_to_method)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("File types:"), self.extensions)
        form.addRow(self.tr("Minimum text length (characters):"), self.min_chars)
        form.addRow("", self.boilerplate)
        form.addRow(self.tr("Fingerprint method:"), self.method)
        form.addRow(self.tr("Tokenizer:"), self.tokenizer)
        form.addRow(self.tr("Weighting:"), self.weighting)
        form.addRow(self.tr("Longest sentences hashed:"), self.sentences)
        form.addRow(self.tr("Sentences two articles share:"), self.shared)
        form.addRow(self.tr("MinHash LSH bands:"), self.bands)
        form.addRow(self.tr("MinHash rows per band:"), self.rows)
        form.addRow(buttons)
        self.setWindowTitle(self.tr("Scan settings"))
        self._fit_to_method()

    def _fit_to_method(self) -> None:
        """Enable only the settings the chosen method uses."""
        method = self.method.currentData()
        for box, users in (
            (self.tokenizer, ("default", "simhash")),
            (self.weighting, ("default", "simhash")),
            (self.sentences, ("sentences",)),
            (self.shared, ("sentences",)),
            (self.bands, ("minhash",)),
            (self.rows, ("minhash",)),
        ):
            box.setEnabled(method in users)
        self.shared.setMaximum(self.sentences.value())  # no more shared than hashed
        self.rows.setMaximum(NUM_PERM // max(self.bands.value(), 1))  # bands x rows <= NUM_PERM

    def chosen_method(self) -> Method:
        """The method chosen, with its settings (bands and rows count only together)."""
        bands, rows = self.bands.value(), self.rows.value()
        return Method(
            self.method.currentData(),
            self.sentences.value(),
            self.shared.value(),
            bands if bands and rows else 0,
            rows if bands and rows else 0,
        )

    def accept(self) -> None:
        """Save the settings."""
        method = self.chosen_method()
        self.settings.setValue("method", method.name)
        self.settings.setValue("method_sentences", method.sentences)
        self.settings.setValue("method_shared", method.shared)
        self.settings.setValue("method_bands", method.bands)
        self.settings.setValue("method_rows", method.rows)
        self.settings.setValue("extensions", self.extensions.text())
        self.settings.setValue("min_chars", self.min_chars.value())
        self.settings.setValue("tokenizer", self.tokenizer.currentData())
        self.settings.setValue("weighting", self.weighting.currentData())
        self.settings.setValue("boilerplate", self.boilerplate.isChecked())
        super().accept()
