"""The "Tournament organizers" group: staff who run tournaments from the admin.

Permissions are normally created after all migrations; they are created here first so the
group can hold them on a fresh database.
"""

from django.db import migrations

GROUP = "Tournament organizers"
CODENAMES = [
    "add_tournament",
    "change_tournament",
    "view_tournament",
    "manage_tournament",
    "add_level",
    "change_level",
    "delete_level",
    "view_level",
    "add_entry",
    "delete_entry",
    "view_entry",
    "view_tournamenttable",
    "view_chipledger",
]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=CODENAMES)
    )


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_tournaments"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
