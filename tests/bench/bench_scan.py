"""End-to-end scan throughput (read + decode + strip + segment + fingerprint + group).

    python tests/bench/bench_scan.py [--mb 40]

Builds a Chinese folder and an English folder of about ``--mb`` MB each from the articles in
``../shared/eval/corpus`` (told apart by their share of CJK characters, copied as often as
needed), then times ``scan`` with 1 and 2 worker threads, and, as the baseline in the same run,
``jieba.lcut`` alone on the same Chinese text. Then the cache: a folder of ``--files`` articles
scanned once with an empty cache and again unchanged; the ratio is first / second.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.cache import FingerprintCache  # noqa: E402
from simdup_gui.engine.decode import DecodeError  # noqa: E402
from simdup_gui.engine.pipeline import extract_text  # noqa: E402
from simdup_gui.engine.progress import ProgressEvent  # noqa: E402
from simdup_gui.engine.scan import ScanOptions, scan  # noqa: E402
from simdup_gui.engine.text import has_cjk  # noqa: E402

CORPUS = HERE.parents[2] / "shared" / "eval" / "corpus"


def build_folders(root: Path, megabytes: float) -> dict[str, tuple[Path, list[str]]]:
    """A zh and an en folder of about ``megabytes`` each; also their texts for the baseline."""
    sources: dict[str, list[Path]] = {"zh": [], "en": []}
    texts: dict[str, list[str]] = {"zh": [], "en": []}
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file():
            continue
        try:
            text = extract_text(path.read_bytes(), str(path)).text
        except DecodeError:
            continue
        cjk = sum(1 for c in text[:2000] if has_cjk(c))
        lang = "zh" if cjk > 0.2 * len(text[:2000]) else "en"
        sources[lang].append(path)
        texts[lang].append(text)
    folders = {}
    for lang, paths in sources.items():
        folder = root / lang
        folder.mkdir()
        size, copy = 0, 0
        while size < megabytes * 1e6:
            for path in paths:
                target = folder / f"{copy:03}-{path.parent.name}-{path.name}"
                shutil.copyfile(path, target)
                size += target.stat().st_size
            copy += 1
        folders[lang] = (folder, texts[lang])
    return folders


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=40)
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found: {CORPUS}")
    print(f"# scan throughput, {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        folders = build_folders(Path(tmp), args.mb)
        import jieba

        jieba.initialize()
        zh_text = "\n".join(folders["zh"][1])
        start = time.perf_counter()
        jieba.lcut(zh_text[: len(zh_text) // 4])
        jieba_mbs = len(zh_text[: len(zh_text) // 4].encode()) / 1e6 / (time.perf_counter() - start)
        print(f"baseline jieba.lcut alone (1 core): {jieba_mbs:.2f} MB/s of UTF-8 text")
        print(
            "| folder | files | MB | jobs | reading s | reading MB/s | × jieba.lcut"
            " | whole scan s | whole scan MB/s |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for lang, (folder, _) in folders.items():
            for jobs in (1, 2):
                stages: dict[str, float] = {}

                def progress(event: ProgressEvent, stages: dict[str, float] = stages) -> None:
                    stages.setdefault(event.stage, time.perf_counter())

                start = time.perf_counter()
                result = scan(
                    str(folder), ScanOptions(jobs=jobs, processes=None), progress=progress
                )
                seconds = time.perf_counter() - start
                reading = stages["indexing"] - start  # walk, read, decode, strip, fingerprint
                megabytes = sum(f.size for f in result.files) / 1e6
                print(
                    f"| {lang} | {len(result.files)} | {megabytes:.1f} | {jobs} | {reading:.2f} "
                    f"| {megabytes / reading:.1f} | {megabytes / reading / jieba_mbs:.1f} "
                    f"| {seconds:.2f} | {megabytes / seconds:.1f} |",
                    flush=True,
                )
        rescan(Path(tmp), args.files)


def rescan(root: Path, count: int) -> None:
    """First scan with an empty cache against an unchanged rescan."""
    folder = root / "rescan"
    folder.mkdir()
    sources = [p for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    for n in range(count):
        source = sources[n % len(sources)]
        shutil.copyfile(source, folder / f"{n:05}{source.suffix}")
    cache_path = root / "cache.sqlite3"
    timings = []
    for _ in range(2):
        cache = FingerprintCache(cache_path)
        start = time.perf_counter()
        result = scan(str(folder), ScanOptions(jobs=2, processes=None), cache=cache)
        timings.append(time.perf_counter() - start)
        cache.close()
    print(
        f"\nrescan of an unchanged {len(result.files)}-file folder: first {timings[0]:.2f} s,"
        f" rescan {timings[1]:.2f} s ({result.cached} from cache),"
        f" ratio {timings[0] / timings[1]:.0f}x"
    )


if __name__ == "__main__":
    main()
