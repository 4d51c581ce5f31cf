"""Where the bundled resources (stopwords, sample folder) are, and where simdup keeps its own."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from platformdirs import user_cache_dir

_PACKAGE = Path(__file__).resolve().parent.parent


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


def user_cache() -> Path:
    """Where simdup keeps what it computed: ``$SIMDUP_CACHE_DIR`` or the user cache folder."""
    return Path(os.environ.get("SIMDUP_CACHE_DIR") or user_cache_dir("simdup", appauthor=False))


def default_cache_path() -> Path:
    """The fingerprint cache's database in simdup's cache folder (:func:`user_cache`)."""
    return user_cache() / "fingerprints.sqlite3"
