"""Rummy 500 tables and live play. The pure rules engine lives in games/engine/."""
