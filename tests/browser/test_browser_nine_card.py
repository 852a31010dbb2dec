"""The nine-card game in the browser: offered on the landing page, the forced discard of every
non-trump, tricks with seats left out or repeated shown card for card, players out of the hand
marked, and hands played to their summaries."""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    HAND_CARDS,
    Watched,
    click_card,
    create_table,
    discard_progress,
    start_with_bots,
    take_turn,
    unfold_the_form,
)
from playwright.sync_api import Page, WebSocket, expect

from smear.cards import Suit, parse_card, parse_suit
from smear.dealing import new_match
from smear.rules import PRESETS
from smear.server.app import Timing
from smear.server.tables import table as tables
from smear.trick import order_for

SCREENSHOTS = Path(__file__).parent / "screenshots"
NINE_POINTS = ["High", "Low", "Jack", "Jick", "Big joker", "Little joker", "Game", "Trey (3 points)"]
SUIT_TITLES = {Suit.CLUBS: "Clubs", Suit.DIAMONDS: "Diamonds", Suit.HEARTS: "Hearts", Suit.SPADES: "Spades"}
# A summary stays up long enough to be read before the next deal.
SLOW_SUMMARY = Timing(bot_pause=0.02, hand_pause=4.0, grace=30.0)
# Bots slow enough that a trick stays on the table a moment after the page's own card.
WATCHABLE = Timing(bot_pause=0.5, hand_pause=4.0, grace=30.0)

# The faces of the cards a selector finds, as "<rank><suit letter>" (as browserkit reads the hand).
READ_FACES = """(selector) => [...document.querySelectorAll(selector)].map((card) => {
  const suit = [...card.classList].find((c) => c.startsWith('suit-'));
  const rank = card.querySelector('.corner .rank')?.textContent ?? '';
  return rank + (suit ? suit.slice(5) : (card.classList.contains('joker') ? 'joker' : ''));
})"""
# The cards of the trick area: each card's face, its accessible name and whether it is fanned out
# with others of the same seat.
READ_TRICK = """() => [...document.querySelectorAll('.trick .trick-card')].map((item) => {
  const card = item.querySelector('.card');
  const suit = [...card.classList].find((c) => c.startsWith('suit-'));
  const rank = card.querySelector('.corner .rank')?.textContent ?? '';
  return {
    face: rank + (suit ? suit.slice(5) : (card.classList.contains('joker') ? 'joker' : '')),
    label: card.getAttribute('aria-label') ?? '',
    fanned: item.classList.contains('fanned'),
  };
})"""
STATE_FRAME = re.compile(r"^42\d*(\[.*)$", re.DOTALL)


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), animations="disabled")


def face(card: str) -> str:
    """A card of the protocol ("Th", "BJ") as READ_TRICK reads it from the page ("10h", "★joker")."""
    if card in ("BJ", "LJ"):
        return ("★" if card == "BJ" else "☆") + "joker"
    return ("10" if card[0] == "T" else card[0]) + card[1]


