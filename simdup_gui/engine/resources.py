"""Where the bundled resources (stopwords, sample folder) are, and where simdup keeps its own."""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path
from typing import Literal

_PACKAGE = Path(__file__).resolve().parent.parent
_XDG = {  # each kind of folder: its XDG base directory's variable and default (on Linux)
    "cache": ("XDG_CACHE_HOME", "~/.cache"),
    "data": ("XDG_DATA_HOME", "~/.local/share"),
    "log": ("XDG_STATE_HOME", "~/.local/state"),
}


@cache
def resources_dir() -> Path:
    """The resources folder: inside the installed package, else beside it in a checkout."""
    for candidate in (_PACKAGE / "resources", _PACKAGE.parent / "resources"):
        if (candidate / "stopwords").is_dir():
            return candidate
    raise FileNotFoundError(f"simdup resources not found near {_PACKAGE}")


def resource(*parts: str) -> Path:
    """Path of one bundled resource, e.g. ``resource("stopwords", "zh.txt")``."""
    return resources_dir().joinpath(*parts)


def user_folder(kind: Literal["cache", "data", "log"]) -> Path:
    """The user's folder of this kind for simdup (cache, data or log), as platformdirs names it.

    On Linux that is the XDG base directory (an unset, empty or relative variable means its
    default) with ``simdup`` in it, and ``log`` in that for the log. It is found here without
    platformdirs, whose import costs every command 4 ms; a test holds it to platformdirs'.
    """
    if sys.platform != "linux":
        import platformdirs

        return Path(getattr(platformdirs, f"user_{kind}_dir")("simdup", appauthor=False))
    variable, default = _XDG[kind]
    base = os.environ.get(variable, "")
    if not os.path.isabs(base):
        base = os.path.expanduser(default)
    return Path(base, "simdup", *(["log"] if kind == "log" else []))


def user_cache() -> Path:
    """Where simdup keeps what it computed: ``$SIMDUP_CACHE_DIR`` or the user cache folder."""
    return Path(os.environ.get("SIMDUP_CACHE_DIR") or user_folder("cache"))


def default_cache_path() -> Path:
    """The fingerprint cache's database in simdup's cache folder (:func:`user_cache`)."""
    return user_cache() / "fingerprints.sqlite3"
