"""The development tools do what they say."""

from __future__ import annotations

import ast
import subprocess
import sys
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_covering_search_prints_families_that_cover() -> None:
    """Each family printed leaves a set of 2 of 7 blocks intact whatever 3 blocks change, and
    the search goes below every choice of 2 blocks (21 sets)."""
    command = [sys.executable, str(ROOT / "tools" / "find_coverings.py")]
    arguments = ["--k", "3", "--blocks", "7", "--r", "2", "--start", "12", "--seconds", "2"]
    done = subprocess.run([*command, *arguments], capture_output=True, text=True, check=True)
    families = [ast.literal_eval(line) for line in done.stdout.splitlines() if line[0] == "["]
    assert families
    for family in families:
        assert all(member.bit_count() == 2 for member in family)
        for changed in combinations(range(7), 3):
            intact = 0x7F & ~sum(1 << b for b in changed)
            assert any(member & intact == member for member in family)
    assert min(len(family) for family in families) < 21
