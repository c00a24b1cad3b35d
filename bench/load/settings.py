"""Settings for the load benchmark's processes: the site's, with pacing for scripted players."""

from config.settings import *  # noqa: F403

BOT_MOVE_DELAY_SECONDS = 0.0
HAND_PAUSE_SECONDS = 1.0
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
