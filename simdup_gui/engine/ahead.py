"""Kernels built ahead of time: a kernel module's hot loops as a native module of their own.

Loading numba and a kernel module's compiled code costs every process about half a second
(numba's import, its registries, each kernel's code). The functions named in :data:`SIGNATURES`
are built instead, once per machine, by ``numba.pycc`` into an extension module for this CPU,
kept beside numba's own cache (the kernel module's ``__pycache__``) under a key of everything
it is made from: the kernel module's source, the signatures, the numba, numpy and Python
versions, and the CPU. A later process imports it in a millisecond, and never imports numba.

The build runs in a process of its own (its compiler's output kept off the command's), which
ends with its parent. Where it fails (no C compiler, a numba without ``pycc``) the failure is
noted beside it under the same key and logged, and the kernels stay numba's.

A built function checks nothing of what it is given, so each is called through a check of its
arguments against its signature: anything else (another dtype, a strided array) goes to numba's
form of the same function, as do the module's other names.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import logging
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

BUILD_VERSION = 1  # bump when the way a module is built changes
BUILD_TIMEOUT_S = 600
_U64, _I64, _U64_2D, _I64_2D, _INT = "u8[::1]", "i8[::1]", "u8[:, ::1]", "i8[:, ::1]", "i8"
# The functions built ahead, by kernel module: (result types, argument types) in numba's terms.
SIGNATURES: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "simdup_gui.engine.match.index_kernels": {
        "partition": ((_U64, _I64, _I64), (_U64, _U64, _I64, _INT)),
        "group_pairs": (
            (_I64, _I64, _I64),
            (_U64, _I64, _I64, _I64, _INT, _U64_2D, _I64_2D, _I64, _U64, _I64, _I64, _U64, _INT),
        ),
    },
}
_DTYPES = {"u8": np.dtype(np.uint64), "i8": np.dtype(np.int64)}


def numba_signature(name: str, function: str) -> str:
    """A function's signature as ``numba.pycc`` takes it."""
    result, arguments = SIGNATURES[name][function]
    return f"Tuple(({', '.join(result)}))({', '.join(arguments)})"


def built_path(name: str) -> Path:
    """Where the kernel module ``name``'s functions built ahead are (or are to be) kept."""
    source = _source(name)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return source.parent / "__pycache__" / f"{_module_name(name)}-{_key(name)}{suffix}"


def load(name: str) -> AheadKernels | None:
    """The built functions of the kernel module ``name``, or None when they are not built."""
    path = built_path(name)
    if not path.is_file():
        return None
    loader = importlib.machinery.ExtensionFileLoader(_module_name(name), str(path))
    spec = importlib.util.spec_from_file_location(_module_name(name), path, loader=loader)
    try:
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        loader.exec_module(module)
    except ImportError:
        log.warning("kernels built ahead at %s do not load: numba's are used", path, exc_info=True)
        return None
    return AheadKernels(name, module)


def failed(name: str) -> bool:
    """Whether building the kernel module ``name``'s functions failed here before."""
    return _failure_path(name).is_file()


def build(name: str) -> bool:
    """Build the kernel module ``name``'s functions in a process of its own; True when built.

    A failure is noted (:func:`failed`) and logged, and not tried again under the same key.
    """
    import subprocess  # a build is once a machine: its imports wait for it

    path = built_path(name)
    command = [sys.executable, "-m", __name__, name, str(path), str(os.getpid())]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
        problem = "" if done.returncode == 0 else done.stderr.strip()[-2000:] or "no output"
    except (OSError, subprocess.TimeoutExpired) as exc:
        problem = str(exc)
    if not problem and path.is_file():
        return True
    log.warning("building %s ahead failed; numba compiles it instead: %s", name, problem)
    with contextlib.suppress(OSError):
        _failure_path(name).write_text(problem or "nothing built", encoding="utf-8")
    return False


class AheadKernels:
    """A kernel module as its callers use it: the built functions first, numba's for the rest."""

    def __init__(self, name: str, built: Any) -> None:
        self._name = name
        for function, (_, arguments) in SIGNATURES[name].items():
            setattr(self, function, self._checked(function, getattr(built, function), arguments))

    def __getattr__(self, attribute: str) -> Any:
        """Any other name: numba's module (imported on first need)."""
        return getattr(importlib.import_module(self._name), attribute)

    def _checked(
        self, function: str, built: Callable[..., Any], arguments: tuple[str, ...]
    ) -> Callable[..., Any]:
        checks = [_check(argument) for argument in arguments]

        def call(*values: Any) -> Any:
            if len(values) == len(checks) and all(map(_passes, checks, values)):
                return built(*values)
            return getattr(importlib.import_module(self._name), function)(*values)

        call.__name__ = call.__qualname__ = function
        return call


def _check(argument: str) -> tuple[np.dtype[Any], int] | None:
    """What an argument must be: (dtype, dimensions) of a C-contiguous array, or None: an int."""
    return None if argument == _INT else (_DTYPES[argument[:2]], argument.count(",") + 1)


def _passes(check: tuple[np.dtype[Any], int] | None, value: Any) -> bool:
    if check is None:
        return isinstance(value, int | np.integer) and -(2**63) <= value < 2**63
    return (
        type(value) is np.ndarray
        and value.dtype == check[0]
        and value.ndim == check[1]
        and value.flags.c_contiguous
    )


def _module_name(name: str) -> str:
    return name.rpartition(".")[2] + "_ahead"


def _source(name: str) -> Path:
    spec = importlib.util.find_spec(name)  # finds the file without running it (nor numba)
    if spec is None or spec.origin is None:
        raise ImportError(f"no kernel module {name}")
    return Path(spec.origin)


@cache
def _key(name: str) -> str:
    """A digest of everything the built module is made from (16 hex digits)."""
    made_of = (BUILD_VERSION, SIGNATURES[name], np.__version__, sys.version, _cpu())
    digest = hashlib.blake2b(repr(made_of).encode(), digest_size=8)
    digest.update(_source(name).read_bytes())
    numba = importlib.util.find_spec("numba")  # found, not imported
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


def _failure_path(name: str) -> Path:
    return built_path(name).with_suffix(".failed")


def _build_here(name: str, path: Path) -> None:
    """Build the module by ``numba.pycc`` (GIL released, for this CPU) and move it to ``path``.

    Then the builds of other keys go (the file of a source or numba since replaced).
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
    kernels = importlib.import_module(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix=".ahead-") as folder:
        cc = CC(_module_name(name))
        cc.output_dir, cc.target_cpu, cc.verbose = folder, "host", False
        for function in SIGNATURES[name]:
            cc.export(function, numba_signature(name, function))(getattr(kernels, function).py_func)
        cc.compile()
        (built,) = Path(folder).glob(f"{_module_name(name)}*")
        os.replace(built, path)  # whole or not at all, whoever else builds it meanwhile
    for stale in path.parent.glob(f"{_module_name(name)}-*"):  # of an older source or numba
        if stale != path:
            with contextlib.suppress(OSError):
                stale.unlink()


if __name__ == "__main__":  # python -m simdup_gui.engine.ahead MODULE PATH PARENT_PID
    from simdup_gui.engine.run.parent import watch_parent

    watch_parent(int(sys.argv[3]))
    _build_here(sys.argv[1], Path(sys.argv[2]))
