"""A new player signs up, lands in the lobby, logs out and back in, in real Chromium."""

import pytest

PASSWORD = "quiet-river-stone-81"


@pytest.mark.e2e
def test_a_new_player_signs_up_logs_out_and_logs_back_in(page, live_server_url):
    page.goto(f"{live_server_url}/")
    nav = page.get_by_role("navigation", name="Main")
    nav.get_by_role("link", name="Sign up").click()

    page.get_by_label("Username").fill("erin")
    page.get_by_label("Display name").fill("Erin Q")
    page.get_by_label("Email").fill("erin@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    page.wait_for_url(f"{live_server_url}/")
    assert nav.get_by_role("link", name="Erin Q").get_attribute("href") == "/players/Erin%20Q/"
    nav.get_by_role("link", name="Account").click()
    assert page.get_by_role("heading", name="Your account", exact=True).is_visible()
    assert page.get_by_test_id("display-name").inner_text() == "Erin Q"

    nav.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server_url}/")
    assert nav.get_by_role("link", name="Log in").is_visible()

    nav.get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("erin")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server_url}/")
    assert nav.get_by_role("link", name="Erin Q").is_visible()


@pytest.mark.e2e
def test_the_site_fits_a_phone_screen(page, live_server_url):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server_url}/accounts/signup/")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    assert page.get_by_role("button", name="Sign up").is_visible()
