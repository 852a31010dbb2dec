// Small parts the players' pages share: this browser's profile as a hook,
// a name that links to its profile, a rating, and the focus put on a page's heading.
// The Report button beside a name is here too: shared by the table, the history and the replay,
// it stays in the entry's script rather than in a chunk of its own that the table would fetch.

import type { RefObject } from "preact";
import { AppLink } from "../AppLink";
import { ReportButton } from "../ReportButton";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n";
import { loadProfile, onProfileChange, type Profile } from "../../profile";
import { profilePath } from "../../playersRoutes";
import { botLabel, ratingText } from "../../playersView";

export { AppLink, ReportButton };

/** This browser's profile, kept up to date (a profile made, renamed, claimed or deleted). */
export function useProfile(): Profile | null {
  const [profile, setProfile] = useState(loadProfile());
  useEffect(() => {
    const reread = () =>
      setProfile((shown) => {
        const now = loadProfile();
        return JSON.stringify(now) === JSON.stringify(shown) ? shown : now;
      });
    // A profile made between the first drawing and this subscription counts too.
    reread();
    return onProfileChange(reread);
  }, []);
  return profile;
}

/**
 * A player's name, linked to their profile when they have one (a guest or a deleted player has not),
 * with the bot mark when the server says the seat is a bot's: a person named like a bot gets none.
 */
export function PlayerName({
  name: given,
  player,
  bot = false,
  botLevel = null,
  newTab = false,
}: {
  name: string;
  player: string | null;
  bot?: boolean;
  botLevel?: string | null;
  newTab?: boolean;
}) {
  const name = given;
  let shown;
  if (!player) shown = <span class="name-text">{name}</span>;
  else if (newTab) {
    shown = (
      <a class="name-text" href={profilePath(player)} target="_blank" rel="noopener">
        {name}
        <span class="visually-hidden"> {t("players.new_tab")}</span>
      </a>
    );
  } else {
    shown = (
      <AppLink class="name-text" href={profilePath(player)}>
        {name}
      </AppLink>
    );
  }
  return (
    <>
      {shown}
      {bot && <BotTag level={botLevel} />}
    </>
  );
}

/**
 * The mark beside a bot's name, drawn from the server's flag and never from the name (which anyone
 * may choose): a tag, not text a name could hold.
 */
export function BotTag({ level = null }: { level?: string | null }) {
  return (
    <>
      {" "}
      <span class="tag bot-tag">{botLabel(level)}</span>
    </>
  );
}

/** The mark the server tells a person apart by, beside the name; the server alone decides when. */
export function MarkTag({ mark }: { mark: string | null | undefined }) {
  return mark ? <span class="mark-tag">#{mark}</span> : null;
}

/** A person's matches finished and left, compact ("12/1"); nothing before the first. */
export function FinishesTag({ finished, left }: { finished?: number | null; left?: number | null }) {
  if (typeof finished !== "number" || typeof left !== "number" || finished + left === 0) return null;
  const label = t("table.finishes", { finished, left });
  return (
    <span class="finish-tag" title={label}>
      <span aria-hidden="true">
        {finished}/{left}
      </span>
      <span class="visually-hidden">{label}</span>
    </span>
  );
}

/** A seat's rating beside its name; nothing for a seat without one (a guest). */
export function RatingTag({ rating }: { rating: number | null | undefined }) {
  if (typeof rating !== "number" || !Number.isFinite(rating)) return null;
  const label = t("players.rating_of", { rating: ratingText(rating) });
  return (
    <span class="rating-tag" title={label}>
      <span aria-hidden="true">{ratingText(rating)}</span>
      <span class="visually-hidden">{label}</span>
    </span>
  );
}

/**
 * Put the focus on the page's heading once it is shown, when nothing else holds it (the link that
 * led here is gone with the page it was on), so that keyboard and screen reader users start there.
 */
export function useHeadingFocus(ready: boolean): RefObject<HTMLHeadingElement> {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!ready || !heading.current) return;
    const active = document.activeElement;
    if (!active || active === document.body) heading.current.focus();
  }, [ready]);
  return heading;
}
