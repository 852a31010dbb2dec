// The expert's suggestion on this seat's turn, and what on screen it points at.

import type { Hint } from "../../store";
import type { StateMessage } from "../../types";

/** The id of the suggestion's text, which the suggested card or button points to (aria-describedby). */
export const HINT_TEXT_ID = "hint-text";

/** The suggestion for the state on screen, if one was asked for at this version. */
export function currentHint(hint: Hint | null, state: StateMessage): Hint | null {
  return hint && hint.version === state.version ? hint : null;
}

/** The cards a suggested action names: the card to play, or the cards to discard. */
export function hintedCards(action: string | null): Set<string> {
  if (action === null) return new Set();
  if (action === "pass" || action === "widow" || action.startsWith("bid ") || action.startsWith("trump ")) {
    return new Set();
  }
  if (action.startsWith("discard ")) return new Set(action.slice(8).split(" ").filter(Boolean));
  return new Set([action]);
}
