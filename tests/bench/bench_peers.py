"""simdup against its peers on ``../shared/eval``, in one run on one machine.

    python tests/bench/bench_peers.py

Every method gets the same input: each file decoded and HTML-stripped by simdup (decoding is
not what is compared). Then, single-threaded:

* simdup — fingerprint (normalise, tokenize, simhash, sketch; 32 files a batch, as a scan
  does; its set-up once a process — the kernels, jieba's dictionary, OpenCC, the character
  forms of the texts' characters — done before, as each of a scan's workers does at its
  start, and timed apart; the peers' imports are not timed either) and group them (default
  k and similarity floor): every two files of a group are a pair, as its report says (the
  records here have no lines, times or sizes: the kept copy and the template checks see
  less than a scan's);
* simdup brute force — the same fingerprints and floor, every pair compared;
* ``simhash`` (PyPI 2.1.2) — its own tokenizer (``Simhash(text)``) and ``SimhashIndex`` at k = 3
  (texts whose feature counts overflow its uint8 weights under numpy 2 are given their own
  features with counts capped at 255);
* ``datasketch`` MinHash (128 permutations, 5-character shingles) + ``MinHashLSH`` at 0.5, the
  corpus README's best MinHash setting, candidates confirmed by the estimated Jaccard;
* ``gaoya`` (Rust; where installed: ``pip install gaoya``) — ``SimHashStringIndex`` (64 bits,
  character 5-grams, lowercased; gaoya 0.2.2's ``hamming_distance=k`` returns distances below
  k only, so it is given k + 1 for simdup's k = 3) and ``MinHashStringIndex`` (128 hashes in
  32 bands of 4, character 5-grams, Jaccard 0.5): fingerprinting is text in, inserted;
* ``rensa`` (Rust; ``pip install rensa``) — ``RMinHash.digest_matrix_from_token_sets`` with 128
  permutations on one Rayon thread, its shingles (character 5-grams) made as fast as Python
  makes them (a set comprehension over the lowercased text), pairs by the digests' estimated
  Jaccard >= 0.5, every pair compared (its kernel alone is timed too).

Pairs are scored pairwise against ``truth.csv`` (no group closure, so all four are alike).
Ratios are theirs / ours: above 1 means simdup is faster.
"""

from __future__ import annotations

import itertools
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # rensa on one thread, as the others
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_accuracy import EVAL, load_truth, prf, true_pairs  # noqa: E402

