"""Sockets that end with the account or session they were opened with.

A WebSocket is authenticated once, at its handshake; Django's own checks (the session, the
password's session hash, ``is_active``) run on every HTTP request but never again on an open
socket. So the events that end a login tell the sockets themselves:

- logging out closes the sockets of that session;
- a password change closes the sockets of the user's other sessions (the session that made
  the change keeps its own, as Django keeps that session logged in);
- deleting or suspending an account (``is_active`` set to False) closes all of its sockets.

Every socket of a logged-in user joins two channel groups: ``user_group`` (every socket of
that account, on every page) and ``session_group`` (the sockets of one login). The per-user
group is the accounts app's: other apps may send their own events to it, but every consumer
that joins it must then handle them, so such events get their handler here, on
``AccountSockets``, never on one consumer only. Notices (accounts/notices.py) are such an
event: ``account_notice`` hands them to the consumer's ``notice_forward`` if it has one (the
base layout's notice socket) and drops them otherwise.

A group message can be lost (the channel layer delivers at most once; a Redis restart drops
what is in flight), so a socket also re-checks its account before it applies anything the
client sends: ``AccountSockets.account_check`` (one primary-key query, run inside the same
database call as the move or the chat line it guards).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.db import connection, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

log = logging.getLogger(__name__)

# The close code of a socket whose login ended (docs/protocol.md); the reason says which.
CLOSE_LOGIN_ENDED = 4401
REASON_LOGGED_OUT = "logged_out"
REASON_PASSWORD_CHANGED = "password_changed"
REASON_ACCOUNT_DELETED = "account_deleted"
REASON_ACCOUNT_SUSPENDED = "account_suspended"

CLOSE_EVENT = "account.close"
RETRY_PAUSE_S = 0.05
_DB_SESSION_ENGINES = {
    "django.contrib.sessions.backends.db",
    "django.contrib.sessions.backends.cached_db",
}


def user_group(user_id: int) -> str:
    """Every socket of one account, whatever the page."""
    return f"user-{user_id}"


def session_tag(session_key: str) -> str:
    """A stand-in for a session key in group names and events: the key itself is what the
    session cookie holds, and must not sit in the channel layer where anybody with access
    to Redis could read it."""
    return salted_hmac("accounts.sockets.session", session_key).hexdigest()[:32]


def session_group(session_key: str) -> str:
    """The sockets of one login (one browser's session)."""
    return f"session-{session_tag(session_key)}"


class LoginEnded(Exception):
    """The socket's account or session is no longer valid; the frame is refused."""

    code = "login_ended"
    close_code = CLOSE_LOGIN_ENDED

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.message = _REFUSALS.get(reason, "Your login has ended; log in again.")
        super().__init__(self.message)


_REFUSALS = {
    REASON_LOGGED_OUT: "You have logged out; log in again to play.",
    REASON_PASSWORD_CHANGED: "Your password was changed; log in again to play.",
    REASON_ACCOUNT_DELETED: "This account has been deleted.",
    REASON_ACCOUNT_SUSPENDED: "This account is suspended.",
}


# --- the events ----------------------------------------------------------------------------


def close_user_sockets(user_id: int, *, reason: str, keep_session_key: str | None = None) -> None:
    """After the current transaction commits, close every socket of the account (except
    those of ``keep_session_key``'s session): the change they announce is true by then."""
    event: dict[str, object] = {"type": CLOSE_EVENT, "reason": reason}
    if keep_session_key:
        event["keep"] = session_tag(keep_session_key)
    transaction.on_commit(lambda: _send(user_group(user_id), event))


_kept_session: ContextVar[str | None] = ContextVar("kept_session", default=None)


@contextmanager
def keeping_session(session_key: str | None) -> Iterator[None]:
    """Within this block, a password change keeps the sockets of ``session_key``'s session:
    the password-change page wraps its save in it, every other way of setting a password
    (a reset link, the admin, ``changepassword``) closes all of the account's sockets."""
    token = _kept_session.set(session_key)
    try:
        yield
    finally:
        _kept_session.reset(token)


def password_changed(user_id: int) -> None:
    close_user_sockets(
        user_id, reason=REASON_PASSWORD_CHANGED, keep_session_key=_kept_session.get()
    )


def close_session_sockets(session_key: str, *, reason: str = REASON_LOGGED_OUT) -> None:
    """After the current transaction commits, close the sockets of one session."""
    event = {"type": CLOSE_EVENT, "reason": reason}
    transaction.on_commit(lambda: _send(session_group(session_key), event))


def _send(group: str, event: dict[str, object]) -> None:
    # games.broadcast owns the sending (the per-loop pool pitfalls, one retry after a Redis
    # restart); imported here so that accounts does not load games at start-up.
    from games.broadcast import _send as send

    send(group, event)


# --- the consumer side ---------------------------------------------------------------------


class AccountSockets:
    """Mixin for every consumer a logged-in user may open: put it first among the bases.

    It joins the account's and the session's groups before the consumer's own ``connect``
    (so a close event cannot slip in between), closes the socket on ``account.close``, and
    offers ``account_check`` for the consumer to call before it applies a client's frame.
    """

    _account_groups: list[str]
    _account_user_id: int | None
    _account_session_key: str | None
    _account_session_hash: str | None
    _account_password_seen: str | None
    _account_reason: str | None

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self._account_groups = []
        self._account_user_id = None
        self._account_session_key = None
        self._account_session_hash = None
        self._account_password_seen = None
        self._account_reason = None
        scope: dict[str, Any] = self.scope  # type: ignore[attr-defined]
        user = scope.get("user")
        if user is not None and user.is_authenticated:
            self._account_user_id = user.pk
            self._account_groups.append(user_group(user.pk))
            session = scope.get("session")
            key = getattr(session, "session_key", None) if session is not None else None
            if key:
                # Loaded already: the auth middleware read the session to find the user.
                self._account_session_key = key
                self._account_session_hash = session.get(HASH_SESSION_KEY)
                self._account_groups.append(session_group(key))
        for group in self._account_groups:
            await self._account_group_add(group)
        await super().websocket_connect(message)  # type: ignore[misc]

    async def _account_group_add(self, group: str) -> None:
        """One retry: after a Redis restart the first command on a pooled connection fails
        while the next one connects afresh (as games.broadcast does for sends)."""
        layer = self.channel_layer  # type: ignore[attr-defined]
        try:
            await layer.group_add(group, self.channel_name)  # type: ignore[attr-defined]
        except Exception:
            log.warning("channel layer group_add failed; retrying once", extra={"group": group})
            await asyncio.sleep(RETRY_PAUSE_S)
            await layer.group_add(group, self.channel_name)  # type: ignore[attr-defined]

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        layer = self.channel_layer  # type: ignore[attr-defined]
        for group in getattr(self, "_account_groups", ()):
            try:
                await layer.group_discard(group, self.channel_name)  # type: ignore[attr-defined]
            except Exception:  # the membership expires by itself; the disconnect goes on
                log.warning("channel layer group_discard failed", extra={"group": group})
        await super().websocket_disconnect(message)  # type: ignore[misc]

    async def account_close(self, event: dict[str, Any]) -> None:
        if self._keeps(event.get("keep")):
            # The session that changed the password stays logged in, under a new key
            # and a new hash that this socket cannot know: its next check adopts the
            # account's new password instead of refusing it.
            self._account_session_key = None
            self._account_session_hash = None
            return
        reason = str(event.get("reason") or "")
        self._account_reason = reason
        await self.close(code=CLOSE_LOGIN_ENDED, reason=reason)  # type: ignore[attr-defined]

    async def account_notice(self, event: dict[str, Any]) -> None:
        """A notice for the account (accounts/notices.py): only the base layout's notice
        socket shows it (``notice_forward``); every other socket of the account hears it on
        the same group and lets it pass."""
        forward = getattr(self, "notice_forward", None)
        if forward is not None:
            await forward(event)

    def _keeps(self, keep: object) -> bool:
        key = self._account_session_key
        return (
            isinstance(keep, str)
            and key is not None
            and constant_time_compare(keep, session_tag(key))
        )

    def account_check(self) -> None:
        """Raise ``LoginEnded`` unless the socket's account is active and its session still
        valid. Runs on a database thread; anonymous sockets pass without a query."""
        if self._account_reason is not None:
            raise LoginEnded(self._account_reason)
        if self._account_user_id is None:
            return
        row = _account_row(self._account_user_id, self._account_session_key)
        if row is None:
            raise self._ended(REASON_ACCOUNT_DELETED)
        is_active, deleted, password, session_alive = row
        if deleted:
            raise self._ended(REASON_ACCOUNT_DELETED)
        if not is_active:
            raise self._ended(REASON_ACCOUNT_SUSPENDED)
        if not session_alive:
            raise self._ended(REASON_LOGGED_OUT)
        if password != self._account_password_seen:
            expected = _session_hash(self._account_user_id, password)
            if self._account_session_hash is None:
                self._account_session_hash = expected  # adopted after our own change
            elif not constant_time_compare(expected, self._account_session_hash):
                raise self._ended(REASON_PASSWORD_CHANGED)
            self._account_password_seen = password

    def _ended(self, reason: str) -> LoginEnded:
        self._account_reason = reason
        return LoginEnded(reason)


def _account_row(user_id: int, session_key: str | None) -> tuple[bool, bool, str, bool] | None:
    """(is active, is deleted, password hash, session alive) in one query by primary key.

    Raw SQL on purpose: this runs before every move of every logged-in socket, and the ORM
    would spend more on building the query than the database spends answering it
    (bench/load/account_check.py measures it)."""
    check_session = session_key is not None and settings.SESSION_ENGINE in _DB_SESSION_ENGINES
    sql = _account_sql(connection.vendor, check_session)
    params: list[Any] = [session_key, timezone.now(), user_id] if check_session else [user_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    is_active, deleted_at, password, sessions = row
    return bool(is_active), deleted_at is not None, password, bool(sessions)


@functools.cache
def _account_sql(vendor: str, check_session: bool) -> str:
    from accounts.models import User

    quote = connection.ops.quote_name
    session = "1"
    if check_session:
        session = (
            f"(SELECT COUNT(*) FROM {quote('django_session')} "
            f"WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s)"
        )
    return (
        f"SELECT {quote('is_active')}, {quote('deleted_at')}, {quote('password')}, {session} "
        f"FROM {quote(User._meta.db_table)} WHERE {quote('id')} = %s"
    )


def _session_hash(user_id: int, password: str) -> str:
    """The hash Django keeps in a session for this password (AbstractBaseUser's own)."""
    from accounts.models import User

    return User(pk=user_id, password=password).get_session_auth_hash()


T = TypeVar("T")


def guarded(check: Callable[[], None], fn: Callable[..., T]) -> Callable[..., T]:
    """``fn`` with ``check`` run first, in the same database call (one thread hop)."""

    def run(*args: Any, **kwargs: Any) -> T:
        check()
        return fn(*args, **kwargs)

    return run
