"""Fast bulk inserts for history-sized writes (seed_history, recompute_ratings).

On PostgreSQL rows go through ``COPY ... FROM STDIN``, many times faster than ``bulk_create``
for hundreds of thousands of rows (no per-field Python preparation, no giant statements);
elsewhere (SQLite in tests and development) it falls back to ``bulk_create``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from django.db import connection, models


def insert_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Insert ``rows`` (values in ``fields`` order, Python values) into ``model``'s table."""
    meta = model._meta
    columns = [cast("models.Field[Any, Any]", meta.get_field(name)) for name in fields]
    if connection.vendor != "postgresql":
        objs = [model(**dict(zip(fields, row, strict=True))) for row in rows]
        model._default_manager.bulk_create(objs, batch_size=2000)
        return len(objs)
    from psycopg import sql
    from psycopg.types.json import Jsonb

    json_at = [i for i, f in enumerate(columns) if isinstance(f, models.JSONField)]
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(meta.db_table),
        sql.SQL(", ").join([sql.Identifier(str(f.column)) for f in columns]),
    )
    count = 0
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for row in rows:
            if json_at:
                row = list(row)
                for i in json_at:
                    row[i] = Jsonb(row[i])
            copy.write_row(row)
            count += 1
    return count
