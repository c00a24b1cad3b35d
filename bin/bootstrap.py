"""Make sure .venv exists and holds this project's locked dependencies.

Shared by bin/run and bin/test. Standard library only: it runs before anything is
installed, with whatever `python3` the user has (3.11 or newer).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = Path(os.environ.get("RUMMY_VENV", ROOT / ".venv"))
VENV_PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".rummy-installed"
EXTRAS = "dev"


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def inside_venv() -> bool:
    return Path(sys.prefix).resolve() == VENV.resolve()


def wanted_stamp() -> str:
    """Changes whenever the declared or locked dependencies change."""
    digest = hashlib.sha256(EXTRAS.encode())
    for name in ("pyproject.toml", "requirements.lock"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def ensure_environment() -> None:
    """Create .venv and install into it, unless the stamp says it is up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - runs under any python3 the user has
        fail(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    if not VENV_PYTHON.exists():
        print(f"Creating the virtual environment in {VENV} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    stamp = wanted_stamp()
    if STAMP.exists() and STAMP.read_text().strip() == stamp:
        return
    # bin/run and bin/test may start together on a fresh clone: one installs, one waits.
    with (VENV / ".rummy-install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if STAMP.exists() and STAMP.read_text().strip() == stamp:
            return
        print("Installing dependencies (first run or changed lock file) ...", flush=True)
        pip = [str(VENV_PYTHON), "-m", "pip", "--disable-pip-version-check"]
        install = [*pip, "install", "--quiet", "-e", f".[{EXTRAS}]", "-c", "requirements.lock"]
        if subprocess.run(install, cwd=ROOT).returncode != 0:
            fail("installing the dependencies failed (see pip's output above)")
        STAMP.write_text(stamp + "\n")


def reexec_in_venv(script: Path, args: list[str]) -> None:
    """Replace this process with the same script under the venv's Python."""
    os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), str(script), *args])


if __name__ == "__main__":
    ensure_environment()
    print(f"{VENV} is up to date.")
