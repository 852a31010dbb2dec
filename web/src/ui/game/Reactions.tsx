import { t, tk } from "../../i18n";
import { useApp } from "../../store";
import { sendReaction } from "../../talk";

// Words only, in the reader's language: an emoji shows as an empty box where no emoji font is installed.

/** The reaction buttons of a seated player: a fixed set, so nothing is said about the cards. */
export function ReactionBar() {
  const app = useApp();
  // The server's list (GET /api/presets); no buttons until it has arrived.
  const reactions = app.presets.status === "ready" ? app.presets.facts.reactions : [];
  return (
    <section class="panel reaction-bar" aria-labelledby="reactions-title">
      <h2 id="reactions-title" class="visually-hidden">
        {t("react.title")}
      </h2>
      <div class="tool-row">
        {reactions.map((reaction) => (
          <button
            key={reaction}
            type="button"
            class="btn small secondary reaction"
            onClick={() => void sendReaction(reaction)}
          >
            {tk(`react.${reaction}`)}
          </button>
        ))}
      </div>
    </section>
  );
}

/** The reaction on show at a seat, if any, in the reader's language. */
export function ReactionBubble({ seat }: { seat: number }) {
  const app = useApp();
  const shown = app.reactions.find((r) => r.seat === seat);
  if (!shown) return null;
  return (
    <span class="reaction-bubble" role="status" data-reaction={shown.reaction}>
      {tk(`react.${shown.reaction}`)}
    </span>
  );
}
