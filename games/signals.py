"""What games tell other apps, sent after the commit that made it true.

Apps built on games (tournaments) listen here instead of games importing them. Receivers run
in the writer's process right after commit: they should only hand the work to a task.
"""

from __future__ import annotations

from django.dispatch import Signal

# kwargs: table_id, game_id, hand_id, game_over (bool)
hand_finished = Signal()

# kwargs: table_id, hand_id. Every connected person at a managed table said "Ready" before
# the pause after its hand ran out (games.clock.hand_pause_left): its manager may deal now.
hand_pause_over = Signal()

# Asked (not told) by the table page of a managed table: kwargs table (games.models.Table) and
# user. A receiver that manages the table returns the HTML of a banner for the page's header
# (say, which tournament it belongs to, and what keeps the player with their seat when the
# manager moves them); others return None. Sent with send(), so a receiver's error is the
# page's error, like any other bug in rendering it.
managed_table_banner = Signal()

# Asked by the game review (games.review_requests) about a finished game: kwargs game
# (games.models.Game). A receiver that runs the game's table answers "on_request" (reviewed
# only when someone asks from the replay page: one-hand tournament games, duplicate rounds) or
# "not_yet" (not even on request for now: a duplicate deal still played at other tables);
# others return None, and the site reviews the game by itself.
review_policy = Signal()
