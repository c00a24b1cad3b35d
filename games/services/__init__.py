"""Every write to tables, seats, games and hands goes through a module of this package.

Split by concern: shared (the lock, version bump and after-commit effects), tables, moves,
turn_clock, presence, chat, managed (tables another app runs) and deleted_players. Callers
import the module they need; this package re-exports nothing.
"""
