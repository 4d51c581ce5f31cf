"""``simdup``: the headless twin of the desktop app.

    simdup scan DIR [--k 3] [--csv FILE] [--jobs N]     duplicate groups of a folder's articles
    simdup pairs FILE [--k 3] [--out FILE]              all pairs within k among fingerprints
    simdup query FILE FP... [--k 2]                     fingerprints within k of each FP
    simdup cache clear | path                           the fingerprint cache

Exit codes: 0 done (a scan with per-file errors is done), 1 cancelled, 2 bad input.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from simdup_gui.engine.cache import FingerprintCache, default_cache_path
from simdup_gui.engine.fingerprint_files import (
    FingerprintFileError,
    load_fingerprints,
    parse_fingerprint,
)
from simdup_gui.engine.index import MAX_K, FingerprintIndex, Pairs, all_pairs, check_k
from simdup_gui.engine.options import ScanOptions
from simdup_gui.engine.outputs import output_problem, write_atomically
from simdup_gui.engine.pipeline import WEIGHTINGS, TextSettings
from simdup_gui.engine.progress import ProgressEvent, no_progress
from simdup_gui.engine.report import report_text, write_report
from simdup_gui.engine.scan import ScanResult, scan
from simdup_gui.engine.tokens import TOKENIZERS
from simdup_gui.engine.walk import DEFAULT_EXTENSIONS


class UsageError(Exception):
    """Bad input: printed as one line, exit code 2."""


def _k(text: str) -> int:
    try:
        return check_k(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"k must be an integer from 0 to {MAX_K}") from None


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must be a number from 0 to 1")
    return value


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError("jobs must be a positive integer")
    return int(text)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The command-line grammar."""
    parser = _Parser(prog="simdup", description="Find near-duplicate articles (64-bit simhash).")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    cpus = max(1, os.cpu_count() or 1)

    p = sub.add_parser("scan", help="group the near-duplicate articles of a folder")
    p.add_argument("folder")
    p.add_argument(
        "--k",
        type=_k,
        default=ScanOptions().k,
        help="largest Hamming distance (0-8, default %(default)s); from 7 on, files sharing most"
        " of their text are candidates too, whatever their distance",
    )
    p.add_argument(
        "--min-similarity",
        type=_share,
        default=ScanOptions().min_similarity,
        metavar="S",
        help="least text similarity (Jaccard of 5-character shingles, 0-1, default %(default)s)",
    )
    p.add_argument("--csv", metavar="FILE", help="write the report here (default: stdout)")
    p.add_argument(
        "--jobs",
        type=_jobs,
        default=cpus,
        help=f"parallel workers: processes for large scans (default {cpus})",
    )
    p.add_argument("--weighting", choices=WEIGHTINGS, default=TextSettings().weighting)
    p.add_argument("--tokenizer", choices=sorted(TOKENIZERS), default="words")
    p.add_argument("--no-stopwords", action="store_true", help="keep function words")
    p.add_argument(
        "--ext",
        nargs="+",
        default=list(DEFAULT_EXTENSIONS),
        metavar="EXT",
        help="file extensions to read (default: %(default)s)",
    )
    p.add_argument("--no-boilerplate", action="store_true", help="keep HTML site templates")
    p.add_argument("--max-mb", type=float, default=16, help="read at most this much of a file")
    p.add_argument("--skip-oversize", action="store_true", help="skip files over --max-mb")
    p.add_argument("--no-cache", action="store_true", help="neither use nor fill the cache")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")

    p = sub.add_parser("pairs", help="all pairs within k among fingerprints in a file")
    p.add_argument("file", help="one fingerprint per line (16 hex or 64 binary digits), or .npy")
    p.add_argument("--k", type=_k, default=3)
    p.add_argument("--out", metavar="FILE", help="write i,j,distance CSV here (default: stdout)")
    p.add_argument("--jobs", type=_jobs, default=min(cpus, 2))

    p = sub.add_parser("query", help="fingerprints within k of each query")
    p.add_argument("file")
    p.add_argument("fingerprints", nargs="+", metavar="FP")
    p.add_argument("--k", type=_k, default=2)
    p = sub.add_parser("cache", help="the fingerprint cache")
    p.add_argument("action", choices=["clear", "path"])
    return parser


def _extension(text: str) -> str:
    return text.lower() if text.startswith(".") else "." + text.lower()


COMPILING = "simdup: preparing fast kernels, once on this machine (about 20 s)..."


