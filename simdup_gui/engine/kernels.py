"""The engine's loops, compiled by numba or run as the same source in plain Python.

The kernel modules (``text/token_kernels.py``, ``text/telltale_kernels.py``,
``fingerprint/kernels.py``, ``read/html_kernels.py``, ``match/index_kernels.py``,
``reuse/kernels.py``) hold loops written for numba. Compiled, they are fast, but a machine's
first use compiles them (15-30 s) and, unless they are built ahead, every process pays about
half a second to import numba and load them. A small scan (the sample, a handful of articles) is
done sooner by the same loops run by Python: :func:`plain_kernels` runs a block of work that
way, and :func:`kernel_module` gives whichever form is in force. The plain form is the kernel
modules' own source executed again, with numba's ``njit`` as a no-op and the kernel modules it
imports in their plain form too, so the two forms cannot drift apart (the tests check they
agree). A loop too slow in Python may name a numpy twin in its module's ``PLAIN_FORMS``, used
instead. A GUI thread runs in :func:`loading_no_kernels_here`: it never loads the compiled form
itself, so the window never waits for numba. Where the kernels are built ahead of time
(``prebuilt.py``, once a machine with a C compiler), that form needs no numba: it loads in a
millisecond, on any thread. A standalone app carries them built for any CPU of its kind and no
numba at all: the plain form serves whatever they do not.
"""

from __future__ import annotations

import builtins
import importlib
import importlib.util
import os
import sys
import threading
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from pathlib import Path
from typing import Any

import numpy as np

from simdup_gui.engine import prebuilt

KERNEL_MODULES = (
    "simdup_gui.engine.text.token_kernels",
    "simdup_gui.engine.text.telltale_kernels",
    "simdup_gui.engine.fingerprint.kernels",
    "simdup_gui.engine.read.html_kernels",
    "simdup_gui.engine.match.index_kernels",
    "simdup_gui.engine.reuse.kernels",
)
PLAIN_BYTES = 256 << 10  # a scan reading at most this much runs plain: about 0.6 s of work
PLAIN_BYTES_UNCOMPILED = 2 << 20  # the same before the first compile (~5 s, against 15-30 s)
PLAIN_FILES = 2_000  # grouping at most this many files runs plain (its loops are per file)

_lock = threading.Lock()
_plain_users = 0  # blocks of work running plain now (threads of one scan share the setting)
_here = threading.local()  # a thread's own setting: loading_no_kernels_here
_plain: dict[str, types.ModuleType] = {}  # the plain modules, as their loops see each other
_plain_faces: dict[str, types.SimpleNamespace] = {}  # what callers get: see _wrapping_silently
_ahead: dict[str, prebuilt.PrebuiltKernels] | None = (
    None  # the kernels built ahead (None: not looked)
)
_ahead_lock = threading.Lock()


def reads_plain(to_read: int, compiled: bool) -> bool:
    """Whether reading ``to_read`` bytes is done sooner by the plain loops.

    Loading numba's compiled kernels takes about half a second (built ahead: a millisecond),
    compiling or building them (when they are not ``compiled`` yet: :func:`kernels_compiled`)
    15-30 s, once per machine; the plain loops read about 0.5 MB/s.
    """
    return to_read <= (PLAIN_BYTES if compiled else PLAIN_BYTES_UNCOMPILED)


def groups_plain(files: int) -> bool:
    """Whether grouping ``files`` records is done sooner by the plain loops.

    Never where the kernels are built ahead: they load in a millisecond (and grouping reads
    a few texts again, ``match/slips.py``: a page in a millisecond compiled, 20 ms plain).
    """
    built = _built_ahead("simdup_gui.engine.match.index_kernels", build=False)
    return files <= PLAIN_FILES and built is None


def kernels_compiled() -> bool:
    """Whether every kernel module has compiled code on disk newer than its source.

    Or the kernels are built ahead (``prebuilt.py``); or will be, at their first use (False).

    numba keeps what it compiled beside each module (``__pycache__/<module>.<function>-<line>
    .*.nbi`` index files) or, where that folder is read-only, under ``NUMBA_CACHE_DIR``. This
    looks at the files only; it imports neither numba nor the kernels.
    """
    if prebuilt.found_path() is not None:
        return True
    if not prebuilt.failed():
        return False  # to be built ahead at their first use
    for name in KERNEL_MODULES:
        source = Path(importlib.util.find_spec(name).origin)  # type: ignore[union-attr,arg-type]
        module = source.stem
        places = [source.parent / "__pycache__"]
        if os.environ.get("NUMBA_CACHE_DIR"):
            places.append(Path(os.environ["NUMBA_CACHE_DIR"]))
        written = source.stat().st_mtime
        found = (
            index for place in places if place.is_dir() for index in place.rglob(f"{module}.*.nbi")
        )
        if not any(index.stat().st_mtime >= written for index in found):
            return False
    return True


