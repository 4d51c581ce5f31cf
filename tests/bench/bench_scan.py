"""End-to-end scan throughput (read + decode + strip + segment + fingerprint), and rescans.

    python tests/bench/bench_scan.py [--mb 40] [--files 10000] [--repeat 3] [--python PATH]
        [--kinds zh zh-edited zh-copies en en-text] [--no-rescan]

Builds folders of about ``--mb`` MB from the articles in ``../shared/eval/corpus`` (told apart
by their share of CJK characters, copied as often as needed): Chinese (text and HTML), English
(text and HTML: mostly Python and LibreOffice documentation pages) and English plain text only.
Copied, most files are exact copies of others, which a scan reads once (``repeats.py``); so
the Chinese folder is built a second time, ``zh-edited``, each copy with a line of its own (a
copy edited: no two files alike, most of their lines shared), and a third time, ``zh-copies``,
each article six times over, every other copy exact and the rest with a line of its own (a
folder of reposts: groups of six, exact and near copies, each group's kept copy chosen).
Each is scanned ``--repeat`` times with 2 jobs (worker processes) and once with 1 job, in this
process (so after the first scan the compiled kernels are loaded: as in the app's second scan);
the median is reported. "Reading" is the time until the scan starts indexing: walking, reading,
decoding, stripping, segmenting and fingerprinting; "whole scan" adds the grouping. "Cold" is
the whole ``simdup scan --no-cache`` command run afresh, ``--repeat`` times: Python's start,
imports, loading the kernels, the scan and the CSV report. As the baseline in the same run,
``jieba.lcut`` alone on part of the Chinese text.

Then the cache: a folder of ``--files`` articles scanned with an empty cache and again
unchanged, ``--repeat`` times each (a fresh cache file each time); the ratio is the median
first scan over the median rescan. The same for the whole command on the Chinese folder: the
first ``simdup scan`` with an empty cache folder, then the same command on the unchanged folder.

The commands run on ``--python`` (default: this interpreter), as a user types them: the
``simdup`` script installed beside it (else ``python -m simdup_gui.cli``). A user's install is
``pip install -e .`` alone; the test extra adds SciPy, which numba then imports (about 0.2 s
more for every command that loads the kernels), so give a virtual environment made that way.

This machine's timings vary by about ±30 % from run to run; compare ratios within a run.
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import machine  # noqa: E402

from simdup_gui.engine.fingerprint.file_records import forget_what_was_read  # noqa: E402
from simdup_gui.engine.fingerprint.pipeline import extract_text, warm_up  # noqa: E402
from simdup_gui.engine.match.slips import forget_slips  # noqa: E402
from simdup_gui.engine.options import RunOptions, ScanOptions, TextSettings  # noqa: E402
from simdup_gui.engine.progress import ProgressEvent  # noqa: E402
from simdup_gui.engine.read.decode import DecodeError, decode_bytes  # noqa: E402
from simdup_gui.engine.scan import scan  # noqa: E402
from simdup_gui.engine.store.cache import FingerprintCache  # noqa: E402
from simdup_gui.engine.text.normalize import has_cjk  # noqa: E402

CORPUS = HERE.parents[2] / "shared" / "eval" / "corpus"
COPIES = 6  # zh-copies: each Chinese article six times over, exact and near copies


def sources() -> dict[str, list[tuple[Path, str]]]:
    """The corpus files by folder kind, with their extracted texts."""
    found: dict[str, list[tuple[Path, str]]] = {"zh": [], "en": [], "en-text": []}
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file():
            continue
        try:
            text = extract_text(path.read_bytes(), str(path)).text
        except DecodeError:
            continue
        cjk = sum(1 for c in text[:2000] if has_cjk(c))
        lang = "zh" if cjk > 0.2 * len(text[:2000]) else "en"
        found[lang].append((path, text))
        if lang == "en" and path.suffix == ".txt":
            found["en-text"].append((path, text))
    return found


def build_folder(
    folder: Path, paths: list[Path], megabytes: float, edited: bool = False, copies: int = 0
) -> None:
    """Copies of ``paths`` in ``folder`` until it holds about ``megabytes``.

    ``edited``: each copy but the first gets a line of its own, in the file's encoding.
    ``copies``: instead, each file ``copies`` times over, every other copy exact and the rest
    each with a line of its own: groups of exact and near copies, as a folder of reposts has.
    """
    folder.mkdir()
    if copies:
        for path in paths:
            data = path.read_bytes()
            for copy in range(copies):
                target = folder / f"{copy}-{path.parent.name}-{path.name}"
                target.write_bytes(with_a_line(data, f"（转载：{copy}）") if copy % 2 else data)
        return
    size, copy = 0, 0
    while size < megabytes * 1e6:
        for path in paths:
            target = folder / f"{copy:03}-{path.parent.name}-{path.name}"
            data = path.read_bytes()
            target.write_bytes(
                with_a_line(data, f"（编辑：{copy:03}）") if edited and copy else data
            )
            size += target.stat().st_size
        copy += 1


def with_a_line(data: bytes, line: str) -> bytes:
    """The file's bytes with ``line`` added at the end of its text (a page's: of its body)."""
    decoded = decode_bytes(data)
    if "</body>" in decoded.text:
        text = decoded.text.replace("</body>", f"<p>{line}</p></body>", 1)
    else:
        text = f"{decoded.text}\n{line}\n"
    return text.encode(decoded.encoding)


STAGES: dict[str, list[float]] = {}  # each stage's seconds, by folder and jobs, every run


def timed_scan(folder: Path, jobs: int) -> tuple[float, float, float]:
    """Seconds reading, seconds in all, and the megabytes scanned.

    Each stage's seconds (from its first progress event to the next stage's) go to STAGES.
    """
    stages: dict[str, float] = {}

    def progress(event: ProgressEvent) -> None:
        stages.setdefault(event.stage, time.perf_counter())

    forget_what_was_read()  # else the last scan's texts are known: its copies, in effect
    forget_slips()  # and the kept copies' slips, as a regroup's
    start = time.perf_counter()
    result = scan(
        str(folder), ScanOptions(run=RunOptions(jobs=jobs, processes=None)), progress=progress
    )
    seconds = time.perf_counter() - start
    megabytes = sum(f.size for f in result.files) / 1e6
    times = [*sorted(stages.items(), key=lambda item: item[1]), ("", start + seconds)]
    for (stage, began), (_, ended) in itertools.pairwise(times):
        STAGES.setdefault(f"{folder.name}, {jobs} job(s): {stage}", []).append(ended - began)
    return stages["indexing"] - start, seconds, megabytes


def print_stages(folder: str) -> None:
    """The median seconds of each stage of the folder's scans, in the order they came."""
    said = [
        f"{name.split(': ')[1]} {statistics.median(runs):.2f} s ({name.split(':')[0]})"
        for name, runs in STAGES.items()
        if name.startswith(f"{folder},")
    ]
    print(f"stages of the scans of {folder} (median): " + "; ".join(said), flush=True)


