"""Ratings and what is built on them: ratings, leaderboards and their pages, player stats and
charts. Written after a game finishes (games.tasks.rate_game), read by the pages.
"""
