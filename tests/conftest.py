from __future__ import annotations

import logging
import os
import runpy
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The reports' language follows the locale (simdup's --lang): the tests ask for Chinese by name.
os.environ["LC_ALL"] = "C.UTF-8"

# SIMDUP_POSIXLESS=1 runs the suite as Windows would have it: no fcntl, no fork, no dir_fd
# (tests/posixless/sitecustomize.py), here and in every process a test starts.
if os.environ.get("SIMDUP_POSIXLESS"):
    _HIDING = Path(__file__).parent / "posixless"
    _PATH = [str(_HIDING), *filter(None, [os.environ.get("PYTHONPATH")])]
    os.environ["PYTHONPATH"] = os.pathsep.join(_PATH)
    runpy.run_path(str(_HIDING / "sitecustomize.py"))["hide"]()

# The fuzz suite (tests/engine/test_fuzz.py) runs a few examples by default; longer runs:
#   python3 -m pytest tests/engine/test_fuzz.py --hypothesis-profile=long
settings.register_profile(
    "long", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# No example is timed: its time is the machine's (and a first call may load a library), so
# a deadline would only make a test fail now and then. --hypothesis-profile overrides this.
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture(scope="session", autouse=True)
def _compiled_kernels() -> None:
    """Compile (first run) or load numba's kernels before any test is timed (hypothesis)."""
    from simdup_gui.engine.fingerprint.pipeline import analyze_many
    from simdup_gui.engine.options import TextSettings
    from simdup_gui.engine.read.html import html_to_text

    analyze_many(["warm up", "热身 warm up"], TextSettings())  # the Chinese loads rjieba too
    html_to_text("<p>warm up</p>")


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own fingerprint cache and log folders, never the user's."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("SIMDUP_CACHE_DIR", str(folder))
    monkeypatch.setenv("SIMDUP_LOG_DIR", str(folder / "log"))
    monkeypatch.setenv("XDG_DATA_HOME", str(folder / "data"))  # manifests, the not-duplicates list
    return folder


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """A command a test runs sets simdup's logging up (``logs.start_logging``): undone after."""
    logger = logging.getLogger("simdup_gui")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    yield
    for handler in set(logger.handlers) - set(handlers):
        logger.removeHandler(handler)
        handler.close()
    logger.setLevel(level)
    logger.propagate = propagate


@pytest.fixture(autouse=True)
def _no_repeats_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with no records kept by their bytes (``fingerprint/repeats.py``)."""
    from simdup_gui.engine.fingerprint import file_records
    from simdup_gui.engine.fingerprint.repeats import Repeats

    monkeypatch.setattr(file_records, "REPEATS", Repeats())


def pytest_configure(config: pytest.Config) -> None:
    """Without fcntl, filelock warns that its lock is a lock file's: expected there."""
    if os.environ.get("SIMDUP_POSIXLESS"):
        config.addinivalue_line("filterwarnings", "ignore:only soft file lock:UserWarning")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a QApplication as ``gui`` (run the engine alone: -m "not gui")."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "qtbot" in names or "qapp" in names:
            item.add_marker(pytest.mark.gui)
