// "Practice your costliest decisions": on the replay of a finished match this browser's profile
// played, its own costliest decisions become practice positions (solved by the server the first
// time: seconds, shown as busy), and the Practice page opens on them in order.

import { useState } from "preact/hooks";
import { errorText, t } from "../../i18n";
import { navigate } from "../../net";
import type { MatchInfo } from "../../playersApi";
import { isMine, loadProfile } from "../../profile";
import type { ServerError } from "../../types";
import { ownPositions } from "../practice/api";

/** The Practice page's address for the profile's positions of `match`. */
export function matchPracticePath(match: string): string {
  return `/practice?${new URLSearchParams({ match })}`;
}

/** The button, for a viewer whose profile played `match` (nothing for anyone else). */
export function PracticeMine({ match }: { match: MatchInfo | null }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ServerError | null>(null);
  const me = loadProfile();
  if (!match || !me || !match.players.some((seat) => isMine(seat.player))) return null;
  const start = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    const answer = await ownPositions(me.player, me.secret, match.match);
    setBusy(false);
    if (answer.ok) navigate(matchPracticePath(match.match));
    else setProblem(answer.error);
  };
  return (
    <div class="replay-practice">
      <button
        type="button"
        class="btn small replay-practice-button"
        // Not disabled while busy: a disabled button would lose the keyboard's focus.
        aria-busy={busy}
        onClick={() => void start()}
      >
        {busy ? t("replay.practice_working") : t("replay.practice_mine")}
      </button>
      <p class="problem" role="status">
        {problem ? errorText(problem, (seat) => t("lobby.seat_n", { n: seat + 1 })) : ""}
      </p>
    </div>
  );
}
