"""What a page is sent: its member's seat of the table, in the member's words.

Everything comes from what the panels and the table message already use: the public
table as the game's Scene (`GameWords.table_scene`), the seat's own panel
(`GameWords.seat_panel`), the seat's hand (`GameKind.hand_cards`) and its legal actions
(`GameKind.legal_choices`, labelled by `GameWords.action_label`). Nothing here knows a
rule: a move the page sends names one of the legal actions by its record form, which
the game finds (`GameKind.legal_action`), and is played through the table service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.cards import card_label, card_name
from bot.i18n import RIGHT_TO_LEFT, _, use_locale
from bot.render import button_label, rematch_text, seat_names
from bot.tables.kind import record_key
from bot.tables.lobby import rematch_answers
from bot.tables.names import safe_plain
from bot.tables.panel import Panel
from bot.tables.scene import Scene
from bot.tables.table import FINISHED, PLAYING, Table
from bot.web.words import choose_text


class Views:
    """The views of one table at one moment (one flush of its change): what every page
    shows alike, the public table, is built once for each language, then each member's
    own seat added to it."""

    def __init__(self, table: Table, *, avatars: Mapping[int, str] | None = None,
                 now: float | None = None) -> None:
        self.table = table
        self.avatars = avatars or {}
        self.now = now
        self._public: dict[str, tuple[list[str], dict[str, Any]]] = {}

    def frame(self, user_id: int, language: str) -> dict[str, Any]:
        """The member's view: the public table, and their seat's own if seated."""
        table = self.table
        with use_locale(language):
            names, public = self._public_part(language)
            seat = table.seat_of(user_id)
            frame = {**public, "seat": seat}
            if table.game is None:
                return frame
            if seat is not None:
                frame.update(rematch_json(table, seat, names))
                frame.update(seat_json(table, seat, names))
                if table.stage == PLAYING and table.seats[seat].away:
                    # away (the AI covers the seat): the panel's way back, as its button
                    frame["seat_back"] = button_label("seat_back")
            return frame

    def _public_part(self, language: str) -> tuple[list[str], dict[str, Any]]:
        known = self._public.get(language)
        if known is not None:
            return known
        table = self.table
        names = seat_names(table.seats, safe_plain)  # plain: the page shows text
        public: dict[str, Any] = {"type": "view", "table_id": table.id, "language": language,
                                  # Persian reads right to left: the page mirrors its
                                  # layout (the cards' own faces stay left to right)
                                  "dir": "rtl" if language in RIGHT_TO_LEFT else "ltr",
                                  "version": table.version, "stage": table.stage}
        if table.game is None:
            public["title"] = table.kind.words.lobby_title(table.rules)
        else:
            public["scene"] = scene_json(table.kind.words.table_scene(table.game, names))
            public["people"] = people_json(table, self.avatars)
            if table.kind.finished(table.game):  # the standings, as the channel was told
                public["final"] = panel_json(table.kind.words.final_standings(table.game,
                                                                              names))
            public.update(table_extras(table, self.now))
        self._public[language] = names, public
        return names, public


def view_frame(table: Table, user_id: int, language: str, *,
               avatars: Mapping[int, str] | None = None, now: float | None = None
               ) -> dict[str, Any]:
    """The member's view of `table`: the public table, and their seat's own if seated.
    `avatars`: the seats' members' avatar hashes the backend knows (each shown through
    its own route, `avatar_path`); `now`: the service clock's time, for the page's
    count-down to the turn's deadline."""
    return Views(table, avatars=avatars, now=now).frame(user_id, language)


def avatar_path(user_id: int, avatar: str) -> str:
    """Where the page finds a member's avatar: under its own origin, through Discord's
    proxy (bot/web/server.py's avatar route fetches it from Discord's CDN)."""
    return f"/.proxy/api/avatar/{user_id}/{avatar}.png"


def people_json(table: Table, avatars: Mapping[int, str]) -> list[dict[str, Any]]:
    """Each seat's face: its member's avatar when the backend knows one, else none (the
    page draws the name's initial); an AI's seat is marked (the page draws a robot)."""
    out: list[dict[str, Any]] = []
    for seat in table.seats:
        user = seat.user_id
        avatar = avatars.get(user) if user is not None else None
        out.append({"avatar": avatar_path(user, avatar) if user is not None and avatar
                    else None, "ai": user is None or seat.played_by_ai})
    return out


