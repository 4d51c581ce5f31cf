"""Print the characters OpenCC's t2s changes only inside a phrase (``normalize.PHRASE_ONLY``).

Run when OpenCC changes: ``pip install marisa-trie && python tools/opencc_phrase_chars.py``,
then add its line to ``PHRASE_ONLY`` in ``simdup_gui/engine/text/normalize.py``.

A text whose characters t2s leaves alone, each by itself, is still changed where it holds a
phrase of t2s's dictionaries that converts otherwise: 沈默 becomes 沉默, though 沈 alone stays
(a surname). The fingerprints skip OpenCC for a text in which no character may change, so
they need every such character: the ones at the places a phrase's conversion changes, in the
phrases holding no character that changes alone (a text holding one of those is converted
anyway). It checks that t2s changes no character but ideographs (``may_convert`` looks at
no other). The dictionaries (``*.ocd2``) are marisa tries followed by their values; the keys are
read with ``marisa-trie`` (a tool-time dependency only) and each converted by OpenCC itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import marisa_trie
import opencc

from simdup_gui.engine.text.normalize import has_cjk

HEADER = b"OPENCC_MARISA_0.2.5"  # an .ocd2 file's first bytes; the trie follows


def dictionaries() -> list[Path]:
    """The .ocd2 files t2s reads (its normalisation and its conversion chain)."""
    share = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    config = json.loads((share / "t2s.json").read_text(encoding="utf-8"))
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "ocd2":
                found.append(node["file"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(config)
    return [share / name for name in found]


def keys(path: Path) -> list[str]:
    """The keys of one .ocd2 dictionary."""
    data = path.read_bytes()
    if not data.startswith(HEADER):
        raise SystemExit(f"{path}: not an OpenCC marisa dictionary")
    trie = marisa_trie.Trie()
    trie.frombytes(data[len(HEADER) :])
    return trie.keys()


def main() -> None:
    """Print ``PHRASE_ONLY``'s line for the installed OpenCC."""
    convert = opencc.OpenCC("t2s").convert
    entries = [key for path in dictionaries() for key in keys(path)]
    alone = {char for key in entries for char in key if convert(char) != char}
    only: set[str] = set()
    for key in entries:
        value = convert(key)  # the key is the whole text: its own entry is the longest match
        if value == key or set(key) & alone:
            continue
        if len(value) == len(key):
            only.update(a for a, b in zip(key, value, strict=True) if a != b)
        else:
            only.update(key)
    others = sorted(c for c in alone | only if ord(c) < 0x10000 and not has_cjk(c))
    if others:  # may_convert looks at ideographs only
        raise SystemExit(f"t2s changes characters that are no ideographs: {''.join(others)}")
    print(f'    "{opencc.__version__}": "{"".join(sorted(only))}",')


if __name__ == "__main__":
    main()
