"""What the window's command helpers ask of the window: show a result, refresh what shows it.

The window (``main_window.py``) is the one :class:`ResultView`; each helper is given it as this
protocol beside the other parts it uses, so no helper imports the window.
"""

from __future__ import annotations

from typing import Protocol

from simdup_gui.engine.results import ScanResult


class ResultView(Protocol):
    """The views of a result: its groups, the pair compared, the figures in the status line."""

    def show_result(self, result: ScanResult) -> None:
        """Show a result (regrouped first to the grouping options chosen)."""

    def show_saved(self, result: ScanResult) -> None:
        """Show saved results at the thresholds they were saved with."""

    def compare_current(self) -> None:
        """Compare the current member again."""

    def fit_columns(self) -> None:
        """Fit the groups' columns to what they show."""

    def show_summary(self) -> None:
        """Show the result's figures again."""
