"""Pages of the games app: the lobby, a table, its invite link, a finished game.

Views are thin: they check who may see or do what, call a service, and answer. The live
parts of a table are pushed over its socket after every change, so a request that changes a
table answers with nothing to swap (204), asks the page to reload when the viewer's own seat
changed (the socket then reconnects for the new seat), or shows the service's refusal.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from accounts.models import User
from games import engine, game_reviews, rules_pages, secrecy, selectors, signals
from games.forms import TableCreateForm
from games.models import ChatMessage, ChatMute, Game, Hand, Seat, Table
from games.services import chat, presence, shared
from games.services import tables as tables_service
from games.table import display, presenters

INVITES_SESSION_KEY = "table_invites"
CHAT_HISTORY = 50


# --- lobby ---------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """The lobby: the live list of public tables and the create-a-table form."""
    form = TableCreateForm() if request.user.is_authenticated else None
    return _lobby(request, form)


def _lobby(request: HttpRequest, form: TableCreateForm | None, status: int = 200) -> HttpResponse:
    # ?host=<id>: one host's open tables, all of them ("more from this host"); not live.
    raw_host = request.GET.get("host", "")
    lobby_host = (
        User.objects.filter(pk=int(raw_host), is_active=True).first()
        if raw_host.isdigit() and len(raw_host) < 12
        else None
    )
    tables = selectors.public_tables(host_id=lobby_host.pk if lobby_host else None)
    mine: list[Table] = []
    if request.user.is_authenticated:
        mine = list(
            Table.objects.filter(seats__user=request.user, status__in=Table.OPEN_STATUSES)
            .order_by("-created_at")
            .distinct()[:20]
        )
    context = {
        "lobby_tables": presenters.lobby_tables_html(presenters.lobby_rows(tables), oob=False),
        "form": form,
        "lobby_host": lobby_host,
        "my_tables": mine,
        "presets_json": json.dumps(
            {
                name: {"min": p.min_players, "max": p.max_players, "title": p.title}
                for name, p in engine.PRESETS.items()
            }
        ),
        "presets": [p for p in engine.PRESETS.values() if p.playable],
    }
    return render(request, "home.html", context, status=status)


FAVICON = settings.BASE_DIR / "static" / "img" / "favicon.ico"


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers and feed readers ask for whatever the page's <link> says."""
    response = HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def rules(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/rules/index.html",
        {"presets": rules_pages.preset_rows(), "options": rules_pages.option_rows()},
    )


def rules_preset(request: HttpRequest, preset: str) -> HttpResponse:
    page = rules_pages.preset_page(preset)
    if page is None:
        raise Http404("There is no such preset.")
    template = page.pop("template")
    return HttpResponse(template.render(page, request))


@login_required
@require_POST
def table_create(request: HttpRequest) -> HttpResponse:
    form = TableCreateForm(request.POST)
    if not form.is_valid():
        if form.data.get("options_for") not in (None, "", form.data.get("preset")):
            form = TableCreateForm(form.reset_options_data())
            form.is_valid()
            form.add_error(
                None,
                "The house rules now show the defaults of the rules you picked. "
                "Check them and create the table again.",
            )
        return _lobby(request, form, status=400)
    try:
        table = tables_service.table_create(host=request.user, **form.service_kwargs())
    except shared.TableError as exc:
        status = 429 if exc.code in tables_service.TABLE_LIMIT_CODES else 400
        if "application/json" in request.headers.get("Accept", ""):
            return JsonResponse({"error": exc.code, "message": exc.message}, status=status)
        form.add_service_error(exc.code, exc.message)
        return _lobby(request, form, status=status)
    return redirect("table_detail", table_id=table.pk)


# --- a table -------------------------------------------------------------------------------


def _invites(request: HttpRequest) -> list[str]:
    return list(request.session.get(INVITES_SESSION_KEY, []))


def _remember_invite(request: HttpRequest, token: str) -> None:
    tokens = _invites(request)
    if token not in tokens:
        request.session[INVITES_SESSION_KEY] = [*tokens, token][-50:]


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _may_see(request: HttpRequest, table: Table, seated: bool) -> bool:
    """Seated players always; others need the invite for a private table."""
    if seated or not table.is_private:
        return True
    return table.invite_token in _invites(request) or table.host_id == _user_id(request)


def _get_table(request: HttpRequest, table_id: int) -> tuple[Table, int | None]:
    """The table and the viewer's seat; 404 for a private table the viewer was not invited to."""
    table = get_object_or_404(Table, pk=table_id)
    seat = (
        Seat.objects.filter(table=table, user_id=_user_id(request))
        .values_list("index", flat=True)
        .first()
        if request.user.is_authenticated
        else None
    )
    if not _may_see(request, table, seat is not None):
        raise Http404("No such table.")
    return table, seat


