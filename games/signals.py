"""What games tell other apps, sent after the commit that made it true.

Apps built on games (tournaments) listen here instead of games importing them. Receivers run
in the writer's process right after commit: they should only hand the work to a task.
"""

from __future__ import annotations

from django.dispatch import Signal

# kwargs: table_id, game_id, hand_id, game_over (bool)
hand_finished = Signal()
