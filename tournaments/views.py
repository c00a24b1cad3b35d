"""Tournament pages: public lists, standings, ledger, leaderboard; a player's lobby.

Thin: look up, authorise, call a service or a selector, render. Live parts are fragments
that the page refetches when its socket says the tournament changed (and every few seconds
without one).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from games.table import display
from tournaments import lobby as lobby_rows
from tournaments import notices, selectors, services
from tournaments.forms import LobbyFilterForm
from tournaments.models import Tournament, TournamentTable


def _public(tournament_id: int) -> Tournament:
    t = get_object_or_404(Tournament, pk=tournament_id)
    if t.status == Tournament.Status.DRAFT:
        raise Http404("This tournament is not announced yet.")
    return t


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The lobby: upcoming events first, filtered by format and preset from the GET query."""
    form = LobbyFilterForm(request.GET or None)
    filters = form.filters() if form.is_bound else {}
    context = {"lists": lobby_rows.lobby(**filters), "form": form, "filtered": bool(filters)}
    return render(request, "tournaments/list.html", context, status=400 if form.errors else 200)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _public(tournament_id)
    context = {**_live_context(request, t), "preset_title": display.preset_title(t.preset)}
    return render(request, "tournaments/detail.html", context)


def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part of the tournament page (status, level, standings, tables, your seat)."""
    t = _public(tournament_id)
    return render(request, "tournaments/partials/live.html", _live_context(request, t))


def _live_context(request: HttpRequest, t: Tournament) -> dict[str, object]:
    standings = selectors.standings(t)
    mine = selectors.my_entry(t, request.user)
    shown = next((e for e in standings if mine is not None and e.pk == mine.pk), None)
    if shown is not None and mine is not None:
        mine.shown_status = shown.shown_status  # type: ignore[attr-defined]
    return {
        "t": t,
        "standings": standings,
        "tables": selectors.tables(t),
        "mine": mine,
        "my_score": shown.score if shown is not None else 0,
        "outcome": selectors.my_outcome(t, mine),
        "progress": selectors.progress(t),
        "break_ends": selectors.break_ends(t, None),
        "late_open": selectors.late_registration_open(t),
        "schedule": selectors.level_schedule(t) if t.is_mtt else [],
        "prize_table": selectors.prize_table(t),
        "prizes_default": selectors.prizes_are_default(t),
    }


def tournament_ledger(request: HttpRequest, tournament_id: int) -> HttpResponse:
    t = _public(tournament_id)
    return render(request, "tournaments/ledger.html", {"t": t, "hands": selectors.ledger(t)})


def leaderboard(request: HttpRequest) -> HttpResponse:
    period = request.GET.get("period", "all")
    if period not in selectors.PERIODS:
        period = "all"
    return render(
        request,
        "tournaments/leaderboard.html",
        {"rows": selectors.leaderboard(period), "period": period, "periods": selectors.PERIODS},
    )


def player_results(request: HttpRequest, name: str) -> HttpResponse:
    """A fragment (no base template) for the public player page, which loads it with htmx."""
    user = User.objects.filter(display_name__iexact=name, is_active=True).first()
    if user is None:
        raise Http404("No such player.")
    won, total = selectors.player_prizes(user)
    return render(
        request,
        "tournaments/partials/player_results.html",
        {
            "player": user,
            "entries": selectors.player_results(user),
            "prizes": won,
            "trophies": total,
        },
    )


@login_required
def lobby(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The player's own view: status, level, PCR, chips, a link to their table, and the
    tournament's notices to them (marked read as they are shown)."""
    t = _public(tournament_id)
    entry = selectors.my_entry(t, request.user)
    if entry is None:
        messages.info(request, "You are not entered in this tournament.")
        return redirect(t)
    context = {
        "t": t,
        "mine": entry,
        "shown_status": selectors.status_text(t, entry),
        "outcome": selectors.my_outcome(t, entry),
        "progress": selectors.progress(t),
        "my_score": selectors.live_scores(t).get(entry.user_id, entry.score),
        "notices": notices.for_lobby(request.user.pk, t.pk),
    }
    return render(request, "tournaments/lobby.html", context)


@login_required
@require_POST
def register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _act(request, services.register, tournament_id, "You are registered. Good luck!")
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    _act(request, services.unregister, tournament_id, "You have withdrawn.")
    return redirect("tournaments:detail", tournament_id)


def _act(request: HttpRequest, fn: object, tournament_id: int, done: str) -> None:
    try:
        fn(tournament_id=tournament_id, user=request.user)  # type: ignore[operator]
    except services.TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)


def table_banner(request: HttpRequest, tournament_id: int, table_id: int) -> HttpResponse:
    """The lines of a tournament table's banner, refetched when the tournament changes."""
    t = _public(tournament_id)
    link = get_object_or_404(
        TournamentTable.objects.select_related("tournament"), pk=table_id, tournament=t
    )
    return render(
        request,
        "tournaments/partials/table_banner_lines.html",
        selectors.banner(link, request.user),
    )