def table_detail(request: HttpRequest, table_id: int) -> HttpResponse:
    table, seat = _get_table(request, table_id)
    snap = selectors.load_snapshot(table.pk)
    watching_allowed = seat is not None or table.spectators_allowed
    if not watching_allowed and table.status != Table.Status.WAITING:
        return render(request, "games/table_closed.html", {"table": table}, status=403)
    refused = None if seat is not None else secrecy.refusal(table.pk, request.user)
    if refused:
        context = {"table": table, "reason": refused}
        return render(request, "games/table_closed.html", context, status=403)
    context = presenters.table_context(snap, seat, request.user)
    _fresh_presence(table, context["players"])
    context.update(
        socket_url=_socket_url(table, seat) if watching_allowed else None,
        invite_url=request.build_absolute_uri(
            reverse("table_invite", kwargs={"token": table.invite_token})
        ),
        show_invite=table.is_private and seat is not None,
        chat_lines=_chat_lines(table, request.user),
        can_chat=table.chat_enabled and seat is not None,
        finished_game=_last_finished_game(table),
        manager_banner=_manager_banner(table, request.user),
    )
    return render(request, "games/table.html", context)


def _manager_banner(table: Table, user: Any) -> str:
    """The header line an outside manager (a tournament) adds to its tables' pages."""
    if not table.managed:
        return ""
    answers = signals.managed_table_banner.send(sender=Table, table=table, user=user)
    # Rendered templates come back safe; a plain string from a receiver is escaped.
    return mark_safe("".join(conditional_escape(html) for _, html in answers if html))


def _fresh_presence(table: Table, players: list[dict[str, Any]]) -> None:
    """Connections now: the snapshot is cached per version and presence does not bump it."""
    seats = {s.index: s for s in Seat.objects.filter(table=table).select_related("user")}
    for player in players:
        seat = seats.get(player["index"])
        bot = seat is not None and (seat.is_bot or bool(seat.user_id and seat.user.is_bot))
        online = seat is not None and selectors.seat_online(seat)
        player["presence_info"] = presence.presence_info(player["index"], online=online, bot=bot)


def _socket_url(table: Table, seat: int | None) -> str:
    url = f"/ws/tables/{table.pk}/"
    if table.is_private and seat is None:
        url += f"?invite={table.invite_token}"
    return url


def _chat_lines(table: Table, user: Any) -> list[dict[str, Any]]:
    if not table.chat_enabled:
        return []
    lines = ChatMessage.objects.filter(table=table, hidden=False).select_related("user")
    if user.is_authenticated:
        muted = ChatMute.objects.filter(user=user).values_list("muted_id", flat=True)
        lines = lines.exclude(user_id__in=list(muted))
    recent = list(lines.order_by("-created_at", "-id")[:CHAT_HISTORY])
    recent.reverse()
    return [
        {
            "id": m.pk,
            "user": m.user.display_name,
            "user_id": m.user_id,
            "text": m.text,
            "at": m.created_at.isoformat(),
        }
        for m in recent
    ]


def _last_finished_game(table: Table) -> Game | None:
    return table.games.filter(status=Game.Status.FINISHED).order_by("-number").first()


