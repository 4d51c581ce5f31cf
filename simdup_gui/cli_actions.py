"""``simdup apply``, ``restore`` and ``ignore``: act on a report, undo it, keep pairs apart."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from simdup_gui.cli_common import (
    UsageError,
    add_method_options,
    add_text_options,
    check_output,
    max_bytes,
    text_settings,
)
from simdup_gui.core import not_duplicates
from simdup_gui.engine.fingerprint.file_records import fingerprint_now
from simdup_gui.engine.options import ReadOptions, TextSettings
from simdup_gui.engine.output.actions import Manifest, act, manifest_path, restore
from simdup_gui.engine.output.outputs import output_problem
from simdup_gui.engine.output.report import ReportError, report_duplicates, report_method
from simdup_gui.engine.output.words import counted
from simdup_gui.engine.read.walk import display_path


def add_action_parsers(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``apply``, ``restore`` and ``ignore``."""
    p = sub.add_parser(
        "apply", help="move or trash a report's duplicates (never a reference), re-checked"
    )
    p.add_argument("report", help="a CSV report of simdup scan (or the app's Export)")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--move-to", metavar="DIR", help="move them here, keeping their folders")
    how.add_argument("--trash", action="store_true", help="send them to the trash (recoverably)")
    p.add_argument("--dry-run", action="store_true", help="say what would be done, do nothing")
    p.add_argument("--manifest", metavar="FILE", help="where to record what is done")
    add_text_options(p)  # the scan's, so each file's fingerprint can be checked again
    add_method_options(p, pairing=False)
    p = sub.add_parser("restore", help="undo what a manifest records (moves and trash)")
    p.add_argument("manifest")
    p.add_argument("--dry-run", action="store_true", help="say what would be done, do nothing")
    p = sub.add_parser("ignore", help="pairs of files that are not duplicates (kept apart)")
    p.add_argument("action", choices=["add", "list", "remove", "clear"])
    p.add_argument("paths", nargs="*", metavar="FILE", help="the two files of a pair")


def run_apply(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup apply``."""
    try:
        files = [
            f._replace(path=os.path.abspath(f.path), reference=os.path.abspath(f.reference))
            for f in report_duplicates(args.report)
        ]
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    named = [f.path for f in files] + [f.reference for f in files]
    root = os.path.commonpath(named) if named else os.getcwd()
    root = root if os.path.isdir(root) else os.path.dirname(root)
    if args.move_to:
        problem = output_problem(args.move_to, [root, args.report], folder=True)
        if problem:
            raise UsageError(problem)
    options = ReadOptions(_report_settings(args), max_bytes(args))

    manifest = None
    if not args.dry_run:
        manifest = _open_manifest(args.manifest, args.move_to, [root, args.report])
    try:
        outcomes = act(
            files,
            manifest,
            move_to=args.move_to,
            root=root,
            fingerprint_of=fingerprint_now(options),
            dry_run=args.dry_run,
        )
    finally:
        if manifest is not None:
            manifest.close()
    done = "moved" if args.move_to else "trashed"
    if args.dry_run:
        done = "would move" if args.move_to else "would trash"
    for o in outcomes:
        if o.error:
            err.write(f"simdup: {o.action} {display_path(o.path)}: {o.error}\n")
        elif args.dry_run:
            where = f" -> {display_path(o.destination)}" if o.destination else ""
            err.write(f"simdup: {o.action} {display_path(o.path)}{where}\n")
    counts = Counter(o.action for o in outcomes)
    where = f" (manifest: {manifest.path})" if manifest is not None else " (dry run: nothing done)"
    err.write(
        f"simdup: {done} {counts[done]}, skipped {counts['skipped']},"
        f" failed {counts['failed']}{where}\n"
    )
    return 0 if not counts["failed"] else 1


def _report_settings(args: argparse.Namespace) -> TextSettings:
    """The text settings to check files with: the options', with the report's method."""
    settings = text_settings(args)
    try:
        made_with = report_method(args.report)
    except ReportError as exc:
        raise UsageError(str(exc)) from None
    if args.method == "default":  # not given: the report's
        return replace(settings, method=made_with)
    if settings.method.read_settings != made_with.read_settings:
        made = made_with.note() or "the default method"
        raise UsageError(f"{args.report}: made with {made}, not --method {args.method}")
    return settings


def _open_manifest(path: str | None, move_to: str | None, inputs: list[str]) -> Manifest:
    """The manifest, created before anything is done (a file that cannot be is exit 2)."""
    try:
        if path is None and move_to is not None:
            os.makedirs(move_to, exist_ok=True)
        if path is not None:
            check_output(path, inputs)
            if os.path.lexists(path):
                raise UsageError(f"{path}: exists; a manifest is never written over a file")
        return Manifest(Path(path) if path else manifest_path(move_to))
    except OSError as exc:
        raise UsageError(f"manifest: {exc.strerror or exc}") from None


def run_restore(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup restore``."""
    try:
        outcomes = restore(args.manifest, dry_run=args.dry_run)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"{args.manifest}: {getattr(exc, 'strerror', None) or exc}") from None
    for o in outcomes:
        if o.action != "restored":
            err.write(f"simdup: {o.action} {display_path(o.path)}: {o.error}\n")
    counts = Counter(o.action for o in outcomes)
    state = " (dry run: nothing done)" if args.dry_run else ""
    err.write(
        f"simdup: restored {counts['restored']}, skipped {counts['skipped']},"
        f" failed {counts['failed']}{state}\n"
    )
    return 0 if not counts["failed"] else 1


def run_ignore(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup ignore``: the not-duplicates list the app keeps, from the command line."""
    try:
        if args.action == "list":
            if args.paths:
                raise UsageError("ignore list takes no files")
            for a, b in sorted(not_duplicates.load()):
                out.write(f"{display_path(a)}\t{display_path(b)}\n")
            return 0
        if args.action == "clear":
            pairs = not_duplicates.change(clear=True)
        else:
            if len(args.paths) != 2:
                raise UsageError(f"ignore {args.action}: give the two files of a pair")
            pair = not_duplicates.pair_of(*(os.path.abspath(p) for p in args.paths))
            if args.action == "add":
                pairs = not_duplicates.change(add=[pair])
            elif pair in not_duplicates.load():
                pairs = not_duplicates.change(remove=[pair])
            else:
                a, b = pair
                raise UsageError(
                    f"ignore remove: {display_path(a)} and {display_path(b)}: no such pair"
                )
    except not_duplicates.NotDuplicatesError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        path = not_duplicates.default_path()
        raise UsageError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    kept = counted(len(pairs), "pair")
    err.write(f"simdup: {kept} kept apart ({not_duplicates.default_path()})\n")
    return 0