from simdup_gui.engine.fingerprint.pipeline import (  # noqa: E402
    analyze_many,
    extract_text,
    warm_up,
)
from simdup_gui.engine.match.default_measure import similarity  # noqa: E402
from simdup_gui.engine.match.index import brute_force_pairs  # noqa: E402
from simdup_gui.engine.match.matching import group_files  # noqa: E402
from simdup_gui.engine.options import ScanOptions  # noqa: E402
from simdup_gui.engine.records import FileRecord  # noqa: E402
from simdup_gui.engine.run.batches import BATCH_FILES  # noqa: E402
from simdup_gui.engine.text.normalize import local_forms  # noqa: E402
from simdup_gui.engine.text.tokens import joined  # noqa: E402

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
    _, groups = group_files(files, options.group)
    pairing = time.perf_counter() - start
    found = {  # what the report says: every two files of a group
        tuple(sorted((names[a.file], names[b.file])))
        for group in groups
        for a, b in itertools.combinations(group.members, 2)
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


def _five_grams(text: str) -> set[str]:
    """A text's character 5-grams, lowercased, whitespace runs as one space."""
    flat = re.sub(r"\s+", " ", text.lower()).strip()
    return {flat[i : i + 5] for i in range(max(1, len(flat) - 4))}


def gaoya_simhash(names: list[str], texts: list[str], k: int = 3) -> tuple[set[Pair], float, float]:
    from gaoya.simhash import SimHashStringIndex

    index = SimHashStringIndex(  # gaoya 0.2.2 returns distances below hamming_distance only
        hash_size=64, num_blocks=6, hamming_distance=k + 1, analyzer="char", lowercase=True,
        ngram_range=(5, 5),
    )  # fmt: skip
    return _indexed(index, names, texts)


def gaoya_minhash(names: list[str], texts: list[str]) -> tuple[set[Pair], float, float]:
    from gaoya.minhash import MinHashStringIndex

    index = MinHashStringIndex(
        hash_size=32, jaccard_threshold=0.5, num_bands=32, band_size=4, analyzer="char",
        lowercase=True, ngram_range=(5, 5),
    )  # fmt: skip
    return _indexed(index, names, texts)


def _indexed(index: Any, names: list[str], texts: list[str]) -> tuple[set[Pair], float, float]:
    """A gaoya string index's pairs: each text inserted (timed), then each queried (timed)."""
    start = time.perf_counter()
    for n, text in enumerate(texts):
        index.insert_document(n, text)
    fingerprinting = time.perf_counter() - start
    start = time.perf_counter()
    found = {
        tuple(sorted((names[n], names[m])))
        for n, text in enumerate(texts)
        for m in index.query(text)
        if m != n
    }
    return found, fingerprinting, time.perf_counter() - start  # type: ignore[return-value]


def rensa_minhash(names: list[str], texts: list[str]) -> tuple[set[Pair], float, float, float]:
    """Its pairs, fingerprinting (shingles and digests), pairs' time, and its kernel's alone."""
    from rensa import RMinHash

    start = time.perf_counter()
    shingles = [list(_five_grams(text)) for text in texts]
    made = time.perf_counter()
    matrix = RMinHash.digest_matrix_from_token_sets(shingles, 128, 1)
    done = time.perf_counter()
    start_pairs = time.perf_counter()
    rows = np.array(matrix.to_rows(), dtype=np.uint64)
    found = set()
    for n in range(len(rows)):
        alike = (rows[n + 1 :] == rows[n]).mean(axis=1)
        for m in np.flatnonzero(alike >= 0.5).tolist():
            found.add(tuple(sorted((names[n], names[n + 1 + m]))))
    return found, done - start, time.perf_counter() - start_pairs, done - made  # type: ignore[return-value]


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
    started = time.perf_counter()
    warm_up(ScanOptions().read.text)
    local_forms(joined(texts)[0])  # the rows of the texts' characters (made as met)
    print(f"simdup's set-up once a process, not counted: {time.perf_counter() - started:.2f} s\n")
    found, fp_s, pair_s, brute_found, brute_s = ours(names, texts)
    rows = [("simdup (defaults)", found, fp_s, pair_s)]
    rows.append(("simdup, brute-force pairs", brute_found, fp_s, brute_s))
    rows.append(("simhash PyPI, SimhashIndex k=3", *simhash_pypi(names, texts)))
    rows.append(("datasketch MinHash + LSH, J>=0.5", *minhash_lsh(names, texts)))
    kernel = None
    try:
        rows.append(("gaoya SimHashStringIndex, char 5-grams, k=3", *gaoya_simhash(names, texts)))
        rows.append(
            ("gaoya MinHashStringIndex, char 5-grams, J>=0.5", *gaoya_minhash(names, texts))
        )
    except ImportError:
        print("(gaoya is not installed: pip install gaoya)")
    try:
        found_r, fp_r, pairs_r, kernel = rensa_minhash(names, texts)
        rows.append(("rensa RMinHash, 128 perm, J>=0.5 (Python shingles)", found_r, fp_r, pairs_r))
    except ImportError:
        print("(rensa is not installed: pip install rensa)")
    print("| method | P | R | F1 | fingerprinting MB/s | × | all pairs (s) | × |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, pairs, fingerprinting, pairing in rows:
        p, r, f = prf(pairs, wanted)
        print(
            f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} | {megabytes / fingerprinting:.2f}"
            f" | {fingerprinting / fp_s:.1f} | {pairing:.3f} | {pairing / pair_s:.1f} |"
        )
    print("\n× = that method's time / simdup's (fingerprinting and all pairs separately)")
    if kernel is not None:
        shingled = sum(len(t.encode("utf-8")) for t in texts) / 1e6
        print(f"rensa's kernel alone (shingles made): {shingled / kernel:.1f} MB/s of text")


if __name__ == "__main__":
    main()
