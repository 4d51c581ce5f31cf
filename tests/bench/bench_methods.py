"""Every fingerprint method (``--method``) and the peers on ``../shared/eval``, in one run.

    python tests/bench/bench_methods.py

Every method gets the same input: each file decoded and HTML-stripped by simdup. Then, on one
thread, each method fingerprints the texts (32 files a batch, as a scan does) and groups them
at its defaults (``group_files``: candidates, the method's own similarity and floor, clusters
around a reference). Pairs are every two files in one group, as ``score.py`` counts a report;
the peers (``simhash`` PyPI, datasketch MinHash + LSH, from ``bench_peers``) have no groups:
their pairs are scored as found. Pairing time is seconds for the whole corpus.

The second table is each method's recall by the corpus's transform: where a method is weak.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_accuracy import EVAL, load_truth, prf, true_pairs  # noqa: E402
from bench_peers import minhash_lsh, simhash_pypi  # noqa: E402

from simdup_gui.engine.fingerprint.pipeline import analyze_many, extract_text  # noqa: E402
from simdup_gui.engine.match.matching import group_files  # noqa: E402
from simdup_gui.engine.methods import NAMES, FingerprintMethod, method_named  # noqa: E402
from simdup_gui.engine.options import GroupOptions, TextSettings  # noqa: E402
from simdup_gui.engine.records import FileRecord  # noqa: E402
from simdup_gui.engine.run.batches import BATCH_FILES  # noqa: E402

Pair = tuple[str, str]


def fingerprinted(
    names: list[str], texts: list[str], method: FingerprintMethod
) -> list[FileRecord]:
    """Each text's record under ``method``, in batches as a scan makes them."""
    settings = TextSettings(method=method)
    records = []
    for lo in range(0, len(texts), BATCH_FILES):
        batch = texts[lo : lo + BATCH_FILES]
        if method.words:
            fields = [
                {"fingerprint": a.fingerprint, "sketch": a.sketch, "lead": a.lead_fingerprint}
                for a in analyze_many(batch, settings)
            ]
        else:
            fields = [
                {"fingerprint": s.fingerprint, "signature": s.signature}
                for s in method.signatures(batch)
            ]
        records += [
            FileRecord(name, chars=len("".join(text.split())), **made)
            for name, text, made in zip(names[lo : lo + BATCH_FILES], batch, fields, strict=True)
        ]
    return records


def grouped_pairs(
    files: tuple[FileRecord, ...], method: FingerprintMethod
) -> tuple[set[Pair], float]:
    """Every pair of files sharing a group at the method's defaults, and the seconds it took."""
    start = time.perf_counter()
    _, groups = group_files(files, GroupOptions(min_similarity=method.floor), method)
    seconds = time.perf_counter() - start
    pairs = set()
    for group in groups:
        names = sorted(files[m.file].path for m in group.members)
        pairs.update(itertools.combinations(names, 2))
    return pairs, seconds  # type: ignore[return-value]


def main() -> None:
    truth = load_truth()
    wanted = true_pairs(truth)
    root = EVAL / "corpus"
    names, texts = [], []
    for name in sorted(truth):
        names.append(name)
        texts.append(extract_text((root / name).read_bytes(), name).text)
    megabytes = sum(len(t.encode("utf-8")) for t in texts) / 1e6
    print(f"# {len(texts)} files, {megabytes:.1f} MB of stripped text, one thread\n")
    for name in NAMES:  # load what each needs (dictionaries, tables, kernels) first
        method = method_named(name)
        grouped_pairs(tuple(fingerprinted(names[:40], texts[:40], method)), method)
    rows, found_by = [], {}
    for name in NAMES:
        method = method_named(name)
        start = time.perf_counter()
        files = tuple(fingerprinted(names, texts, method))
        fingerprinting = time.perf_counter() - start
        found, pairing = grouped_pairs(files, method)
        found_by[name] = found
        rows.append((f"simdup --method {name}", found, fingerprinting, pairing))
    rows.append(("simhash PyPI, SimhashIndex k=3", *simhash_pypi(names, texts)))
    rows.append(("datasketch MinHash + LSH, J>=0.5", *minhash_lsh(names, texts)))
    print("| method | P | R | F1 | fingerprinting MB/s | pairing (s) |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, pairs, fingerprinting, pairing in rows:
        p, r, f = prf(pairs, wanted)
        print(
            f"| {label} | {p:.3f} | {r:.3f} | {f:.3f} | {megabytes / fingerprinting:.2f}"
            f" | {pairing:.3f} |"
        )
    print("\nRecall by transform (the corpus's label of the copy in each true pair):\n")
    by_transform: dict[str, set[Pair]] = defaultdict(set)
    for a, b in wanted:
        kinds = {truth[a]["transform"], truth[b]["transform"]} - {"original"}
        by_transform[kinds.pop() if len(kinds) == 1 else "two copies"].add((a, b))
    print("| transform | pairs | " + " | ".join(NAMES) + " |")
    print("|---|---:|" + "---:|" * len(NAMES))
    for transform, pairs in sorted(by_transform.items()):
        recalls = [len(pairs & found_by[m]) / len(pairs) for m in NAMES]
        print(f"| {transform} | {len(pairs)} | " + " | ".join(f"{r:.2f}" for r in recalls) + " |")
    print("\nFalse pairs by method (files of different clusters grouped):")
    for name in NAMES:
        wrong = found_by[name] - wanted
        print(f"- {name}: {len(wrong)}")


if __name__ == "__main__":
    main()
