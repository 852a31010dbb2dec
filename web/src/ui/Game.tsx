import { useEffect, useRef, useState } from "preact/hooks";
import { shortCard, SUIT_SYMBOL, SUITS } from "../cards";
import { cardName, hintText, scoreText, suitName, suitTitle, t, tk, tn } from "../i18n";
import { act, playAgain, requestHint } from "../net";
import { ACTIVE_PHASES as ACTIVE, bidderRefills, isMoon, isTrump, outOfHand, trumpPower } from "../rules";
import { getApp, update, useApp, type Hint, type LogEntry } from "../store";
import {
  canAct,
  publicGame,
  seatView,
  trickPlays,
  type DiscardInfo,
  type PublicGame,
  type SeatView,
  type StateMessage,
  type SuitLetter,
} from "../types";
import { CardFace, CardRow } from "./Card";
import { Hand } from "./Hand";
import { seatName, sideColor, sideNames } from "./names";
import { HandSummary, ScoreChart, verdictText } from "./Summary";

/** Where a seat sits around the table, with the receiver's own seat at the bottom. */
function angleOf(seat: number, bottom: number, players: number): number {
  const rel = (seat - bottom + players) % players;
  return ((90 + (rel * 360) / players) * Math.PI) / 180;
}

/** The id of the suggestion's text, which the suggested card or button points to (aria-describedby). */
const HINT_TEXT_ID = "hint-text";

/** The suggestion for the state on screen, if one was asked for at this version. */
function currentHint(hint: Hint | null, state: StateMessage): Hint | null {
  return hint && hint.version === state.version ? hint : null;
}

/** The cards a suggestion names: the card to play, or the cards to discard. */
function hintedCards(hint: Hint | null): Set<string> {
  if (!hint) return new Set();
  const action = hint.action;
  if (action === "pass" || action === "widow" || action.startsWith("bid ") || action.startsWith("trump ")) {
    return new Set();
  }
  if (action.startsWith("discard ")) return new Set(action.slice(8).split(" ").filter(Boolean));
  return new Set([action]);
}

/** Seconds left until `deadline` (client clock), counted down on screen. */
function TurnTimer({ deadline }: { deadline: number }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, []);
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  return (
    <span class={`timer${left <= 5 ? " urgent" : ""}`} role="timer" aria-live="off">
      {t("table.seconds_left", { n: left })}
    </span>
  );
}

function MiniBacks({ count }: { count: number }) {
  return (
    <span class="mini-backs" aria-hidden="true">
      {Array.from({ length: Math.min(count, 10) }, (_, i) => (
        <span key={i} class="mini-back" />
      ))}
    </span>
  );
}

function SeatPlate({
  state,
  pub,
  seat,
  angle,
  out,
}: {
  state: StateMessage;
  pub: PublicGame;
  seat: number;
  angle: number;
  /** The seat holds no trump where only trumps are played: it is out of the hand. */
  out: boolean;
}) {
  const app = useApp();
  const info = state.table.seats[seat];
  const side = pub.seat_side[seat];
  const active = pub.to_act === seat && ACTIVE.has(pub.phase);
  const bidEntry = pub.bids.find(([s]) => s === seat);
  const inAuction = pub.phase === "auction";
  const name = seatName(state, seat);
  const isYou = state.table.you === seat;
  const count = pub.hand_sizes[seat] ?? 0;
  const style = {
    left: `calc(50% + ${Math.cos(angle).toFixed(4)} * var(--rx))`,
    top: `calc(50% + ${Math.sin(angle).toFixed(4)} * var(--ry))`,
    "--side": sideColor(side),
  };
  // After the discards: what each player drew from the stock, and what the bidder picked up.
  const afterDiscard = ACTIVE.has(pub.phase) && pub.phase !== "auction";
  let drewText: string | null = null;
  const refills = pub.rules.refill && (seat !== pub.bidder || bidderRefills(pub.rules));
  if (afterDiscard && refills && (pub.discarded[seat] ?? 0) > 0) {
    drewText = t("table.drew", { n: pub.refilled[seat] ?? 0 });
  } else if (afterDiscard && seat === pub.bidder && pub.took > 0 && (pub.rules.widow > 0 || pub.rules.take_stock)) {
    drewText = t("table.took", { n: pub.took });
  }
  let bidText: string | null = null;
  if (bidEntry && (inAuction || pub.bidder === seat)) {
    const amount = bidEntry[1];
    bidText =
      amount === null
        ? t("table.passed")
        : isMoon(pub.rules, amount)
          ? t("table.moon_chip", { n: amount })
          : t("table.bid_n", { n: amount });
  }
  return (
    <div
      class={`seat-plate${active ? " active" : ""}${isYou ? " you" : ""}${pub.bidder === seat && !inAuction ? " bidder" : ""}${out ? " out" : ""}`}
      style={style}
      aria-label={t(out ? "table.seat_out_aria" : "table.seat_aria", { name, cards: tn("table.cards", count) })}
      role="group"
    >
      <div class="seat-name">
        <span class="name-text">{name}</span>
        {isYou && <span class="tag">{t("table.you")}</span>}
      </div>
      <div class="seat-meta">
        {pub.dealer === seat && (
          <span class="chip dealer" title={t("table.dealer")} aria-label={t("table.dealer")}>
            {t("table.dealer_short")}
          </span>
        )}
        {!isYou && <MiniBacks count={count} />}
        {bidText && (
          <span
            class={`chip bid${bidEntry?.[1] === null ? " passed" : ""}${isMoon(pub.rules, bidEntry?.[1]) ? " moon" : ""}`}
          >
            {bidText}
          </span>
        )}
        {drewText && <span class="chip drew">{drewText}</span>}
        {out && (
          <span class="chip out" title={t("table.out_title")}>
            {t("table.out")}
          </span>
        )}
        {!info?.connected && !info?.bot && <span class="chip offline">{t("table.offline")}</span>}
        {active && app.turnClock.version === state.version && app.turnClock.deadline !== null && (
          <TurnTimer deadline={app.turnClock.deadline} />
        )}
      </div>
    </div>
  );
}

