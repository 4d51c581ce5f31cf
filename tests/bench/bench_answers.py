"""The reuse report on short answers written by hand to one question (a topic held constant).

    python tests/bench/bench_answers.py [--unrelated 40] [--languages en zh]

``tests/engine/rewrites/answers-en.txt`` and ``answers-zh.txt`` each hold a ``../shared/eval``
article (the source) and answers to one question about it, written by hand as the public
corpora of real copying have them: cut from the source, lightly revised, heavily revised, or
written without it on the same topic. One folder per language holds the source, the answers
and ``--unrelated`` other articles of the corpus in that language; ``simdup reuse`` runs with
its defaults.

Printed, by kind: how many answers name the source, their total shares, any other source
named; the decision's accuracy and precision (the source named for a copy, nothing for an
answer written without it); and the AUC of the total share, copied against not copied, beside
that of a plain 3-gram containment in the source (words; in Chinese, characters: the
corpora's baseline).
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

SOURCES = {"en": "d05/17d62f92fc.txt", "zh": "d00/4316109542.txt"}


def trigrams(text: str, language: str) -> set[tuple[str, ...]]:
    """The text's runs of three words (of three characters in Chinese, punctuation left out)."""
    units = re.findall(r"\w+", text.lower()) if language == "en" else re.findall(r"\w", text)
    return {tuple(units[n : n + 3]) for n in range(len(units) - 2)}


def auc(positive: list[float], negative: list[float]) -> float:
    """The chance a copied answer scores above one written without the source (ties: half)."""
    pairs = [(p > n) + 0.5 * (p == n) for p in positive for n in negative]
    return sum(pairs) / len(pairs)


def reuse_rows(language: str, written: dict[str, str], unrelated: int) -> list[dict[str, str]]:
    """The reuse report's rows naming a source, for a folder of the source, answers, others."""
    source, truth = SOURCES[language], load_truth()
    others = sorted(
        path
        for path, row in truth.items()
        if row["lang"] == language and row["role"] == "original" and path != source
    )[:unrelated]
    folder = Path(tempfile.mkdtemp(prefix="answers-"))
    try:
        for path in others:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(EVAL / "corpus" / path, folder / path)
        (folder / source).parent.mkdir(parents=True, exist_ok=True)
        (folder / source).write_text(written["source"] + "\n", "utf-8")
        for name, text in written.items():
            if name != "source":
                (folder / f"{name}.txt").write_text(text + "\n", "utf-8")
        out, err = io.StringIO(), io.StringIO()
        if main(["reuse", str(folder), "--no-cache", "--quiet"], out, err) != 0:
            raise SystemExit(err.getvalue())
        return [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["source"]]
    finally:
        shutil.rmtree(folder)


def report(language: str, unrelated: int) -> None:
    """Print one language's figures."""
    written = answers(language)
    rows = reuse_rows(language, written, unrelated)
    source_text, source = written.pop("source"), SOURCES[language]
    ours, baseline, named, wrong = {}, {}, {}, []
    for name, text in written.items():
        mine = [r for r in rows if Path(r["path"]).stem == name]
        ours[name] = max((float(r["total_share"]) for r in mine), default=0.0)
        named[name] = any(r["source"].endswith(source) for r in mine)
        wrong += [(name, Path(r["source"]).name) for r in mine if not r["source"].endswith(source)]
        grams = trigrams(text, language)
        baseline[name] = len(grams & trigrams(source_text, language)) / max(len(grams), 1)
    for kind in ("cut", "light", "heavy", "non"):
        names = [name for name in written if name.startswith(kind)]
        print(
            f"{language} {kind:5s}: source named {sum(named[n] for n in names)}/{len(names)};"
            f" total shares {', '.join(f'{ours[n]:.2f}' for n in names)};"
            f" 3-gram containment {', '.join(f'{baseline[n]:.2f}' for n in names)}"
        )
    copied = [n for n in written if not n.startswith("non")]
    non = [n for n in written if n.startswith("non")]
    right = sum(named[n] for n in copied) + sum(not named[n] for n in non)
    claims = sum(named.values()) + len(wrong)
    print(
        f"{language} accuracy {right / len(written):.2f}, precision"
        f" {sum(named[n] for n in copied) / max(claims, 1):.2f}, other sources named: {wrong}"
    )
    ours_auc = auc([ours[n] for n in copied], [ours[n] for n in non])
    base_auc = auc([baseline[n] for n in copied], [baseline[n] for n in non])
    print(f"{language} AUC of the total share {ours_auc:.3f}; 3-gram containment {base_auc:.3f}")
    corpus_rows = [r for r in rows if Path(r["path"]).stem not in written]
    named_rows = [(Path(r["path"]).name, Path(r["source"]).name) for r in corpus_rows]
    print(f"{language} rows among the corpus's articles: {len(corpus_rows)} {named_rows}")


def main_() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unrelated", type=int, default=40)
    parser.add_argument("--languages", nargs="*", default=["en", "zh"])
    args = parser.parse_args()
    for language in args.languages:
        report(language, args.unrelated)


if __name__ == "__main__":
    main_()