PYTHON = [sys.executable]  # what runs the commands (--python)


def simdup_command() -> list[str]:
    """``simdup`` as a user runs it: the script installed beside the Python, else ``-m``."""
    script = Path(PYTHON[0]).with_name("simdup")
    return [str(script)] if script.is_file() else [*PYTHON, "-m", "simdup_gui.cli"]


def cold_command(folder: Path, cache: Path | None = None) -> float:
    """Seconds for a fresh ``simdup scan`` of the folder (2 jobs), report included.

    With no ``cache`` folder, ``--no-cache``; else the cache in that folder (as the user's).
    """
    command = [*simdup_command(), "scan", str(folder), "--quiet", "--jobs", "2"]
    command += ["--csv", os.devnull, *([] if cache else ["--no-cache"])]
    environment = {**os.environ, **({"XDG_CACHE_HOME": str(cache)} if cache else {})}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its compiled modules
    start = time.perf_counter()
    subprocess.run(command, check=True, env=environment)
    return time.perf_counter() - start


def command_rescans(folder: Path, root: Path, repeat: int) -> tuple[list[float], list[float]]:
    """The whole command's first scans (each with an empty cache folder) and rescans."""
    firsts, rescans = [], []
    for attempt in range(repeat):
        cache = root / f"command-cache{attempt}"
        firsts.append(cold_command(folder, cache))
        rescans.append(cold_command(folder, cache))
    return firsts, rescans


