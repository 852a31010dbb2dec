"""``smear admin reports``: the players' reports of other players, listed, read and resolved by
the operator against the database while the servers run.

Resolving is written with its row of the audit in one transaction and logged as one line
(``admin_reports_resolve``) naming the report, never its note, text or chat. Listing and reading
change nothing and are not audited. Exit status: 0 done, 2 bad arguments or no such report.
"""

from __future__ import annotations

import json
from typing import Any

import click

from smear.cli.admin import ROW_ID, _audit, _logged, _shown, _storage, admin_group, by_option
from smear.cli.base import EXIT_INVALID, fail
from smear.cli.serve import database_option


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _reported(made: Any) -> str:
    return f"{made.reported_name or '-'} (seat {made.reported_seat + 1}, {made.reported_profile or 'guest'})"


@admin_group.group("reports", invoke_without_command=True)
@click.option(
    "--open", "only_open", flag_value=True, default=True, help="Only the open reports (the default)."
)
@click.option("--all", "only_open", flag_value=False, help="Every report, the resolved too.")
@database_option
@click.pass_context
def reports_group(ctx: click.Context, only_open: bool, database: str) -> None:
    """List the players' reports: id, when (UTC), status, reason, table, match, whom. ``show ID``
    reads one with its chat lines; ``resolve ID --note ...`` resolves it."""
    if ctx.invoked_subcommand is not None:
        return
    with _storage(database) as storage:
        found = storage.reports.reports(only_open)
    for report in found:
        made = report.made
        match = made.match_id or ("-" if made.match_number is None else f"match {made.match_number}")
        click.echo(
            f"{report.id}\t{_shown(made.at)}\t{report.status}\t{made.reason}\t{made.table_code}\t{match}\t"
            f"{_reported(made)}"
        )
    click.echo(f"{len(found)} {'open ' if only_open else ''}reports", err=True)


@reports_group.command("show")
@click.argument("report_id", type=ROW_ID)
@click.option("--json", "as_json", is_flag=True, help="The report as one JSON object.")
@database_option
def show_command(report_id: int, as_json: bool, database: str) -> None:
    """Read report REPORT_ID: who made it, whom, where, why, its line and the table's chat lines
    kept with it (emptied 30 days after the report)."""
    with _storage(database) as storage:
        report = storage.reports.report(report_id)
    if report is None:
        fail(f"there is no report {report_id}", EXIT_INVALID)
    made = report.made
    if as_json:
        fields = {name: getattr(made, name) for name in made.__dataclass_fields__}
        click.echo(
            json.dumps({"id": report.id, "status": report.status, "resolution": report.resolution, **fields})
        )
        return
    click.echo(f"report {report.id}: {report.status}, made {_shown(made.at)} UTC")
    click.echo(f"reason: {made.reason}")
    click.echo(f"text: {_one_line(made.text) or '-'}")
    click.echo(f"reported: {_reported(made)}")
    click.echo(f"by: {made.reporter_profile or 'guest'} from {made.reporter_address}")
    number = "-" if made.match_number is None else str(made.match_number)
    click.echo(f"table: {made.table_code}, match {number}, finished match id {made.match_id or '-'}")
    if report.status == "resolved":
        click.echo(f"resolved {_shown(report.resolved_at)} UTC: {_one_line(report.resolution)}")
    click.echo(f"chat lines kept: {len(made.chat)}")
    for line in made.chat:
        seat = "spectator" if line.get("seat") is None else f"seat {int(line['seat']) + 1}"
        click.echo(
            f"  {_shown(line.get('at'))} {line.get('name')} ({seat}): {_one_line(str(line.get('text', '')))}"
        )


@reports_group.command("resolve")
@click.argument("report_id", type=ROW_ID)
@click.option("--note", required=True, help="What was done: kept with the report and in the audit.")
@database_option
@by_option
def resolve_command(report_id: int, note: str, database: str, by: str | None) -> None:
    """Resolve report REPORT_ID with a note of what was done."""
    audit = _audit("reports resolve", str(report_id), note, by)
    with _storage(database) as storage:
        if not storage.reports.resolve(report_id, audit):
            fail(f"there is no open report {report_id}", EXIT_INVALID)
    _logged("reports resolve", str(report_id), audit.by, report=report_id)
    click.echo(f"resolved report {report_id}")


@reports_group.command("purge")
@database_option
def purge_command(database: str) -> None:
    """Empty now the chat lines kept with reports older than 30 days (the servers' sweep does it too)."""
    import time

    from smear.server.storage.reportstore import REPORT_CHAT_KEPT_SECONDS

    with _storage(database) as storage:
        emptied = storage.reports.forget_chat_before(time.time() - REPORT_CHAT_KEPT_SECONDS)
    click.echo(f"emptied the chat lines of {emptied} reports")
