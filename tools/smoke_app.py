"""Smoke-test a standalone app as an editor's machine would run it.

``python tools/smoke_app.py DIR/simdup``, after ``tools/build_app.py --out DIR``. With a clean
environment (no Python on ``PATH``, a home of its own): its ``simdup`` scans the bundled sample
(3 groups, a CSV report); its ``simdup-gui`` opens its window offscreen, stays up, and ends on
SIGTERM with nothing left running, and in Chinese loads Qt's own words; every command answers
its ``--help``, and a bad input with one line and exit 2; Word, OpenDocument and PDF articles
are read (grouped with their text, a PDF without text a row saying so). Prints the bundle's
size and the time to the first window (from the start of the process to the app's "window
shown" in its log), cold and again; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STAYS_UP_S = 3.0
WINDOW_WITHIN_S = 60.0


def clean_environment(home: Path) -> dict[str, str]:
    """An environment with nothing of this machine's Python: no PATH to it, a home of its own."""
    (home / "bin").mkdir(parents=True, exist_ok=True)
    return {
        "HOME": str(home),
        "PATH": str(home / "bin"),
        "LANG": "C.UTF-8",
        "QT_QPA_PLATFORM": "offscreen",
        "SIMDUP_LOG_DIR": str(home / "log"),
    }


def check(ok: bool, what: str) -> None:
    """Stop with ``what`` unless ``ok``."""
    if not ok:
        raise SystemExit(f"smoke_app: FAILED: {what}")


def scan_the_sample(app: Path, environment: dict[str, str], home: Path) -> None:
    """The command scans the bundled sample into a CSV report of 3 groups."""
    sample = app / "_internal" / "simdup_gui" / "resources" / "sample"
    report = home / "report.csv"
    command = [str(app / "simdup"), "scan", str(sample), "--csv", str(report)]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300)
    check(done.returncode == 0, f"simdup scan exited {done.returncode}: {done.stderr[-2000:]}")
    with report.open(encoding="utf-8-sig", newline="") as stream:
        groups = {row["group_id"] for row in csv.DictReader(stream) if row["group_id"]}
    check(len(groups) == 3, f"the sample gave {len(groups)} groups, not 3")
    print(f"simdup scan: {done.stderr.strip().splitlines()[-1]}")


def first_window(app: Path, environment: dict[str, str]) -> float:
    """Start the app; seconds to its first window. It must stay up, then end on SIGTERM."""
    log = Path(environment["SIMDUP_LOG_DIR"]) / "simdup.log"
    log.unlink(missing_ok=True)
    started = time.monotonic()
    process = subprocess.Popen(  # its own session: whatever it starts is found by it after
        [str(app / "simdup-gui")],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        shown = None
        while shown is None and time.monotonic() - started < WINDOW_WITHIN_S:
            if log.is_file() and "window shown" in log.read_text("utf-8", errors="replace"):
                shown = time.monotonic() - started
            check(process.poll() is None, f"the app ended ({process.returncode}) before its window")
            time.sleep(0.01)
        check(shown is not None, f"no window within {WINDOW_WITHIN_S:.0f} s")
        time.sleep(STAYS_UP_S)
        check(process.poll() is None, f"the app ended ({process.returncode}) after its window")
        process.send_signal(signal.SIGTERM)
        code = process.wait(10)
        check(code == 0, f"the app exited {code} on SIGTERM")
        check(not left_running(process.pid), "a process the app started outlived it")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        errors = process.stderr.read().decode("utf-8", "replace") if process.stderr else ""
    check("Traceback" not in errors, f"the app wrote a traceback: {errors[-2000:]}")
    return shown


def documents(app: Path, environment: dict[str, str], home: Path) -> None:
    """The bundle reads Word, OpenDocument and PDF articles: each groups with its text."""
    import zipfile

    sample = app / "_internal" / "simdup_gui" / "resources" / "sample" / "zh" / "春运返乡.txt"
    folder = home / "documents"
    folder.mkdir()
    text = sample.read_text(encoding="utf-8")
    (folder / "story.txt").write_text(text, encoding="utf-8")
    paragraphs = [line for line in text.split("\n") if line.strip()]
    runs = "".join(f"<w:p><w:r><w:t>{p}</w:t></w:r></w:p>" for p in paragraphs)
    word = (
        '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w='
        '"http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        f"<w:body>{runs}</w:body></w:document>"
    )
    with zipfile.ZipFile(folder / "story.docx", "w") as archive:  # the least Word reads
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", word)
    body = "".join(f"<text:p>{p}</text:p>" for p in paragraphs)
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content'
        ' xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        f"<office:text>{body}</office:text></office:body></office:document-content>"
    )
    with zipfile.ZipFile(folder / "story.odt", "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        archive.writestr("content.xml", content)
    import pypdfium2  # a PDF of one page of Latin text: PDFium's text layer in the bundle

    pdf = pypdfium2.PdfDocument.new()
    pdf.new_page(200, 200)
    pdf.save(str(folder / "blank.pdf"))
    report = home / "documents.csv"
    command = [str(app / "simdup"), "scan", str(folder), "--csv", str(report), "--no-cache"]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300)
    check(done.returncode == 0, f"the documents' scan exited {done.returncode}: {done.stderr}")
    with report.open(encoding="utf-8-sig", newline="") as stream:
        rows = {Path(row["path"]).name: row for row in csv.DictReader(stream)}
    grouped = {name for name, row in rows.items() if row["group_id"] == "1"}
    check(grouped == {"story.txt", "story.docx", "story.odt"}, f"documents grouped: {grouped}")
    check("no text layer" in rows["blank.pdf"]["error"], f"blank.pdf: {rows['blank.pdf']}")


