"""A player reports another from the seat plate at a table, or from a finished match of their
history (a phone's width, by keyboard), and the operator lists, reads and resolves the report with
``smear admin reports`` against the same database. The dialog, where each opens, passes axe's
audit at a phone's and a desktop's size (its buttons read on its light background, wherever it
opens)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from axekit import Audit
from browserkit import Watched, create_table, invite_link, join_from_invite, play_until, start
from playwright.sync_api import Page, expect

SMEAR = str(Path(sys.executable).parent / "smear")


def say(page: Page, text: str) -> None:
    page.get_by_label("Message to the table").fill(text)
    page.get_by_label("Message to the table").press("Enter")


def admin(database: Path, *args: str) -> str:
    done = subprocess.run(
        [SMEAR, "admin", "reports", *args, "--database", f"sqlite:///{database}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def test_a_report_made_at_the_table_is_listed_read_and_resolved_by_the_operator(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path, axe_script: Path
) -> None:
    url = serve()
    database = tmp_path / "smear0.db"  # the serve fixture's first server
    host = open_page().page
    guest = open_page(width=375, height=740, bypass_csp=True).page
    create_table(host, url, "Hosta")
    join_from_invite(guest, invite_link(host), "Guido")
    say(host, "you play like a potato")
    expect(guest.locator(".chat-lines li").last.locator(".chat-text")).to_have_text("you play like a potato")
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    expect(guest.locator(".game")).to_be_visible()

    # Only people other than oneself can be reported: no button on one's own plate nor a bot's.
    expect(guest.get_by_role("button", name="Report Guido")).to_have_count(0)
    expect(guest.locator(".seat-plate .report-button")).to_have_count(1)
    button = guest.get_by_role("button", name="Report Hosta")
    button.focus()
    guest.keyboard.press("Enter")
    dialog = guest.get_by_role("dialog", name="Report Hosta")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    audit = Audit(axe_script)
    audit(guest, "the report dialog at the table")
    audit.check()
    guest.set_viewport_size({"width": 375, "height": 740})
    send = dialog.get_by_role("button", name="Send report")
    expect(send).to_be_disabled()  # a reason first
    # The reasons are the server's, each worded in the page's language.
    expect(dialog.get_by_role("radio")).to_have_count(5)
    dialog.get_by_role("radio", name="Abusive chat").focus()
    guest.keyboard.press("Space")
    expect(dialog.get_by_role("radio", name="Abusive chat")).to_be_checked()
    dialog.get_by_label("Anything to add (optional)").fill("insults in the lobby")
    send.focus()
    guest.keyboard.press("Enter")
    expect(dialog.get_by_text("Thanks, an operator will read it.")).to_be_visible()
    expect(dialog.get_by_role("button", name="Close")).to_be_focused()
    guest.keyboard.press("Enter")
    expect(guest.get_by_role("dialog")).to_have_count(0)
    # The one reported is told nothing.
    expect(host.get_by_text("report", exact=False)).to_have_count(0)

    listed = admin(database)
    assert listed.count("\n") == 1 and "abusive_chat" in listed and "Hosta (seat 1" in listed
    report_id = listed.split("\t", 1)[0]
    shown = admin(database, "show", report_id)
    assert "reason: abusive_chat" in shown and "text: insults in the lobby" in shown
    assert "Hosta (seat 1): you play like a potato" in shown
    assert admin(database, "resolve", report_id, "--note", "warned Hosta") == f"resolved report {report_id}\n"
    assert admin(database) == ""
    everything = admin(database, "--all")
    assert f"{report_id}\t" in everything and "\tresolved\t" in everything
    assert "warned Hosta" in admin(database, "show", report_id)


def test_a_report_made_from_the_match_history_is_listed_by_the_operator(
    serve: Callable[..., str], open_page: Callable[..., Watched], tmp_path: Path, axe_script: Path
) -> None:
    url = serve(deals=2)
    database = tmp_path / "smear0.db"
    host = open_page(width=375, height=740, bypass_csp=True).page
    guest = open_page().page
    create_table(host, url, "Hosta", players=3, target=11)
    join_from_invite(guest, invite_link(host), "Guido")
    host.get_by_role("button", name="Fill the empty seats with bots").click()
    start(host)
    end = host.locator(".match-end")
    play_until([host, guest], lambda: end.count() > 0)

    host.get_by_role("button", name="Menu").click()
    host.get_by_role("link", name="My profile").click()
    item = host.locator(".history-list .history-item")
    expect(item).to_have_count(1)
    # Guido can be reported from there; the bot cannot, nor can one's own name.
    expect(item.locator(".report-button")).to_have_count(1)
    button = item.get_by_role("button", name="Report Guido")
    button.focus()
    host.keyboard.press("Enter")
    dialog = host.get_by_role("dialog", name="Report Guido")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
    audit = Audit(axe_script)
    audit(host, "the report dialog in the history")
    audit.check()
    host.set_viewport_size({"width": 375, "height": 740})
    dialog.get_by_role("radio", name="Leaving or stalling").focus()
    host.keyboard.press("Space")
    dialog.get_by_label("Anything to add (optional)").fill("stalled every turn")
    dialog.get_by_role("button", name="Send report").focus()
    host.keyboard.press("Enter")
    expect(dialog.get_by_text("Thanks, an operator will read it.")).to_be_visible()
    widths = host.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    host.keyboard.press("Escape")
    expect(host.get_by_role("dialog")).to_have_count(0)
    # The match's replay, opened from the history, has the same button beside Guido's name.
    item.locator(".history-link").click()
    expect(host.locator(".replay-head .report-button")).to_have_count(1)
    expect(host.locator(".replay-head").get_by_role("button", name="Report Guido")).to_be_visible()

    listed = admin(database)
    assert listed.count("\n") == 1 and "leaving_or_stalling" in listed and "Guido (seat" in listed
    shown = admin(database, "show", listed.split("\t", 1)[0])
    assert "reason: leaving_or_stalling" in shown and "text: stalled every turn" in shown