/** The card that won a finished trick: the winner's card, or its highest trump when it played several. */
function winningCard(pub: PublicGame, plays: [number, string][], winner: number): string | null {
  const cards = plays.filter(([seat]) => seat === winner).map(([, card]) => card);
  if (cards.length === 0) return null;
  const power = (card: string) => trumpPower(pub.rules, pub.trump, card);
  return cards.reduce((best, card) => (power(card) > power(best) ? card : best));
}

/** The cards in the middle: the trick being played, or the last one with its winner until the next lead. */
function TrickArea({ state, pub, bottom }: { state: StateMessage; pub: PublicGame; bottom: number }) {
  // The trick as (seat, card) pairs: a seat may be missing (out of trumps) or have several cards
  // (extra trumps to the first trick), so nothing assumes one card per seat.
  let plays = pub.trick;
  let winner: number | null = null;
  if (plays.length === 0 && pub.tricks.length > 0) {
    const last = pub.tricks[pub.tricks.length - 1];
    plays = trickPlays(last, pub.players);
    winner = last.winner;
  }
  // Several cards from one seat are fanned out at that seat's spot, in the order played.
  const perSeat = new Map<number, number>();
  for (const [seat] of plays) perSeat.set(seat, (perSeat.get(seat) ?? 0) + 1);
  const placed = new Map<number, number>();
  const winning = winner === null ? null : winningCard(pub, plays, winner);
  return (
    <div
      class={`trick${winner !== null ? " done" : ""}${pub.players >= 6 ? " many" : ""}`}
      role="list"
      aria-label={t("a11y.trick")}
      data-cards={plays.length}
    >
      {plays.map(([seat, card], order) => {
        const angle = angleOf(seat, bottom, pub.players);
        const count = perSeat.get(seat) ?? 1;
        const index = placed.get(seat) ?? 0;
        placed.set(seat, index + 1);
        const fan = index - (count - 1) / 2;
        const style = {
          left: `calc(50% + ${Math.cos(angle).toFixed(4)} * var(--tx) + ${fan} * var(--fan-step))`,
          top: `calc(50% + ${Math.sin(angle).toFixed(4)} * var(--ty) + ${Math.abs(fan)} * 3px)`,
          transform: fan === 0 ? undefined : `translate(-50%, -50%) rotate(${fan * 7}deg)`,
          zIndex: order + 1,
        };
        return (
          <div
            key={card}
            class={`trick-card${card === winning ? " winner" : ""}${count > 1 ? " fanned" : ""}`}
            style={style}
            role="listitem"
          >
            <CardFace card={card} label={t("card.played_by", { card: cardName(card), name: seatName(state, seat) })} />
          </div>
        );
      })}
      {winner !== null && pub.phase !== "hand_over" && pub.phase !== "match_over" && (
        <div class="trick-caption">{t("table.takes_trick", { name: seatName(state, winner) })}</div>
      )}
    </div>
  );
}

/** The cards left in the stock: those not drawn yet, less the widow while it is still waiting. */
function stockCount(pub: PublicGame): number {
  return Math.max(0, pub.stock_left - (pub.rules.widow > 0 && pub.took === 0 ? pub.rules.widow : 0));
}

