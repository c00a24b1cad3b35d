"""What games tell other apps, sent after the commit that made it true.

Apps built on games (tournaments) listen here instead of games importing them. Receivers run
in the writer's process right after commit: they should only hand the work to a task.
"""

from __future__ import annotations

from django.dispatch import Signal

# kwargs: table_id, game_id, hand_id, game_over (bool)
hand_finished = Signal()

# kwargs: table_id, hand_id. Every connected person at a managed table said "Ready" before
# the pause after its hand ran out (games.services.clock.hand_pause_left): its manager may deal now.
hand_pause_over = Signal()

# Asked (not told) by the table page of a managed table: kwargs table (games.models.Table) and
# user. A receiver that manages the table returns the HTML of a banner for the page's header
# (say, which tournament it belongs to, and what keeps the player with their seat when the
# manager moves them); others return None. Sent with send(), so a receiver's error is the
# page's error, like any other bug in rendering it.
managed_table_banner = Signal()


# --- inside games: the services tell, broadcast and tasks listen ------------------------------
# The services know neither the channel layer nor Celery: they send these, and games.broadcast
# and games.tasks connect their receivers in GamesConfig.ready() (broadcast first, then tasks,
# so a table hears "version n" before bots or the next hand are armed for it).

# Sent after the commit. kwargs: table_id, version, lobby (bool), work (a
# selectors.PendingWork or None), arm_clock (bool).
table_changed = Signal()

# Sent after the write. kwargs: table_id, info (services.presence.presence_info's dict).
seat_presence_changed = Signal()

# Sent after the write, when a player's last socket closed during a running game: the grace
# period before a bot covers for them starts. kwargs: table_id, seat.
seat_disconnected = Signal()

# Sent after the commit: the turn clock's deadline moved later, arm a timeout for it.
# kwargs: table_id, due_at.
clock_deadline_moved = Signal()

# Sent after the commit. kwargs: table_id, message_id.
chat_posted = Signal()

# Sent inside the transaction that finished a game: receivers wait for its commit themselves
# (ratings and the review are armed with transaction.on_commit). kwargs: game_id.
game_finished = Signal()

# Asked by the game review (games.review_requests) about a finished game: kwargs game
# (games.models.Game). A receiver that runs the game's table answers "on_request" (reviewed
# only when someone asks from the replay page: one-hand tournament games, duplicate rounds) or
# "not_yet" (not even on request for now: a duplicate deal still played at other tables);
# others return None, and the site reviews the game by itself.
review_policy = Signal()

# Sent after the commit that stored a review asked for from the replay page
# (games.game_reviews.request_on_demand): games.tasks queues it. kwargs: game_id.
review_requested = Signal()
