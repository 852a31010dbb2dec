// A new screen of the table (the table itself, a hand's summary, the match's end) opens at its top,
// not wherever the last one was scrolled to (on a phone, the lobby's Start button is far down).

import { useLayoutEffect } from "preact/hooks";
import type { PublicGame, StateMessage } from "../../types";

/** Which screen of the table is shown: the match's end, a hand's summary, or the play. */
export function tableScreen(state: StateMessage, pub: PublicGame): "end" | "summary" | "play" {
  if (state.table.status === "finished" || pub.phase === "match_over") return "end";
  return pub.phase === "hand_over" ? "summary" : "play";
}

/** Scrolls the window to its top when the table is first shown and whenever its screen changes. */
export function useScreenTop(screen: string): void {
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [screen]);
}