function Scoreboard({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const you = state.table.you;
  const trickCount = (side: number) => pub.tricks.filter((trick) => pub.seat_side[trick.winner] === side).length;
  const bidderName = pub.bidder === null ? null : seatName(state, pub.bidder);
  const moon = pub.bidder !== null && isMoon(pub.rules, pub.bid);
  return (
    <section class="panel scores-panel" aria-label={t("table.scores")}>
      <div class="panel-head">
        <h2>{t("table.scores")}</h2>
        <span class="muted">
          {t(pub.rules.only_bidder_wins ? "table.first_to_bidder" : "table.first_to", { n: pub.rules.target })}
        </span>
      </div>
      <ul class="rules-line" aria-label={t("table.rules")}>
        <li class="preset">{tk(`preset.${pub.rules.name}`)}</li>
        {pub.rules.shoot_the_moon && <li class="option moon">{t("landing.moon")}</li>}
        {pub.rules.elimination < 0 && (
          <li class="option elimination">{t("table.elimination_at", { n: scoreText(pub.rules.elimination) })}</li>
        )}
        {pub.rules.kitty > 0 && <li class="option kitty">{t("table.kitty_option", { n: pub.rules.kitty })}</li>}
      </ul>
      <ul class="score-list">
        {pub.sides.map((seats, side) => (
          <li key={side} class={you !== null && seats.includes(you) ? "mine" : ""} style={{ "--side": sideColor(side) }}>
            <span class="swatch" aria-hidden="true" />
            <span class="side-name">
              {seats.map((seat, i) => (
                <span key={seat}>
                  {i > 0 && " & "}
                  <span class={seat === you ? "me" : ""}>{seatName(state, seat)}</span>
                </span>
              ))}
            </span>
            {ACTIVE.has(pub.phase) && pub.phase === "play" && (
              <span class="muted tricks">{tn("table.tricks", trickCount(side))}</span>
            )}
            <strong class="score">{pub.scores[side]}</strong>
          </li>
        ))}
      </ul>
      <dl class="contract">
        <div>
          <dt>{t("table.hand_n", { n: pub.hand_number })}</dt>
          <dd>
            {t("table.dealer")}: {seatName(state, pub.dealer)}
          </dd>
        </div>
        <div>
          <dt>{t("table.contract")}</dt>
          <dd class={moon ? "moon" : undefined}>
            {bidderName === null
              ? t("table.no_bid")
              : moon
                ? t("table.moon_by", { name: bidderName, n: pub.bid })
                : t("table.bid_by", { name: bidderName, n: pub.bid })}
          </dd>
        </div>
        {pub.rules.take_stock && (pub.phase === "widow" || pub.phase === "trump" || pub.phase === "discard") && (
          <div class="stock-line">
            <dt>{t("table.stock")}</dt>
            <dd>{tn("table.cards", stockCount(pub))}</dd>
          </div>
        )}
        <div>
          <dt>{t("table.trump")}</dt>
          <dd>
            {pub.trump ? (
              <span class={`trump-tag suit-${pub.trump}`}>
                <span class="trump-symbol" aria-hidden="true">
                  {SUIT_SYMBOL[pub.trump]}
                </span>{" "}
                {suitTitle(pub.trump)}
              </span>
            ) : (
              <span class="muted">{pub.rules.trump_named ? t("table.trump_not_set") : t("table.trump_by_lead")}</span>
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function logText(entry: LogEntry, state: StateMessage): string {
  const event = entry.event;
  const name =
    event.seat === undefined ? "" : (entry.names?.[event.seat] ?? seatName(state, event.seat));
  const seatNumber = (event.seat ?? 0) + 1;
  if (event.kind === "trick") return t("table.takes_trick", { name });
  const count = ("count" in event && event.count) || 0;
  if (event.kind === "kitty") return t("ev.kitty", { name, n: count });
  if (event.kind === "stock") return tn("ev.stock", count, { name });
  if (event.kind === "refill") return count > 0 ? tn("ev.refill", count, { name }) : t("ev.refill_none", { name });
  if (event.kind === "action" && "action" in event && event.action) {
    const action = event.action;
    if (action === "pass") return t("ev.pass", { name });
    if (action === "widow") return tn("ev.widow", publicGame(state)?.rules.widow ?? 0, { name });
    if (action.startsWith("bid ")) {
      const n = Number(action.slice(4));
      const pub = publicGame(state);
      return pub && isMoon(pub.rules, n) ? t("ev.moon", { name, n }) : t("ev.bid", { name, n });
    }
    if (action.startsWith("trump ")) return t("ev.trump", { name, suit: suitName(action.slice(6) as SuitLetter) });
    if (action === "discard") return tn("ev.discard", count, { name });
    return t("ev.play", { name, card: shortCard(action) });
  }
  switch (event.kind) {
    case "created":
      return t("ev.created");
    case "joined":
      return t("ev.joined", { name });
    case "seated":
      return t("ev.seated", { name });
    case "bot":
      return t("bot" in event && event.bot ? "ev.bot_on" : "ev.bot_off", { n: seatNumber });
    case "kicked":
      return t("ev.kicked", { n: seatNumber });
    case "left":
      return t("ev.left", { n: seatNumber });
    case "started":
      return t("ev.started", { n: ("match" in event && event.match) || 1 });
    case "deal":
      return t("ev.deal", { n: ("hand" in event && event.hand) || 1 });
    default:
      return event.kind;
  }
}

function PlayLog({ state }: { state: StateMessage }) {
  const app = useApp();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [app.log.length]);
  const lines = app.log.slice(-60);
  const last = lines[lines.length - 1];
  return (
    <section class="panel log-panel">
      <h2>{t("table.log")}</h2>
      <ol class="log" ref={list}>
        {lines.map((entry) => (
          <li key={entry.id}>{logText(entry, state)}</li>
        ))}
      </ol>
      <p class="visually-hidden" aria-live="polite">
        {last ? logText(last, state) : ""}
      </p>
    </section>
  );
}

function LastTrick({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const last = pub.tricks[pub.tricks.length - 1];
  if (!last) return <p class="muted">{t("table.no_last_trick")}</p>;
  const plays = trickPlays(last, pub.players);
  const winning = winningCard(pub, plays, last.winner);
  return (
    <div class="last-trick">
      <ul>
        {plays.map(([seat, card]) => {
          return (
            <li key={card} class={card === winning ? "winner" : ""}>
              <CardFace card={card} size="sm" />
              <span class="name-text">{seatName(state, seat)}</span>
            </li>
          );
        })}
      </ul>
      <p>{t("table.won_by", { name: seatName(state, last.winner) })}</p>
    </div>
  );
}

/** The hint button and the suggestion, on this seat's turn at a table that allows hints. */
function HintBar({ state }: { state: StateMessage }) {
  const app = useApp();
  const hint = currentHint(app.hint, state);
  const maxBid = publicGame(state)?.rules.max_bid ?? Infinity;
  return (
    <div class="hint-bar">
      <button
        type="button"
        class="btn small hint-btn"
        disabled={app.hintPending}
        aria-keyshortcuts="H"
        title={t("hint.title")}
        onClick={() => requestHint()}
      >
        {t("hint.button")}{" "}
        <kbd aria-hidden="true">H</kbd>
      </button>
      <p id={HINT_TEXT_ID} class={`hint-text${hint ? " shown" : ""}`} aria-live="polite">
        {hint ? (
          <>
            <span class="hint-shown" aria-hidden="true">
              {hintText(hint.action, hint.expected, false, maxBid)}
            </span>
            <span class="hint-spoken visually-hidden">{hintText(hint.action, hint.expected, true, maxBid)}</span>
          </>
        ) : app.hintPending ? (
          <span class="muted">{t("hint.thinking")}</span>
        ) : null}
      </p>
    </div>
  );
}

/** The bidder is exchanging with the kitty: it has taken it, and the discard is its turn. */
function exchanging(pub: PublicGame): boolean {
  return (
    pub.rules.kitty > 0 && pub.phase === "discard" && pub.took > 0 && pub.to_act !== null && pub.to_act === pub.bidder
  );
}

/** What the seat to act is doing, for everyone else: taking the widow, trading with the stock... */
function waitingText(state: StateMessage, pub: PublicGame, spectator: boolean): string | null {
  if (pub.to_act === null || !ACTIVE.has(pub.phase)) return null;
  const name = seatName(state, pub.to_act);
  if (pub.phase === "widow") return t("act.widow_waiting", { name });
  if (exchanging(pub)) return t("act.kitty_waiting", { name });
  if (pub.phase === "discard" && pub.rules.refill && (pub.to_act !== pub.bidder || bidderRefills(pub.rules))) {
    return t("act.refill_waiting", { name });
  }
  if (pub.phase === "discard" && pub.rules.take_stock && pub.to_act === pub.bidder) {
    return t("act.stock_waiting", { name });
  }
  return t(spectator ? "table.waiting_for" : "act.waiting", { name });
}

/**
 * A discard being chosen: the legal discards as the server gives them (every card of `required`,
 * and `count - required` of `choosable`), the player's own picks, and the two together.
 */
interface DiscardChoice {
  count: number;
  required: Set<string>;
  choosable: Set<string>;
  /** How many cards the player picks among `choosable`. */
  free: number;
  /** The player's picks (within `choosable`). */
  picked: Set<string>;
  /** The cards chosen so far: `required` and `picked`, in the hand's order. */
  selected: string[];
}

function discardChoice(view: SeatView, info: DiscardInfo, picked: Set<string>): DiscardChoice {
  const required = new Set(info.required);
  const choosable = new Set(info.choosable);
  const free = Math.max(0, info.count - required.size);
  const kept = new Set([...picked].filter((card) => choosable.has(card) && !required.has(card)).slice(0, free));
  const selected = view.hand.filter((card) => required.has(card) || kept.has(card));
  return { count: info.count, required, choosable, free, picked: kept, selected };
}

/** The rules that shape this discard, in words, for the player choosing it. */
function discardNotes(view: SeatView, pub: PublicGame, choice: DiscardChoice): string[] {
  const notes: string[] = [];
  const rules = pub.rules;
  if (rules.trumps_only) {
    // Every non-trump goes (the server's required cards), every trump stays, and the stock deals
    // back up to a hand as far as it goes; what it deals that is not a trump is never played.
    const kept = view.hand.length - choice.count;
    const holding = Math.min(Math.max(kept, rules.hand_size), kept + stockCount(pub));
    notes.push(t("act.nine_discard_note", { n: rules.hand_size }));
    notes.push(holding > kept ? tn("act.refill_draw", holding - kept) : t("act.refill_no_draw"));
    if (holding < rules.hand_size) notes.push(tn("act.nine_short", holding));
    if (kept > rules.hand_size) notes.push(t("act.nine_keep_all", { n: rules.hand_size }));
    notes.push(t("act.nine_dead_note"));
    if (choice.free === 0) notes.push(t("act.required_all"));
    return notes;
  }
  if (rules.refill && view.seat !== pub.bidder) {
    notes.push(t("act.refill_note", { n: rules.hand_size }));
    const draw = choice.count - Math.max(0, view.hand.length - rules.hand_size);
    notes.push(draw > 0 ? tn("act.refill_draw", draw) : t("act.refill_no_draw"));
    const shortOfPlain = [...choice.choosable].some((card) => !isTrump(rules, pub.trump, card));
    if (choice.free > 0 && shortOfPlain) notes.push(tn("act.stock_short", choice.free));
  } else if (rules.take_stock && view.seat === pub.bidder) {
    notes.push(t("act.stock_taken", { n: rules.hand_size }));
  }
  // Where the others trade with the stock, the order of the trumps matters to them only when they
  // hold more than a hand of trumps (then some trump is among the cards to discard or to pick).
  const tradesTrumps =
    view.seat === pub.bidder ||
    !rules.refill ||
    [...choice.required, ...choice.choosable].some((card) => isTrump(rules, pub.trump, card));
  if (rules.keep_scoring_trumps && tradesTrumps) notes.push(t("act.keep_scoring_note"));
  else if (rules.keep_trumps && tradesTrumps) notes.push(t("act.keep_trumps_note"));
  if (choice.required.size > 0) {
    notes.push(
      choice.free > 0 ? tn("act.required_some", choice.required.size, { free: choice.free }) : t("act.required_all"),
    );
  }
  return notes;
}

function ActionPanel({
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
        {waiting && <span>{waiting}</span>}
      </div>
    );
  }
  const myTurn = canAct(view);
  if (pub.phase === "hand_over") {
    return <div class="action-panel">{t("act.hand_over")}</div>;
  }
  if (!myTurn) {
    const out = outOfHand(pub, view.seat, view.hand).has(view.seat);
    return (
      <div class="action-panel" aria-live="polite">
        {out && <p class="out-note">{t("act.out_of_hand")}</p>}
        {waitingText(state, pub, false)}
      </div>
    );
  }
  const busy = app.pending;
  const hintsOn = !!state.table.settings.hints;
  const hinted = currentHint(app.hint, state)?.action ?? null;
  /** The class and description of a button the suggestion points at. */
  const mark = (action: string) =>
    hinted === action
      ? { suggested: " suggested", describedBy: HINT_TEXT_ID }
      : { suggested: "", describedBy: undefined };
  const hintBar = hintsOn ? <HintBar state={state} /> : null;
  const pickedNote = pickedMarked ? (
    <p class="muted kitty-note">{t(pub.rules.kitty > 0 ? "act.kitty_marked" : "act.picked_marked")}</p>
  ) : null;
  if (pub.phase === "widow") {
    return (
      <div class="action-panel mine" role="group" aria-labelledby="widow-title">
        <h2 id="widow-title">{t("act.widow_title")}</h2>
        <p class="muted">{tn("act.widow_note", pub.rules.widow)}</p>
        <button
          type="button"
          class={`btn widow-btn${mark("widow").suggested}`}
          disabled={busy}
          aria-describedby={mark("widow").describedBy}
          onClick={() => act("widow")}
        >
          {t("act.widow_button")}
        </button>
        {hintBar}
      </div>
    );
  }
  if (pub.phase === "auction") {
    const bids = view.legal.filter((a) => a.startsWith("bid ")).map((a) => Number(a.slice(4)));
    const canPass = view.legal.includes("pass");
    return (
      <div class="action-panel mine" role="group" aria-labelledby="bid-title">
        <h2 id="bid-title">{t("act.bid_title")}</h2>
        <p class="muted">
          {pub.bidder === null
            ? t("act.no_bid_yet")
            : isMoon(pub.rules, pub.bid)
              ? t("act.highest_moon", { n: pub.bid, name: seatName(state, pub.bidder) })
              : t("act.highest", { n: pub.bid, name: seatName(state, pub.bidder) })}
          {!canPass && <> {t("act.dealer_must_bid")}</>}
        </p>
        <div class="bid-buttons">
          {canPass && (
            <button
              type="button"
              class={`btn secondary pass-btn${mark("pass").suggested}`}
              disabled={busy}
              aria-describedby={mark("pass").describedBy}
              onClick={() => act("pass")}
            >
              {t("act.pass")}
            </button>
          )}
          {bids.map((n) => {
            const moon = isMoon(pub.rules, n);
            return (
              <button
                key={n}
                type="button"
                class={`btn bid-btn${moon ? " moon-btn" : ""}${mark(`bid ${n}`).suggested}`}
                disabled={busy}
                aria-label={moon ? t("act.moon_aria", { n }) : t("act.bid_n", { n })}
                aria-describedby={mark(`bid ${n}`).describedBy}
                title={moon ? t("act.moon_aria", { n }) : undefined}
                onClick={() => act(`bid ${n}`)}
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
        {hintBar}
      </div>
    );
  }
  if (pub.phase === "trump") {
    const suits = SUITS.filter((s) => view.legal.includes(`trump ${s}`));
    return (
      <div class="action-panel mine" role="group" aria-labelledby="trump-title">
        <h2 id="trump-title">{t("act.trump_title")}</h2>
        {pickedNote}
        <div class="trump-buttons">
          {suits.map((suit) => (
            <button
              key={suit}
              type="button"
              class={`btn suit-btn suit-${suit}${mark(`trump ${suit}`).suggested}`}
              disabled={busy}
              aria-describedby={mark(`trump ${suit}`).describedBy}
              onClick={() => act(`trump ${suit}`)}
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
    const hintCards = hinted?.startsWith("discard ") ? hintedCards({ version: 0, action: hinted, expected: null }) : null;
    const notes = discardNotes(view, pub, choice);
    return (
      <div class="action-panel mine discard-panel" role="group" aria-labelledby="discard-title">
        <h2 id="discard-title">
          {exchanging(pub)
            ? tn("act.kitty_title", choice.count)
            : pub.rules.trumps_only
              ? tn("act.nine_discard_title", choice.count)
              : tn("act.discard_title", choice.count)}
        </h2>
        {pickedNote}
        {notes.length > 0 && (
          <ul class="discard-notes">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
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
        {hintBar}
      </div>
    );
  }
  const firstLeadSetsTrump = !pub.rules.trump_named && pub.trump === null && pub.trick.length === 0;
  // Only trumps are played: a seat holding more than a hand plays its extra trumps to the first
  // trick, one after another, until it holds one card fewer than a hand (it stays the seat to act).
  const trumpsOnly = !!pub.rules.trumps_only;
  const firstTrick = trumpsOnly && pub.tricks.length === 0;
  const playedHere = pub.trick.some(([seat]) => seat === view.seat);
  const extras =
    firstTrick && (view.hand.length > pub.rules.hand_size || playedHere) ? view.hand.length - (pub.rules.hand_size - 1) : 0;
  const dead = trumpsOnly && view.hand.some((card) => !isTrump(pub.rules, pub.trump, card));
  return (
    <div class="action-panel mine">
      <h2>{t("act.play_title")}</h2>
      {firstLeadSetsTrump && <p class="muted">{t("act.lead_sets_trump")}</p>}
      {extras > 0 && <p class="extra-note">{tn("act.extra_trumps", extras)}</p>}
      {dead && <p class="muted">{t("act.only_trumps")}</p>}
      {hintBar}
    </div>
  );
}

function MatchEnd({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const app = useApp();
  const you = state.table.you;
  const winner = pub.winner;
  const mySide = you === null ? null : pub.seat_side[you];
  const teams = pub.sides.some((side) => side.length > 1);
  let headline = winner === null ? t("end.title") : t("end.winner", { names: sideNames(state, pub.sides[winner]) });
  if (winner !== null && mySide === winner) headline = teams ? t("end.your_side_wins") : t("end.you_win");
  const isHost = you !== null && state.table.host === you;
  const [showLast, setShowLast] = useState(false);
  // How the match ended, when an option ended it: a moon made or set, or a side sunk to elimination.
  const lastIndex = pub.results.length - 1;
  const last = pub.results[lastIndex];
  const out = pub.rules.elimination < 0 ? pub.sides.filter((_, side) => pub.scores[side] <= pub.rules.elimination) : [];
  let reason: string | null = null;
  if (last && last.bidder !== null && isMoon(pub.rules, last.bid)) reason = verdictText(state, pub, lastIndex);
  else if (out.length > 0) {
    reason = out
      .map((seats) => t("end.eliminated", { names: sideNames(state, seats), n: scoreText(pub.rules.elimination) }))
      .join(" ");
  }
  const record = `/tables/${encodeURIComponent(state.table.code)}/matches/${state.table.match_number}/record.json`;
  return (
    <section class="panel match-end" aria-labelledby="end-title">
      <h2 id="end-title">{t("end.title")}</h2>
      <p class="headline" style={winner === null ? undefined : { "--side": sideColor(winner) }}>
        {winner !== null && (
          <span class="trophy" aria-hidden="true">
            ★{" "}
          </span>
        )}
        {headline}
      </p>
      {winner !== null && mySide === winner && (
        <p class="muted">{t("end.winner", { names: sideNames(state, pub.sides[winner]) })}</p>
      )}
      {reason && <p class="end-reason">{reason}</p>}
      <ScoreChart state={state} pub={pub} />
      <div class="end-actions">
        {isHost ? (
          <button type="button" class="btn" disabled={app.pending} onClick={() => playAgain()}>
            {t("end.play_again")}
          </button>
        ) : (
          <p class="muted">{t("end.waiting_host")}</p>
        )}
        <a class="btn secondary" href={record} download>
          {t("end.download")}
        </a>
        {pub.results.length > 0 && (
          <button type="button" class="btn secondary" aria-expanded={showLast} onClick={() => setShowLast(!showLast)}>
            {t("table.last_hand")}
          </button>
        )}
        <a class="btn secondary" href="/">
          {t("end.new_table")}
        </a>
      </div>
      {showLast && pub.results.length > 0 && (
        <div class="end-last-hand">
          <h3>{t("sum.title", { n: pub.results[pub.results.length - 1].number })}</h3>
          <HandSummary state={state} pub={pub} index={pub.results.length - 1} />
        </div>
      )}
    </section>
  );
}

export function GameScreen({ state }: { state: StateMessage }) {
  const app = useApp();
  const pub = publicGame(state) as PublicGame;
  const view = seatView(state);
  const bottom = view ? view.seat : 0;
  const myTurn = !!view && canAct(view);

  // The summary of a hand opens when the hand ends and closes at the first card of the next one.
  const resultsSeen = useRef(pub.phase === "hand_over" ? pub.results.length - 1 : pub.results.length);
  const [summary, setSummary] = useState<{ index: number; auto: boolean } | null>(
    pub.phase === "hand_over" && pub.results.length > 0 ? { index: pub.results.length - 1, auto: true } : null,
  );
  useEffect(() => {
    if (pub.results.length > resultsSeen.current) {
      resultsSeen.current = pub.results.length;
      setSummary({ index: pub.results.length - 1, auto: true });
    } else if (pub.results.length < resultsSeen.current) {
      resultsSeen.current = pub.results.length; // a new match
      setSummary(null);
    }
  }, [pub.results.length]);
  useEffect(() => {
    if (summary?.auto && pub.phase === "play") setSummary(null);
  }, [pub.phase]);
  useEffect(() => {
    if (!summary) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setSummary(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [summary]);

  // On this seat's turn to discard, what the rules allow (from the view; listed actions from an older
  // server mean any cards), and the cards picked so far, cleared whenever the choice changes.
  let discardInfo: DiscardInfo | null = null;
  if (view && myTurn && pub.phase === "discard") {
    discardInfo = view.discard ?? {
      count: Math.max(0, view.hand.length - pub.rules.hand_size),
      required: [],
      choosable: view.hand,
    };
  }
  const discardKey = discardInfo
    ? `${pub.hand_number}|${discardInfo.count}|${discardInfo.required.join(" ")}|${discardInfo.choosable.join(" ")}`
    : "";
  const [picked, setPicked] = useState<Set<string>>(new Set());
  useEffect(() => setPicked(new Set()), [pub.phase, pub.hand_number, discardKey]);
  const choice = view && discardInfo ? discardChoice(view, discardInfo, picked) : null;

  // The cards the bidder picked up this hand (the kitty, the widow, the stock): its hand now less the
  // hand it was dealt, as seen during the auction (so unknown after a reload later in the hand). They
  // are marked while it names trump and discards.
  const dealt = useRef<{ hand: number; cards: Set<string> } | null>(null);
  const handKey = view ? view.hand.join(" ") : "";
  useEffect(() => {
    if (view && pub.phase === "auction") dealt.current = { hand: pub.hand_number, cards: new Set(view.hand) };
  }, [handKey, pub.phase, pub.hand_number]);
  let fromKitty: Set<string> | undefined;
  const dealtNow = dealt.current;
  if (
    view &&
    myTurn &&
    view.seat === pub.bidder &&
    pub.took > 0 &&
    (pub.phase === "discard" || pub.phase === "trump") &&
    dealtNow?.hand === pub.hand_number
  ) {
    const pickedUp = view.hand.filter((card) => !dealtNow.cards.has(card));
    if (pickedUp.length === pub.took) fromKitty = new Set(pickedUp);
  }

  const [showLastTrick, setShowLastTrick] = useState(false);

  // H asks for a hint on this seat's turn, unless the key is typed into a field or a dialog is open.
  // One listener for the table's lifetime, reading the state when the key is pressed: a listener
  // added once the turn is drawn would miss a key pressed before the effect ran.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "h" && event.key !== "H") return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      const now = getApp();
      const seat = now.state ? seatView(now.state) : null;
      if (now.howTo || !now.state?.table.settings.hints || !seat || !canAct(seat)) return;
      event.preventDefault();
      void requestHint();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const suggested = myTurn ? hintedCards(currentHint(app.hint, state)) : new Set<string>();

  if (state.table.status === "finished" || pub.phase === "match_over") {
    return (
      <div class="game finished">
        <MatchEnd state={state} pub={pub} />
      </div>
    );
  }

  // Where only trumps are played: the seats out of the hand, and the cards of this hand that are dead.
  const out = outOfHand(pub, view ? view.seat : null, view ? view.hand : null);
  const dead =
    view && pub.rules.trumps_only && pub.phase === "play"
      ? new Set(view.hand.filter((card) => !isTrump(pub.rules, pub.trump, card)))
      : undefined;

  let playable = new Set<string>();
  if (view && myTurn) {
    if (pub.phase === "play") playable = new Set(view.legal);
    else if (choice && choice.free > 0) playable = choice.choosable;
  }

  const onCard = (card: string) => {
    if (choice) {
      if (choice.required.has(card) || !choice.choosable.has(card)) return;
      const next = new Set(choice.picked);
      if (next.has(card)) next.delete(card);
      else if (next.size < choice.free) next.add(card);
      setPicked(next);
    } else if (pub.phase === "play") {
      void act(card);
    }
  };

  return (
    <div class={`game${myTurn ? " my-turn" : ""}`}>
      <Scoreboard state={state} pub={pub} />
      <section class={`felt${pub.players >= 6 ? " many" : ""}`} aria-label={t("table.hand_n", { n: pub.hand_number })}>
        {pub.trump && (
          <div class={`felt-trump suit-${pub.trump}`} aria-hidden="true" title={t("table.trump")}>
            {SUIT_SYMBOL[pub.trump]}
          </div>
        )}
        {Array.from({ length: pub.players }, (_, seat) => (
          <SeatPlate
            key={seat}
            state={state}
            pub={pub}
            seat={seat}
            angle={angleOf(seat, bottom, pub.players)}
            out={out.has(seat)}
          />
        ))}
        <TrickArea state={state} pub={pub} bottom={bottom} />
        {myTurn && <div class="turn-banner">{t("table.your_turn")}</div>}
        {summary && pub.results[summary.index] && (
          <div class="summary-overlay" role="dialog" aria-labelledby="summary-title">
            <div class="summary-head">
              <h2 id="summary-title">{t("sum.title", { n: pub.results[summary.index].number })}</h2>
              <button type="button" class="btn small secondary" onClick={() => setSummary(null)}>
                {t("menu.close")}
              </button>
            </div>
            <HandSummary state={state} pub={pub} index={summary.index} />
          </div>
        )}
      </section>
      <section class="bottom" aria-labelledby="hand-title">
        <h2 id="hand-title" class="visually-hidden">
          {t("table.your_hand")}
        </h2>
        <ActionPanel
          state={state}
          pub={pub}
          choice={choice}
          onPick={setPicked}
          pickedMarked={!!fromKitty && fromKitty.size > 0}
        />
        {view && (
          <Hand
            cards={view.hand}
            playable={playable}
            myTurn={myTurn && pub.phase === "play"}
            selected={choice ? new Set(choice.selected) : undefined}
            locked={choice ? choice.required : undefined}
            keepDimmed={!!choice && choice.choosable.size + choice.required.size < view.hand.length}
            dead={dead}
            fromKitty={fromKitty}
            fromLabel={pub.rules.kitty > 0 ? "kitty" : "picked"}
            suggested={suggested}
            describedBy={HINT_TEXT_ID}
            onActivate={onCard}
            disabled={app.pending}
          />
        )}
      </section>
      <aside class="side">
        <section class="panel">
          <div class="tool-row">
            <button
              type="button"
              class="btn small secondary"
              aria-expanded={showLastTrick}
              onClick={() => setShowLastTrick(!showLastTrick)}
            >
              {t("table.last_trick")}
            </button>
            {pub.results.length > 0 && (
              <button
                type="button"
                class="btn small secondary"
                onClick={() => setSummary({ index: pub.results.length - 1, auto: false })}
              >
                {t("table.last_hand")}
              </button>
            )}
            <button
              type="button"
              class="btn small secondary"
              onClick={() => update({ howTo: state.table.settings.preset })}
            >
              {t("menu.how_to_play")}
            </button>
          </div>
          {showLastTrick && <LastTrick state={state} pub={pub} />}
        </section>
        {view && view.discards.length > 0 && (
          <section class="panel">
            <h2>{t("table.your_discards")}</h2>
            <CardRow cards={view.discards} size="xs" />
          </section>
        )}
        <PlayLog state={state} />
      </aside>
      {myTurn && (
        <p class="visually-hidden" aria-live="assertive">
          {t("a11y.your_turn")}
        </p>
      )}
    </div>
  );
}

