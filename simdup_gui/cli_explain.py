"""``simdup explain A B``: which words pushed each bit where two files' fingerprints differ."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from simdup_gui.cli_common import UsageError, add_text_options, max_bytes, text_settings
from simdup_gui.engine.fingerprint.explain import WORDS, explain
from simdup_gui.engine.fingerprint.file_records import read_text
from simdup_gui.engine.options import ReadOptions
from simdup_gui.engine.read.walk import display_path


def add_explain_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``simdup explain A B [--json] [--words N]``."""
    p = sub.add_parser("explain", help="the words that pushed each bit two fingerprints differ in")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--words", type=_words, default=WORDS, help="words listed per bit (1-50)")
    add_text_options(p)


def _words(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text}") from None
    if not 1 <= value <= 50:
        raise argparse.ArgumentTypeError(f"from 1 to 50, not {value}")
    return value


def run_explain(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``simdup explain``: text or JSON on standard output."""
    settings = text_settings(args)
    options = ReadOptions(settings, max_bytes(args))
    texts = []
    for path in (args.a, args.b):
        try:
            texts.append(read_text(path, options))
        except (OSError, ValueError) as exc:
            raise UsageError(f"{path}: {getattr(exc, 'strerror', None) or exc}") from None
    found = explain(texts[0], texts[1], settings, args.words)
    if args.json:
        json.dump(found.as_json(), out, ensure_ascii=False)
        out.write("\n")
        return 0
    out.write(
        f"A {display_path(args.a)}  0x{found.a_fingerprint:016x}\n"
        f"B {display_path(args.b)}  0x{found.b_fingerprint:016x}\n"
        f"distance {found.distance} of 64 bits\n"
    )
    for bit in found.bits:
        words = ", ".join(f"{w.word} ({w.a_weight:g} : {w.b_weight:g})" for w in bit.words)
        out.write(f"bit {bit.bit:2}  A={bit.a} B={bit.b}  {words}\n")
    return 0
