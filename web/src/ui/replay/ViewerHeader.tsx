import type { ComponentChildren } from "preact";
import { currentLang, scoreText, t, tn } from "../../i18n";
import { navigate } from "../../net";
import { isMine } from "../../profile";
import type { MatchInfo, ReplayView } from "../../replay/types";
import { sideColor } from "../names";
import { BotTag, MarkTag, ReportButton } from "../players/common";
import { StandingsTable } from "../Standings";
import { presetLabel, seatLabel, sideLabel } from "./words";

/** When the match finished, in the reader's language. */
function finishedText(at: number): string {
  try {
    return new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(at * 1000));
  } catch {
    return new Date(at * 1000).toISOString();
  }
}

/**
 * A player's name, a link to their profile when the match summary names one, marked when the
 * summary says the seat was a bot's (an uploaded record says nothing of who played). In a match
 * this browser's profile played, another person's name can be reported.
 */
function PlayerName({ view, match, seat }: { view: ReplayView; match: MatchInfo | null; seat: number }) {
  const name = seatLabel(view, seat);
  const entry = match?.players.find((one) => one.seat === seat);
  const player = entry?.player ?? null;
  const reportable = match && entry && !entry.bot && !isMine(player) && match.players.some((one) => isMine(one.player));
  const mark = entry?.bot ? (
    <BotTag level={entry.bot_level} />
  ) : reportable ? (
    <ReportButton name={name} seat={seat} match={match.match} />
  ) : null;
  if (!player) {
    return (
      <>
        <span class="name-text">{name}</span>
        <MarkTag mark={entry?.mark} />
        {mark}
      </>
    );
  }
  const href = `/p/${encodeURIComponent(player)}`;
  return (
    <>
      <a
        class="name-text"
        href={href}
        onClick={(event) => {
          event.preventDefault();
          navigate(href);
        }}
      >
        {name}
      </a>
      <MarkTag mark={entry?.mark} />
      {mark}
    </>
  );
}

/** The outcome of the match, or how far the record goes. */
function outcomeText(view: ReplayView): string {
  if (view.winner !== null && view.winner !== undefined) return t("end.winner", { names: sideLabel(view, view.winner) });
  return view.complete ? t("replay.no_winner_yet") : t("replay.incomplete");
}

/** The game, the players by side with their final scores, the winner, the page's buttons, and what they open. */
export function ViewerHeader({
  view,
  match,
  actions,
  below,
  nested = false,
}: {
  view: ReplayView;
  match: MatchInfo | null;
  actions?: ComponentChildren;
  /** Under the buttons, across the header: the costliest decisions of the match. */
  below?: ComponentChildren;
  /** Under another page heading (the record upload's): the title is then a level-2 heading. */
  nested?: boolean;
}) {
  const Title = nested ? "h2" : "h1";
  const facts = [
    presetLabel(view),
    tn("settings.players", view.players.length),
    t("table.first_to", { n: view.target }),
    tn("replay.hands", view.hands.length),
  ];
  if (match) facts.push(finishedText(match.finished_at));
  return (
    <header class="panel replay-head">
      <div class="replay-title">
        <Title id="replay-title" class="replay-title-text">
          {t("replay.title")}
        </Title>
        <p class="muted replay-facts">{facts.join(" · ")}</p>
      </div>
      <ul class="replay-sides" aria-label={t("replay.final_scores")}>
        {view.sides.map((seats, side) => (
          <li key={side} class={view.winner === side ? "winner" : ""}>
            <span class="swatch" style={{ background: sideColor(side) }} aria-hidden="true" />
            <span class="replay-side-names">
              {seats.map((seat, i) => (
                <span key={seat}>
                  {i > 0 && " & "}
                  <PlayerName view={view} match={match} seat={seat} />
                </span>
              ))}
            </span>
            <strong class="replay-side-score">{scoreText(view.scores[side] ?? 0)}</strong>
            {view.winner === side && (
              <span class="replay-trophy" aria-hidden="true">
                ★
              </span>
            )}
          </li>
        ))}
      </ul>
      <p class="replay-outcome">{outcomeText(view)}</p>
      {view.winner !== null && view.standings && (
        <StandingsTable
          rows={view.standings}
          winner={view.winner}
          sideName={(side) => sideLabel(view, side)}
          lang={currentLang()}
        />
      )}
      {actions && <div class="replay-actions">{actions}</div>}
      {below}
    </header>
  );
}
