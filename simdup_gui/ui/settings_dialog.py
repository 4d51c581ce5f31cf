"""Scan settings: file types, text length, template removal, fingerprint method and its settings."""

from __future__ import annotations

import dataclasses
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

from simdup_gui.engine.methods import (
    NAMES,
    NUM_PERM,
    FingerprintMethod,
    method_class,
    method_named,
)
from simdup_gui.engine.options import (
    GroupOptions,
    ReadOptions,
    RunOptions,
    ScanOptions,
    TextSettings,
    WalkOptions,
)
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


def _parameters() -> dict[str, int]:
    """Every method's own parameters with their defaults, by name (``sentences``, ``bands``...)."""
    return {
        name: value
        for method in NAMES
        for name, value in dataclasses.asdict(method_named(method)).items()
    }


def _method(settings: QSettings) -> FingerprintMethod:
    """The fingerprint method kept in ``settings`` (the default if what is kept is not one).

    Each parameter is kept as ``method_<name>``.
    """
    try:
        kind = method_class(str(settings.value("method", "default")))
        own = {
            field.name: int(settings.value(f"method_{field.name}"))  # type: ignore[call-overload]
            for field in dataclasses.fields(kind)
            if settings.contains(f"method_{field.name}")
        }
        return kind(**own)
    except (ValueError, TypeError):
        return method_named("default")


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
        WalkOptions(
            tuple(e.lower() for e in extensions), tuple(folder_list(settings, "excluded_folders"))
        ),
        ReadOptions(text),
        GroupOptions(
            k,
            min_similarity,
            int(settings.value("min_chars", 0)),
            reference_folders=tuple(folder_list(settings, "reference_folders")),
        ),
        RunOptions(processes=None),  # the app's entry points are import-safe
    )


