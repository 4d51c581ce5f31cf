"""A task's token gives the GUI thread its turn at the GIL, and still cancels.

(The window's largest pause while a 100,000-file result regroups: test_scanning.py.)"""

from __future__ import annotations

import time

import pytest

from simdup_gui.ui import tasks
from simdup_gui.ui.tasks import GIL_TURN, TakingTurnsToken


def test_the_token_sleeps_once_per_turn_and_cancels(monkeypatch: pytest.MonkeyPatch) -> None:
    naps: list[float] = []
    monkeypatch.setattr(tasks.time, "sleep", naps.append)
    token = TakingTurnsToken()
    assert not token()
    assert naps == []  # polled at once: no turn due
    deadline = time.monotonic() + 2 * GIL_TURN
    while time.monotonic() < deadline:
        pass
    assert not token()
    assert len(naps) == 1
    assert not token()
    assert len(naps) == 1  # the next turn is GIL_TURN later
    token.cancel()
    assert token()
