// The expert's suggestion on this seat's turn, and what on screen it points at.

import { actionCards } from "../../i18n/actions";
import type { Hint } from "../../store";
import type { StateMessage } from "../../types";

/** The id of the suggestion's text, which the suggested card or button points to (aria-describedby). */
export const HINT_TEXT_ID = "hint-text";

/** The suggestion for the state on screen, if one was asked for at this version. */
export function currentHint(hint: Hint | null, state: StateMessage): Hint | null {
  return hint && hint.version === state.version ? hint : null;
}

/** The cards a suggested action names: the card to play, or the cards to discard. */
export function hintedCards(hint: Hint | null): Set<string> {
  return new Set(actionCards(hint?.action));
}
