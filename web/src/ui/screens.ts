// Every screen but the app's frame comes in a chunk of its own (see lazyScreen.tsx): the landing
// page, the lobby, the table, the players' pages, the replay viewer, practice and How to play; and, at the
// table, the end of a hand and of the match (with their reviews and chart), fetched as soon as the
// table's chunk is here so that a hand's end does not wait for them. The players' pages, the replay
// viewer and How to play come with the texts only they show (withPageTexts).

import { currentLang, withPageTexts } from "../i18n";
import type { Route } from "../store";
import { lazyScreen } from "./lazyScreen";

export const HandSummary = lazyScreen(() => import("./Summary").then((m) => m.HandSummary));
export const MatchEnd = lazyScreen(() => import("./game/MatchEnd").then((m) => m.MatchEnd));

export const LandingScreen = lazyScreen(() => import("./Landing").then((m) => m.Landing));
export const LobbyScreen = lazyScreen(() => import("./Lobby").then((m) => m.Lobby));
export const GameScreen = lazyScreen(() =>
  import("./game/Game").then((m) => {
    HandSummary.preload();
    MatchEnd.preload();
    return m.GameScreen;
  }),
);
export const PlayersScreen = lazyScreen(() =>
  withPageTexts(() => import("./players/PlayersPage")).then((m) => m.PlayersPage),
);
export const ReplayScreen = lazyScreen(() =>
  withPageTexts(() => import("./replay/ReplayPage")).then((m) => m.ReplayPage),
);
export const PracticeScreen = lazyScreen(() =>
  // With the page come its texts in the language spoken and the table's chunk it draws with.
  import("./practice/PracticePage").then(async (page) => {
    await page.preparePractice(currentLang());
    return page.PracticePage;
  }),
);
export const HowToScreen = lazyScreen(() => withPageTexts(() => import("./HowTo")).then((m) => m.HowToDialog));

/** Fetch the screen a route opens on now, alongside the language's catalog at the start. */
export function preloadScreenOf(route: Route): void {
  if (route.kind === "landing") LandingScreen.preload();
  else if (route.kind === "replay") ReplayScreen.preload();
  else if (route.kind === "practice") PracticeScreen.preload();
  else if (route.kind !== "table") PlayersScreen.preload();
}
