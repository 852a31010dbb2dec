import { SUIT_SYMBOL } from "../../cards";
import { suitTitle, t, tn } from "../../i18n";
import { act } from "../../net";
import { useApp } from "../../store";
import { canAct, isMoonBid, seatView, type PublicGame, type StateMessage } from "../../types";
import { seatName } from "../names";
import { discardNotes, discardTitle, tookTheStock, type DiscardChoice } from "./discard";
import { currentHint, HINT_TEXT_ID, hintedCards } from "./hint";
import { HintBar } from "./HintBar";
import { BidAdviceButton, BidAdviceTable } from "./BidAdvice";
import { playNotes, waitingText } from "./table";

/** Beside the hand: what this seat may do now (bid, take the widow, name trump, discard, play) or waits for. */
export function ActionPanel({
  state,
  pub,
  choice,
  onPick,
  pickedMarked,
}: {
  state: StateMessage;
  pub: PublicGame;
  /** On this seat's turn to discard, the discard being chosen. */
  choice: DiscardChoice | null;
  /** Replace the player's picks for the discard. */
  onPick: (cards: Set<string>) => void;
  /** The cards picked up (the kitty, the widow, the stock) are marked in the hand. */
  pickedMarked: boolean;
}) {
  const app = useApp();
  const view = seatView(state);
  if (!view) {
    const waiting = waitingText(state, pub, true);
    return (
      <div class="action-panel watching" aria-live="polite">
        <span class="badge">{t("table.watching")}</span>
        {state.table.you_arrive != null && <span class="arrive-note">{t("table.you_arrive")}</span>}
        {waiting && <span>{waiting}</span>}
      </div>
    );
  }
  const myTurn = canAct(view);
  if (pub.phase === "hand_over") {
    return <div class="action-panel">{t("act.hand_over")}</div>;
  }
  if (!myTurn) {
    const out = view.out_of_hand.includes(view.seat);
    return (
      <div class="action-panel" aria-live="polite">
        {out && <p class="out-note">{t("act.out_of_hand")}</p>}
        {waitingText(state, pub, false)}
      </div>
    );
  }
  const busy = app.pending;
  const hintsOn = !!state.table.settings.hints;
  const hint = currentHint(app.hint, state);
  const hinted = hint?.action.text ?? null;
  /** The class and description of a button the suggestion points at. */
  const mark = (action: string) =>
    hinted === action
      ? { suggested: " suggested", describedBy: HINT_TEXT_ID }
      : { suggested: "", describedBy: undefined };
  const hintBar = hintsOn ? <HintBar state={state} /> : null;
  const pickedNote = pickedMarked ? (
    <p class="muted kitty-note">{t(pub.bidder_took.kitty > 0 ? "act.kitty_marked" : "act.picked_marked")}</p>
  ) : null;
  const widow = view.legal.find((a) => a.kind === "widow");
  if (pub.phase === "widow" && widow) {
    return (
      <div class="action-panel mine" role="group" aria-labelledby="widow-title">
        <h2 id="widow-title">{t("act.widow_title")}</h2>
        <p class="muted">{tn("act.widow_note", pub.rules.widow)}</p>
        <button
          type="button"
          class={`btn widow-btn${mark(widow.text).suggested}`}
          disabled={busy}
          aria-describedby={mark(widow.text).describedBy}
          onClick={() => act(widow.text)}
        >
          {t("act.widow_button")}
        </button>
        {hintBar}
      </div>
    );
  }
  if (pub.phase === "auction") {
    const bids = view.legal.flatMap((a) => (a.kind === "bid" ? [a] : []));
    const pass = view.legal.find((a) => a.kind === "pass");
    return (
      <div class="action-panel mine" role="group" aria-labelledby="bid-title">
        <h2 id="bid-title">{t("act.bid_title")}</h2>
        <p class="muted">
          {pub.bidder === null
            ? t("act.no_bid_yet")
            : isMoonBid(pub.rules, pub.bid)
              ? t("act.highest_moon", { n: pub.bid, name: seatName(state, pub.bidder) })
              : t("act.highest", { n: pub.bid, name: seatName(state, pub.bidder) })}
          {!pass && <> {t("act.dealer_must_bid")}</>}
        </p>
        <div class="bid-buttons">
          {pass && (
            <button
              type="button"
              class={`btn secondary pass-btn${mark(pass.text).suggested}`}
              disabled={busy}
              aria-describedby={mark(pass.text).describedBy}
              onClick={() => act(pass.text)}
            >
              {t("act.pass")}
            </button>
          )}
          {bids.map((bid) => {
            const n = bid.amount;
            const moon = isMoonBid(pub.rules, n);
            return (
              <button
                key={n}
                type="button"
                class={`btn bid-btn${moon ? " moon-btn" : ""}${mark(bid.text).suggested}`}
                disabled={busy}
                aria-label={moon ? t("act.moon_aria", { n }) : t("act.bid_n", { n })}
                aria-describedby={mark(bid.text).describedBy}
                title={moon ? t("act.moon_aria", { n }) : undefined}
                onClick={() => act(bid.text)}
              >
                {moon ? (
                  <>
                    <span aria-hidden="true">☾ </span>
                    {t("table.moon")}
                  </>
                ) : (
                  n
                )}
              </button>
            );
          })}
        </div>
        {hintsOn && <BidAdviceButton state={state} />}
        {hintBar}
        {hintsOn && <BidAdviceTable state={state} moonBid={pub.rules.moon_bid ?? null} />}
      </div>
    );
  }
  if (pub.phase === "trump") {
    const trumps = view.legal.flatMap((a) => (a.kind === "trump" ? [a] : []));
    return (
      <div class="action-panel mine" role="group" aria-labelledby="trump-title">
        <h2 id="trump-title">{t("act.trump_title")}</h2>
        {pickedNote}
        <div class="trump-buttons">
          {trumps.map(({ suit, text }) => (
            <button
              key={suit}
              type="button"
              class={`btn suit-btn suit-${suit}${mark(text).suggested}`}
              disabled={busy}
              aria-describedby={mark(text).describedBy}
              onClick={() => act(text)}
            >
              <span class="trump-symbol" aria-hidden="true">
                {SUIT_SYMBOL[suit]}
              </span>{" "}
              {suitTitle(suit)}
            </button>
          ))}
        </div>
        {hintBar}
      </div>
    );
  }
  if (pub.phase === "discard" && choice) {
    const ready = choice.selected.length === choice.count;
    const hintCards = hint?.action.kind === "discard" ? hintedCards(hint) : null;
    const notes = discardNotes(view, pub, choice);
    const forced = choice.free === 0; // the rules decide every card: nothing to choose, no hint to ask
    return (
      <div class="action-panel mine discard-panel" role="group" aria-labelledby="discard-title">
        <h2 id="discard-title">{discardTitle(pub, choice.count, forced)}</h2>
        {!tookTheStock(view, pub) && pickedNote}
        {notes.length > 0 && (
          <ul class="discard-notes">
            {notes.map((note) =>
              typeof note === "string" ? (
                <li key={note}>{note}</li>
              ) : (
                <li key={note.summary}>
                  <details class="discard-rule">
                    <summary>{note.summary}</summary>
                    {note.detail}
                  </details>
                </li>
              ),
            )}
          </ul>
        )}
        <div class="discard-row">
          <p class="muted discard-progress" aria-live="polite">
            {t("act.discard_progress", { k: choice.selected.length, n: choice.count })}
          </p>
          <button
            type="button"
            class="btn"
            disabled={!ready || busy}
            onClick={() => act(`discard ${choice.selected.join(" ")}`)}
          >
            {t("act.discard_confirm")}
          </button>
          {choice.picked.size > 0 && (
            <button type="button" class="btn small secondary" disabled={busy} onClick={() => onPick(new Set())}>
              {t("act.discard_clear")}
            </button>
          )}
          {hintCards && choice.free > 0 && (
            <button type="button" class="btn small secondary" disabled={busy} onClick={() => onPick(hintCards)}>
              {t("act.discard_use_hint")}
            </button>
          )}
        </div>
        {!forced && hintBar}
      </div>
    );
  }
  const { leadSetsTrump, extras, keeps, dead } = playNotes(pub, view);
  return (
    <div class="action-panel mine">
      <h2>{t("act.play_title")}</h2>
      {leadSetsTrump && <p class="muted">{t("act.lead_sets_trump")}</p>}
      {extras > 0 && (
        <p class="extra-note">{tn("act.extra_trumps", extras, { size: pub.rules.hand_size, left: keeps })}</p>
      )}
      {dead && <p class="muted">{t("act.only_trumps")}</p>}
      {hintBar}
    </div>
  );
}
