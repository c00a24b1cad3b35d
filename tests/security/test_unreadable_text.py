"""Table names and chat lines are shown to every other player: text that shows nothing, that
turns the rest of a line around, or that holds control characters is refused with a reason
and stores nothing (games/text_rules.py). Found by probing: a table named with two zero-width
spaces made a blank lobby row, "\\u202eexe.gnp" in chat read "png.exe", and ESC and BEL were
stored as they came. Ordinary text in any script, with emoji and their joiners, still goes.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.models import ChatMessage, Table
from games.services import chat, tables
from games.services.shared import TableError
from games.text_rules import text_problem
from tests.security.socket_helpers import connect, next_frame, table_for

pytestmark = pytest.mark.django_db

UNREADABLE = [
    "\u200b\u200b",  # zero-width spaces only
    "\u3164\u3164\u3164",  # Hangul filler
    "\u2800\u2800",  # blank braille pattern
    "\ufeff",  # a byte-order mark alone
    "\u202eelbat s'adA",  # right-to-left override
    "Ann \u2066wins\u2069",  # an isolate
    "red\x1b[31m",  # ESC
    "bell\x07",
    "two\nlines",
]
FINE = [
    "Ann's table",
    "Таблица Ивана",
    "שולחן של דנה",  # right-to-left script, no override
    "紙牌桌",
    "family \U0001f468\u200d\U0001f469\u200d\U0001f467 table",  # emoji joined by ZWJ
    "flag \U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # tag sequence
    "café",  # combining accent
]


@pytest.mark.parametrize("text", UNREADABLE)
def test_unreadable_text_is_named(text):
    assert text_problem(text) is not None


@pytest.mark.parametrize("text", FINE)
def test_ordinary_text_passes(text):
    assert text_problem(text) is None


def create(client: Client, name: str):
    return client.post(
        "/tables/new/",
        {
            "name": name,
            "preset": "standard",
            "num_seats": "2",
            "turn_seconds": "60",
            "bot_level": "easy",
        },
    )


@pytest.mark.parametrize("name", UNREADABLE)
def test_the_create_form_refuses_an_unreadable_table_name(alice, name):
    client = Client()
    client.force_login(alice)
    response = create(client, name)
    assert response.status_code == 400
    assert "A table name" in response.content.decode()
    assert not Table.objects.exists()


def test_a_table_name_in_another_script_is_kept(alice):
    client = Client()
    client.force_login(alice)
    response = create(client, FINE[1])
    assert response.status_code == 302
    assert Table.objects.get().name == FINE[1]


def test_the_service_refuses_an_unreadable_table_name(alice):
    with pytest.raises(TableError) as refused:
        tables.table_create(
            host=alice,
            name="\u200b",
            preset="standard",
            options={},
            num_seats=2,
            turn_seconds=60,
        )
    assert refused.value.code == "invalid_name"
    assert not Table.objects.exists()


@pytest.mark.parametrize("text", [t for t in UNREADABLE if t != "two\nlines"])
def test_the_chat_service_refuses_an_unreadable_line(alice, text):
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    with pytest.raises(TableError) as refused:
        chat.chat_post(table_id=table.pk, user=alice, text=text)
    assert refused.value.code == "bad_text"
    assert not ChatMessage.objects.exists()


def test_a_chat_line_over_two_lines_is_one_line_and_emoji_pass(alice):
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    chat.chat_post(table_id=table.pk, user=alice, text="two\nlines")
    assert ChatMessage.objects.get().text == "two lines"
    ChatMessage.objects.all().delete()
    chat.chat_post(table_id=table.pk, user=alice, text=FINE[4])
    assert ChatMessage.objects.get().text == FINE[4]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_overridden_chat_line_on_the_socket_gets_an_error_and_stores_nothing(alice):
    table = await table_for(alice)
    ws = await connect(table, alice)
    await next_frame(ws, "state")
    await ws.send_json_to({"type": "chat", "id": "c1", "text": "\u202eexe.gnp"})
    error = await next_frame(ws, "error")
    assert error["code"] == "bad_text"
    assert not await database_sync_to_async(ChatMessage.objects.exists)()
    await ws.send_json_to({"type": "chat", "id": "c2", "text": "good game"})
    await ws.send_json_to({"type": "ping", "id": "p"})
    assert (await next_frame(ws, "pong"))["id"] == "p"
    texts = await database_sync_to_async(lambda: list(ChatMessage.objects.values_list("text")))()
    assert texts == [("good game",)]
    await ws.disconnect()
