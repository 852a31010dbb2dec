// The players' pages, by route: a profile, a leaderboard, taking a profile from another device;
// and the links to them that the landing page and the menu show.

import { t } from "../../i18n";
import { claimPath, leaderboardPath, profilePath, type PlayersRoute } from "../../playersRoutes";
import { useApp, type Route } from "../../store";
import { PresetsPending } from "../PresetsPending";
import { ClaimPage } from "./ClaimPage";
import { AppLink, useProfile } from "./common";
import { LeaderboardPage } from "./LeaderboardPage";
import { ProfilePage } from "./ProfilePage";

export function isPlayersRoute(route: Route): route is PlayersRoute {
  return route.kind === "profile" || route.kind === "leaderboard" || route.kind === "claim";
}

export function PlayersPage({ route }: { route: PlayersRoute }) {
  const app = useApp();
  switch (route.kind) {
    case "profile":
      return <ProfilePage player={route.player} />;
    case "leaderboard": {
      // With no game named, the server's default one, once its facts are here.
      const facts = app.presets.status === "ready" ? app.presets.facts : null;
      const preset = route.preset ?? facts?.default_preset ?? null;
      if (preset === null) return <PresetsPending presets={app.presets} />;
      return <LeaderboardPage preset={preset} withId={route.with} />;
    }
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
      <AppLink class={link} href={leaderboardPath(null)} onNavigate={onNavigate}>
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
