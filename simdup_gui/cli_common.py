"""What the ``simdup`` commands share: option types, the fingerprint options, one-line errors."""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, TextIO

from simdup_gui.engine.methods import NAMES, method_class, method_named
from simdup_gui.engine.options import MAX_K, TOKENIZERS, WEIGHTINGS, TextSettings, check_k
from simdup_gui.engine.output.outputs import output_problem, real_path
from simdup_gui.engine.progress import ProgressEvent

if TYPE_CHECKING:
    from simdup_gui.engine.cluster.client import ClusterPool

# The cluster's client (concurrent.futures, signal) is imported with --dask only.

MAX_MB = 4096  # --max-mb: a file's text read at most


class UsageError(Exception):
    """Bad input: printed as one line, exit code 2."""


def k_value(text: str) -> int:
    """A Hamming distance from 0 to MAX_K (an option type)."""
    try:
        return check_k(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"k must be an integer from 0 to {MAX_K}") from None


def share(text: str) -> float:
    """A share from 0 to 1 (an option type)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must be a number from 0 to 1")
    return value


def jobs_value(text: str) -> int:
    """A positive number of workers (an option type)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("jobs must be a positive integer")
    return int(text)


def add_text_options(p: argparse.ArgumentParser) -> None:
    """The options that change a fingerprint (scan's, and apply's to check one again)."""
    defaults = TextSettings()
    p.add_argument(
        "--weighting", choices=WEIGHTINGS, help=f"simhash weights (default {defaults.weighting})"
    )
    p.add_argument(
        "--tokenizer",
        choices=sorted(TOKENIZERS),
        help=f"simhash tokens (default {defaults.tokenizer})",
    )
    p.add_argument("--no-stopwords", action="store_true", help="simhash: keep function words")
    p.add_argument("--no-boilerplate", action="store_true", help="keep HTML site templates")
    p.add_argument("--max-mb", type=megabytes, default=16, help="read at most this much of a file")


def csv_file(text: str) -> str | None:
    """A report's file; ``-`` is standard output (None), as most commands read it."""
    return None if text == "-" else text


def megabytes(text: str) -> float:
    """A finite number of megabytes above 0, at most MAX_MB (an option type)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_MB):
        raise argparse.ArgumentTypeError(f"must be a number of megabytes from 0 to {MAX_MB}")
    return value


def add_method_options(p: argparse.ArgumentParser, *, pairing: bool) -> None:
    """``--method`` and its settings: those of the fingerprint and, with ``pairing``, the rest."""
    p.add_argument(
        "--method",
        choices=NAMES,
        default="default",
        help="the fingerprint method (docs/methods.md; default: %(default)s, the most accurate)",
    )
    p.add_argument(
        "--sentences", type=count_value, metavar="N", help="sentences: the N longest (default 3)"
    )
    if pairing:
        p.add_argument(
            "--shared", type=count_value, metavar="M", help="sentences: at least M shared (2)"
        )
        p.add_argument(
            "--bands", type=count_value, help="minhash: LSH bands (default: from the floor)"
        )
        p.add_argument("--rows", type=count_value, help="minhash: rows per band (with --bands)")


def count_value(text: str) -> int:
    """A positive whole number (an option type)."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("must be a positive integer")
    return int(text)


_METHOD_OPTIONS = {  # the options only some methods take, and the setting each one sets
    "--tokenizer": "tokenizer",
    "--weighting": "weighting",
    "--no-stopwords": "stopwords",
    "--sentences": "sentences",
    "--shared": "shared",
    "--bands": "bands",
    "--rows": "rows",
    "--k": "k",
    "--min-similarity": "min_similarity",
}
_OWN = ("sentences", "shared", "bands", "rows")  # a method's own parameters, when it takes them


def text_settings(args: argparse.Namespace) -> TextSettings:
    """The fingerprint settings the options given by :func:`add_text_options` say.

    Raises:
        UsageError: an option the chosen method does not use, or a value it cannot work with.
    """
    given = vars(args)
    name = given.get("method") or "default"
    kind = method_class(name)
    for option, setting in _METHOD_OPTIONS.items():
        value = given.get(option[2:].replace("-", "_"))
        if value not in (None, False) and not kind.uses(setting):
            raise UsageError(f"{option} is not used by --method {name}")
    own = {key: given[key] for key in _OWN if given.get(key) is not None}
    try:
        method = method_named(name, **own)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    defaults = TextSettings()
    return TextSettings(
        args.tokenizer or defaults.tokenizer,
        not args.no_stopwords,
        args.weighting or defaults.weighting,
        not args.no_boilerplate,
        method,
    )


