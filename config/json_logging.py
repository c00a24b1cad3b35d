"""One JSON object per log line, so log collectors need no parsing rules.

Under a supervisor that names its programs (supervisord sets SUPERVISOR_PROCESS_NAME, as
under `bin/run`, where every process writes to the one terminal), each line also says which
process wrote it: "process": "web", "worker", "beat", "review".
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime

# Attributes every LogRecord has; anything else was passed through `extra=` and is kept.
_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message",
    "asctime",
    "request_id",
}


class JsonFormatter(logging.Formatter):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.process_name = os.environ.get("SUPERVISOR_PROCESS_NAME", "")

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        if self.process_name:
            entry["process"] = self.process_name
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                entry[key] = value if _is_plain(value) else repr(value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def _is_plain(value: object) -> bool:
    return isinstance(value, str | int | float | bool | type(None) | list | dict)
