// The links to the players' pages that the landing page and the menu show, and which routes are
// those pages: kept apart from the pages themselves, which come in a chunk of their own.

import { t } from "../../i18n";
import { claimPath, leaderboardPath, profilePath, type PlayersRoute } from "../../playersRoutes";
import type { Route } from "../../store";
import { AppLink, useProfile } from "./common";

export function isPlayersRoute(route: Route): route is PlayersRoute {
  return route.kind === "profile" || route.kind === "leaderboard" || route.kind === "claim";
}

/**
 * "My profile" (once this browser has one), "Leaderboard", "Practice" and, on the landing page, the way to
 * bring a profile from another device. `onNavigate` closes the menu they sit in.
 */
export function PlayersLinks({ where, onNavigate }: { where: "landing" | "menu"; onNavigate?: () => void }) {
  const me = useProfile();
  const link = where === "menu" ? "btn small secondary" : undefined;
  return (
    <>
      {me && (
        <AppLink class={link} href={profilePath(me.player)} onNavigate={onNavigate}>
          {t("players.my_profile")}
        </AppLink>
      )}
      <AppLink class={link} href={leaderboardPath(null)} onNavigate={onNavigate}>
        {t("players.leaderboard")}
      </AppLink>
      <AppLink class={link} href="/practice" onNavigate={onNavigate}>
        {t("practice.link")}
      </AppLink>
      {where === "landing" && (
        <AppLink href={claimPath()} onNavigate={onNavigate}>
          {t("players.claim_link")}
        </AppLink>
      )}
    </>
  );
}
