"""simdup against its peers on ``../shared/eval``, in one run on one machine.

    python tests/bench/bench_peers.py

Every method gets the same input: each file decoded and HTML-stripped by simdup (decoding is
not what is compared). Then, single-threaded:

* simdup — fingerprint (normalise, tokenize, simhash, sketch; 32 files a batch, as a scan
  does) and find the verified pairs (default k and similarity floor; the pair graph links an
  exact copy to its first copy only, so each copy of a pair's ends is counted too);
* simdup brute force — the same fingerprints and floor, every pair compared;
* ``simhash`` (PyPI 2.1.2) — its own tokenizer (``Simhash(text)``) and ``SimhashIndex`` at k = 3
  (texts whose feature counts overflow its uint8 weights under numpy 2 are given their own
  features with counts capped at 255);
* ``datasketch`` MinHash (128 permutations, 5-character shingles) + ``MinHashLSH`` at 0.5, the
  corpus README's best MinHash setting, candidates confirmed by the estimated Jaccard.

Pairs are scored pairwise against ``truth.csv`` (no group closure, so all four are alike).
Ratios are theirs / ours: above 1 means simdup is faster.
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_accuracy import EVAL, load_truth, prf, true_pairs  # noqa: E402

from simdup_gui.engine.fingerprint.pipeline import analyze_many, extract_text  # noqa: E402
from simdup_gui.engine.match.default_measure import similarity  # noqa: E402
from simdup_gui.engine.match.index import brute_force_pairs  # noqa: E402
from simdup_gui.engine.match.matching import group_files  # noqa: E402
from simdup_gui.engine.options import ScanOptions  # noqa: E402
from simdup_gui.engine.records import FileRecord  # noqa: E402
from simdup_gui.engine.run.batches import BATCH_FILES  # noqa: E402

Pair = tuple[str, str]


def ours(names: list[str], texts: list[str]) -> tuple[set[Pair], float, float, set[Pair], float]:
    options = ScanOptions()
    start = time.perf_counter()
    analyses = [  # in batches, as a scan does
        analysis
        for lo in range(0, len(texts), BATCH_FILES)
        for analysis in analyze_many(texts[lo : lo + BATCH_FILES], options.read.text)
    ]
    records = [
        FileRecord(
            name,
            chars=len(text),
            fingerprint=analysis.fingerprint,
            sketch=analysis.sketch,
            lead=analysis.lead_fingerprint,
        )
        for name, text, analysis in zip(names, texts, analyses, strict=True)
    ]
    fingerprinting = time.perf_counter() - start
    files = tuple(records)
    start = time.perf_counter()
    pairs, _ = group_files(files, options.group)
    pairing = time.perf_counter() - start
    copies = _copies(files)
    found = {
        tuple(sorted((names[a], names[b])))
        for i, j in zip(pairs.i.tolist(), pairs.j.tolist(), strict=True)
        for a, b in itertools.product(copies[i], copies[j])
        if a != b
    }
    start = time.perf_counter()
    fps = np.array([r.fingerprint for r in files], dtype=np.uint64)
    brute = brute_force_pairs(fps, options.group.k)
    brute_found = {
        tuple(sorted((names[i], names[j])))
        for i, j in zip(brute.i.tolist(), brute.j.tolist(), strict=True)
        if similarity(files[i], files[j]) >= options.group.min_similarity
    }
    brute_s = time.perf_counter() - start
    return found, fingerprinting, pairing, brute_found, brute_s  # type: ignore[return-value]


def _copies(files: tuple[FileRecord, ...]) -> list[list[int]]:
    """Each file's exact copies (same fingerprints and sketch), itself included.

    The pair graph links an exact copy to its first copy only (the groups are its components);
    a pairwise score without group closure must count each copy of a pair's ends as well.
    """
    classes: dict[tuple[int | None, int | None, bytes], list[int]] = {}
    for n, f in enumerate(files):
        classes.setdefault((f.fingerprint, f.lead, f.sketch), []).append(n)
    return [classes[(f.fingerprint, f.lead, f.sketch)] for f in files]


def simhash_pypi(names: list[str], texts: list[str]) -> tuple[set[Pair], float, float]:
    import logging

    from simhash import Simhash, SimhashIndex

    logging.getLogger("simhash").setLevel(logging.ERROR)

    def fingerprint(text: str) -> Simhash:
        try:
            return Simhash(text)
        except OverflowError:  # its numpy-2 bug: a feature weight over 255 (README of shared/)
            counts = Counter(Simhash("")._tokenize(text))
            return Simhash({feature: min(count, 255) for feature, count in counts.items()})

    start = time.perf_counter()
    hashes = [fingerprint(text) for text in texts]
    fingerprinting = time.perf_counter() - start
    start = time.perf_counter()
    index = SimhashIndex([(str(n), h) for n, h in enumerate(hashes)], k=3)
    found = set()
    for n, h in enumerate(hashes):
        for other in index.get_near_dups(h):
            if int(other) != n:
                found.add(tuple(sorted((names[n], names[int(other)]))))
    return found, fingerprinting, time.perf_counter() - start  # type: ignore[return-value]


def minhash_lsh(names: list[str], texts: list[str]) -> tuple[set[Pair], float, float]:
    from datasketch import MinHash, MinHashLSH

    start = time.perf_counter()
    sketches = []
    for text in texts:
        flat = re.sub(r"\s+", " ", text.lower()).strip()
        shingles = {flat[i : i + 5].encode("utf-8") for i in range(max(1, len(flat) - 4))}
        sketch = MinHash(num_perm=128, seed=1)
        sketch.update_batch(list(shingles))
        sketches.append(sketch)
    fingerprinting = time.perf_counter() - start
    start = time.perf_counter()
    lsh = MinHashLSH(threshold=0.5, num_perm=128)
    for n, sketch in enumerate(sketches):
        lsh.insert(str(n), sketch)
    found = set()
    for n, sketch in enumerate(sketches):
        for other in lsh.query(sketch):
            m = int(other)
            if m != n and sketch.jaccard(sketches[m]) >= 0.5:
                found.add(tuple(sorted((names[n], names[m]))))
    return found, fingerprinting, time.perf_counter() - start  # type: ignore[return-value]


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
    found, fp_s, pair_s, brute_found, brute_s = ours(names, texts)
    rows = [("simdup (defaults)", found, fp_s, pair_s)]
    rows.append(("simdup, brute-force pairs", brute_found, fp_s, brute_s))
    rows.append(("simhash PyPI, SimhashIndex k=3", *simhash_pypi(names, texts)))
    rows.append(("datasketch MinHash + LSH, J>=0.5", *minhash_lsh(names, texts)))
    print("| method | P | R | F1 | fingerprinting MB/s | × | all pairs (s) | × |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, pairs, fingerprinting, pairing in rows:
        p, r, f = prf(pairs, wanted)
        print(
            f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} | {megabytes / fingerprinting:.2f}"
            f" | {fingerprinting / fp_s:.1f} | {pairing:.3f} | {pairing / pair_s:.1f} |"
        )
    print("\n× = that method's time / simdup's (fingerprinting and all pairs separately)")


if __name__ == "__main__":
    main()
