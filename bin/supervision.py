"""The processes `bin/run` keeps alive, and the supervisord configuration that does it.

Why supervisor (https://supervisord.org): it is the long-kept, widely used process
supervisor on PyPI, a pure-Python wheel with no dependencies (so `pip install` alone brings
it on a fresh machine, as bin/run needs), and it does exactly what a crash needs: restart a
process that exits, with a growing pause when it keeps failing at start, each process in its
own process group so a stop (or a kill) takes its children too, start and stop in priority
order, and a clean stop of everything on SIGINT/SIGTERM. circus was the other candidate; it
brings pyzmq, tornado and psutil along (three more packages, two with compiled parts), and
it is far less used. honcho, used before, stops every process when one exits.

The process list is config/Procfile.dev, one `name: command` line each: adding a supervised
worker (a review worker on its own queue, say) is one line there. The private Redis is added
here when bin/run has one, first to start and last to stop.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROCFILE = ROOT / "config" / "Procfile.dev"

# A process that exits is started again at once. One that exits again within START_SECONDS
# of a start counts as a failed start: supervisor waits 1 s, then 2 s, 3 s, ... before each
# new try, and gives up on it (state FATAL, said in the log) after START_RETRIES failed
# starts in a row (about 3.5 minutes of trying). A start that lasts resets the count.
START_SECONDS = 5
START_RETRIES = 20
# On a stop, TERM first (Daphne closes its sockets, Celery finishes its task), then KILL.
# TERM goes to each process group, but to a Celery worker's main process only (Program).
STOP_WAIT_SECONDS = 10
REDIS_PRIORITY = 100
SITE_PRIORITY = 200

_VARIABLE = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")


@dataclass(frozen=True)
class Program:
    """One supervised process: started in priority order (low first), stopped in reverse."""

    name: str
    command: str
    priority: int = SITE_PRIORITY

    @property
    def stops_its_own_children(self) -> bool:
        """A Celery worker: its TERM is a warm shutdown, in which the main process lets the
        pool children finish their tasks and then stops them. A TERM sent to the whole
        group reached the children too, and they died at once mid-task ("WorkerLostError"
        logged at ERROR on every Ctrl-C, the task redone later). So only the main process
        gets the TERM; the KILL after STOP_WAIT_SECONDS still goes to the whole group."""
        words = shlex.split(self.command)
        return "celery" in words and "worker" in words

    def section(self) -> str:
        # supervisor expands %(name)s in commands: a literal % (Celery's -n worker@%h) is %%.
        return "\n".join(
            [
                f"[program:{self.name}]",
                f"command={self.command.replace('%', '%%')}",
                f"directory={ROOT}",
                f"priority={self.priority}",
                "autostart=true",
                "autorestart=true",
                f"startsecs={START_SECONDS}",
                f"startretries={START_RETRIES}",
                "stopsignal=TERM",
                f"stopwaitsecs={STOP_WAIT_SECONDS}",
                f"stopasgroup={'false' if self.stops_its_own_children else 'true'}",
                "killasgroup=true",
                "redirect_stderr=true",
                # Into bin/run's own output, as one stream, unrotated.
                "stdout_logfile=/dev/stdout",
                "stdout_logfile_maxbytes=0",
                "",
            ]
        )


def expand(command: str, env: Mapping[str, str]) -> str:
    """`$NAME`, `${NAME}` and `${NAME:-default}` as a shell would expand them."""

    def value(match: re.Match[str]) -> str:
        name = match[1] or match[3]
        found = env.get(name, "")
        return found if found or match[2] is None else match[2]

    return _VARIABLE.sub(value, command)


def read_procfile(env: Mapping[str, str], path: Path = PROCFILE) -> list[Program]:
    """The site's processes from a Procfile: `name: command` lines; # starts a comment."""
    programs = []
    for number, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, command = line.partition(":")
        if not sep or not re.fullmatch(r"[A-Za-z][\w-]*", name.strip()) or not command.strip():
            raise ValueError(f"{path}:{number}: expected `name: command`, got {raw!r}")
        programs.append(Program(name.strip(), expand(command.strip(), env)))
    return programs


def redis_program(command: list[str]) -> Program:
    return Program("redis", shlex.join(command), priority=REDIS_PRIORITY)


def supervisord_config(programs: list[Program], run_dir: Path) -> str:
    """The whole supervisord.conf: in the foreground, control socket in run_dir.

    The socket is the owner's only (0700) and asks for a password written in this file,
    which lives in bin/run's private run directory.
    """
    password = secrets.token_urlsafe(24)
    supervisord = [
        "[supervisord]",
        "nodaemon=true",
        f"logfile={run_dir / 'supervisord.log'}",
        f"pidfile={run_dir / 'supervisord.pid'}",
        f"childlogdir={run_dir}",
        "loglevel=info",
    ]
    if os.geteuid() == 0:
        # Said as root, so supervisord does not warn that it kept root's privileges.
        supervisord.append("user=root")
    control = [
        "[unix_http_server]",
        f"file={control_socket(run_dir)}",
        "chmod=0700",
        "username=rummy",
        f"password={password}",
        "[rpcinterface:supervisor]",
        "supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface",
        "[supervisorctl]",
        f"serverurl=unix://{control_socket(run_dir)}",
        "username=rummy",
        f"password={password}",
    ]
    sections = ["\n".join(supervisord), "\n".join(control), *(p.section() for p in programs)]
    return "\n\n".join(sections) + "\n"


def control_socket(run_dir: Path) -> Path:
    return run_dir / "supervisor.sock"
