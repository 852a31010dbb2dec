// The players' pages, by route: a profile, a leaderboard, taking a profile from another device.
// The links to them are in PlayersLinks.tsx, re-exported here.

import type { PlayersRoute } from "../../playersRoutes";
import { useApp } from "../../store";
import { PresetsPending } from "../PresetsPending";
import { ClaimPage } from "./ClaimPage";
import { LeaderboardPage } from "./LeaderboardPage";
import { ProfilePage } from "./ProfilePage";

export { isPlayersRoute, PlayersLinks } from "./PlayersLinks";

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
