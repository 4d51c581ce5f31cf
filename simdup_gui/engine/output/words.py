"""How the outputs count things in English: ``1 group``, ``2 groups``."""

from __future__ import annotations


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, plural (with an s) unless the number is one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
