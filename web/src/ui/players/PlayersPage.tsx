// The players' pages, by route: a profile, a leaderboard, taking a profile from another device;
// and the links to them that the landing page and the menu show.

import { t } from "../../i18n";
import { claimPath, FIRST_BOARD, leaderboardPath, profilePath, type PlayersRoute } from "../../playersRoutes";
import type { Route } from "../../store";
import { ClaimPage } from "./ClaimPage";
import { AppLink, useProfile } from "./common";
import { LeaderboardPage } from "./LeaderboardPage";
import { ProfilePage } from "./ProfilePage";

export function isPlayersRoute(route: Route): route is PlayersRoute {
  return route.kind === "profile" || route.kind === "leaderboard" || route.kind === "claim";
}

export function PlayersPage({ route }: { route: PlayersRoute }) {
  switch (route.kind) {
    case "profile":
      return <ProfilePage player={route.player} />;
    case "leaderboard":
      return <LeaderboardPage preset={route.preset} withId={route.with} />;
    case "claim":
      return <ClaimPage code={route.code} />;
  }
}

/**
 * "My profile" (once this browser has one), "Leaderboard" and, on the landing page, the way to
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
      <AppLink class={link} href={leaderboardPath(FIRST_BOARD)} onNavigate={onNavigate}>
        {t("players.leaderboard")}
      </AppLink>
      {where === "landing" && (
        <AppLink href={claimPath()} onNavigate={onNavigate}>
          {t("players.claim_link")}
        </AppLink>
      )}
    </>
  );
}
