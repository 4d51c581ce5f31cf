"""The reuse report on rewrites written by hand, in folders of ``../shared/eval``'s articles.

    python tests/bench/bench_rewrites.py [--unrelated 120] [--seed 52]

``tests/engine/rewrites/eval-zh.txt`` and ``eval-en.txt`` hold 40 passages of the corpus's
articles (20 Chinese, 20 English), each with a light rewrite (synonyms, a phrase dropped or
added, clauses moved) and a heavy one (retold: sentences merged, split and reordered, most
words changed), written by hand. For each kind, one folder holds the 40 source articles as the
corpus has them, each rewrite inside an article of its own (the opening and closing paragraphs
of a corpus article the folder does not otherwise hold) and ``--unrelated`` other articles of
the corpus; ``simdup reuse`` runs on it with its defaults.

Printed, by kind and language: recall (the rewrite's article names its source), the share the
report gives that source against the rewrite's share of its article (counted: its characters,
whitespace left out), and every other source named for a rewrite's article (false sources),
and the rows among the corpus's own articles with and without the rewrites (none may appear).
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import re
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "engine")]

from bench_accuracy import EVAL, load_truth  # noqa: E402
from test_retold import cases  # noqa: E402  (the rewrites, as the test reads them)

from simdup_gui.cli import main  # noqa: E402
from simdup_gui.engine.fingerprint.pipeline import extract_text  # noqa: E402

KINDS = ("light", "heavy")


def counted(text: str) -> int:
    return len(re.sub(r"\s+", "", text))


def paragraphs(path: Path) -> list[str]:
    text = extract_text(path.read_bytes(), str(path)).text
    return [p for p in re.split(r"\n\s*\n|\n", text) if counted(p) >= 20]


def reuse_rows(folder: Path) -> list[dict[str, str]]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["reuse", str(folder), "--no-cache"], out, err)
    if code != 0:
        raise SystemExit(err.getvalue())
    return list(csv.DictReader(io.StringIO(out.getvalue())))


def run(
    kind: str | None, unrelated: list[str], fillers: list[str], all_cases: list[dict[str, str]]
) -> tuple[dict[str, tuple[str, float, str]], list[dict[str, str]]]:
    """One folder's report: each rewrite's article (its source, share, language), the rows."""
    folder = Path(tempfile.mkdtemp(prefix=f"rewrites-{kind}-"))
    try:
        for path in [case["path"] for case in all_cases] + unrelated:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(EVAL / "corpus" / path, target)
        truth: dict[str, tuple[str, float, str]] = {}
        if kind:
            by_language = defaultdict(list)
            for path in fillers:
                by_language[load_truth()[path]["lang"]].append(path)
            for n, case in enumerate(all_cases):
                own = paragraphs(EVAL / "corpus" / by_language[case["language"]].pop())
                article = "\n\n".join([*own[:2], case[kind], *own[-1:]])
                name = f"copy-{case['language']}-{n:02d}.txt"
                (folder / name).write_text(article, "utf-8")
                share = counted(case[kind]) / counted(article)
                truth[name] = (case["path"], share, case["language"])
        return truth, reuse_rows(folder)
    finally:
        shutil.rmtree(folder)


def main_() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unrelated", type=int, default=120)
    parser.add_argument("--seed", type=int, default=52)
    args = parser.parse_args()
    all_cases = cases()
    truth = load_truth()
    sources = {case["path"] for case in all_cases}
    clusters = {truth[path]["cluster_id"] for path in sources}
    originals = sorted(
        path
        for path, row in truth.items()
        if row["role"] == "original" and row["cluster_id"] not in clusters
    )
    rng = random.Random(args.seed)
    rng.shuffle(originals)
    fillers = [p for p in originals if truth[p]["format"] == "txt"][:200]
    unrelated = [p for p in originals if p not in fillers][: args.unrelated]
    _, rows = run(None, unrelated, fillers, all_cases)
    base_rows = {(r["path"], r["source"]) for r in rows if r["source"]}
    print(f"rows among the corpus's articles alone: {len(base_rows)}")
    for kind in KINDS:
        truth_of, rows = run(kind, unrelated, fillers, all_cases)
        by_language = defaultdict(lambda: [0, 0, [], 0])
        for name, (source, share, language) in truth_of.items():
            found = {
                source_path: got
                for (path, source_path), got in (
                    ((r["path"], r["source"]), float(r["share"])) for r in rows if r["source"]
                )
                if Path(path).name == name
            }
            tally = by_language[language]
            tally[1] += 1
            hit = [got for source_path, got in found.items() if source_path.endswith(source)]
            if hit:
                tally[0] += 1
                tally[2].append(hit[0] / share)
            tally[3] += sum(1 for source_path in found if not source_path.endswith(source))
        other = {
            (r["path"], r["source"])
            for r in rows
            if r["source"] and "copy-" not in r["path"] and "copy-" not in r["source"]
        }
        for language, (hits, total, ratios, false) in sorted(by_language.items()):
            mean = sum(ratios) / len(ratios) if ratios else 0.0
            print(
                f"{kind:5s} {language}: source named {hits}/{total} (R {hits / total:.2f}),"
                f" share found / written {mean:.2f}, false sources {false}"
            )
        print(f"{kind:5s} rows among the corpus's articles: {len(other)} (alone: {len(base_rows)})")


if __name__ == "__main__":
    main_()
