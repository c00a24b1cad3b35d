"""Tournaments: brackets and rounds built on games. Depends on games, never the reverse."""
