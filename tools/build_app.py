"""Build the standalone app: ``python tools/build_app.py --out DIR`` makes ``DIR/simdup/``.

It holds the executables ``simdup-gui`` and ``simdup`` with everything they need (no Python on
the machine): the translations, the sample folder, the kernels built ahead for any CPU of this
kind, and the icon; on Linux also ``simdup.desktop``; and ``versions.txt``, the Python and the
packages it was built with (the environment the tests ran in, in CI). A Qt binding that would
crash the app (``simdup_gui.app.binding_fault``) is refused before anything is built. Three
steps: the portable kernels (``python -m simdup_gui.engine.prebuilt --portable``: numba.pycc
and a C compiler), PyInstaller (``tools/app/simdup.spec``, which Windows and macOS build from
too), then the desktop entry.
Needs the build extra: ``python3 -m pip install -e ".[build]"``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "tools" / "app" / "simdup.spec"


def folder_size(folder: Path) -> int:
    """The bytes of every file under ``folder`` (links not followed)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def portable_kernels() -> Path:
    """Build (or find) the kernels for any CPU of this machine's kind; their path."""
    done = subprocess.run(
        [sys.executable, "-m", "simdup_gui.engine.prebuilt", "--portable"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"build_app: the kernels were not built: {done.stderr.strip()[-600:]}")
    return Path(done.stdout.strip().splitlines()[-1])


def binding_fault() -> str:
    """Why this Python's Qt binding would crash the app ("" if it would not): see app.py."""
    probe = "from simdup_gui.app import binding_fault; print(binding_fault())"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        return f"the app does not import: {done.stderr.strip()[-600:]}"
    return done.stdout.strip()


def write_versions(app: Path) -> None:
    """``versions.txt``: the Python and every package the app was built with, one a line."""
    from importlib.metadata import distributions

    found = {f"{d.metadata['Name']}=={d.version}" for d in distributions()}
    packages = sorted(found, key=str.lower)
    python = f"Python {'.'.join(map(str, sys.version_info[:3]))} ({sys.platform})"
    (app / "versions.txt").write_text("\n".join([python, *packages]) + "\n", encoding="utf-8")


def desktop_entry(app: Path) -> None:
    """The icon and a ``.desktop`` entry naming ``app``'s executables (Linux menus)."""
    shutil.copy2(ROOT / "resources" / "icon" / "simdup.png", app / "simdup.png")
    entry = (ROOT / "tools" / "app" / "simdup.desktop").read_text(encoding="utf-8")
    (app / "simdup.desktop").write_text(entry.replace("@APP@", str(app)), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Build the app into ``--out``; print where, its size and the time taken."""
    parser = argparse.ArgumentParser(prog="build_app", description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the folder to build simdup/ in")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("PyInstaller") is None:
        print('build_app: PyInstaller is missing: python3 -m pip install -e ".[build]"')
        return 2
    out = Path(args.out).resolve()
    app = out / "simdup"
    if app.exists() and not (app / "_internal").is_dir():  # PyInstaller replaces a build only
        print(f"build_app: {app} exists and is not a build of simdup: not replaced")
        return 2
    fault = binding_fault()
    if fault:
        print(f"build_app: not built: {fault}")
        return 2
    started = time.monotonic()
    environment = {**os.environ, "SIMDUP_KERNELS": str(portable_kernels())}
    with tempfile.TemporaryDirectory(prefix="simdup-build-") as work:
        command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm"]
        command += ["--distpath", str(out), "--workpath", work, "--log-level", "WARN"]
        if subprocess.run(command, env=environment, check=False).returncode != 0:
            print("build_app: PyInstaller failed (above)")
            return 1
    write_versions(app)
    if sys.platform.startswith("linux"):
        desktop_entry(app)
    seconds = time.monotonic() - started
    print(f"{app}: {folder_size(app) / 1e6:.0f} MB, built in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