def chinese(app: Path, environment: dict[str, str]) -> None:
    """In Chinese, the app loads Qt's own words too (its file dialogs' labels, Yes and No)."""
    first_window(app, {**environment, "LANG": "zh_CN.UTF-8"})
    log = (Path(environment["SIMDUP_LOG_DIR"]) / "simdup.log").read_text("utf-8", "replace")
    check("Qt's own words: " in log, f"Qt's Chinese words not loaded: {log[-1000:]}")


def every_command(app: Path, environment: dict[str, str], home: Path) -> None:
    """Every command of the pip install answers in the bundle: its help, and one bad input.

    A bad input is a one-line error and exit 2, never a traceback.
    """
    simdup = str(app / "simdup")
    commands = ("scan", "apply", "restore", "library", "pairs", "query", "explain", "reuse")
    commands += ("table", "cache", "ignore")
    missing = str(home / "no such file")
    for line in ([], ["--help"], *([name, "--help"] for name in commands)):
        done = subprocess.run([simdup, *line], env=environment, capture_output=True, text=True)
        check(done.returncode in (0, 2), f"simdup {' '.join(line)} exited {done.returncode}")
        check("Traceback" not in done.stderr, f"simdup {' '.join(line)}: {done.stderr[-1500:]}")
    for line in (
        ["scan", missing],
        ["pairs", missing],
        ["query", missing, "0x0"],
        ["table", missing, "--text-column", "text"],
        ["scan", str(home), "--dask", "local:1"],
        ["reuse", missing],
        ["library", "check", missing, missing],
    ):
        done = subprocess.run([simdup, *line], env=environment, capture_output=True, text=True)
        said = done.stderr.strip().splitlines()
        check(
            done.returncode == 2 and len(said) == 1 and "Traceback" not in done.stderr,
            f"simdup {' '.join(line)}: exit {done.returncode}: {done.stderr[-1500:]}",
        )


def left_running(session: int) -> list[int]:
    """The processes still in the app's session (its workers, had they outlived it)."""
    deadline = time.monotonic() + 10
    while True:
        found = subprocess.run(["pgrep", "-s", str(session)], capture_output=True)
        alive = [int(pid) for pid in found.stdout.split()]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def folder_size(folder: Path) -> int:
    """The bytes of every file under ``folder`` (links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv: list[str] | None = None) -> int:
    """Run the checks on the app folder given; print the figures."""
    parser = argparse.ArgumentParser(prog="smoke_app", description=__doc__.splitlines()[0])
    parser.add_argument("app", help="the built folder: DIR/simdup")
    app = Path(parser.parse_args(argv).app).resolve()
    check((app / "simdup").is_file() and (app / "simdup-gui").is_file(), f"{app}: not a build")
    with tempfile.TemporaryDirectory(prefix="simdup-smoke-") as folder:
        home = Path(folder)
        environment = clean_environment(home)
        check(shutil.which("python3", path=environment["PATH"]) is None, "python3 on PATH")
        scan_the_sample(app, environment, home)
        cold, warm = first_window(app, environment), first_window(app, environment)
        chinese(app, environment)
        every_command(app, environment, home)
        documents(app, environment, home)
    print(f"{app}: {folder_size(app) / 1e6:.0f} MB; first window {cold:.2f} s, again {warm:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
