"""Settings for the load benchmark's processes: the site's, with pacing for scripted players."""

from config.settings import *  # noqa: F403

BOT_MOVE_DELAY_SECONDS = 0.0
HAND_PAUSE_SECONDS = 1.0
# Between a level's real run and its echo run the scripted players leave their tables; the
# grace keeps bots from taking those seats over and playing on while later levels are measured
# (the harness also stops each level's tables when it is done with them).
DISCONNECT_GRACE_SECONDS = 3600.0
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
