// A profile's games: for each preset played, the rating and the table of statistics.

import { t, tk } from "../../i18n";
import type { PlayerProfile } from "../../playersApi";
import { leaderboardPath } from "../../playersRoutes";
import { matchesText, playedPresets, ratingText, statRows } from "../../playersView";
import { useApp } from "../../store";
import { AppLink } from "./common";

export function PresetCards({ profile }: { profile: PlayerProfile }) {
  const app = useApp();
  const order = app.presets.status === "ready" ? app.presets.facts.presets.map((preset) => preset.name) : [];
  const presets = playedPresets(profile, order);
  return (
    <section class="panel light" aria-labelledby="games-title">
      <h2 id="games-title">{t("profile.games_title")}</h2>
      {presets.length === 0 ? (
        <p class="muted">{t("profile.no_matches")}</p>
      ) : (
        <div class="profile-games">
          {presets.map((preset) => {
            const rating = profile.ratings[preset];
            const stats = profile.stats[preset];
            const name = tk(`preset.${preset}`);
            return (
              <section key={preset} class="profile-game" aria-labelledby={`games-${preset}`}>
                <h3 id={`games-${preset}`}>{name}</h3>
                {rating && (
                  <p class="profile-game-rating">
                    <span class="rating-big">{ratingText(rating.rating)}</span>
                    <span>
                      {t("players.rating")} · {matchesText(rating.matches)}
                      <br />
                      <AppLink href={leaderboardPath(preset)} class="small-text">
                        {t("profile.leaderboard_link")}
                      </AppLink>
                    </span>
                  </p>
                )}
                {stats && (
                  <table class="stats-table">
                    <caption class="visually-hidden">{t("stats.caption", { preset: name })}</caption>
                    <tbody>
                      {statRows(stats).map((row) => (
                        <tr key={row.label}>
                          <th scope="row">{row.label}</th>
                          <td>{row.value}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}