def table_invite(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link of a private table: remember it for this browser, then show the table."""
    table = get_object_or_404(Table, invite_token=token)
    _remember_invite(request, token)
    return redirect("table_detail", table_id=table.pk)


def _refused(request: HttpRequest, table_id: int, exc: shared.TableError) -> HttpResponse:
    """A service refusal: inline for htmx, a message on the table page otherwise."""
    if request.htmx:
        html = render_to_string(
            "games/partials/error.html",
            {"code": exc.code, "message": exc.message, "target": "room-error"},
        )
        return HttpResponse(html, status=400)
    messages.error(request, exc.message)
    return redirect("table_detail", table_id=table_id)


def _done(request: HttpRequest, table_id: int, *, reload: bool) -> HttpResponse:
    if request.htmx:
        return HttpResponseClientRefresh() if reload else HttpResponse(status=204)
    return redirect("table_detail", table_id=table_id)


def _index(request: HttpRequest) -> int | None:
    raw = request.POST.get("index", "")
    if raw == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise shared.TableError("no_seat", "There is no such seat.") from None


@require_POST
def seat_join(request: HttpRequest, table_id: int) -> HttpResponse:
    """Sit down. From the lobby's "Join" this takes the first free seat and opens the table,
    with no watching view and second "Sit here" in between."""
    from_lobby = request.POST.get("from") == "lobby"
    table_url = reverse("table_detail", args=[table_id])
    if not request.user.is_authenticated:
        login_url = f"{reverse('accounts:login')}?next={table_url}"
        return HttpResponseClientRedirect(login_url) if request.htmx else redirect(login_url)
    table, _seat = _get_table(request, table_id)
    try:
        tables_service.seat_join(
            table_id=table_id,
            user=request.user,
            index=_index(request),
            invite=table.invite_token if _may_see(request, table, False) else None,
        )
    except shared.TableError as exc:
        if from_lobby and exc.code == "already_seated":  # the shared list offers Join to all
            return HttpResponseClientRedirect(table_url) if request.htmx else redirect(table_url)
        if from_lobby and request.htmx:
            html = render_to_string(
                "games/partials/error.html",
                {"code": exc.code, "message": exc.message, "target": "lobby-error"},
            )
            return HttpResponse(html, status=400)
        return _refused(request, table_id, exc)
    if from_lobby:
        return HttpResponseClientRedirect(table_url) if request.htmx else redirect(table_url)
    return _done(request, table_id, reload=True)


@login_required
@require_POST
def seat_change(request: HttpRequest, table_id: int) -> HttpResponse:
    _get_table(request, table_id)
    try:
        index = _index(request)
        if index is None:
            raise shared.TableError("no_seat", "Choose a seat.")
        tables_service.seat_change(table_id=table_id, user=request.user, index=index)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=True)


@login_required
@require_POST
def seat_leave(request: HttpRequest, table_id: int) -> HttpResponse:
    _get_table(request, table_id)
    try:
        tables_service.seat_leave(table_id=table_id, user=request.user)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    if request.htmx:
        return _done(request, table_id, reload=True)
    messages.success(request, "You left the table.")
    return redirect("home")


@login_required
@require_POST
def hand_ready(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "Ready" between hands: the pause ends once every connected person has said so."""
    _get_table(request, table_id)
    try:
        tables_service.hand_ready(table_id=table_id, user=request.user)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=False)


@login_required
@require_POST
def seat_back(request: HttpRequest, table_id: int) -> HttpResponse:
    """ "I'm back": take the seat back from the bot that covered for you."""
    _get_table(request, table_id)
    try:
        presence.seat_back(table_id=table_id, user=request.user)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=False)


@login_required
@require_POST
def seat_bot(request: HttpRequest, table_id: int) -> HttpResponse:
    """Host: put a bot in an empty seat (level given) or take one out (no level)."""
    _get_table(request, table_id)
    level = request.POST.get("level") or None
    try:
        index = _index(request)
        if index is None:
            raise shared.TableError("no_seat", "Choose a seat.")
        tables_service.seat_set_bot(table_id=table_id, by=request.user, index=index, level=level)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=False)


@login_required
@require_POST
def seat_remove(request: HttpRequest, table_id: int) -> HttpResponse:
    _get_table(request, table_id)
    try:
        index = _index(request)
        if index is None:
            raise shared.TableError("no_player", "Nobody sits in that seat.")
        tables_service.seat_remove_player(table_id=table_id, by=request.user, index=index)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=False)


@login_required
@require_POST
def table_start(request: HttpRequest, table_id: int) -> HttpResponse:
    """Start the game, or play again with the same seats once a game is over."""
    _get_table(request, table_id)
    try:
        tables_service.table_start(table_id=table_id, by=request.user)
    except shared.TableError as exc:
        return _refused(request, table_id, exc)
    return _done(request, table_id, reload=False)


# --- chat moderation -----------------------------------------------------------------------


@login_required
@require_POST
def chat_mute(request: HttpRequest, user_id: int) -> HttpResponse:
    muted = get_object_or_404(User, pk=user_id)
    unmute = request.POST.get("unmute") == "1"
    try:
        if unmute:
            chat.chat_unmute(user=request.user, muted=muted)
        else:
            chat.chat_mute(user=request.user, muted=muted)
    except shared.TableError as exc:
        return HttpResponse(exc.message, status=400)
    response = HttpResponse(status=204)
    if not unmute:
        response["HX-Trigger"] = json.dumps({"chatMuted": {"user": muted.pk}})
    return response


@login_required
@require_POST
def chat_report(request: HttpRequest, message_id: int) -> HttpResponse:
    try:
        chat.chat_report(
            message_id=message_id, reporter=request.user, reason=request.POST.get("reason", "")
        )
    except shared.TableError as exc:
        return HttpResponse(exc.message, status=400)
    return render(request, "games/partials/reported.html", {"message_id": message_id})