def kernel_module(name: str) -> Any:
    """The kernel module ``name`` (a full module name) in the form in force: see the top."""
    if _plain_users:
        return _plain_twin(name)
    loading_none = getattr(_here, "loading_none", False)
    if name in prebuilt.SIGNATURES:
        built = _built_ahead(name, build=not loading_none)  # loaded in a millisecond: anywhere
        if built is not None:
            return built
    if (loading_none and not kernel_loaded(name)) or not prebuilt.HAS_NUMBA:
        return _plain_twin(name)
    module = sys.modules.get(name)  # asked for per text: the import machinery costs 2.5 µs
    if module is not None and not getattr(module.__spec__, "_initializing", False):
        return module
    return importlib.import_module(name)


def kernel_loaded(name: str) -> bool:
    """Whether the kernel module ``name`` is imported in this process (its import done)."""
    if _ahead is not None and name in _ahead:
        return True
    module = sys.modules.get(name)
    return module is not None and not getattr(module.__spec__, "_initializing", False)


def _built_ahead(name: str, *, build: bool = True) -> prebuilt.PrebuiltKernels | None:
    """The kernel module as built ahead (``prebuilt.py``), or None where the kernels are not.

    With ``build``, built now if they never were: about as long as numba's first compile of
    them, once a machine.
    """
    global _ahead
    if _ahead is None:
        with _ahead_lock:  # one build at a time in a process
            if _ahead is None:
                built = prebuilt.load(_plain_twin)
                if built is None and build and not prebuilt.failed() and prebuilt.build():
                    built = prebuilt.load(_plain_twin)
                if built is not None or build:
                    _ahead = built or {}
    return None if _ahead is None else _ahead.get(name)


def groups_at_once(files: int) -> bool:
    """Whether grouping ``files`` records is quick on this thread: small, or compiled and loaded.

    Kernels built ahead count as loaded: they load in a millisecond.
    """
    name = "simdup_gui.engine.match.index_kernels"
    return groups_plain(files) or kernel_loaded(name) or _built_ahead(name, build=False) is not None


@contextmanager
def loading_no_kernels_here() -> Iterator[None]:
    """Within the block, this thread runs the plain form of kernels no thread has loaded yet.

    For a GUI thread, which must never wait for numba to load (half a second) or, on a
    machine's first use, to compile (seconds); an article's work takes a few ms in the plain
    form. A scan's threads keep their own form; work too large for the plain form belongs on
    another thread (:func:`groups_at_once`).
    """
    before = getattr(_here, "loading_none", False)
    _here.loading_none = True
    try:
        yield
    finally:
        _here.loading_none = before


@contextmanager
def plain_kernels(enabled: bool = True) -> Iterator[None]:
    """Within the block, :func:`kernel_module` gives the plain form (when ``enabled``).

    The setting is process-wide, so the threads a scan reads on follow it; the two forms give
    the same results, so other work running meanwhile is only slower or faster, never wrong.
    """
    global _plain_users
    if not enabled:
        yield
        return
    with _lock:
        _plain_users += 1
    try:
        yield
    finally:
        with _lock:
            _plain_users -= 1


def _plain_twin(name: str) -> types.SimpleNamespace:
    with _lock:
        if name not in _plain_faces:
            module = _executed_plain_unlocked(name)
            face = {
                attribute: _wrapping_silently(value)
                if isinstance(value, types.FunctionType) and value.__module__ == name
                else value
                for attribute, value in vars(module).items()
            }
            _plain_faces[name] = types.SimpleNamespace(**face)
        return _plain_faces[name]


def _executed_plain(name: str) -> types.ModuleType:
    """The module's source run again, apart from the compiled module and without numba."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.origin is None:
        raise ImportError(f"no kernel module {name}")
    code = spec.loader.get_code(name)  # type: ignore[attr-defined]  # the .pyc when fresh
    module = types.ModuleType(name, f"{name}, run by Python")
    module.__file__ = spec.origin
    module.__dict__["__builtins__"] = {**vars(builtins), "__import__": _plain_import}
    exec(code, module.__dict__)
    vars(module).update(getattr(module, "PLAIN_FORMS", {}))  # numpy twins, called within too
    return module


def _plain_import(name: str, *args: Any, **kwargs: Any) -> Any:
    """``import`` inside a plain kernel module: numba's ``njit`` does nothing, kernels are plain."""
    if name == "numba":
        return types.SimpleNamespace(njit=_no_compile)
    if name in KERNEL_MODULES:
        return _executed_plain_unlocked(name)
    return builtins.__import__(name, *args, **kwargs)


def _executed_plain_unlocked(name: str) -> types.ModuleType:
    """A kernel module imported by another while that one is made (the lock is held)."""
    if name not in _plain:
        _plain[name] = _executed_plain(name)
    return _plain[name]


def _no_compile(*args: Any, **_options: Any) -> Any:
    """``njit`` for the plain form: ``@njit`` and ``@njit(...)`` both leave the function as is."""
    if args and callable(args[0]):
        return args[0]
    return lambda function: function


def _wrapping_silently(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function with numpy's overflow warnings off: compiled, 64-bit hashes wrap silently."""

    @wraps(function)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(over="ignore"):
            return function(*args, **kwargs)

    return run
