import { t } from "../i18n";
import type { StateMessage } from "../types";

/**
 * A seat's name as text (names come from strangers: they are only ever rendered as text nodes),
 * with the mark the server sends where two people could be confused ("Sam #K3QF").
 */
export function seatName(state: StateMessage, seat: number): string {
  const info = state.table.seats[seat];
  const name = info?.name ?? t("lobby.seat_n", { n: seat + 1 });
  return info?.mark ? `${name} #${info.mark}` : name;
}

/** The names of a side's seats: "Ada & Cy". */
export function sideNames(state: StateMessage, seats: number[]): string {
  return seats.map((seat) => seatName(state, seat)).join(" & ");
}

const SIDE_COLORS = ["#f2c14e", "#6cc4ff", "#ff8a80", "#c39bff", "#7ee0a1", "#4dd0c8", "#f78fd0", "#b0bec5"];

export function sideColor(side: number): string {
  return SIDE_COLORS[side % SIDE_COLORS.length];
}
