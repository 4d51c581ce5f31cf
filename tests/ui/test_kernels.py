"""The window never waits for numba: kernels loaded elsewhere, large results regrouped there."""

from __future__ import annotations

import sys

import pytest
from driving import SAMPLE, engine_groups, scan_and_wait, select_file, shown_groups
from pytestqt.qtbot import QtBot

from simdup_gui.engine.kernels import KERNEL_MODULES
from simdup_gui.engine.options import GroupOptions, ScanOptions
from simdup_gui.ui.main_window import MainWindow


def test_the_window_never_waits_for_numba(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a new app, comparing a pair and turning a knob load no compiled kernels.

    Loading numba takes half a second on the GUI thread, and compiling, on a machine's first
    use, seconds: the window would freeze at the first file selected, or the first knob turned.
    """
    import importlib
    import threading

    asked: list[str] = []
    import_module = importlib.import_module

    def spied(name: str, *args: object) -> object:
        if name in KERNEL_MODULES and threading.current_thread() is threading.main_thread():
            asked.append(name)
        return import_module(name, *args)  # type: ignore[arg-type]

    for name in KERNEL_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)  # as in a new app
    monkeypatch.setattr(importlib, "import_module", spied)
    scan_and_wait(qtbot, window, SAMPLE)  # then its first copy is selected: an HTML page
    qtbot.waitUntil(lambda: window.compare.right_title.text().endswith("repost.html"))
    select_file(window, "春运返乡-镜像.html")
    assert window.compare.right_title.text().endswith("春运返乡-镜像.html")  # made at once
    window.knobs.k_box.setValue(0)  # regrouped at once
    assert window.result is not None
    assert window.result.options.group.k == 0
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))
    assert asked == []


def test_a_larger_result_is_regrouped_elsewhere_until_numba_is_loaded(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too many files for the plain form, the compiled kernels not loaded: off the GUI thread.

    As where the kernels cannot be built ahead (those load in a millisecond, on any thread).
    """
    from simdup_gui.engine import kernels, prebuilt

    scan_and_wait(qtbot, window, SAMPLE)
    monkeypatch.setattr(kernels, "PLAIN_FILES", 5)  # the sample's 13 files count as many
    monkeypatch.delitem(sys.modules, "simdup_gui.engine.match.index_kernels", raising=False)
    monkeypatch.setattr(kernels, "_ahead", {})
    monkeypatch.setattr(prebuilt, "load", lambda name: None)
    monkeypatch.setattr(prebuilt, "build", lambda name: False)
    window.knobs.k_box.setValue(0)
    assert window.status.text() == "Regrouping…"
    qtbot.waitUntil(  # numba loads the kernels, or on a fresh machine compiles them
        lambda: window.result is not None and window.result.options.group.k == 0, timeout=60_000
    )
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))


def test_with_kernels_built_ahead_a_larger_result_is_regrouped_at_once(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They load in a millisecond: the GUI thread regroups with them, numba never loaded."""
    from simdup_gui.engine import kernels

    if kernels._built_ahead("simdup_gui.engine.match.index_kernels") is None:
        pytest.skip("no C compiler here: the kernels cannot be built ahead")
    scan_and_wait(qtbot, window, SAMPLE)
    monkeypatch.setattr(kernels, "PLAIN_FILES", 5)  # the sample's 13 files count as many
    monkeypatch.delitem(sys.modules, "simdup_gui.engine.match.index_kernels", raising=False)
    window.knobs.k_box.setValue(0)
    assert window.result is not None
    assert window.result.options.group.k == 0  # at once: no "Regrouping…"
    assert shown_groups(window) == engine_groups(ScanOptions(group=GroupOptions(k=0)))
    assert "simdup_gui.engine.match.index_kernels" not in sys.modules


def test_after_a_large_scan_the_compiled_kernels_are_loaded_elsewhere_once(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """So the GUI thread compares and regroups compiled, and never loads numba itself."""
    import threading

    from simdup_gui.engine import kernels
    from simdup_gui.ui import scans

    on_gui_thread: list[bool] = []
    monkeypatch.setattr(
        scans,
        "warm_up",
        lambda settings: on_gui_thread.append(
            threading.current_thread() is threading.main_thread()
        ),
    )
    monkeypatch.setattr(scans, "kernels_compiled", lambda: True)
    monkeypatch.setattr(scans, "KERNELS_AFTER_MS", 0)
    scan_and_wait(qtbot, window, SAMPLE)  # small: the plain form serves it
    qtbot.wait(200)
    assert on_gui_thread == []
    monkeypatch.setattr(kernels, "PLAIN_BYTES", 1000)  # the sample counts as large
    scan_and_wait(qtbot, window, SAMPLE)
    qtbot.waitUntil(lambda: on_gui_thread == [False])
    scan_and_wait(qtbot, window, SAMPLE)
    qtbot.wait(200)
    assert on_gui_thread == [False]  # once