def max_bytes(args: argparse.Namespace) -> int:
    """The bytes of a file read at most, from ``--max-mb``."""
    return int(args.max_mb * 1024 * 1024)


@contextmanager
def writing(path: str) -> Iterator[None]:
    """An output that cannot be written is a one-line error naming it (exit 2)."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or exc}") from None


def check_output(path: str, inputs: list[str], *, folder: bool = False) -> None:
    """Refuse an output (file or folder) before any work: inside an input, or not writable."""
    problem = output_problem(path, inputs, folder=folder)
    if problem:
        raise UsageError(problem)


def check_outputs(named: dict[str, str | None], inputs: list[str]) -> None:
    """:func:`check_output` for each output an option names, and no file named twice.

    ``inputs``: the folders read (and a library's folder: never written into by a report).
    """
    seen: dict[str, str] = {}
    for option, path in named.items():
        if not path:
            continue
        check_output(path, inputs)
        same = seen.setdefault(real_path(path), option)
        if same != option:
            raise UsageError(f"{same} and {option} name one file: {path}")


def max_jobs() -> int:
    """The most workers worth starting: two per core (the work is computing, not waiting)."""
    return 2 * max(1, os.cpu_count() or 1)


def kept_apart() -> frozenset[tuple[str, str]]:
    """The not-duplicates list the app keeps (a damaged one is a UsageError, not an empty list)."""
    from simdup_gui.core import not_duplicates

    try:
        return frozenset(not_duplicates.load())
    except not_duplicates.NotDuplicatesError as exc:
        raise UsageError(str(exc)) from None


def capped_jobs(jobs: int, err: TextIO) -> int:
    """``jobs``, lowered to :func:`max_jobs` with a note."""
    if jobs > max_jobs():
        err.write(f"simdup: note: --jobs {jobs} lowered to {max_jobs()} (two per core)\n")
        return max_jobs()
    return jobs


def dask_address(text: str) -> str:
    """A cluster's address: ``local:N`` or a scheduler's (an option type)."""
    from simdup_gui.engine.cluster.client import ClusterError, check_address

    try:
        return check_address(text)
    except ClusterError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def open_cluster(stack: ExitStack, address: str) -> ClusterPool:
    """The cluster at ``address``, for as long as ``stack`` (a local one is then stopped)."""
    from simdup_gui.engine.cluster.client import ClusterError, ClusterPool, cluster_client

    try:
        return ClusterPool(stack.enter_context(cluster_client(address)))
    except ClusterError as exc:
        raise UsageError(str(exc)) from None


COMPILING = "simdup: preparing fast kernels, once on this machine (about half a minute)..."


class TerminalProgress:
    """Progress on stderr, at most a few times a second (``things``: files, rows)."""

    def __init__(self, stream: TextIO, things: str = "files") -> None:
        self.stream, self.last, self.things = stream, 0.0, things

    def __call__(self, event: ProgressEvent) -> None:
        """Show ``event`` (the compiling note at once, the rest at most twice a second)."""
        if event.stage == "compiling":
            self.stream.write(f"\r{COMPILING}\n")
            self.stream.flush()
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        stage, done, total = event.stage, event.done, event.total
        self.stream.write(f"\r{stage}: {done}/{total or '?'} {self.things}   ")
        self.stream.flush()


def waiting_said(err: TextIO) -> Callable[[ProgressEvent], None]:
    """No progress, but a line when a library's writer waits for another (after a second)."""

    def say(event: ProgressEvent) -> None:
        if event.stage == "waiting":
            err.write(f"simdup: waiting for another writer of {event.current}…\n")
            err.flush()

    return say


def compiling_note(err: TextIO) -> Callable[[ProgressEvent], None]:
    """No progress (stderr is not a terminal), but the one line that explains a long first run."""

    def note(event: ProgressEvent) -> None:
        if event.stage == "compiling":
            err.write(COMPILING + "\n")
            err.flush()

    return note