class SettingsDialog(QDialog):
    """Edit the scan settings kept in QSettings."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        options = options_from_settings(settings, 0, 0.0)
        text = options.read.text
        self.extensions = QLineEdit(" ".join(options.walk.extensions))
        self.extensions.setCursorPosition(0)  # the list shown from its start
        self.min_chars = QSpinBox()
        self.min_chars.setRange(0, 100_000)
        self.min_chars.setValue(options.group.min_chars)
        self.tokenizer = QComboBox()
        self.tokenizer.addItem(self.tr("Words (jieba for Chinese)"), "words")
        self.tokenizer.addItem(self.tr("Single characters"), "chars")
        self.tokenizer.setCurrentIndex(self.tokenizer.findData(text.tokenizer))
        self.weighting = QComboBox()
        self.weighting.addItem(self.tr("Term frequency, 1.5th power (best measured)"), "tf1.5")
        self.weighting.addItem(self.tr("Term frequency"), "tf")
        self.weighting.addItem(self.tr("TF-IDF over the folder"), "tfidf")
        self.weighting.setCurrentIndex(self.weighting.findData(text.weighting))
        self.boilerplate = QCheckBox(self.tr("Remove site templates from HTML pages"))
        self.boilerplate.setChecked(text.boilerplate)
        method = text.method
        self.method = QComboBox()
        for name, label in (
            ("default", self.tr("simdup's combination (most accurate)")),
            ("simhash", self.tr("Word weights alone (Simhash)")),
            ("minhash", self.tr("Shared word runs (MinHash with LSH bands)")),
            ("sentences", self.tr("Longest sentences")),
            ("pinyin", self.tr("Pinyin initials (letter frequencies)")),
        ):
            self.method.addItem(label, name)
        self.method.setCurrentIndex(self.method.findData(method.name))
        values = {**_parameters(), **dataclasses.asdict(method)}
        self.sentences, self.shared = QSpinBox(), QSpinBox()
        for box in (self.sentences, self.shared):
            box.setRange(1, 64)
        self.bands, self.rows = QSpinBox(), QSpinBox()
        for box in (self.bands, self.rows):
            box.setRange(0, NUM_PERM)
            box.setSpecialValueText(self.tr("from the similarity floor"))
        self.parameters = {
            "sentences": self.sentences,
            "shared": self.shared,
            "bands": self.bands,
            "rows": self.rows,
        }
        for name, box in self.parameters.items():
            box.setValue(values[name])
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
        form.addRow(self.tr("How articles are compared:"), self.method)
        form.addRow(self.tr("Text cut into (tokenizer):"), self.tokenizer)
        form.addRow(self.tr("Repeated words count (weighting):"), self.weighting)
        form.addRow(self.tr("Longest sentences hashed:"), self.sentences)
        form.addRow(self.tr("Sentences two articles share:"), self.shared)
        form.addRow(self.tr("How widely to look (MinHash LSH bands):"), self.bands)
        form.addRow(self.tr("How close to ask (MinHash rows per band):"), self.rows)
        form.addRow(buttons)
        self.setWindowTitle(self.tr("Scan settings"))
        self._explain()
        self._fit_to_method()

    def _explain(self) -> None:
        """A tooltip on every setting: what it changes, in an editor's words."""
        tips = {
            self.extensions: self.tr(
                "Which files are read, by their ending, separated by spaces (.txt .md .html …)."
                " Other files are counted, not read."
            ),
            self.min_chars: self.tr(
                "Texts shorter than this are never put in a group: a short notice or a caption"
                " says too little to be called a copy. Changing it regroups at once."
            ),
            self.boilerplate: self.tr(
                "Leave out a web page's menus, sidebars and footers (what the folder's pages"
                " repeat), so that two pages are compared by their articles."
            ),
            self.method: self.tr(
                "How articles are compared. The first is the most accurate; the others are for"
                " comparison or special cases (see the documentation)."
            ),
            self.tokenizer: self.tr(
                "How a text is cut into pieces before it is compared: words (Chinese cut with"
                " jieba) or single characters."
            ),
            self.weighting: self.tr(
                "How much a repeated word counts. The first was the most accurate measured."
            ),
            self.sentences: self.tr(
                "For the longest-sentences method: how many of each article's longest sentences"
                " are compared."
            ),
            self.shared: self.tr(
                "For the longest-sentences method: how many of those sentences two articles must"
                " share to be copies."
            ),
            self.bands: self.tr(
                "For MinHash: how many bands the signature is cut into (more finds looser copies,"
                " more slowly). 0 sets it from the similarity floor."
            ),
            self.rows: self.tr(
                "For MinHash: rows per band (more asks for closer copies). 0 sets it from the"
                " similarity floor."
            ),
        }
        for widget, tip in tips.items():
            widget.setToolTip(tip)

    def _fit_to_method(self) -> None:
        """Enable only the settings the chosen method uses."""
        kind = method_class(self.method.currentData())
        for name, box in (
            ("tokenizer", self.tokenizer),
            ("weighting", self.weighting),
            *self.parameters.items(),
        ):
            box.setEnabled(kind.uses(name))
        self.shared.setMaximum(self.sentences.value())  # no more shared than hashed
        self.rows.setMaximum(NUM_PERM // max(self.bands.value(), 1))  # bands x rows <= NUM_PERM

    def chosen_method(self) -> FingerprintMethod:
        """The method chosen, with its settings (bands and rows count only together)."""
        kind = method_class(self.method.currentData())
        values = {name: box.value() for name, box in self.parameters.items() if kind.uses(name)}
        if not (values.get("bands") and values.get("rows")):
            values = {
                name: value for name, value in values.items() if name not in ("bands", "rows")
            }
        return kind(**values)

    def accept(self) -> None:
        """Save the settings."""
        method = self.chosen_method()
        self.settings.setValue("method", method.name)
        shown = {name: box.value() for name, box in self.parameters.items()}
        for name, value in {**shown, **dataclasses.asdict(method)}.items():
            self.settings.setValue(f"method_{name}", value)
        self.settings.setValue("extensions", self.extensions.text())
        self.settings.setValue("min_chars", self.min_chars.value())
        self.settings.setValue("tokenizer", self.tokenizer.currentData())
        self.settings.setValue("weighting", self.weighting.currentData())
        self.settings.setValue("boilerplate", self.boilerplate.isChecked())
        super().accept()
