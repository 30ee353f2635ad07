"""What a seat may know, and what everyone may know: the only road from state to text.

The Discord layer renders only these views and the AI decides only from them, so a
hidden card cannot leak by a careless f-string. A view holds a seat's own hand; the kitty
only for the bidder once picked up (for everyone under `show_kitty`, once bidding ends);
discards only for the bidder; the partner only once the called card is played; the blind
never (a seat knows only what it gave to and took from it). A finished deal is public
whole: `deal_review` shows it face up, and refuses the deal being played.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.cards import SUITS, cards_of
from bot.errors import GameError

from .game import Game
from .hand import BID, DISCARD, DONE, EXCHANGE, LEAD, PASS, PLAY, Hand, trump_name
from .rules import Rules

PUBLIC = None
DEAL_NOT_FINISHED = "deal_not_finished"  # deal_review of a deal being played, or none


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int | None  # None while the trick is being played
    winning: int | None = None  # who would take it as it stands (the rules core's word)


@dataclass(frozen=True, slots=True)
class LegalActions:
    """Exactly what the seat to act may do now."""

    phase: str
    can_pass: bool = False
    can_redeal: bool = False
    bids: tuple[int | str, ...] = ()  # number bids, then the top bid's name
    cards: tuple[int, ...] = ()  # cards that may be played, given or discarded
    card_count: tuple[int, int] = (0, 0)  # how many cards to give or discard (min, max)
    calls: tuple[tuple[int, tuple[int, ...]], ...] = ()  # opening lead: suit -> callable
    trumps: tuple[str, ...] = ()  # with free_trump: the trumps that may be named

    def calls_for(self, suit: int) -> tuple[int, ...]:
        for s, cards in self.calls:
            if s == suit:
                return cards
        return ()


@dataclass(frozen=True, slots=True)
class HandView:
    """One hand as seen by `seat` (None: as seen by everyone)."""

    seat: int | None
    rules: Rules
    dealer: int
    phase: str
    to_act: int | None
    auction: tuple[tuple[int, int | str], ...]  # (seat, "pass" | bid), in order
    passed: tuple[int, ...]
    high_bid: int | str | None
    high_bidder: int | None
    bidder: int | None  # set once bidding has ended with a contract
    contract: int | str | None
    exchanged: tuple[int | None, ...]  # how many cards each seat exchanged (public)
    hand_sizes: tuple[int, ...]
    trump: str | None
    called: int | None
    partner: int | None
    trick: TrickView | None
    tricks: tuple[TrickView, ...]
    tricks_won: tuple[int, ...]
    kitty: tuple[int, ...] | None
    discards: tuple[int, ...] | None
    cards: tuple[int, ...] | None  # the seat's own hand
    exchange_given: tuple[int, ...] | None
    exchange_taken: tuple[int, ...] | None
    legal: LegalActions | None  # set when this seat is to act
    outcome: str | None
    scores: tuple[int, ...] | None
    all_pass: bool

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat

    @property
    def last_trick(self) -> TrickView | None:
        return self.tricks[-1] if self.tricks else None

    @property
    def known_partner(self) -> int | None:
        """The partner as this seat knows it: everyone once the called card is played,
        its holder at once (it sees the card in its hand)."""
        if self.partner is not None:
            return self.partner
        if self.called is not None and self.cards is not None and self.called in self.cards:
            return self.seat
        return None

    @property
    def bidder_alone(self) -> bool:
        """Whether everyone knows the bidder has no partner: no card was called (the top
        bid, or every card of the suit led is the bidder's), or the first trick ended
        without the called card (it lay in the blind or out of the pack)."""
        if self.bidder is None or self.contract is None or self.partner is not None \
                or self.phase not in (PLAY, DONE):
            return False
        return self.called is None or bool(self.tricks)

    def side_of(self, seat: int) -> tuple[int, ...] | None:
        """The seats on `seat`'s side (the bidder and the partner, or the defenders), as
        far as this view knows them; None while the partner is hidden from it."""
        if self.bidder is None:
            return None
        partner = self.known_partner
        if partner is None and not self.bidder_alone:
            return None
        team = (self.bidder,) if partner is None else tuple(sorted({self.bidder, partner}))
        if seat in team:
            return team
        return tuple(s for s in range(self.rules.players) if s not in team)


Exchange = tuple[int, tuple[int, ...], tuple[int, ...]]  # (seat, given, taken)


def _exchanges(hand: Hand) -> tuple[Exchange, ...]:
    """What each seat gave to and took from the blind, in turn, rebuilt from the actions."""
    blind = list(hand.deal.blind)
    out = []
    for action in hand.actions:
        if action.kind != "exchange":
            continue
        k = len(action.cards)
        out.append((action.seat, action.cards, tuple(blind[:k])))
        blind = blind[k:] + list(action.cards)
    return tuple(out)


def _exchange_of(hand: Hand, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """What `seat` gave to and took from the blind."""
    for who, given, taken in _exchanges(hand):
        if who == seat:
            return given, taken
    return None


def hand_view(hand: Hand, seat: int | None = PUBLIC) -> HandView:
    rules = hand.rules
    phase = hand.phase
    bidding_over = phase not in (EXCHANGE, BID) and hand.bidder >= 0
    kitty_known = bool(hand.deal.kitty) and bidding_over and (
        "show_kitty" in rules.options or seat == hand.bidder)
    auction = tuple((s, "pass" if v == PASS else rules.bid_name(v)) for s, v in hand.auction)
    trick = None
    if hand.trick:
        trick = TrickView(hand.leader, tuple(
            ((hand.leader + i) % hand.n, c) for i, c in enumerate(hand.trick)), None,
            winning=hand.win_seat)
    tricks = tuple(TrickView(leader, tuple(((leader + i) % hand.n, c)
                                           for i, c in enumerate(cards)), winner, winner)
                   for leader, cards, winner in hand.history)
    own = seat is not None
    exchange = _exchange_of(hand, seat) if seat is not None and rules.blind_size else None
    passed = tuple(s for s in range(hand.n) if hand.passed >> s & 1)
    return HandView(
        seat=seat,
        rules=rules,
        dealer=hand.dealer,
        phase=phase,
        to_act=None if phase == DONE else hand.to_act,
        auction=auction,
        passed=passed,
        high_bid=rules.bid_name(hand.high_bid) if hand.high_bid else None,
        high_bidder=hand.bidder if hand.bidder >= 0 else None,
        bidder=hand.bidder if bidding_over and not hand.all_pass else None,
        contract=rules.bid_name(hand.contract) if hand.contract else None,
        exchanged=tuple(None if k < 0 else k for k in hand.exchanges),
        hand_sizes=tuple(h.bit_count() for h in hand.hands),
        trump=trump_name(hand.trump),
        called=hand.called if hand.called >= 0 else None,
        partner=hand.partner if hand.partner >= 0 else None,
        trick=trick,
        tricks=tricks,
        tricks_won=tuple(hand.tricks_won),
        kitty=tuple(hand.deal.kitty) if kitty_known else None,
        discards=tuple(cards_of(hand.discards)) if own and seat == hand.bidder
        and hand.discards else None,
        cards=tuple(cards_of(hand.hands[seat])) if seat is not None else None,
        exchange_given=exchange[0] if exchange else None,
        exchange_taken=exchange[1] if exchange else None,
        legal=legal_actions(hand) if own and seat == hand.to_act and phase != DONE else None,
        outcome=hand.outcome,
        scores=tuple(hand.scores) if phase == DONE else None,
        all_pass=hand.all_pass,
    )


def legal_actions(hand: Hand) -> LegalActions:
    """What the seat to act may do now."""
    phase = hand.phase
    seat = hand.to_act
    rules = hand.rules
    if phase == EXCHANGE:
        return LegalActions(phase, cards=tuple(cards_of(hand.hands[seat])),
                            card_count=(0, rules.blind_size))
    if phase == BID:
        return LegalActions(phase, can_pass=True, can_redeal=hand.can_redeal(seat),
                            bids=tuple(rules.bid_name(v) for v in hand.legal_bids()))
    if phase == DISCARD:
        return LegalActions(phase, cards=tuple(cards_of(hand.hands[seat])),
                            card_count=(rules.kitty_size, rules.kitty_size))
    if phase == DONE:
        return LegalActions(phase)
    cards = tuple(cards_of(hand.legal_play_mask()))
    if phase == LEAD and hand.with_trumps:
        calls = tuple((s, tuple(cards_of(m))) for s, m in hand.lead_calls().items())
        trumps = (*SUITS, "grand") if "free_trump" in rules.options else ()
        return LegalActions(phase, cards=cards, calls=calls, trumps=trumps)
    return LegalActions(phase, cards=cards)


@dataclass(frozen=True, slots=True)
class GameView:
    """The game around the current hand: totals, history, the end."""

    rules: Rules
    hand_number: int  # 1-based
    totals: tuple[int, ...]
    finished: bool
    winners: tuple[int, ...]
    hand: HandView | None


def game_view(game: Game, seat: int | None = PUBLIC) -> GameView:
    hand = game.current
    return GameView(rules=game.rules, hand_number=len(game.hands), totals=tuple(game.totals),
                    finished=game.finished, winners=tuple(game.winners),
                    hand=hand_view(hand, seat) if hand is not None else None)


def game_view_after(game: Game, index: int) -> GameView:
    """The game as everyone saw it when hand `index` (0-based, finished) ended: that
    hand's public view, the totals after it, and the end if it ended the game."""
    hand = game.hands[index]
    settled = index < len(game.hand_totals)
    totals = game.hand_totals[index] if settled else game.totals
    last = index == len(game.hands) - 1
    finished = game.finished and last
    return GameView(rules=game.rules, hand_number=index + 1, totals=tuple(totals),
                    finished=finished, winners=tuple(game.winners) if finished else (),
                    hand=hand_view(hand))


@dataclass(frozen=True, slots=True)
class DealReview:
    """A finished deal face up: the game as everyone saw it when the deal ended
    (`game_view_after`), and what was hidden while it was played."""

    after: GameView
    dealt: tuple[tuple[int, ...], ...]  # each seat's cards as dealt (before any exchange)
    kitty: tuple[int, ...]
    blind: tuple[int, ...]  # as dealt
    discards: tuple[int, ...]  # the bidder's, as discarded
    exchanges: tuple[Exchange, ...]  # with the blind, in turn


def deal_review(game: Game, index: int) -> DealReview:
    """Deal `index` (0-based) face up; refused (`deal_not_finished`) while it is being
    played, or for a deal the game does not have."""
    hands = game.hands
    if not isinstance(index, int) or not 0 <= index < len(hands) \
            or not hands[index].finished:
        raise GameError(DEAL_NOT_FINISHED, index=index)
    hand = hands[index]
    discard = next((a.cards for a in hand.actions if a.kind == "discard"), ())
    return DealReview(after=game_view_after(game, index), dealt=hand.deal.hands,
                      kitty=hand.deal.kitty, blind=hand.deal.blind, discards=discard,
                      exchanges=_exchanges(hand))


def known_cards(view: HandView) -> set[int]:
    """Every card a view mentions (for tests that check nothing hidden is shown)."""
    out: set[int] = set()
    for part in (view.cards, view.kitty, view.discards, view.exchange_given,
                 view.exchange_taken):
        if part:
            out.update(part)
    if view.called is not None:
        out.add(view.called)
    for trick in (*view.tricks, *((view.trick,) if view.trick else ())):
        out.update(card for _, card in trick.plays)
    if view.legal:
        # Callable cards are not listed: they are the complement of what the seat holds
        # and discarded, and say nothing about who holds them.
        out.update(view.legal.cards)
    return out
