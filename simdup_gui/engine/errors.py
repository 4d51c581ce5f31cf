"""Errors that mean the input is wrong, not the program: a command says so in one line.

This module imports nothing, so the command line can catch them before (or without) loading
the modules that raise them.
"""

from __future__ import annotations


class InputError(ValueError):
    """Input that cannot be used: a file of the wrong kind, a line that is not a value."""
