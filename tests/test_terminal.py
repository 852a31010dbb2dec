"""The terminal game: one person against bots, driven here by scripted input."""

from __future__ import annotations

import io

from rich.console import Console

from smear import CardSet, Phase, Suit, find_rules, legal_actions, parse_card
from smear.terminal import TerminalGame, default_names, percent
from smear.trick import display_order


def make_game(
    read_line, preset: str = "house", players: int = 4, seed: int = 5
) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    game = TerminalGame(
        find_rules(preset), players, False, seed, default_names(players, "You"), console, read_line
    )
    return game, out


def test_a_person_playing_legal_actions_reaches_the_end_of_the_match() -> None:
    holder: list[TerminalGame] = []

    def first_legal(prompt: str) -> str:
        return str(legal_actions(holder[0].state)[0])

    game, out = make_game(first_legal)
    holder.append(game)
    winner = game.play()
    assert winner is not None
    assert game.state.public.phase is Phase.MATCH_OVER
    text = out.getvalue()
    assert "Match over" in text
    assert "Your hand:" in text
    assert "Game" in text and "Low" in text


def test_an_illegal_or_malformed_entry_is_explained_and_changes_nothing() -> None:
    entries = iter(["bid 9", "Zz", "quit"])
    game, out = make_game(lambda prompt: next(entries), seed=11)
    while game.state.public.to_act != 0:  # let the bots act until it is the person's turn
        game.step()
    before = game.state
    assert game.play() is None
    assert game.state == before
    text = out.getvalue()
    assert "bids go from 2 to 6" in text
    assert "not an action" in text
    assert "You left the table." in text


def test_ten_point_asks_for_trump_and_discards() -> None:
    holder: list[TerminalGame] = []
    asked: list[str] = []

    def first_legal(prompt: str) -> str:
        action = str(legal_actions(holder[0].state)[-1])  # the highest bid, so the person names trump
        asked.append(action)
        return action

    game, out = make_game(first_legal, preset="ten_point", players=3, seed=2)
    holder.append(game)
    while game.state.public.hand_number < 2 and game.state.public.phase is not Phase.MATCH_OVER:
        if game.state.public.phase is Phase.HAND_OVER:
            break
        game.step()
    assert any(a.startswith("trump ") for a in asked)
    assert any(a.startswith("discard ") for a in asked)
    assert "Name trump" in out.getvalue()


def test_hands_are_sorted_with_trump_first_then_by_suit_and_rank() -> None:
    cards = CardSet.parse("Ah Jh 9h Ks Tc LJ Jd 2c BJ 3h")
    ten_point = display_order(cards, Suit.HEARTS, find_rules("ten_point"))
    assert [str(c) for c in ten_point] == ["Ah", "Jh", "Jd", "BJ", "LJ", "9h", "3h", "Tc", "2c", "Ks"]
    house = display_order(cards, Suit.HEARTS, find_rules("house"))
    assert [str(c) for c in house][:6] == ["Ah", "Jh", "9h", "3h", "BJ", "LJ"]
    before_trump = display_order(cards, None, find_rules("house"))
    assert before_trump[0] == parse_card("Tc") and before_trump[-2:] == [parse_card("BJ"), parse_card("LJ")]


def test_hint_asks_the_expert_and_changes_nothing() -> None:
    entries = iter(["hint", "quit"])
    game, out = make_game(lambda prompt: next(entries), seed=11)
    while game.state.public.to_act != 0:
        game.step()
    before = game.state
    game.play()
    assert game.state == before
    assert "The expert would " in out.getvalue()


def test_hint_in_the_auction_shows_every_bid_with_its_chances_and_changes_nothing() -> None:
    entries = iter(["hint", "advice", "quit"])
    game, out = make_game(lambda prompt: next(entries), seed=11)
    while game.state.public.to_act != 0:
        game.step()
    assert game.state.public.phase is Phase.AUCTION
    legal = [str(action) for action in legal_actions(game.state)]
    before = game.state
    game.play()
    assert game.state == before
    text = out.getvalue()
    assert text.count("Bid advice (") == 2 and "deals sampled" in text
    assert "Side wins the bid" in text and "Makes it" in text and "Expected score change" in text
    table = text[text.index("Bid advice (") :]
    rows = [line for line in table.splitlines() if any(f" {action} " in line for action in legal)]
    for action in legal:  # one row per choice, with a share and a signed change
        row = next(line for line in rows if f" {action} " in line)
        assert "%" in row and ("+" in row or "-" in row), row
    assert table.count("<- best") >= 1
    assert "The expert would " in text
    assert "'hint' shows each bid's chances" in text


def test_percent_rounds_a_share_to_a_whole_percentage() -> None:
    assert [percent(share) for share in (0.0, 0.456, 1.0)] == ["0%", "46%", "100%"]


def test_widow_asks_for_the_widow_and_says_which_cards_must_go() -> None:
    holder: list[TerminalGame] = []
    asked: list[str] = []

    def top_bid(prompt: str) -> str:
        action = str(legal_actions(holder[0].state)[-1])  # the highest bid, so the person takes the widow
        asked.append(action)
        return action

    game, out = make_game(top_bid, preset="widow", players=3, seed=4)
    holder.append(game)
    while game.state.public.phase is not Phase.HAND_OVER and game.state.public.phase is not Phase.MATCH_OVER:
        game.step()
    assert "widow" in asked and any(a.startswith("discard ") for a in asked)
    text = out.getvalue()
    assert "Take the widow" in text and "Discard " in text
    assert "Two" in text and "Ten of trump" in text  # the widow game's points in the hand's table
