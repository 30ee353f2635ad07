"""What a seat may know, and what everyone may know (docs/rules-american.md section 9): the only
road from state to text and to the AI.

Public: the pile, the burned cards, the deck's size, every face-up row, the size of every
hand and face-down row, and every card that went into a hand from the pile or the face-up
row (or was turned over) until it is played again. Private to its holder: the hand.
Nobody, the owner included, sees a face-down card before it is taken up or turned over;
nobody sees the deck. A view holds those and nothing else, so a hidden card cannot leak
by a careless f-string.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import GameError

from .actions import FLIP, PLAY, Action
from .game import Game
from .rules import Rules
from .state import DONE, FLIP_PHASE, PLAY_PHASE, SWAP_PHASE, DealState, sorted_cards

PUBLIC = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone knows of one seat."""

    seat: int
    hand_size: int
    known: tuple[int, ...]  # hand cards everyone saw go there, low to high
    up: tuple[int, ...]  # face-up cards left, in their order on the table
    down: int  # face-down cards left
    out: bool


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Exactly what the seat to act may do now."""

    phase: str  # "swap", "play" or "flip"
    cards: tuple[int, ...] = ()  # play: the hand cards that may be played, low to high
    can_pickup: bool = False  # play: whether picking up the pile is allowed
    hand: tuple[int, ...] = ()  # swap: hand cards that may be given
    up: tuple[int, ...] = ()  # swap: face-up cards that may be taken
    indexes: tuple[int, ...] = ()  # flip: face-down positions that may be turned over

    @property
    def ranks(self) -> tuple[int, ...]:
        """The playable ranks, low to high (a play is any number of cards of one)."""
        return tuple(sorted({card % 13 for card in self.cards}))

    def cards_of_rank(self, rank: int) -> tuple[int, ...]:
        return tuple(card for card in self.cards if card % 13 == rank)


@dataclass(frozen=True, slots=True)
class DealView:
    """One deal as seen by `seat` (None: as seen by everyone)."""

    seat: int | None
    rules: Rules
    dealer: int
    phase: str  # the phase of the player to act, "done" once the deal has ended
    to_act: int | None
    starter: int | None  # None until decided (during swaps)
    pile: tuple[int, ...]  # bottom first
    burned: tuple[int, ...]  # in the order burned
    deck: int  # the deck's size
    seats: tuple[SeatView, ...]
    out_order: tuple[int, ...]  # seats out so far, in order (all of them once finished)
    outcome: str  # "in_progress", "finished" or "drawn"
    winner: int | None
    actions: int  # how many actions the deal has had
    last: Action | None  # the last action (every action is public)
    turned: int | None  # the card the last action turned over, when it was a flip
    hand: tuple[int, ...] | None  # the seat's own hand, low to high
    legal: LegalActions | None  # set when this seat is to act
    # The last burn by a play of the player who acted last, made since another player
    # last acted: (seat, the card that burned), or None. A burn gives the same player the
    # next turn, so their next play used to hide it at once (issue 35: the public table
    # showed 3 of 15 burns); it is told until another player moves.
    burn: tuple[int, int] | None = None
    # Every action so far, in order (all are public), and each seat's face-up row as
    # dealt (in sight of all): with them a player can replay what everyone saw, e.g.
    # who picked up on which top card (the strong AI's reading of the others).
    history: tuple[Action, ...] = ()
    dealt_up: tuple[tuple[int, ...], ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat

    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile else None


def legal_actions(state: DealState) -> LegalActions | None:
    """What the seat to act may do now; None once the deal has ended."""
    phase = state.phase
    seat = state.to_act
    if phase == SWAP_PHASE:
        return LegalActions(phase, hand=tuple(sorted_cards(state.hands[seat])),
                            up=tuple(state.up[seat]))
    if phase == PLAY_PHASE:
        return LegalActions(phase, cards=tuple(sorted_cards(state.playable_mask())),
                            can_pickup=state.can_pickup())
    if phase == FLIP_PHASE:
        return LegalActions(phase, indexes=state.flip_indexes())
    return None


def turned_card(state: DealState) -> int | None:
    """The card the last action turned over, if it was a flip: position `index` among
    the seat's face-down cards left then, replayed from the deal (at most 3 flips)."""
    if not state.actions or state.actions[-1].kind != FLIP:
        return None
    seat = state.actions[-1].seat
    row = list(state.deal.down[seat])
    card = None
    for action in state.actions:
        if action.kind == FLIP and action.seat == seat:
            card = row.pop(action.position)
    return card


def streak_burn(state: DealState) -> tuple[int, int] | None:
    """The burn of `DealView.burn`: among the last actions, all by the player who acted
    last, the latest play whose cards are in the burned cards (a burned card never comes
    back, so that play burned the pile)."""
    actions = state.actions
    if not actions:
        return None
    seat = actions[-1].seat
    burned = set(state.burned)
    for action in reversed(actions):
        if action.seat != seat:
            return None
        if action.kind == PLAY and action.cards and set(action.cards) <= burned:
            return seat, action.cards[-1]
    return None