class _Progress:
    """Progress on stderr, at most a few times a second."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last = stream, 0.0

    def __call__(self, event: object) -> None:
        if event.stage == "compiling":  # type: ignore[attr-defined]
            self.stream.write(f"\r{COMPILING}\n")
            self.stream.flush()
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        stage, done, total = event.stage, event.done, event.total  # type: ignore[attr-defined]
        self.stream.write(f"\r{stage}: {done}/{total or '?'} files   ")
        self.stream.flush()


def _summary(result: ScanResult) -> str:
    files = len(result.files)
    megabytes = sum(f.size for f in result.files) / 1e6
    duplicates = sum(len(g) - 1 for g in result.groups)
    state = " (cancelled: partial results)" if result.cancelled else ""
    cached = f", {result.cached} from cache" if result.cached else ""
    return (
        f"simdup: {_count(files, 'file')} ({megabytes:.1f} MB{cached}) in {result.seconds:.1f} s"
        f"{state}: {_count(len(result.groups), 'group')}, {_count(duplicates, 'duplicate')},"
        f" {len(result.errors)} unreadable"
        f" (k={result.options.k}, text similarity >= {result.options.min_similarity:.0%})"
    )


def _count(number: int, noun: str) -> str:
    """``1 group``, ``2 groups``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _check_output(path: str, inputs: list[str]) -> None:
    """Refuse an output path before any work: inside an input, or where nothing can be written."""
    problem = output_problem(path, inputs)
    if problem:
        raise UsageError(problem)


def _compiling_note(err: TextIO) -> Callable[[ProgressEvent], None]:
    """No progress (stderr is not a terminal), but the one line that explains a long first run."""

    def note(event: ProgressEvent) -> None:
        if event.stage == "compiling":
            err.write(COMPILING + "\n")
            err.flush()

    return note


def run_scan(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup scan``."""
    if not os.path.isdir(args.folder):
        raise UsageError(f"{args.folder}: not a folder")
    if args.max_mb <= 0:
        raise UsageError("--max-mb must be positive")
    settings = TextSettings(
        args.tokenizer, not args.no_stopwords, args.weighting, not args.no_boilerplate
    )
    options = ScanOptions(
        args.k,
        tuple(_extension(e) for e in args.ext),
        settings,
        max_bytes=int(args.max_mb * 1024 * 1024),
        skip_oversize=args.skip_oversize,
        jobs=args.jobs,
        min_similarity=args.min_similarity,
        processes=None,  # the console script is import-safe, so large scans may use processes
    )
    if args.csv:
        _check_output(args.csv, [args.folder])
    if args.quiet:
        progress: Callable[[ProgressEvent], None] = no_progress
    elif err.isatty():
        progress = _Progress(err)
    else:
        progress = _compiling_note(err)
    cache = FingerprintCache.disabled() if args.no_cache else FingerprintCache.default()
    try:
        result = scan(args.folder, options, cache=cache, progress=progress)
    finally:
        cache.close()
    for warning in result.warnings:
        err.write(f"simdup: warning: {warning}\n")
    if args.csv:
        try:
            write_report(result, args.csv)
        except OSError as exc:
            raise UsageError(f"{args.csv}: {exc.strerror or exc}") from None
    else:
        out.write(report_text(result))
    err.write(("\r" if not args.quiet and err.isatty() else "") + _summary(result) + "\n")
    return 1 if result.cancelled else 0


def _write_pairs(pairs: Pairs, stream: TextIO) -> None:
    stream.write("i,j,distance\n")
    step = 1 << 20
    for lo in range(0, len(pairs), step):
        rows = zip(
            pairs.i[lo : lo + step].tolist(),
            pairs.j[lo : lo + step].tolist(),
            pairs.distance[lo : lo + step].tolist(),
            strict=True,
        )
        stream.write("".join(f"{i},{j},{d}\n" for i, j, d in rows))


def run_pairs(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup pairs``."""
    if args.out:
        _check_output(args.out, [args.file])
    fps = load_fingerprints(args.file)
    started = time.perf_counter()
    pairs = all_pairs(fps, args.k, jobs=args.jobs)
    seconds = time.perf_counter() - started
    if args.out:
        write_atomically(args.out, lambda stream: _write_pairs(pairs, stream))
    else:
        _write_pairs(pairs, out)
    err.write(
        f"simdup: {len(pairs)} pairs within k={args.k} among {len(fps)} fingerprints"
        f" in {seconds:.2f} s\n"
    )
    return 0


def run_query(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup query``."""
    queries = []
    for text in args.fingerprints:
        try:
            queries.append(parse_fingerprint(text))
        except ValueError as exc:
            raise UsageError(f"query: {exc}") from None
    index = FingerprintIndex(load_fingerprints(args.file), args.k)
    out.write("query,index,distance\n")
    for text, fp in zip(args.fingerprints, queries, strict=True):
        ids, dist = index.query(fp, args.k)
        out.write(
            "".join(f"{text},{i},{d}\n" for i, d in zip(ids.tolist(), dist.tolist(), strict=True))
        )
        err.write(f"simdup: {text}: {len(ids)} within k={args.k}\n")
    return 0


def run_cache(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup cache``."""
    path = default_cache_path()
    if args.action == "path":
        out.write(f"{path}\n")
        return 0
    cache = FingerprintCache(path)
    try:
        count = cache.clear()
    finally:
        cache.close()
    err.write(f"simdup: forgot {count} cached fingerprints ({path})\n")
    return 0


COMMANDS = {"scan": run_scan, "pairs": run_pairs, "query": run_query, "cache": run_cache}


def main(
    argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run the command line; return the exit code."""
    out, err = out or sys.stdout, err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args, out, err)
    except (UsageError, FingerprintFileError) as exc:
        err.write(f"simdup: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        err.write("simdup: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
