"""Reading Word and PDF articles: the whole ``simdup scan`` command, and the readers alone.

    python tests/bench/bench_documents.py [--files 1000] [--repeat 3]

Makes ``--files`` Word documents and as many PDFs (half Chinese, half English, 2 to 20 pages
each) from the sample folder's articles, told apart by a line of their own, then times the
whole cold command (``simdup scan --no-cache``, 2 jobs) on each folder, ``--repeat`` times,
and reports megabytes of extracted text a second. Beside it, in this process, one thread: the
readers simdup uses (python-docx, pypdfium2) and the others measured for the choice where
installed (docx2python, pypdf, pdfminer.six), on the same files.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
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


def readers(folder: Path, kind: str) -> dict[str, float]:
    """Seconds each installed reader takes over the folder, one thread."""
    files = [p.read_bytes() for p in sorted(folder.iterdir())]
    timed: dict[str, float] = {}

    def time_it(name: str, read: object) -> None:
        started = time.perf_counter()
        for data in files:
            read(data)  # type: ignore[operator]
        timed[name] = time.perf_counter() - started

    time_it(
        f"simdup ({'lxml' if kind == 'docx' else 'pypdfium2'})",
        lambda d: read_document(d, kind),
    )
    import io

    if kind == "docx":
        try:
            import docx

            time_it(
                "python-docx", lambda d: [p.text for p in docx.Document(io.BytesIO(d)).paragraphs]
            )
        except ImportError:
            pass
        try:
            from docx2python import docx2python

            time_it("docx2python", lambda d: docx2python(io.BytesIO(d)).text)
        except ImportError:
            pass
    else:
        try:
            import pypdf

            time_it(
                "pypdf",
                lambda d: "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(d)).pages),
            )
        except ImportError:
            pass
        try:
            from pdfminer.high_level import extract_text

            time_it("pdfminer.six", lambda d: extract_text(io.BytesIO(d)))
        except ImportError:
            pass
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
            for name, seconds in readers(folder, kind).items():
                print(f"  {name}: {seconds:.2f} s, {mb / seconds:.1f} MB/s (one thread)")


if __name__ == "__main__":
    main()