def jieba_baseline(texts: list[str]) -> float:
    """MB/s of UTF-8 text that ``jieba.lcut`` alone segments on one core."""
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    text = "\n".join(texts)
    text = text[: len(text) // 4]
    start = time.perf_counter()
    jieba.lcut(text)
    return len(text.encode()) / 1e6 / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=40)
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", help="the Python that runs the commands (a user's venv)")
    parser.add_argument("--kinds", nargs="*", help="only these folders (zh, en, zh-copies...)")
    parser.add_argument("--no-rescan", action="store_true", help="leave out the cache's rescan")
    args = parser.parse_args()
    if args.python:
        PYTHON[:] = [args.python]
    if not CORPUS.is_dir():
        raise SystemExit(f"corpus not found: {CORPUS}")
    print(f"# scan throughput, {machine()}, median of {args.repeat}")
    found = sources()
    warm_up(TextSettings())  # so that no timed scan compiles or loads the kernels
    with tempfile.TemporaryDirectory() as tmp:
        jieba_mbs = jieba_baseline([text for _, text in found["zh"]])
        print(f"baseline jieba.lcut alone (1 core): {jieba_mbs:.2f} MB/s of UTF-8 text\n")
        print(
            "| folder | files | MB | jobs | reading s | reading MB/s | × jieba.lcut"
            " | whole scan s | whole scan MB/s | cold command s | cold MB/s |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        found["zh-edited"] = found["zh-copies"] = found["zh"]
        for kind, items in found.items():
            if args.kinds and kind not in args.kinds:
                continue
            folder = Path(tmp) / kind
            copies = COPIES if kind.endswith("copies") else 0
            edited = kind.endswith("edited")
            build_folder(folder, [path for path, _ in items], args.mb, edited, copies)
            files = sum(1 for _ in folder.iterdir())
            for jobs, repeat in ((1, 1), (2, args.repeat)):
                runs = [timed_scan(folder, jobs) for _ in range(repeat)]
                reading = statistics.median(r[0] for r in runs)
                seconds = statistics.median(r[1] for r in runs)
                megabytes = runs[0][2]
                cold = "| | |"
                if jobs == 2:
                    command = statistics.median(cold_command(folder) for _ in range(repeat))
                    cold = f"| {command:.2f} | {megabytes / command:.1f} |"
                print(
                    f"| {kind} | {files} | {megabytes:.1f} | {jobs} | {reading:.2f} "
                    f"| {megabytes / reading:.1f} | {megabytes / reading / jieba_mbs:.1f} "
                    f"| {seconds:.2f} | {megabytes / seconds:.1f} {cold}",
                    flush=True,
                )
            print_stages(kind)
            if kind.startswith("zh"):
                firsts, rescans = command_rescans(folder, Path(tmp), args.repeat)
                first, again = statistics.median(firsts), statistics.median(rescans)
                print(
                    f"\nthe whole command on {kind} ({files} files, {megabytes:.1f} MB): first scan"
                    f" {first:.2f} s ({megabytes / first / jieba_mbs:.1f}x jieba.lcut), unchanged"
                    f" rescan {again:.2f} s, ratio {first / again:.1f}x (each run: first"
                    f" {', '.join(f'{t:.2f}' for t in firsts)}; rescan"
                    f" {', '.join(f'{t:.2f}' for t in rescans)})\n",
                    flush=True,
                )
            shutil.rmtree(folder)
        if not args.no_rescan:
            rescan(Path(tmp), args.files, args.repeat)


def rescan(root: Path, count: int, repeat: int) -> None:
    """First scans with an empty cache against unchanged rescans."""
    folder = root / "rescan"
    folder.mkdir()
    corpus = [p for p in sorted(CORPUS.rglob("*")) if p.is_file()]
    for n in range(count):
        source = corpus[n % len(corpus)]
        shutil.copyfile(source, folder / f"{n:05}{source.suffix}")
    firsts, rescans = [], []
    for attempt in range(repeat):
        cache_path = root / f"cache{attempt}.sqlite3"
        for timings in (firsts, rescans):
            cache = FingerprintCache(cache_path)
            result = None  # the last scan's records are freed before the clock starts
            forget_what_was_read()
            forget_slips()
            start = time.perf_counter()
            result = scan(
                str(folder), ScanOptions(run=RunOptions(jobs=2, processes=None)), cache=cache
            )
            timings.append(time.perf_counter() - start)
            cache.close()
    first, again = statistics.median(firsts), statistics.median(rescans)
    print(
        f"\nrescan of an unchanged {len(result.files)}-file folder: first {first:.2f} s,"
        f" rescan {again:.2f} s ({result.cached} from cache), ratio {first / again:.0f}x"
        f" (each run: first {', '.join(f'{t:.2f}' for t in firsts)};"
        f" rescan {', '.join(f'{t:.2f}' for t in rescans)})"
    )


if __name__ == "__main__":
    main()
