"""The kernels built ahead of time: every kernel module's loops in one native module.

Loading numba and the kernels' compiled code costs every process about half a second (numba's
import, its registries, each kernel's code). The functions named in :data:`SIGNATURES` are
built instead, once a machine, by ``numba.pycc`` into one extension module for this CPU (25 s
here, against 14 s for numba's first compile of them), kept in ``engine/__pycache__`` (where that
cannot be written, in simdup's cache folder) under a key of everything it is made from: the
kernel modules' source, the signatures, the numba, numpy and Python versions, and the CPU. A
later process imports it in a millisecond, without numba.

The build runs in a process of its own (its compiler's output kept off the command's), one at a
time on a machine, and ends with its parent. Where it cannot be made (no C compiler, a numba
without ``pycc``) the failure is noted beside it under the same key and logged, and the kernels
stay numba's.

A standalone app (``tools/build_app.py``) carries a portable build instead: for any CPU of its
kind (x86-64-v2: every x86 CPU since about 2009), keyed without the CPU, loaded where this
machine has no build of its own; the app never builds (its executable is not Python).

A built function checks nothing of what it is given, so each is called through a check of its
arguments against its signature: anything else (another dtype, a strided array) goes to numba's
form of the same function, as does any other function of the module; its constants come from
its source run without numba (``kernels.py``'s plain form).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import logging
import os
import shutil
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from filelock import FileLock

log = logging.getLogger(__name__)

BUILD_VERSION = 1  # bump when the way the module is built changes
BUILD_TIMEOUT_S = 900
MODULE = "kernels_ahead"  # the built module's name
_COMPILERS = ("cc", "gcc", "clang")  # pycc needs one (and the Python headers)
U8, I8, U4, U1, F8, B1 = "u8[::1]", "i8[::1]", "u4[::1]", "u1[::1]", "f8[::1]", "b1[::1]"
U8_2D, I8_2D, U4_3D, U1_2D = "u8[:, ::1]", "i8[:, ::1]", "u4[:, :, ::1]", "u1[:, ::1]"
INT = "i8"
# The functions built ahead, by kernel module: (result, arguments), in numba's type names. Each
# only reads its arguments (it returns new arrays), so a read-only array may be given.
SIGNATURES: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "simdup_gui.engine.text.token_kernels": {
        "local_forms": (f"Tuple(({U4}, {I8}, {U1}, {I8}))", (U4, I8, U4_3D, U1_2D, B1, U1)),
        "unmade": (I8, (U4, B1)),
        "word_spans": (f"UniTuple({I8}, 2)", (U4, U1, I8)),
        "span_hashes": (U8, (U4, I8, I8)),
        "count_per_text": (f"Tuple(({U8}, {F8}, {I8}))", (U8, I8, U8)),
        "text_of": (I8, (I8, I8)),
        "with_cuts": (f"UniTuple({I8}, 2)", (I8, I8, I8, I8, I8, I8, I8, U1)),
        "ideograph_chunks": (f"Tuple(({I8}, {I8}, {U4}, {I8}))", (U4, U1, I8)),
    },
    "simdup_gui.engine.text.telltale_kernels": {
        "telltale_counts": (I8, (U4, U1)),
        "notice_chars": (INT, (U4, U1, U4, I8, I8, U4, I8, INT)),
    },
    "simdup_gui.engine.fingerprint.kernels": {
        "simhash_many": (U8, (U8, F8, I8, INT)),
        "sketches": (f"Tuple(({U8_2D}, {I8}))", (U4, U1, I8, INT, INT)),
        "bin_minima": (U8_2D, (U8_2D, INT)),
        "jaccard_pairs": (F8, (U8_2D, I8, I8)),
        "containment_pairs": (f"Tuple(({F8}, {I8}))", (U8_2D, I8, I8)),
        "line_values": (f"Tuple(({U8}, {I8}, {I8}, {I8}))", (U4, U1, I8)),
        "passage_runs": (f"Tuple(({U8}, {I8}))", (U4, U1, I8, INT, INT)),
        "term_hashes": (f"Tuple(({U8}, {I8}))", (U4, U1, I8, U8, U4)),
    },
    "simdup_gui.engine.read.html_kernels": {
        "break_before_tags": (U1, (U1, U1, I8)),
        "read_page": (f"Tuple(({U1}, {I8_2D}, {U1}))", (U1, U1, I8, U1, B1, INT)),
    },
    "simdup_gui.engine.match.index_kernels": {
        "partition": (f"Tuple(({U8}, {I8}, {I8}))", (U8, U8, I8, INT)),
        "group_pairs": (
            f"Tuple(({I8}, {I8}, {I8}))",
            (U8, I8, I8, I8, INT, U8_2D, I8_2D, I8, U8, I8, I8, U8, INT),
        ),
    },
    "simdup_gui.engine.reuse.kernels": {
        "units_of": (f"Tuple(({I8}, {I8}, {U8}))", (U4, U1)),
        "run_hashes": (U8, (U8, INT)),
        "covered": (B1, (U8, U8, INT, INT, B1)),
        "passages": (f"UniTuple({B1}, 2)", (B1, B1, INT, INT, INT)),
        "run_edges": (f"UniTuple({I8}, 2)", (B1,)),
    },
}
_DTYPES = {code: np.dtype(code) for code in ("u1", "u4", "u8", "i8", "f8", "b1")}


def numba_signature(name: str, function: str) -> str:
    """A function's signature as ``numba.pycc`` takes it."""
    result, arguments = SIGNATURES[name][function]
    return f"{result}({', '.join(arguments)})"