def deal_view(state: DealState, seat: int | None = PUBLIC) -> DealView:
    done = state.phase == DONE
    seats = tuple(
        SeatView(seat=s, hand_size=state.hands[s].bit_count(),
                 known=tuple(sorted_cards(state.known[s])), up=tuple(state.up[s]),
                 down=len(state.down[s]), out=state.is_out(s))
        for s in range(state.n))
    own = seat is not None
    return DealView(
        seat=seat,
        rules=state.rules,
        dealer=state.dealer,
        phase=state.phase,
        to_act=None if done else state.to_act,
        starter=state.starter if state.starter >= 0 else None,
        pile=tuple(state.pile),
        burned=tuple(state.burned),
        deck=state.deck_size,
        seats=seats,
        out_order=tuple(state.places),
        outcome=state.outcome,
        winner=state.winner if state.winner >= 0 else None,
        actions=len(state.actions),
        last=state.actions[-1] if state.actions else None,
        turned=turned_card(state),
        hand=tuple(sorted_cards(state.hands[seat])) if seat is not None else None,
        legal=legal_actions(state) if own and not done and seat == state.to_act else None,
        burn=streak_burn(state),
        history=tuple(state.actions),
        dealt_up=state.deal.up,
    )


@dataclass(frozen=True, slots=True)
class GameView:
    """The match around the current deal: deal wins, the end."""

    rules: Rules
    deal_number: int  # 1-based
    wins: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    deal: DealView | None


def game_view(game: Game, seat: int | None = PUBLIC) -> GameView:
    state = game.current
    return GameView(rules=game.rules, deal_number=len(game.deals), wins=tuple(game.wins),
                    finished=game.finished, winners=tuple(game.winners),
                    deal=deal_view(state, seat) if state is not None else None)


def game_view_after(game: Game, index: int) -> GameView:
    """The match as everyone saw it when deal `index` (0-based, ended) ended."""
    settled = index < len(game.deal_wins)
    wins = game.deal_wins[index] if settled else game.wins
    finished = game.finished and index == len(game.deals) - 1
    return GameView(rules=game.rules, deal_number=index + 1, wins=tuple(wins),
                    finished=finished, winners=tuple(game.winners) if finished else (),
                    deal=deal_view(game.deals[index]))


def known_cards(view: DealView) -> set[int]:
    """Every card a view mentions (for tests that check nothing hidden is shown)."""
    out: set[int] = set(view.pile) | set(view.burned)
    for seat in view.seats:
        out.update(seat.known)
        out.update(seat.up)
    if view.hand:
        out.update(view.hand)
    if view.last is not None:
        out.update(view.last.cards)
        out.update(view.last.up)
    if view.turned is not None:
        out.add(view.turned)
    if view.legal is not None:
        out.update(view.legal.cards, view.legal.hand, view.legal.up)
    return out


def legal_action_list(seat: int, legal: LegalActions) -> list[Action]:
    """Every distinct action `legal` allows `seat`: each non-empty set of cards of each
    playable rank, the pick-up, each swap (hand cards given, low to high, for face-up
    cards taken in every order: the order decides the table positions), each flip."""
    out: list[Action] = []
    for rank in legal.ranks:
        same = legal.cards_of_rank(rank)
        for chosen in _subsets(same):
            out.append(Action.play(seat, chosen))
    if legal.can_pickup:
        out.append(Action.pickup(seat))
    if legal.phase == SWAP_PHASE:
        for given in [(), *_subsets(legal.hand)]:
            for taken in _arrangements(legal.up, len(given)):
                out.append(Action.swap(seat, given, taken))
    out.extend(Action.flip(seat, index) for index in legal.indexes)
    return out


def _subsets(cards: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The non-empty subsets of `cards`, each in the order given."""
    return [tuple(c for i, c in enumerate(cards) if bits >> i & 1)
            for bits in range(1, 1 << len(cards))]


def _arrangements(cards: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    from itertools import permutations

    return list(permutations(cards, k))


# ----------------------------------------------------------------------------- a finished deal

# Refusal codes of what can be shown or asked at a table (the rules' own are in actions.py).
DEAL_NOT_FINISHED = "deal_not_finished"  # a deal face up before it has ended, or no such deal
NO_CLAIMS = "no_claims"  # American has no claim of the rest: every card is played out


@dataclass(frozen=True, slots=True)
class DealReview:
    """A deal face up, once it has ended: the cards as dealt (per seat face-down, face-up
    and hand, the deck top first), every action in order with the card a flip turned
    over, and the match as it stood when the deal ended."""

    after: GameView
    down: tuple[tuple[int, ...], ...]
    up: tuple[tuple[int, ...], ...]
    hand: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    turned: tuple[int | None, ...]  # per action: the card a flip turned over, else None


def deal_review(game: Game, index: int) -> DealReview:
    """Deal `index` (0-based) face up; refused (`deal_not_finished`) while it is being
    played, or when there is no such deal: it would show every hidden card."""
    if not 0 <= index < len(game.deals) or not game.deals[index].finished:
        raise GameError(DEAL_NOT_FINISHED, index=index)
    state = game.deals[index]
    deal = state.deal
    rows = [list(row) for row in deal.down]
    turned: list[int | None] = []
    for action in state.actions:
        turned.append(rows[action.seat].pop(action.position) if action.kind == FLIP
                      else None)
    return DealReview(after=game_view_after(game, index), down=deal.down, up=deal.up,
                      hand=deal.hand, deck=deal.deck, actions=tuple(state.actions),
                      turned=tuple(turned))
