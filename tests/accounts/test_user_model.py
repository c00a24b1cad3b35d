"""The user model: display names unique whatever the case, and what a name may contain."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import User
from accounts.validators import validate_display_name

pytestmark = pytest.mark.django_db


def test_the_database_refuses_display_names_differing_only_in_case(alice):
    with pytest.raises(IntegrityError):
        User.objects.create_user("alice2", display_name="ALICE")


def test_the_database_refuses_two_accounts_with_one_email_in_two_cases(alice):
    with pytest.raises(IntegrityError):
        User.objects.create_user("alice2", email="ALICE@example.com")


def test_many_accounts_may_have_no_email(db):
    User.objects.create_user("bot-a", is_bot=True)
    User.objects.create_user("bot-b", is_bot=True)
    assert User.objects.filter(email="").count() == 2


def test_the_display_name_defaults_to_the_username(db):
    assert User.objects.create_user("dora").display_name == "dora"


def test_a_user_reads_as_their_display_name(alice):
    assert str(alice) == "Alice"


@pytest.mark.parametrize("name", ["Ann", "Zoë Ng", "李小龍", "x_y-z.9", "A" * 24, "9lives"])
def test_it_accepts_reasonable_display_names(name):
    validate_display_name(name)


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Al",
        "A" * 25,
        "<b>",
        "a&b",
        'quote"d',
        "it's",
        " lead",
        "trail ",
        "two  spaces",
        "_under",
        "-dash",
        "tab\there",
        "new\nline",
        "Deleted-4",
        "emoji🃏",
    ],
)
def test_it_refuses_unreasonable_display_names(name):
    with pytest.raises(ValidationError):
        validate_display_name(name)


@given(st.text(max_size=30))
def test_no_accepted_display_name_can_carry_markup(name):
    try:
        validate_display_name(name)
    except ValidationError:
        return
    assert not set(name) & set("<>&\"'`/\\=")
    assert 3 <= len(name) <= 24
