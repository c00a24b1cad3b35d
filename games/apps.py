from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Connect broadcast and tasks to what the services tell (games.signals), so the
        services import neither: broadcast first, then tasks, as before."""
        from games import broadcast, tasks

        broadcast.connect_receivers()
        tasks.connect_receivers()