@dataclass
class States:
    """The state messages the page received from the server, newest last."""

    latest: dict[str, Any] | None = None
    # The finished hands' tricks as (seat, card) pairs, by hand number, from the hand_over states.
    finished: dict[int, list[list[tuple[int, str]]]] = field(default_factory=dict)

    def follow(self, page: Page) -> None:
        page.on("websocket", lambda ws: self._watch(ws))

    def _watch(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        if not isinstance(payload, str):
            return
        match = STATE_FRAME.match(payload)
        if not match:
            return
        name, data = json.loads(match[1])[:2]
        if name != "state" or not isinstance(data, dict):
            return
        self.latest = data
        game = data.get("game")
        if game and "public" in game and game["public"]["phase"] in ("hand_over", "match_over"):
            pub = game["public"]
            self.finished[pub["hand_number"]] = [
                list(zip(t["seats"], t["cards"], strict=True)) for t in pub["tricks"]
            ]

    @property
    def view(self) -> dict[str, Any]:
        assert self.latest is not None and self.latest["game"] is not None
        game: dict[str, Any] = self.latest["game"]
        return game

    @property
    def public(self) -> dict[str, Any]:
        public: dict[str, Any] = self.view["public"]
        return public


@dataclass
class Checks:
    """What the checks on this page's turns saw."""

    turns: int = 0
    # Tricks on screen whose seats were not every player once (a seat out, or extra cards).
    irregular: int = 0
    # Seats marked out: (hand, tricks finished, cards in the trick, seats) at the moment.
    outs: list[tuple[int, int, int, set[int]]] = field(default_factory=list)


def plate_names(page: Page) -> list[str]:
    names: list[str] = page.locator(".seat-plate .seat-name .name-text").all_inner_texts()
    return names


def check_my_turn_to_play(page: Page, states: States, checks: Checks) -> None:
    """On this page's turn in the play phase (nothing moves until it plays), the page shows what the
    state says: every card of the trick (or of the last one) at its player's place, several cards of
    one seat fanned out, the last trick's cards and players, the seats out of the hand marked, and
    only the trumps of the hand playable, the other cards dead."""
    pub = states.public
    view = states.view
    me = view["seat"]
    players = pub["players"]
    if pub["trick"]:
        plays = [(seat, card) for seat, card in pub["trick"]]
    elif pub["tricks"]:
        last = pub["tricks"][-1]
        plays = list(zip(last["seats"], last["cards"], strict=True))
    else:
        plays = []
    expect(page.locator(".trick .trick-card")).to_have_count(len(plays))
    # The general invariant, as the page itself counts its trick.
    expect(page.locator(".trick")).to_have_attribute("data-cards", str(len(plays)))
    shown = page.evaluate(READ_TRICK)
    names = plate_names(page)
    assert [item["face"] for item in shown] == [face(card) for _, card in plays], (shown, plays)
    seats = [seat for seat, _ in plays]
    for item, seat in zip(shown, seats, strict=True):
        assert item["label"].endswith(f", played by {names[seat]}"), (item, names[seat])
        assert item["fanned"] == (seats.count(seat) > 1), (item, seats)
    # Whether play skipped a seat or came back to one: a finished trick without every seat once, or a
    # trick in progress where the seats so far and the seat to act do not follow one another.
    if pub["trick"]:
        path = [*seats, pub["to_act"]]
        irregular = any(b != (a + 1) % players for a, b in itertools.pairwise(path))
    else:
        irregular = bool(plays) and sorted(seats) != list(range(players))
    checks.irregular += irregular

    # The last trick, as the panel lists it (opened once, it stays open).
    if pub["tricks"]:
        last = pub["tricks"][-1]
        items = page.locator(".last-trick li")
        expect(items).to_have_count(len(last["cards"]))
        assert items.locator(".name-text").all_inner_texts() == [names[seat] for seat in last["seats"]]

    # Out of the hand: never the seat to act; always a seat missing from the last finished trick.
    plates = page.locator(".seat-plate")
    out = {seat for seat in range(players) if "out" in (plates.nth(seat).get_attribute("class") or "")}
    assert me not in out, out
    if pub["tricks"]:
        missing = set(range(players)) - set(pub["tricks"][-1]["seats"])
        assert missing <= out, (missing, out)
    for seat in out:
        expect(plates.nth(seat).locator(".chip.out")).to_have_text("out")
    checks.outs.append((pub["hand_number"], len(pub["tricks"]), len(pub["trick"]), out))

    # Only trumps can be played: the legal cards are playable, the others dead.
    legal = {action["text"] for action in view["legal"]}
    hand = view["hand"]
    expect(page.locator(f"{HAND_CARDS}.playable")).to_have_count(len(legal))
    expect(page.locator(f"{HAND_CARDS}.dead")).to_have_count(
        len([card for card in hand if card not in legal])
    )
    for label in page.locator(f"{HAND_CARDS}.dead").evaluate_all(
        "(els) => els.map((el) => el.getAttribute('aria-label'))"
    ):
        assert label.endswith(", dead: only trumps are played"), label
    if any(card not in legal for card in hand):
        expect(page.locator(".action-panel.mine")).to_contain_text("Only trumps can be played")
    checks.turns += 1


def check_outs_were_right(states: States, checks: Checks) -> None:
    """A seat marked out of the hand never played again in that hand."""
    for hand, done, in_trick, out in checks.outs:
        tricks = states.finished.get(hand)
        if tricks is None or not out:
            continue
        later = [play for trick in tricks[done + 1 :] for play in trick]
        later += tricks[done][in_trick:] if done < len(tricks) else []
        assert not out & {seat for seat, _ in later}, (hand, out, later)


def check_discard(page: Page, states: States) -> int:
    """This page's discard: every non-trump chosen by the rules, nothing to pick, the rules told.
    Returns the number of cards discarded."""
    panel = page.locator(".action-panel.mine")
    chosen, count = discard_progress(page)
    assert chosen == count, (chosen, count)
    discard = states.view["discard"]
    assert discard is not None and discard["choosable"] == [], discard
    # Every non-trump of the hand, raised and locked; every trump kept.
    trumps = order_for(PRESETS["nine_card"], parse_suit(states.public["trump"])).trump_mask
    hand = states.view["hand"]
    plain = [card for card in hand if not trumps >> parse_card(card) & 1]
    assert sorted(discard["required"]) == sorted(plain), (discard, hand)
    expect(page.locator(f"{HAND_CARDS}.locked")).to_have_count(count)
    locked = page.evaluate(READ_FACES, f"{HAND_CARDS}.locked .card")
    assert sorted(locked) == sorted(face(card) for card in plain), locked
    expect(page.locator(f"{HAND_CARDS}.playable")).to_have_count(0)
    noun = "non-trump" if count == 1 else "non-trumps"
    expect(panel.get_by_role("heading", name=f"Discard your {count} {noun}")).to_be_visible()
    expect(panel).to_contain_text("Discard every non-trump; you will draw back up to 6 cards.")
    expect(panel).to_contain_text("a non-trump you draw is dead and stays in your hand")
    expect(panel).to_contain_text("The rules decide every card of this discard: just confirm it.")
    # What comes back is the server's count for this discard.
    draws = discard["draws"]
    assert discard["holds"] == len(hand) - count + draws, discard
    words = {0: "You will draw nothing this time.", 1: "You will draw 1 card."}
    expect(panel).to_contain_text(words.get(draws, f"You will draw {draws} cards."))
    expect(panel.get_by_role("button", name="Discard", exact=True)).to_be_enabled()
    return count


def find_seed(seat: int, players: int) -> tuple[int, Suit]:
    """A seed for Table.start whose first deal gives ``seat`` seven trumps of one suit (two cards to
    discard) and makes it the first to bid: bidding 10 it cannot be outbid, names that suit, draws
    nothing, and holds seven cards when play begins."""
    rules = PRESETS["nine_card"]
    for seed in range(100_000):
        match_seed = random.Random(seed).randrange(1 << 62)  # as Table.start draws it
        state = new_match(rules, players, None, seed=match_seed)
        if (state.public.dealer + 1) % players != seat:
            continue
        for suit in Suit:
            if (state.hands[seat] & order_for(rules, suit).trump_mask).bit_count() == 7:
                return seed, suit
    raise AssertionError("no such deal")


def test_the_landing_page_offers_the_nine_card_game_with_its_table_sizes(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve()
    page = open_page(375, 812).page
    page.goto(url)
    unfold_the_form(page)
    players = page.get_by_label("Players")
    teams = page.get_by_role("checkbox", name="Play in teams")

    page.get_by_role("radio", name="Nine-card").check()
    expect(page.locator("#preset-nine_card-desc")).to_contain_text("only trumps are played")
    expect(players.locator("option")).to_have_text(["3", "4", "5", "6"])
    players.select_option("5")
    expect(teams).to_be_disabled()
    expect(teams).not_to_be_checked()
    players.select_option("6")
    expect(teams).to_be_enabled()
    teams.check()
    expect(page.locator("#teams-note")).to_have_text(
        "Teams are possible with 4, 6 players; partners sit across from each other."
    )
    expect(page.get_by_role("checkbox", name="Kitty", exact=True)).to_have_count(0)

    # In Italian, with its rules page.
    page.get_by_role("button", name="Menu").click()
    page.get_by_label("Language").select_option("it")
    page.keyboard.press("Escape")
    expect(page.get_by_role("radio", name="A nove carte")).to_be_checked()
    page.get_by_role("button", name="Come si gioca").first.click()
    dialog = page.get_by_role("dialog", name="Come si gioca")
    expect(dialog.get_by_role("heading", name="Gioco a 9 carte")).to_be_visible()
    expect(dialog.get_by_role("heading", name="La briscola e il cambio con il tallone")).to_be_visible()
    expect(dialog).to_contain_text("prima lui e poi gli altri in senso orario")
    expect(dialog).to_contain_text("Chi non ha più briscole esce dalla mano")
    expect(dialog).to_contain_text("Può vincere solo la parte che ha vinto l’asta")
    expect(dialog).to_contain_text("«Luna»: 11 in questa variante.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    shot(page, "howto-nine-card-it-375.png")


def test_nine_card_the_bidder_discards_first_and_plays_extra_trumps_to_the_first_trick(
    serve: Callable[..., str], open_page: Callable[..., Watched], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = serve(WATCHABLE)
    host = open_page()
    page = host.page
    states = States()
    states.follow(page)
    create_table(page, url, "Ann", players=4, target=52, preset="Nine-card")
    sent = [frame for frame in host.sent if '["create_table",' in frame]
    assert len(sent) == 1 and '"preset":"nine_card"' in sent[0] and '"kitty"' not in sent[0], sent
    assert states.latest is not None
    me = states.latest["table"]["you"]
    # A deal where Ann holds seven trumps of one suit and bids first.
    seed, suit = find_seed(me, 4)
    start = tables.Table.start
    monkeypatch.setattr(tables.Table, "start", lambda table, token, _seed=None: start(table, token, seed))
    start_with_bots(page)
    expect(page.locator(".scores-panel .rules-line")).to_contain_text("Nine-card")
    expect(page.locator(".scores-panel .panel-head")).to_contain_text("First to 52 on a bid made")
    expect(page.locator(HAND_CARDS)).to_have_count(9)
    page.get_by_role("button", name="Last trick").click()

    panel = page.locator(".action-panel.mine")
    log = page.locator(".log")
    # The auction: Ann bids 10 first, so nobody can bid over her; she names her long suit.
    expect(panel.get_by_role("button", name="Bid 10")).to_be_visible()
    panel.get_by_role("button", name="Bid 10").click()
    trump = panel.get_by_role("button", name=SUIT_TITLES[suit])
    expect(trump).to_be_visible()
    trump.click()

    # The bidder discards first: her two non-trumps, chosen by the rules; she keeps seven trumps.
    expect(panel.locator(".discard-progress")).to_be_visible()
    assert not any(states.public["discarded"])
    count = check_discard(page, states)
    assert count == 2, count
    kept = 9 - count
    expect(panel).to_contain_text("You will draw nothing this time.")
    expect(panel).to_contain_text(
        "You hold more than 6 trumps: you keep them all and play the extra ones to the first trick."
    )
    shot(page, "table-nine-card-discard-1280.png")
    panel.get_by_role("button", name="Discard", exact=True).click()
    expect(page.locator(HAND_CARDS)).to_have_count(kept)
    expect(log.get_by_text(f"Ann discards {count} cards")).to_be_visible()
    expect(log.get_by_text("Ann draws no cards")).to_be_visible()

    # Ann leads the first trick and plays her extra trumps one after another, down to five cards.
    checks = Checks()
    for held in range(kept, 5, -1):
        expect(page.locator(".game.my-turn")).to_be_visible(timeout=30_000)
        assert states.public["phase"] == "play" and states.public["to_act"] == me
        check_my_turn_to_play(page, states, checks)
        extra = held - 5
        assert states.latest is not None and states.latest["game"]["extra_trumps"] == extra
        if extra == 1:
            expect(panel).to_contain_text(
                "Play your extra trumps to this trick: one more card, then you hold 5."
            )
        else:
            expect(panel).to_contain_text(
                f"You hold more than 6 cards: play your extra trumps to this trick, {extra} cards one after"
                " another, until you hold 5."
            )
        if held == kept:
            shot(page, "table-nine-card-extras-1280.png")
        click_card(page.locator(f"{HAND_CARDS}.playable").first)
        expect(page.locator(HAND_CARDS)).to_have_count(held - 1)
    # Her cards in the first trick are fanned out at her place, every one of them shown.
    fanned = page.locator(".trick .trick-card.fanned")
    expect(fanned).to_have_count(kept - 5)
    expect(page.locator(".trick .trick-card")).to_have_count(kept - 5)
    shot(page, "table-nine-card-fanned-1280.png")
    # Her cards come first; the next seat's bot may already have played after them (it waits 0.5 s).
    extras_shown = page.evaluate(READ_TRICK)[: kept - 5]
    assert all(item["label"].endswith(", played by Ann") for item in extras_shown), extras_shown
    assert all(item["fanned"] for item in extras_shown), extras_shown

    # The rest of the hand, checked on each of Ann's turns, to the summary.
    hand = states.public["hand_number"]
    summary = page.locator(".summary-overlay")
    deadline = time.monotonic() + 180
    while not summary.get_by_role("heading", name=f"End of hand {hand}").count():
        assert time.monotonic() < deadline, checks
        pub = states.public
        if pub["phase"] == "play" and pub["to_act"] == me and page.locator(".game.my-turn").count():
            check_my_turn_to_play(page, states, checks)
        take_turn(page)
        page.wait_for_timeout(20)
    assert checks.turns >= 2, checks
    # The first trick opened with Ann's extra trumps, and she played no other card to it.
    first = [seat for seat, _ in states.finished[hand][0]]
    assert first[: kept - 5] == [me] * (kept - 5) and first.count(me) == kept - 5, first
    check_outs_were_right(states, checks)
    check_summary(page, states, hand)
    shot(page, "table-nine-card-summary-1280.png")


def check_summary(page: Page, states: States, hand: int) -> None:
    """The end of a hand: the ten points, the jokers to the players who held them, however many
    tricks were played."""
    summary = page.locator(".summary-overlay")
    expect(summary.locator(".points-list .point-name")).to_have_text(NINE_POINTS)
    expect(summary).to_contain_text("The jokers score for the side of the player who held them.")
    names = plate_names(page)
    for joker, point in (("BJ", "Big joker"), ("LJ", "Little joker")):
        holders = [seat for trick in states.finished[hand] for seat, card in trick if card == joker]
        line = summary.locator(".points-list li").filter(has=page.locator(".point-name", has_text=point))
        if holders:
            expect(line).to_contain_text(names[holders[0]])
        else:
            expect(line).to_contain_text("nobody")


def test_nine_card_at_phone_width_every_trick_is_shown_card_for_card(
    serve: Callable[..., str], open_page: Callable[..., Watched]
) -> None:
    url = serve(SLOW_SUMMARY)
    page = open_page(375, 812).page
    states = States()
    states.follow(page)
    create_table(page, url, "Ann", players=4, target=52, preset="Nine-card")
    start_with_bots(page)
    assert states.latest is not None
    me = states.latest["table"]["you"]
    page.get_by_role("button", name="Last trick").click()
    summary = page.locator(".summary-overlay")
    checks = Checks()
    bidder_hand: int | None = None  # a hand Ann bid, named trump and discarded in
    summed: set[int] = set()
    shots: set[str] = set()
    deadline = time.monotonic() + 300
    # Ann bids 10 whenever she can until she has been the bidder; every hand goes to its summary.
    while bidder_hand is None or bidder_hand not in summed or checks.irregular == 0:
        assert time.monotonic() < deadline, (bidder_hand, summed, checks)
        # Read at once: the summary may close between a count and a read, and a read would wait for it.
        titles = summary.locator("h2").all_inner_texts()
        if titles:
            number = int(titles[0].split()[-1])
            if number not in summed and number in states.finished:
                check_summary(page, states, number)
                if "summary" not in shots:
                    summary.locator(".points-list").scroll_into_view_if_needed()
                    shot(page, "table-nine-card-summary-375.png")
                    shots.add("summary")
                summed.add(number)
        pub = states.public if states.latest and states.latest["game"] else None
        if pub and page.locator(".action-panel.mine .discard-progress").count():
            check_discard(page, states)
            if pub["bidder"] == me and bidder_hand is None:
                bidder_hand = pub["hand_number"]
                assert all(not pub["discarded"][seat] for seat in range(4)), "the bidder discards first"
                page.locator("section.bottom").scroll_into_view_if_needed()
                shot(page, "table-nine-card-discard-375.png")
        elif pub and pub["phase"] == "play" and pub["to_act"] == me and page.locator(".game.my-turn").count():
            before = checks.irregular
            check_my_turn_to_play(page, states, checks)
            if checks.irregular > before and "trick" not in shots:
                assert page.evaluate("document.documentElement.scrollWidth") <= 375
                page.evaluate("window.scrollTo(0, 0)")
                shot(page, "table-nine-card-short-trick-375.png")
                shots.add("trick")
        take_turn(page, top_bid=bidder_hand is None)
        page.wait_for_timeout(20)
    check_outs_were_right(states, checks)
