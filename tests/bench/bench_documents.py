"""Reading Word and PDF articles: the whole ``simdup scan`` command, and the readers alone.

    python tests/bench/bench_documents.py [--files 1000] [--repeat 3]

Makes ``--files`` Word documents and as many PDFs (half Chinese, half English, 2 to 20 pages
each) from the sample folder's articles, told apart by a line of their own, then times the
whole cold command (``simdup scan --no-cache``, 2 jobs) on each folder, ``--repeat`` times,
and reports megabytes of extracted text a second. Beside it, the readers alone on the same
files — simdup's (lxml, pypdfium2) and the packages measured for the choice where installed
(python-docx, docx2python, pypdf, pdfminer.six, kreuzberg) — each on one thread and on two
processes (each reading half the files, the package imported before the clock starts), the
whole command's own two cores: the issue's goal is 20 MB/s for Word and 5 for PDF, or the
best package's speed where that is lower.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "engine"))
from documents_made import write_docx, write_pdf

from simdup_gui.engine.read.decode import decode_bytes
from simdup_gui.engine.read.documents import read_document
from simdup_gui.engine.resources import resource


def articles() -> list[tuple[str, list[str]]]:
    """The sample's articles: (title, paragraphs)."""
    found = []
    for path in sorted(resource("sample").rglob("*.txt")):
        text = decode_bytes(path.read_bytes()).text
        lines = [line for line in text.split("\n") if line.strip()]
        found.append((lines[0], lines[1:]))
    return found


def make(folder: Path, kind: str, files: int) -> None:
    """``files`` documents of ``kind``, each 2-20 pages of sample paragraphs and a line its own."""
    rng = random.Random(5)
    stories = articles()
    for n in range(files):
        title, paragraphs = stories[n % len(stories)]
        body = [f"{n}: {rng.random()}", *(paragraphs * rng.randint(2, 20))]
        if kind == "docx":
            write_docx(folder / f"a{n}.docx", title, body)
        else:
            latin = all(line.isascii() for line in body[1:])  # English: a standard font
            font = "Helvetica" if latin and title.isascii() else "STSong-Light"
            write_pdf(folder / f"a{n}.pdf", title, body, per_page=40, font=font)


def extracted_mb(folder: Path, kind: str) -> float:
    return (
        sum(len(read_document(p.read_bytes(), kind).text.encode()) for p in folder.iterdir()) / 1e6
    )


def command(folder: Path) -> float:
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its compiled modules
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "simdup_gui.cli", "scan", str(folder), "--no-cache", "--jobs", "2"],
        check=True,
        capture_output=True,
        env=environment,
    )
    return time.perf_counter() - started


KREUZBERG_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pdf": "application/pdf",
}


def _simdup(data: bytes, kind: str) -> str:
    return read_document(data, kind).text


def _python_docx(data: bytes, kind: str) -> str:
    import docx

    return "\n".join(p.text for p in docx.Document(io.BytesIO(data)).paragraphs)


def _docx2python(data: bytes, kind: str) -> str:
    from docx2python import docx2python

    return docx2python(io.BytesIO(data)).text


def _pypdf(data: bytes, kind: str) -> str:
    import pypdf

    return "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def _pdfminer(data: bytes, kind: str) -> str:
    from pdfminer.high_level import extract_text

    return extract_text(io.BytesIO(data))


def _kreuzberg(data: bytes, kind: str) -> str:
    import kreuzberg

    return kreuzberg.extract_bytes_sync(data, KREUZBERG_TYPES[kind]).content


READERS = {  # name: (reader, the module it needs, the kinds it reads)
    "simdup (lxml)": (_simdup, "lxml", ("docx",)),
    "simdup (pypdfium2)": (_simdup, "pypdfium2", ("pdf",)),
    "python-docx": (_python_docx, "docx", ("docx",)),
    "docx2python": (_docx2python, "docx2python", ("docx",)),
    "pypdf": (_pypdf, "pypdf", ("pdf",)),
    "pdfminer.six": (_pdfminer, "pdfminer", ("pdf",)),
    "kreuzberg": (_kreuzberg, "kreuzberg", ("docx", "pdf")),
}


def _read_all(name: str, paths: list[Path], kind: str) -> float:
    """Seconds the reader takes over the files, one by one (its import and set-up before)."""
    read = READERS[name][0]
    read(paths[0].read_bytes(), kind)  # imports, PDFium's start, the font list
    files = [path.read_bytes() for path in paths]
    started = time.perf_counter()
    for data in files:
        read(data, kind)
    return time.perf_counter() - started


def readers(folder: Path, kind: str) -> dict[str, tuple[float, float]]:
    """Seconds each installed reader takes over the folder: one thread, and two processes."""
    paths = sorted(folder.iterdir())
    timed = {}
    for name, (_, module, kinds) in READERS.items():
        if kind not in kinds or importlib.util.find_spec(module) is None:
            continue
        one = _read_all(name, paths, kind)
        with ProcessPoolExecutor(2, multiprocessing.get_context("spawn")) as pool:
            halves = [paths[0::2], paths[1::2]]
            list(pool.map(_read_all, [name] * 2, [halves[0][:1], halves[1][:1]], [kind] * 2))
            started = time.perf_counter()  # the workers started and warm: the reading alone
            list(pool.map(_read_all, [name] * 2, halves, [kind] * 2))
            two = time.perf_counter() - started
        timed[name] = (one, two)
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        for kind in ("docx", "pdf"):
            folder = Path(work) / kind
            folder.mkdir()
            make(folder, kind, args.files)
            mb = extracted_mb(folder, kind)
            whole = statistics.median(command(folder) for _ in range(args.repeat))
            print(
                f"{kind}: {args.files} files, {mb:.1f} MB of text; whole command {whole:.2f} s:"
                f" {mb / whole:.1f} MB/s"
            )
            for name, (one, two) in readers(folder, kind).items():
                print(
                    f"  {name} alone: one thread {one:.2f} s, {mb / one:.1f} MB/s;"
                    f" two processes {two:.2f} s, {mb / two:.1f} MB/s"
                )


if __name__ == "__main__":
    main()
