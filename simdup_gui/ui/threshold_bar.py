"""The thresholds a result is grouped by, on a toolbar row of their own.

Two knobs: the Hamming threshold k (with a word for it) and the least text similarity. Turning
either regroups the fingerprints in memory (``changed``); no file is read again. A knob whose
value is the last session's says so (in italics, and in its tooltip) until it is turned.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QDoubleSpinBox, QLabel, QSpinBox, QToolBar, QWidget

from simdup_gui.engine.methods import FingerprintMethod
from simdup_gui.engine.options import MAX_K, GroupOptions


def threshold_label(k: int) -> str:
    """A word for a Hamming threshold (untranslated key): how much copies may differ."""
    if k == GroupOptions().k:
        return "default"
    return "identical" if k == 0 else "strict" if k <= 3 else "normal" if k <= 6 else "loose"


class ThresholdBar(QToolBar):
    """The k and similarity knobs, starting at the values kept in ``settings``."""

    changed = Signal()  # a knob was turned by the person

    def __init__(self, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("threshold-toolbar")
        self.settings = settings
        self.k_label, self.k_words, self.floor_label = QLabel(), QLabel(), QLabel()
        self.k_box = QSpinBox()
        self.k_box.setRange(0, MAX_K)
        self.k_box.setValue(int(settings.value("k", GroupOptions().k)))
        self.floor_box = QDoubleSpinBox()
        self.floor_box.setRange(0, 100)
        self.floor_box.setDecimals(1)  # pinyin's floor is 99.5 %
        self.floor_box.setSuffix(" %")
        default_floor = 100 * GroupOptions().min_similarity
        self.floor_box.setValue(float(settings.value("min_similarity", default_floor)))
        self._remembered = {
            box: settings.contains(key)
            for box, key in ((self.k_box, "k"), (self.floor_box, "min_similarity"))
        }
        for box in self._remembered:
            # typed digits regroup once, on Enter or leaving the box: "40" never passes
            # through 4 %; the arrows and the wheel still regroup at each step
            box.setKeyboardTracking(False)
            box.valueChanged.connect(lambda _, box=box: self._turned(box))
        for widget in (self.k_label, self.k_box, self.k_words, self.floor_label, self.floor_box):
            self.addWidget(widget)

    @property
    def k(self) -> int:
        """The Hamming threshold."""
        return self.k_box.value()

    @property
    def min_similarity(self) -> float:
        """The least text similarity, from 0 to 1."""
        return self.floor_box.value() / 100

    def _turned(self, box: QSpinBox | QDoubleSpinBox) -> None:
        self._forget(box)
        self._show_k_word()
        self.keep()
        self.changed.emit()

    def keep(self) -> None:
        """Keep the values for the next session."""
        self.settings.setValue("k", self.k_box.value())
        self.settings.setValue("min_similarity", self.floor_box.value())

    def _forget(self, box: QSpinBox | QDoubleSpinBox) -> None:
        """A knob set in this session no longer says it was remembered."""
        if self._remembered.get(box):
            self._remembered[box] = False
            self.retranslate()

    def set_values(self, *, k: int | None = None, min_similarity: float | None = None) -> None:
        """Set knobs without regrouping (a saved result's values, a method's own floor)."""
        for box, value in ((self.k_box, k), (self.floor_box, min_similarity)):
            if value is not None:
                box.blockSignals(True)
                box.setValue(100 * value if box is self.floor_box else value)
                box.blockSignals(False)
                self._forget(box)
        self._show_k_word()

    def fit(self, method: FingerprintMethod) -> None:
        """Turn on the knobs ``method`` uses: k where its pairs have a distance, its floor."""
        self.k_box.setEnabled(method.distances)
        self.k_words.setEnabled(method.distances)
        self.floor_box.setEnabled(method.uses("min_similarity"))

    def retranslate(self) -> None:
        """Set every translatable text (called again after a language switch)."""
        self.k_label.setText(self.tr("Copies may differ:") + " ")
        self.floor_label.setText(" " + self.tr("Min. text similarity:") + " ")
        tips = {
            self.k_box: self.tr(
                "How far apart two copies' fingerprints may be: how many of their 64 bits "
                "differ. The default, 8, groups files that share most of their text even when "
                "an added notice or template moved their fingerprints apart; the text "
                "similarity below decides. 0 groups identical texts only."
            ),
            self.floor_box: self.tr(
                "How much of their text (runs of 5 characters) two files must share to be "
                "grouped, whatever their fingerprints say. With another fingerprint method "
                "(Settings), the similarity that method measures."
            ),
        }
        remembered = self.tr("Remembered from your last session.")
        for box, tip in tips.items():
            box.setToolTip(tip + ("\n\n" + remembered if self._remembered.get(box) else ""))
            box.setStyleSheet("font-style: italic" if self._remembered.get(box) else "")
        self._show_k_word()

    def _show_k_word(self) -> None:
        words = {
            "default": self.tr("the default: the text similarity decides"),
            "identical": self.tr("identical"),
            "strict": self.tr("strict"),
            "normal": self.tr("normal"),
            "loose": self.tr("loose"),
        }
        self.k_words.setText(f" {words[threshold_label(self.k_box.value())]} ")
