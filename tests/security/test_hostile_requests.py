"""Hostile HTTP requests found by probing the site: each gets a clear answer, never a 500,
and changes nothing it should not.

- ``next`` on the sign-up page that is not a path (``next=x``, ``next=-1``): ``redirect``
  read the word as a view name and raised, after the account had been made.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.accounts.test_signup import signup_data

pytestmark = pytest.mark.django_db

NOT_A_PATH = ["x", "-1", "1e9", "home", "table_create", "javascript:alert(1)", "%00"]


@pytest.mark.parametrize("target", NOT_A_PATH)
def test_a_sign_up_next_that_is_not_a_path_lands_in_the_lobby(target):
    visitor = Client(raise_request_exception=False)
    response = visitor.post(f"/accounts/signup/?next={target}", signup_data())
    assert response.status_code == 302 and response.url == "/"
    assert User.objects.filter(username="carol").exists()
    # signed in now, the page itself sends them on: to the lobby as well
    again = visitor.get("/accounts/signup/", {"next": target})
    assert again.status_code == 302 and again.url == "/"


def test_a_sign_up_next_that_is_a_path_of_this_site_is_still_followed(client):
    response = client.post("/accounts/signup/", {**signup_data(), "next": "/rules/standard/"})
    assert response.url == "/rules/standard/"