# --- finished games ------------------------------------------------------------------------


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game: standings, the score sheet and a face-up replay of one hand.

    Until the game is over the page does not exist (404): it shows every hand face up.
    """
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404("This game is not over.")
    table = game.table
    if not _may_see_game(request, game):
        raise Http404("No such game.")
    if secrecy.held_back(game.pk):
        return render(request, "games/game_held_back.html", {"game": game}, status=403)
    names = display.player_names(game.players)
    hands = list(game.hands.order_by("number"))
    rows = [{"hand": h.number, "dealer": h.dealer, "result": h.result} for h in hands]
    chosen = _chosen_hand(request, hands)
    steps: list[dict[str, Any]] = []
    if chosen is not None and chosen.status == Hand.Status.OVER:
        steps = display.replay_steps(engine.state_from_json(chosen.state), names)
    urls = _player_urls(game.players)
    standings = display.standings(game.totals, game.winners, names)
    for row in [*standings, *(h for step in steps for h in step["hands"])]:
        row["url"] = urls[row["seat"]] if row["seat"] < len(urls) else None
    for step in steps:
        for group in step["melds"]:
            group["url"] = urls[group["seat"]] if group["seat"] < len(urls) else None
    players = [
        {**p, "name": names[i], "url": urls[i] if i < len(urls) else None}
        for i, p in enumerate(game.players)
    ]
    reviewed = game_reviews.replay_context(
        game, chosen.number if chosen else None, steps, _user_id(request)
    )
    return render(
        request,
        "games/game_detail.html",
        {
            **reviewed,
            "game": game,
            "table": table,
            "names": names,
            "players": players,
            "preset_title": display.preset_title(table.preset),
            "rules_summary": display.rules_summary(game.rules),
            "standings": standings,
            "score_sheet": display.score_sheet(
                rows, len(names), game.totals if game.status == Game.Status.FINISHED else None
            ),
            "standings_columns": [{"name": name} for name in names],
            "hands": hands,
            "chosen": chosen,
            "steps": steps,
        },
    )


def _may_see_game(request: HttpRequest, game: Game) -> bool:
    """Whoever may see the table may see its finished games' replays (and their review)."""
    seated = (
        Seat.objects.filter(table=game.table, user_id=_user_id(request)).exists()
        if request.user.is_authenticated
        else False
    )
    return _may_see(request, game.table, seated)


def _player_urls(players: list[dict[str, Any]]) -> list[str | None]:
    """Each seat's public page, from the account's current name (None when it is gone).

    A person's seat records the account; a bot seat, its level, played by the bot account
    of that name. One query for the whole game.
    """
    ids = [p["user"] for p in players if p.get("user")]
    bot_names = [p.get("name", "") for p in players if p.get("bot")]
    found = User.objects.filter(deleted_at__isnull=True, is_active=True).filter(
        Q(pk__in=ids) | Q(is_bot=True, display_name__in=bot_names)
    )
    by_id: dict[int, str] = {}
    by_bot_name: dict[str, str] = {}
    for user_id, name, is_bot in found.values_list("pk", "display_name", "is_bot"):
        by_id[user_id] = name
        if is_bot:
            by_bot_name[name] = name
    urls: list[str | None] = []
    for p in players:
        name = by_id.get(p["user"]) if p.get("user") else None
        if name is None and p.get("bot"):
            name = by_bot_name.get(p.get("name", ""))
        urls.append(reverse("player_detail", kwargs={"name": name}) if name else None)
    return urls


def _chosen_hand(request: HttpRequest, hands: list[Hand]) -> Hand | None:
    if not hands:
        return None
    try:
        number = int(request.GET.get("hand", hands[0].number))
    except ValueError:
        number = hands[0].number
    for hand in hands:
        if hand.number == number:
            return hand
    raise Http404("No such hand.")


@login_required
@require_POST
def game_review_request(request: HttpRequest, game_id: int) -> HttpResponse:
    """Someone who may see a finished game's replay asks for its review (one-hand tournament
    games and duplicate rounds are reviewed only on request); a review already asked for or
    done is left as it is. games.review_requests says who may ask and when."""
    from games import review_requests

    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404("This game is not over.")
    if not _may_see_game(request, game):
        raise Http404("No such game.")
    refused = review_requests.ask(game, request.user.pk)
    if refused is not None:
        messages.error(request, refused)
        return redirect("game_detail", game_id=game.pk)
    messages.success(request, "The review is on its way: this page shows its progress.")
    return redirect("game_detail", game_id=game.pk)