def table_extras(table: Table, now: float | None) -> dict[str, Any]:
    """The platform's parts of a table around the game's, alike for every page: the
    turn's deadline (epoch seconds, with the service's time now, so that the page counts
    down on its own clock however far it is from the bot's) and the review of the deal
    last finished."""
    out: dict[str, Any] = {}
    deadline = table.turn_deadline
    if deadline is not None and now is not None and table.to_act is not None:
        out["clock"] = {"seat": table.to_act, "deadline": deadline, "now": now,
                        "label": _("Time left")}
    if table.game is not None and table.kind.running_totals(table.game):
        out["review"] = {"label": button_label("review"), "close": _("Close")}
    return out


def rematch_json(table: Table, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """A finished game's rematch, for one of its players: who is in, who it waits for,
    and whether this player may still accept."""
    if table.stage != FINISHED:
        return {}
    accepted, waiting = rematch_answers(table, names)
    started = table.meta.get("rematch_table") is not None
    return {"rematch": {
        "label": button_label("rematch"),
        "line": rematch_text(accepted, waiting) if accepted and not started else "",
        "can": not started and table.seats[seat].user_id not in table.meta.get("rematch", ())}}


def review_frame(table: Table, language: str) -> dict[str, Any] | None:
    """The deal last finished, face up, as the channel's Review button shows it to
    anyone who asks (cogs/tables/boards.py): None before a deal is over."""
    if table.game is None:
        return None
    done = len(table.kind.running_totals(table.game))
    if not done:
        return None
    with use_locale(language):
        names = seat_names(table.seats, safe_plain)
        panel = table.kind.words.deal_review(table.game, done - 1, names)
        return {"type": "review", "panel": panel_json(panel), "close": _("Close")}


def scene_json(scene: Scene) -> dict[str, Any]:
    return {
        "title": scene.title,
        "seats": [{"name": s.name, "lines": list(s.lines), "cards": cards(s.cards),
                   "backs": s.backs, "to_act": s.to_act} for s in scene.seats],
        "centre": [{"seat": seat, **card_json(card)} for seat, card in scene.centre],
        "centre_label": scene.centre_label,
        # marked: the last trick's winning card (who took it)
        "groups": [{"label": g.label, "cards": cards(g.cards), "backs": g.backs,
                    "marked": g.marked} for g in scene.groups],
        "lines": list(scene.lines),
    }


def seat_json(table: Table, seat: int, names: Sequence[str]) -> dict[str, Any]:
    """The seat's own: its panel, its hand, and its legal actions now (a move of several
    cards once, with every card it may take and the counts it allows: GameKind's
    legal_choices, never each combination)."""
    kind, game = table.kind, table.game
    # compact: the table in a few lines (the page draws the table itself)
    panel = kind.words.seat_panel(game, seat, names, compact=True)
    singles, choices = kind.legal_choices(game, seat)
    out: dict[str, Any] = {"panel": panel_json(panel), "hand": cards(kind.hand_cards(game, seat))}
    actions = []
    for action in singles:
        # one move (a bid, a card, a pick-up; "no swap": a move of no cards)
        record = kind.action_to_json(action)
        actions.append({"key": record_key(record), "label": kind.words.action_label(record),
                        "card": record.get("card")})
    out["actions"] = actions
    # a move of several cards, perhaps from several rows (a swap: hand and face-up
    # cards): each row's cards, and the counts of the first row's
    out["groups"] = [{"action": c.action,
                      "parts": [{"key": key, "cards": list(names_)} for key, names_ in c.parts],
                      "counts": list(c.counts), "label": choose_text(c.counts)}
                     for c in choices]
    # The platform's own moves, when the panel would offer them: Hint, Claim the rest.
    if table.to_act == seat and not table.seats[seat].played_by_ai:
        if table.switch("hints"):
            out["hint"] = button_label("hint")
        if kind.can_claim(game, seat):
            out["claim"] = button_label("claim")
    return out


def panel_json(panel: Panel) -> dict[str, Any]:
    return {"title": panel.title, "description": panel.description,
            "fields": [{"name": n, "value": v} for n, v, _inline in panel.fields]}


def cards(values: Sequence[int]) -> list[dict[str, str]]:
    return [card_json(card) for card in values]


def card_json(card: int) -> dict[str, str]:
    """A card as the page shows it (`A♠`) and names it back (`AS`, the record's)."""
    return {"name": card_name(card), "label": card_label(card)}
