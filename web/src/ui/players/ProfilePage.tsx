// A player's page (/p/ID): the name, the ratings and statistics of each game played, the match
// history; on this browser's own profile, the rename form and the tools to move or delete it.

import { useEffect, useState } from "preact/hooks";
import { errorText, t } from "../../i18n";
import { forgetProfile, loadProfile, saveProfile } from "../../profile";
import { getPlayer, type Answer, type PlayerProfile } from "../../playersApi";
import { dateText, shownName } from "../../playersView";
import { useApp } from "../../store";
import { AppLink, MarkTag, useHeadingFocus, useProfile } from "./common";
import { FriendsSection } from "./FriendsSection";
import { MatchHistory } from "./MatchHistory";
import { PresetCards } from "./PresetCards";
import { DeleteBox, RenameForm, TransferBox } from "./ProfileTools";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

export function ProfilePage({ player }: { player: string }) {
  useApp(); // a new language redraws the page
  const me = useProfile();
  const own = me?.player === player;
  const [answer, setAnswer] = useState<Answer<PlayerProfile> | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setAnswer(null);
    void getPlayer(player).then((got) => {
      if (!current) return;
      setAnswer(got);
      const mine = loadProfile();
      if (mine?.player !== player) return;
      // The name may have been changed on another device; a profile deleted there is gone here too.
      if (got.ok && got.data.name !== mine.name) saveProfile({ ...mine, name: got.data.name });
      if (!got.ok && got.error.code === "no_such_player") forgetProfile();
    });
    return () => {
      current = false;
    };
  }, [player, attempt]);

  const heading = useHeadingFocus(answer !== null);

  if (answer === null) return <p class="loading">{t("app.loading")}</p>;
  if (!answer.ok) {
    const missing = answer.error.code === "no_such_player";
    return (
      <div class="panel light center-panel">
        <h1 ref={heading} tabIndex={-1}>
          {t("profile.title")}
        </h1>
        <p>{missing ? t("profile.not_found") : errorText(answer.error, noSeat)}</p>
        <p class="players-actions">
          {!missing && (
            <button type="button" class="btn" onClick={() => setAttempt(attempt + 1)}>
              {t("presets.retry")}
            </button>
          )}
          <AppLink class="btn secondary" href="/">
            {t("menu.home")}
          </AppLink>
        </p>
      </div>
    );
  }

  const profile = answer.data;
  return (
    <div class="players-page">
      <section class="panel light profile-head" aria-labelledby="profile-name">
        <h1 id="profile-name" ref={heading} tabIndex={-1}>
          <span class="name-text">{shownName(profile.name, profile.bot_level)}</span>
          <MarkTag mark={profile.mark} />
          {own && <span class="tag host">{t("profile.yours")}</span>}
        </h1>
        {profile.since > 0 && !profile.bot && (
          <p class="muted">{t("profile.since", { date: dateText(profile.since) })}</p>
        )}
        {!profile.bot && (
          <p class="profile-finishes">
            {t("profile.finishes", { finished: profile.finished, left: profile.left })}
          </p>
        )}
        {own && (
          <RenameForm
            current={profile.name}
            renamed={(name) => setAnswer({ ok: true, data: { ...profile, name } })}
          />
        )}
      </section>

      {own && me && <FriendsSection />}
      <PresetCards profile={profile} />
      <MatchHistory player={player} own={own} />

      {own && me && (
        <div class="profile-tools">
          <TransferBox profile={me} />
          <DeleteBox profile={me} />
        </div>
      )}
    </div>
  );
}