PORTABLE_CPUS = {"x86_64": "x86-64-v2", "amd64": "x86-64-v2"}  # else LLVM's "generic"


def built_path() -> Path:
    """Where the functions built ahead for this CPU are (or are to be) kept."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return _folder() / f"{MODULE}-{_key(_cpu())}{suffix}"


def portable_path() -> Path:
    """Where a portable build is (``engine/__pycache__``, as a standalone app carries it)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    here = Path(__file__).resolve().parent / "__pycache__"
    return here / f"{MODULE}-any-{_key(None)}{suffix}"


def portable_cpu() -> str:
    """The CPU a portable build is for: the oldest of this machine's kind it supports."""
    import platform

    return PORTABLE_CPUS.get(platform.machine().lower(), "generic")


def found_path() -> Path | None:
    """The build to load: this CPU's, else a portable one; None where there is neither."""
    for where in (built_path, portable_path):  # the second's key is read only if needed
        path = where()
        if path.is_file():
            return path
    return None


@cache
def _folder() -> Path:
    """``engine/__pycache__``, as numba's cache, where it can be written; else simdup's cache."""
    here = Path(__file__).resolve().parent / "__pycache__"
    if os.access(here if here.is_dir() else here.parent, os.W_OK):
        return here
    from simdup_gui.engine.resources import user_cache

    return user_cache() / "kernels"


def load(constants: Callable[[str], Any]) -> dict[str, PrebuiltKernels] | None:
    """The built functions by kernel module, or None when they are not built here.

    ``constants(name)``: a module with the kernel module's other names, numba's not needed.
    """
    path = found_path()
    if path is None:
        return None
    loader = importlib.machinery.ExtensionFileLoader(MODULE, str(path))
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        loader.exec_module(module)
    except ImportError:
        log.warning("kernels built ahead at %s do not load: numba's are used", path, exc_info=True)
        return None
    return {name: PrebuiltKernels(name, module, constants) for name in SIGNATURES}


def failed() -> bool:
    """Whether building failed here before, or cannot be tried.

    It cannot without a C compiler, nor in a standalone app (its executable is not Python: it
    carries a portable build).
    """
    frozen = getattr(sys, "frozen", False)
    return frozen or _failure_path().is_file() or not any(map(shutil.which, _COMPILERS))


def build() -> bool:
    """Build every kernel module's functions in a process of its own; True when built.

    About 25 s here (numba's first compile of them: 14 s), once a machine: one process
    at a time (the others wait, then load what it built). A failure is noted (:func:`failed`)
    and logged, and not tried again under the same key.
    """
    import subprocess  # a build is once a machine: its imports wait for it

    path = built_path()
    command = [sys.executable, "-m", __name__, str(path), str(os.getpid())]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with _build_lock(path.parent / f"{MODULE}.lock"):
            if path.is_file():
                return True  # another process built it meanwhile
            done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
            problem = "" if done.returncode == 0 else done.stderr.strip()[-2000:] or "no output"
    except (OSError, subprocess.TimeoutExpired) as exc:
        problem = str(exc)
    if not problem and path.is_file():
        return True
    log.warning("building the kernels ahead failed; numba compiles them: %s", problem)
    with contextlib.suppress(OSError):
        _failure_path().write_text(problem or "nothing built", encoding="utf-8")
    return False


def _build_lock(path: Path) -> FileLock:
    """Held by one process at a time (``filelock``: ``flock``, or Windows' own lock)."""
    from filelock import FileLock

    return FileLock(path)


HAS_NUMBA = importlib.util.find_spec("numba") is not None  # a standalone app carries none


