// /leaderboard/PRESET: the best ratings of a game, or (?with=ID) a player and the people they have
// played with; a chooser of the game, and the switch to the people this browser's profile played with.

import { useEffect, useState } from "preact/hooks";
import { errorText, t, tk } from "../../i18n";
import { navigate } from "../../net";
import { getLeaderboard, type Answer, type LeaderEntry } from "../../playersApi";
import { leaderboardPath } from "../../playersRoutes";
import { ratingText, shownName } from "../../playersView";
import { useApp } from "../../store";
import { AppLink, MarkTag, PlayerName, useHeadingFocus, useProfile } from "./common";
import { PersonButton } from "../PersonButton";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

function PresetChooser({ preset, withId }: { preset: string; withId: string | null }) {
  const app = useApp();
  const known = app.presets.status === "ready" ? app.presets.facts.presets.map((p) => p.name) : [];
  const presets: string[] = known.some((name) => name === preset) ? known : [...known, preset];
  return (
    <nav class="leaders-presets" aria-label={t("leaders.games")}>
      <ul>
        {presets.map((name) => (
          <li key={name}>
            <AppLink href={leaderboardPath(name, withId)} aria-current={name === preset ? "page" : undefined}>
              {tk(`preset.${name}`)}
            </AppLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function BoardTable({ entries, preset, mine }: { entries: LeaderEntry[]; preset: string; mine: string | null }) {
  return (
    <table class="leader-table">
      <caption class="visually-hidden">{t("leaders.caption", { preset: tk(`preset.${preset}`) })}</caption>
      <thead>
        <tr>
          <th scope="col" class="rank">
            <abbr title={t("leaders.rank")}>#</abbr>
          </th>
          <th scope="col">{t("leaders.player")}</th>
          <th scope="col" class="num rating-col">
            {t("players.rating")}
          </th>
          <th scope="col" class="num count-col">
            {t("leaders.matches")}
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry, i) => (
          <tr key={entry.player} class={entry.player === mine ? "me" : undefined}>
            <td class="rank">{i + 1}</td>
            <td>
              <div class="who">
                <PlayerName name={shownName(entry.name, entry.bot_level)} player={entry.player} />
                <MarkTag mark={entry.mark} />
                {!entry.bot && <PersonButton name={entry.name} player={entry.player} />}
                {entry.player === mine && <span class="tag host">{t("profile.yours")}</span>}
              </div>
            </td>
            <td class="num rating-col">{ratingText(entry.rating)}</td>
            <td class="num count-col">{entry.matches}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function LeaderboardPage({ preset, withId }: { preset: string; withId: string | null }) {
  useApp();
  const me = useProfile();
  const [answer, setAnswer] = useState<Answer<LeaderEntry[]> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const heading = useHeadingFocus(true);

  useEffect(() => {
    let current = true;
    setAnswer(null);
    void getLeaderboard(preset, withId).then((got) => {
      if (current) setAnswer(got);
    });
    return () => {
      current = false;
    };
  }, [preset, withId, attempt]);

  const mine = me?.player ?? null;
  const other = withId !== null && withId !== mine;
  const otherName = other && answer?.ok ? answer.data.find((entry) => entry.player === withId)?.name : undefined;

  return (
    <div class="players-page">
      <section class="panel light" aria-labelledby="leaders-title">
        <h1 id="leaders-title" ref={heading} tabIndex={-1}>
          {t("leaders.title")}: {tk(`preset.${preset}`)}
        </h1>
        <PresetChooser preset={preset} withId={withId} />
        {mine && !other && (
          <label class="check">
            <input
              type="checkbox"
              checked={withId === mine}
              onChange={(e) => navigate(leaderboardPath(preset, e.currentTarget.checked ? mine : null))}
            />
            {t("leaders.with_me")}
          </label>
        )}
        {other && (
          <p class="muted">
            {otherName ? t("leaders.with_other", { name: otherName }) : t("leaders.with_someone")}{" "}
            <AppLink href={leaderboardPath(preset)}>{t("leaders.everyone")}</AppLink>
          </p>
        )}
        <p class="muted small-text">{t("leaders.note")}</p>

        <div aria-live="polite" aria-busy={answer === null}>
          {answer === null ? (
            <p class="muted">{t("app.loading")}</p>
          ) : !answer.ok ? (
            <p class="field-error">
              {errorText(answer.error, noSeat)}{" "}
              <button type="button" class="link-button" onClick={() => setAttempt(attempt + 1)}>
                {t("presets.retry")}
              </button>
            </p>
          ) : answer.data.length === 0 ? (
            <p class="muted">{t("leaders.empty")}</p>
          ) : (
            <BoardTable entries={answer.data} preset={preset} mine={mine} />
          )}
        </div>
      </section>
    </div>
  );
}
