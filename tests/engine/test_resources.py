"""simdup's own folders: on Linux found without platformdirs, and held to what it says."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdup_gui.engine.resources import user_cache, user_folder
from simdup_gui.logs import log_path

LINUX = sys.platform == "linux"
VARIABLES = ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
KINDS = ("cache", "data", "log")
# A variable's value: unset, empty, blank or an absolute folder (with a trailing slash or not)
VALUES = st.one_of(
    st.none(),
    st.sampled_from(["", "   "]),
    st.builds(
        lambda name, slash: f"/tmp/{name}{slash}",
        st.text("abcé 中", min_size=1),
        st.sampled_from(["", "/"]),
    ),
)


def _platformdirs(kind: str) -> Path:
    return Path(getattr(platformdirs, f"user_{kind}_dir")("simdup", appauthor=False))


@pytest.mark.skipif(not LINUX, reason="elsewhere the folders are platformdirs' own")
@settings(max_examples=80, deadline=None)
@given(values=st.tuples(VALUES, VALUES, VALUES), home=st.sampled_from(["/home/editor", "/root/"]))
def test_each_folder_is_where_platformdirs_puts_it(
    values: tuple[str | None, ...], home: str
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", home)
        for variable, value in zip(VARIABLES, values, strict=True):
            if value is None:
                patch.delenv(variable, raising=False)
            else:
                patch.setenv(variable, value)
        for kind in KINDS:
            assert user_folder(kind) == _platformdirs(kind), kind  # type: ignore[arg-type]


@pytest.mark.skipif(not LINUX, reason="the XDG variables are read on Linux")
def test_a_relative_xdg_folder_means_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """The XDG Base Directory specification: a relative path is invalid, and ignored."""
    monkeypatch.setenv("HOME", "/home/editor")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("XDG_STATE_HOME", "/var/state")
    monkeypatch.delenv("SIMDUP_CACHE_DIR", raising=False)
    monkeypatch.delenv("SIMDUP_LOG_DIR", raising=False)
    assert user_cache() == Path("/home/editor/.cache/simdup")
    assert log_path() == Path("/var/state/simdup/log/simdup.log")
