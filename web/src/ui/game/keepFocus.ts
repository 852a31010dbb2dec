// Where the keyboard's focus goes at the table when what held it goes away: the card just played, the
// bid buttons gone with the auction, the next hand's deal. Left alone, the browser puts it on the
// page's body, and a keyboard player has to Tab all the way back to the hand.

import { useEffect, useLayoutEffect, useRef } from "preact/hooks";

/** This seat's choices that are not cards: the bids, the trump suits, the widow. */
const CHOICES = [
  ".action-panel.mine .bid-buttons button:not(:disabled)",
  ".action-panel.mine .trump-buttons button:not(:disabled)",
  ".action-panel.mine .widow-btn:not(:disabled)",
].join(", ");
/** The card of the hand that Tab reaches (the hand's one tab stop). */
const HAND_STOP = '.game .hand .hand-card[tabindex="0"]';
/** The screen's title: where there is neither a choice nor a hand (a spectator, the match's end). */
const TITLE = ".game h1";

/** Where the focus belongs at the table now: the turn's choices, else the hand, else the title. */
export function focusHome(): HTMLElement | null {
  for (const selector of [CHOICES, HAND_STOP, TITLE]) {
    const found = document.querySelector<HTMLElement>(selector);
    if (found) return found;
  }
  return null;
}

function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body;
}

/** Whether a control the focus was on is gone from the page or can no longer hold it. */
function gone(control: HTMLElement): boolean {
  return !control.isConnected || (control instanceof HTMLButtonElement && control.disabled);
}

/**
 * Keeps the keyboard's focus at the table. When the table is shown with the focus nowhere (the
 * lobby's Start button gone, a reload), and whenever a new state takes away the control that held it,
 * the focus goes to `focusHome()`. Focus on the title (a hand over) goes to the choices or the hand as
 * soon as there are some (the next hand dealt). When this seat's turn can be taken (`turn` changes to a
 * key of it), focus in the hand goes to the turn's choices if they are not cards. Focus the player put
 * elsewhere, or on the page itself with a click, is left where it is.
 */
export function useKeptFocus(turn: string | null): void {
  const held = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const onFocus = (event: FocusEvent) => {
      const target = event.target;
      held.current = target instanceof HTMLElement && target.closest(".game") ? target : null;
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);
  // Before any key can land on the page: the hand stays in sight where it is, so no scrolling.
  useLayoutEffect(() => {
    if (focusLost()) focusHome()?.focus({ preventScroll: true });
  }, []);
  useLayoutEffect(() => {
    const control = held.current;
    if (control && gone(control) && focusLost()) focusHome()?.focus({ preventScroll: true });
    // The title holds it only for want of a better place: the next hand dealt is one.
    else if (document.activeElement?.matches(TITLE)) focusHome()?.focus({ preventScroll: true });
  });
  // After the effect above, which took the focus from the title: only focus in the hand is left to move.
  useLayoutEffect(() => {
    if (turn === null || !document.activeElement?.closest(".game .hand")) return;
    const home = focusHome();
    if (home && !home.closest(".hand")) home.focus({ preventScroll: true });
  }, [turn]);
}
