"""``simdup``: the headless twin of the desktop app.

    simdup scan DIR... [--k 3] [--csv FILE] [--jobs N]  duplicate groups of folders' articles
    simdup pairs FILE [--k 3] [--out FILE]              all pairs within k among fingerprints
    simdup query FILE FP... [--k 2]                     fingerprints within k of each FP
    simdup apply REPORT (--move-to DIR | --trash)       act on a report's duplicates, re-checked
    simdup restore MANIFEST                             undo what apply (or the app) did
    simdup library add|check|stats|remove LIB ...       the archive library (see docs)
    simdup ignore add A B | list | remove A B | clear    pairs kept apart (not duplicates)
    simdup explain A B [--json]                         the words behind each differing bit
    simdup reuse DIR... [--library LIB] [--min-share S] how much of each article was copied
    simdup table FILE... --text-column C [--dask ADDR]  the same for Parquet or JSONL rows
    simdup cache clear | path                           the fingerprint cache

Exit codes: 0 done (a scan with per-file errors is done), 1 cancelled, 2 bad input.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import io
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO

from simdup_gui import __version__
from simdup_gui.cli_common import UsageError
from simdup_gui.engine.errors import InputError
from simdup_gui.logs import start_logging

log = logging.getLogger(__name__)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


# Each command: the module that holds its grammar and its work, and the function doing it.
COMMANDS = {
    "scan": ("simdup_gui.cli_scan", "run_scan"),
    "table": ("simdup_gui.cli_table", "run_table"),
    "pairs": ("simdup_gui.cli_fingerprints", "run_pairs"),
    "query": ("simdup_gui.cli_fingerprints", "run_query"),
    "apply": ("simdup_gui.cli_actions", "run_apply"),
    "restore": ("simdup_gui.cli_actions", "run_restore"),
    "ignore": ("simdup_gui.cli_actions", "run_ignore"),
    "library": ("simdup_gui.cli_library", "run_library_command"),
    "explain": ("simdup_gui.cli_explain", "run_explain"),
    "reuse": ("simdup_gui.cli_reuse", "run_reuse"),
    "cache": ("simdup_gui.cli_scan", "run_cache"),
}
GRAMMARS = {  # each module's function that adds its commands' parsers, in the order of --help
    "simdup_gui.cli_scan": "add_scan_parsers",
    "simdup_gui.cli_table": "add_table_parser",
    "simdup_gui.cli_fingerprints": "add_fingerprint_parsers",
    "simdup_gui.cli_actions": "add_action_parsers",
    "simdup_gui.cli_library": "add_library_parser",
    "simdup_gui.cli_explain": "add_explain_parser",
    "simdup_gui.cli_reuse": "add_reuse_parser",
}
Runner = Callable[[argparse.Namespace, TextIO, TextIO], int]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command-line grammar: every command's, or only the module's that holds ``command``.

    A command's module alone is imported (``simdup pairs`` needs neither the scan nor the
    library), so the command starts sooner; ``simdup --help`` imports them all.
    """
    parser = _Parser(prog="simdup", description="Find near-duplicate articles (64-bit simhash).")
    parser.add_argument("-V", "--version", action="store_true", help="say which simdup this is")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    wanted = COMMANDS[command][0] if command in COMMANDS else None
    for module, adder in GRAMMARS.items():
        if wanted in (None, module):
            getattr(importlib.import_module(module), adder)(sub)
    return parser


def _runner(command: str) -> Runner:
    module, function = COMMANDS[command]
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


def _command(argv: Sequence[str]) -> str | None:
    """The command named by the arguments, if they start with one."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code."""
    for stream, given in ((sys.stdout, out), (sys.stderr, err)):
        if given is None and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")  # whatever the locale
    out, err = out or sys.stdout, err or sys.stderr
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        if argv in (["--version"], ["-V"]):
            out.write(f"simdup {__version__}\n")
            return 0
        args = build_parser(_command(argv)).parse_args(argv)
        start_logging(err if getattr(args, "verbose", False) else None)
        code = _runner(args.command)(args, out, err)
        out.flush()
        return code
    except (UsageError, InputError) as exc:
        err.write(f"simdup: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        err.write("simdup: interrupted\n")
        return 130
    except BrokenPipeError:
        _silence(out)
        return 0
    except OSError as exc:  # standard output full or gone
        log.debug("writing the output failed", exc_info=True)
        _silence(out)
        err.write(f"simdup: error: cannot write the output: {exc.strerror or exc}\n")
        return 2


def _silence(out: TextIO) -> None:
    """Point a failed standard output at nothing, so Python's last flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
        os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())


_INTERRUPTS: list[int] = []  # the Ctrl+C the command was given


def _interrupted(number: int, frame: object) -> None:
    """Ctrl+C: stop the command; any more while it stops are ignored (it is stopping)."""
    _INTERRUPTS.append(number)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def run() -> NoReturn:
    """The ``simdup`` command: :func:`main`, then an exit that leaves the heap to the system.

    Python's own exit frees every object and module one by one: 0.1-0.15 s after a scan that
    loaded the compiled kernels, a tenth of an unchanged rescan. The exit handlers still run
    (logging's, multiprocessing's) and the standard streams are flushed first, so nothing
    written is lost; with a thread still running (none should be), Python's exit waits for it.
    """
    signal.signal(signal.SIGINT, _interrupted)
    code = main()
    if _INTERRUPTS and code != 130:  # its exception dropped where Python drops them (rare)
        sys.stderr.write("simdup: interrupted\n")
        code = 130
    exit_handlers = getattr(atexit, "_run_exitfuncs", None)  # CPython's
    if exit_handlers is None or threading.active_count() > 1:
        sys.exit(code)
    exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