class PrebuiltKernels:
    """A kernel module as its callers use it: the built functions, its other names as they are.

    Its constants come without numba; any other function, and a call that does not fit a
    built function's signature, goes to numba's module (imported then), or where there is no
    numba (a standalone app) to the module's plain form.
    """

    def __init__(self, name: str, built: Any, constants: Callable[[str], Any]) -> None:
        self._name, self._constants = name, constants
        short = name.rpartition(".")[2]
        for function, (_, arguments) in SIGNATURES[name].items():
            compiled = getattr(built, f"{short}__{function}")
            setattr(self, function, self._checked(function, compiled, arguments))

    def __getattr__(self, attribute: str) -> Any:
        """Any other name: a constant as the module defines it (kept), a function as numba's."""
        value = getattr(self._constants(self._name), attribute)
        if callable(value):
            return getattr(self._unbuilt(), attribute)
        setattr(self, attribute, value)  # read per page (html's column numbers): asked once
        return value

    def _checked(
        self, function: str, built: Callable[..., Any], arguments: tuple[str, ...]
    ) -> Callable[..., Any]:
        checks = [_check(argument) for argument in arguments]

        def call(*values: Any) -> Any:
            if len(values) == len(checks) and all(map(_passes, checks, values)):
                return built(*values)
            return getattr(self._unbuilt(), function)(*values)

        call.__name__ = call.__qualname__ = function
        return call

    def _unbuilt(self) -> Any:
        """Where what is not built goes: numba's module, else the plain form."""
        return importlib.import_module(self._name) if HAS_NUMBA else self._constants(self._name)


_Check = tuple[np.dtype[Any], int] | None  # an array's (dtype, dimensions); None: an int


def _check(argument: str) -> _Check:
    """What an argument must be: a C-contiguous array of its dtype and dimensions, or an int."""
    return None if argument == INT else (_DTYPES[argument[:2]], argument.count(",") + 1)


def _passes(check: _Check, value: Any) -> bool:
    if check is None:
        return isinstance(value, int | np.integer) and -(2**63) <= value < 2**63
    return (
        type(value) is np.ndarray
        and value.dtype == check[0]
        and value.ndim == check[1]
        and value.flags.c_contiguous
    )


def _source(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # finds the file without running it (nor numba)
    if spec is None or spec.origin is None:
        raise ImportError(f"no kernel module {name}")
    return Path(spec.origin)


@cache
def _key(cpu: str | None) -> str:
    """A digest of everything the built module is made from (16 hex digits).

    ``cpu``: this CPU's model and features; None for a portable build, made with the numba
    its app carries (whose version is then not read: a frozen app has no numba files).
    """
    made_of = (BUILD_VERSION, SIGNATURES, np.__version__, sys.version, cpu or portable_cpu())
    digest = hashlib.blake2b(repr(made_of).encode(), digest_size=8)
    for name in SIGNATURES:
        digest.update(_source(name).read_bytes())
    numba = importlib.util.find_spec("numba") if cpu else None  # found, not imported
    if numba is not None and numba.origin is not None:  # its version, in the file that says it
        with contextlib.suppress(OSError):
            digest.update((Path(numba.origin).parent / "_version.py").read_bytes())
    return digest.hexdigest()


def _cpu() -> str:
    """This CPU's model and features: the module is built for them."""
    with contextlib.suppress(OSError):
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            lines = [line for line in info if line.startswith(("model name", "flags"))]
        return "".join(sorted(set(lines)))
    import platform

    return f"{platform.machine()} {platform.processor()}"


def _failure_path() -> Path:
    return built_path().with_suffix(".failed")


def _build_here(path: Path, cpu: str = "host") -> None:
    """Build the module by ``numba.pycc`` (GIL released, for ``cpu``) and move it to ``path``.

    Then the builds of other keys of its kind go (made of a source or a numba since replaced).
    """
    import tempfile

    import numba.pycc.compiler
    from numba.core.compiler import Flags
    from numba.pycc import CC

    class _GilReleased(Flags):  # type: ignore[misc]
        """pycc's wrappers hold the GIL; the kernels run on several threads at once."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    numba.pycc.compiler.Flags = _GilReleased
    path.parent.mkdir(parents=True, exist_ok=True)  # no __pycache__ under PYTHONDONTWRITEBYTECODE
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".ahead-") as folder:
        cc = CC(MODULE)
        cc.output_dir, cc.target_cpu, cc.verbose = folder, cpu, False
        for name, functions in SIGNATURES.items():
            kernels, short = importlib.import_module(name), name.rpartition(".")[2]
            for function in functions:
                exported = cc.export(f"{short}__{function}", numba_signature(name, function))
                exported(getattr(kernels, function).py_func)
        cc.compile()
        (built,) = Path(folder).glob(f"{MODULE}*")
        os.replace(built, path)  # whole or not at all
    portable = path.name.startswith(f"{MODULE}-any-")
    for stale in path.parent.glob(f"{MODULE}-*"):  # of an older source or numba, of its kind
        if stale != path and stale.name.startswith(f"{MODULE}-any-") == portable:
            with contextlib.suppress(OSError):
                stale.unlink()


if __name__ == "__main__":  # python -m simdup_gui.engine.prebuilt PATH PARENT_PID | --portable
    if sys.argv[1:] == ["--portable"]:  # tools/build_app.py: beside this module, for any CPU
        _build_here(portable_path(), portable_cpu())
        print(portable_path())
    else:
        from simdup_gui.engine.run.parent import watch_parent

        watch_parent(int(sys.argv[2]))
        _build_here(Path(sys.argv[1]))
