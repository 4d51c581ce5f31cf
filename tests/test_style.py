"""The code base stays ruff-clean (lint and format)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is installed by the test extra")
@pytest.mark.parametrize("command", [["check", "."], ["format", "--check", "."]])
def test_ruff(command: list[str]) -> None:
    done = subprocess.run(["ruff", *command], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
