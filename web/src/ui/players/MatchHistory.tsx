// A player's finished matches, newest first, a page at a time ("More"); each links to its replay.
// In this browser's own history, each other person's name has a "Report" button beside it.

import { Fragment } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { errorText, t, tk } from "../../i18n";
import { getMatches, type MatchPlayer, type MatchSummary } from "../../playersApi";
import { matchPath } from "../../playersRoutes";
import { dateTimeText, matchView } from "../../playersView";
import { useApp } from "../../store";
import type { ServerError } from "../../types";
import { AppLink, MarkTag, PlayerName, ReportButton } from "./common";
import { PersonButton } from "../PersonButton";

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

/**
 * "With Ada" / "Against Bo and Cy": the template's {names} filled with names that link to profiles;
 * with `reportIn` (a match of this browser's profile), a person's name can be reported from there.
 */
function Names({
  template,
  players,
  reportIn,
}: {
  template: "profile.with" | "profile.against";
  players: MatchPlayer[];
  reportIn?: string;
}) {
  const [before, after = ""] = t(template, { names: "\u0000" }).split("\u0000");
  return (
    <span class="history-names">
      {before}
      {players.map((p, i) => (
        <Fragment key={p.seat}>
          {i > 0 && ", "}
          <PlayerName name={p.name} player={p.player} bot={p.bot} botLevel={p.bot_level} />
          <MarkTag mark={p.mark} />
          {reportIn !== undefined && !p.bot && <ReportButton name={p.name} seat={p.seat} match={reportIn} />}
          {reportIn !== undefined && !p.bot && <PersonButton name={p.name} player={p.player} />}
        </Fragment>
      ))}
      {after}
    </span>
  );
}

function MatchItem({ match, own }: { match: MatchSummary; own: boolean }) {
  const view = matchView(match);
  const reportIn = own ? match.match : undefined;
  const result = t(view.won ? "profile.won" : "profile.lost");
  return (
    <li class="history-item">
      <div class="history-head">
        <AppLink href={matchPath(match.match)} class="history-link">
          <strong>{tk(`preset.${match.preset}`)}</strong>
          <span class="muted"> · {dateTimeText(match.finished_at)}</span>
          <span class="visually-hidden">
            {" "}
            · {result} {view.score} · {t("profile.replay")}
          </span>
        </AppLink>
        <span class={`history-result ${view.won ? "won" : "lost"}`} aria-hidden="true">
          {result} <span class="history-score">{view.score}</span>
        </span>
      </div>
      <div class="history-players small-text">
        {view.partners.length > 0 && <Names template="profile.with" players={view.partners} reportIn={reportIn} />}
        {view.partners.length > 0 && view.opponents.length > 0 && <span aria-hidden="true"> · </span>}
        {view.opponents.length > 0 && <Names template="profile.against" players={view.opponents} reportIn={reportIn} />}
      </div>
    </li>
  );
}

/** `own`: the history of this browser's profile, whose secret may report the players of its matches. */
export function MatchHistory({ player, own = false }: { player: string; own?: boolean }) {
  useApp();
  const [matches, setMatches] = useState<MatchSummary[]>([]);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ServerError | null>(null);
  /** The index of the first match of the page just loaded by "More", to put the focus on it. */
  const [focusAt, setFocusAt] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const asked = useRef(0);
  const shown = useRef(0);
  shown.current = matches.length;

  const load = async (before: string | null) => {
    const ask = ++asked.current;
    setLoading(true);
    setError(null);
    const answer = await getMatches(player, before);
    if (ask !== asked.current) return; // another player's page meanwhile
    setLoading(false);
    if (!answer.ok) {
      setError(answer.error);
      return;
    }
    if (before) setFocusAt(shown.current);
    setMatches((had) => (before ? [...had, ...answer.data.matches] : answer.data.matches));
    setMore(answer.data.more);
  };

  useEffect(() => {
    setMatches([]);
    setMore(false);
    setFocusAt(null);
    void load(null);
  }, [player]);

  useEffect(() => {
    if (focusAt === null) return;
    list.current?.querySelectorAll<HTMLAnchorElement>(".history-link")[focusAt]?.focus();
    setFocusAt(null);
  }, [focusAt, matches]);

  const last = matches[matches.length - 1];
  return (
    <section class="panel light" aria-labelledby="history-title">
      <h2 id="history-title">{t("profile.history")}</h2>
      {matches.length === 0 && !loading && !error && <p class="muted">{t("profile.no_matches")}</p>}
      {matches.length > 0 && (
        <ol class="history-list" ref={list}>
          {matches.map((match) => (
            <MatchItem key={match.match} match={match} own={own} />
          ))}
        </ol>
      )}
      {loading && <p class="muted">{t("app.loading")}</p>}
      {error && (
        <p class="field-error" role="alert">
          {errorText(error, noSeat)}{" "}
          <button type="button" class="link-button" onClick={() => void load(last?.match ?? null)}>
            {t("presets.retry")}
          </button>
        </p>
      )}
      {more && !loading && !error && last && (
        <button type="button" class="btn secondary history-more" onClick={() => void load(last.match)}>
          {t("profile.more")}
        </button>
      )}
    </section>
  );
}
