"""The reuse report on short answers written by hand to one question (a topic held constant).

    python tests/bench/bench_answers.py [--unrelated 40]

``tests/engine/rewrites/answers-en.txt`` holds a ``../shared/eval`` article (the source) and
answers to one question about it, written by hand as the public corpora of real copying have
them:
cut from the source, lightly revised, heavily revised, or written without it on the same
topic. One folder holds the source, the answers and ``--unrelated`` other English articles of
the corpus; ``simdup reuse`` runs with its defaults.

Printed, by kind: how many answers name the source, their total shares, any other source
named; the decision's accuracy and precision (the source named for a copy, nothing for an
answer written without it); and the AUC of the total share, copied against not copied, beside
that of a plain word 3-gram containment in the source (the corpora's baseline).
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "engine")]

from bench_accuracy import EVAL, load_truth  # noqa: E402
from test_retold import answers  # noqa: E402  (the answers, as the test reads them)

from simdup_gui.cli import main  # noqa: E402

SOURCE = "d05/17d62f92fc.txt"


def trigrams(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[n : n + 3]) for n in range(len(words) - 2)}


def auc(positive: list[float], negative: list[float]) -> float:
    """The chance a copied answer scores above one written without the source (ties: half)."""
    pairs = [(p > n) + 0.5 * (p == n) for p in positive for n in negative]
    return sum(pairs) / len(pairs)


def main_() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unrelated", type=int, default=40)
    args = parser.parse_args()
    truth = load_truth()
    others = sorted(
        path
        for path, row in truth.items()
        if row["lang"] == "en" and row["role"] == "original" and path != SOURCE
    )[: args.unrelated]
    written = answers()
    source_text = written.pop("source")
    folder = Path(tempfile.mkdtemp(prefix="answers-"))
    try:
        for path in others:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(EVAL / "corpus" / path, folder / path)
        (folder / SOURCE).parent.mkdir(parents=True, exist_ok=True)
        (folder / SOURCE).write_text(source_text + "\n", "utf-8")
        for name, text in written.items():
            (folder / f"{name}.txt").write_text(text + "\n", "utf-8")
        out, err = io.StringIO(), io.StringIO()
        if main(["reuse", str(folder), "--no-cache", "--quiet"], out, err) != 0:
            raise SystemExit(err.getvalue())
        rows = [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]
    finally:
        shutil.rmtree(folder)
    ours, baseline, named, wrong = {}, {}, {}, []
    for name, text in written.items():
        mine = [r for r in rows if Path(r["path"]).stem == name]
        ours[name] = max((float(r["total_share"]) for r in mine), default=0.0)
        named[name] = any(r["source"].endswith(SOURCE) for r in mine)
        wrong += [(name, Path(r["source"]).name) for r in mine if not r["source"].endswith(SOURCE)]
        grams = trigrams(text)
        baseline[name] = len(grams & trigrams(source_text)) / max(len(grams), 1)
    for kind in ("cut", "light", "heavy", "non"):
        names = [name for name in written if name.startswith(kind)]
        print(
            f"{kind:5s}: source named {sum(named[n] for n in names)}/{len(names)};"
            f" total shares {', '.join(f'{ours[n]:.2f}' for n in names)};"
            f" 3-gram containment {', '.join(f'{baseline[n]:.2f}' for n in names)}"
        )
    copied = [n for n in written if not n.startswith("non")]
    non = [n for n in written if n.startswith("non")]
    right = sum(named[n] for n in copied) + sum(not named[n] for n in non)
    claims = sum(named.values()) + len(wrong)
    print(
        f"accuracy {right / len(written):.2f}, precision"
        f" {sum(named[n] for n in copied) / max(claims, 1):.2f}, other sources named: {wrong}"
    )
    ours_auc = auc([ours[n] for n in copied], [ours[n] for n in non])
    base_auc = auc([baseline[n] for n in copied], [baseline[n] for n in non])
    print(f"AUC of the total share {ours_auc:.3f}; of the 3-gram containment {base_auc:.3f}")
    corpus_rows = [r for r in rows if Path(r["path"]).stem not in written]
    named_rows = [(Path(r["path"]).name, Path(r["source"]).name) for r in corpus_rows]
    print(f"rows among the corpus's articles: {len(corpus_rows)} {named_rows}")


if __name__ == "__main__":
    main_()
