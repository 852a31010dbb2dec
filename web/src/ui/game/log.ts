// The play log: the server's events, each followed by the lines it carries (`lines`, in the order
// the server decided), and each entry in words.

import { t, tn } from "../../i18n";
import { actionLine } from "../../i18n/actions";
import { newId, type LogEntry } from "../../store";
import { publicGame, type StateMessage, type TableEvent } from "../../types";
import { seatName } from "../names";

/** The log's entries for the event that made `version`: the event's own, then each of its lines. */
export function logEntries(version: number, event: TableEvent): LogEntry[] {
  return [event, ...(event.lines ?? [])].map((line) => ({ id: newId(), version, event: line }));
}

/** A log line: the seat is named as it was when the line was written. */
export function logText(entry: LogEntry, state: StateMessage): string {
  const event = entry.event;
  const name =
    event.seat === undefined ? "" : (entry.names?.[event.seat] ?? seatName(state, event.seat));
  const seatNumber = (event.seat ?? 0) + 1;
  if (event.kind === "trick") return t("table.takes_trick", { name });
  const count = ("count" in event && event.count) || 0;
  if (event.kind === "kitty") return t("ev.kitty", { name, n: count });
  if (event.kind === "stock") return tn("ev.stock", count, { name });
  if (event.kind === "refill") return count > 0 ? tn("ev.refill", count, { name }) : t("ev.refill_none", { name });
  if (event.kind === "action" && event.action) {
    const rules = publicGame(state)?.rules;
    return actionLine(name, event.action, { moonBid: rules?.moon_bid ?? null, widow: rules?.widow ?? 0 });
  }
  switch (event.kind) {
    case "created":
      return t("ev.created");
    case "joined":
      return t("ev.joined", { name });
    case "seated":
      return t("ev.seated", { name });
    case "bot":
      return t("bot" in event && event.bot ? "ev.bot_on" : "ev.bot_off", { n: seatNumber });
    case "kicked":
      return t("ev.kicked", { n: seatNumber });
    case "left":
      return t("ev.left", { n: seatNumber });
    case "arriving":
      return t("ev.arriving", { name });
    case "took_seat":
      return t("ev.took_seat", { name });
    case "started":
      return t("ev.started", { n: ("match" in event && event.match) || 1 });
    case "deal":
      return t("ev.deal", { n: ("hand" in event && event.hand) || 1 });
    case "chat_settings":
      return t(event.on ? "ev.chat_on" : "ev.chat_off");
    case "muted": // sent by the server to the host and the muted seat alone
      if (event.seat === state.table.you) return t(event.muted ? "ev.muted_you" : "ev.unmuted_you");
      return t(event.muted ? "ev.muted" : "ev.unmuted", { name });
    case "rematch":
      return t(event.ready ? "ev.rematch_ready" : "ev.rematch_not", { name });
    case "listed":
      return t(event.listed ? "ev.listed" : "ev.unlisted");
    default:
      return event.kind;
  }
}
