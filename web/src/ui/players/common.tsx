// Small parts the players' pages share: links inside the app, this browser's profile as a hook,
// a name that links to its profile, a rating, and the focus put on a page's heading.

import type { ComponentChildren, RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n";
import { navigate } from "../../net";
import { loadProfile, onProfileChange, type Profile } from "../../profile";
import { profilePath } from "../../playersRoutes";
import { ratingText, shownName } from "../../playersView";

/**
 * A link to a page of the app: opened in place (the page is not loaded again), unless the reader
 * asks for a new tab or window with a modifier key or the middle button.
 */
export function AppLink({
  href,
  class: className,
  children,
  onNavigate,
  ...rest
}: {
  href: string;
  class?: string;
  children: ComponentChildren;
  onNavigate?: () => void;
  title?: string;
  "aria-current"?: "page" | undefined;
  "aria-label"?: string;
}) {
  return (
    <a
      {...rest}
      href={href}
      class={className}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onNavigate?.();
        navigate(href);
        window.scrollTo(0, 0);
      }}
    >
      {children}
    </a>
  );
}

/** This browser's profile, kept up to date (a profile made, renamed, claimed or deleted). */
export function useProfile(): Profile | null {
  const [profile, setProfile] = useState(loadProfile());
  useEffect(() => onProfileChange(() => setProfile(loadProfile())), []);
  return profile;
}

/** A player's name, linked to their profile when they have one (a guest or a deleted player has not). */
export function PlayerName({ name: given, player, newTab = false }: { name: string; player: string | null; newTab?: boolean }) {
  const name = shownName(given, player);
  if (!player) return <span class="name-text">{name}</span>;
  if (newTab) {
    return (
      <a class="name-text" href={profilePath(player)} target="_blank" rel="noopener">
        {name}
        <span class="visually-hidden"> {t("players.new_tab")}</span>
      </a>
    );
  }
  return (
    <AppLink class="name-text" href={profilePath(player)}>
      {name}
    </AppLink>
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
