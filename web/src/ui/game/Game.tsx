import { useEffect, useRef, useState } from "preact/hooks";
import { SUIT_SYMBOL } from "../../cards";
import { t } from "../../i18n";
import { act, requestHint } from "../../net";
import { getApp, update, useApp } from "../../store";
import { canAct, publicGame, seatView, type PublicGame, type StateMessage } from "../../types";
import { CardRow } from "../Card";
import { Hand } from "../Hand";
import { HandSummary } from "../Summary";
import { ChatPanel } from "../Chat";
import { ActionPanel } from "./ActionPanel";
import { discardChoice, discardKey, pickedUpCards, togglePick } from "./discard";
import { currentHint, HINT_TEXT_ID, hintedCards } from "./hint";
import { angleOf } from "./layout";
import { MatchEnd } from "./MatchEnd";
import { PlayLog } from "./PlayLog";
import { ReactionBar } from "./Reactions";
import { Scoreboard } from "./Scoreboard";
import { SeatPlate } from "./SeatPlate";
import { deadCards } from "./table";
import { LastTrick, TrickArea } from "./Trick";

/** The table during a match: the scores, the felt with the seats and the trick, the hand, the side panel. */
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

  // On this seat's turn to discard, what the rules allow (the view says it), and the cards picked so
  // far, cleared whenever the choice changes.
  const discardInfo = view && myTurn && pub.phase === "discard" ? view.discard : null;
  const pickedKey = discardKey(pub.hand_number, discardInfo);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  useEffect(() => setPicked(new Set()), [pub.phase, pub.hand_number, pickedKey]);
  const choice = view && discardInfo ? discardChoice(view.hand, discardInfo, picked) : null;

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
    fromKitty = pickedUpCards(dealtNow.cards, view.hand, pub.took);
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
  const suggested = myTurn ? hintedCards(currentHint(app.hint, state)?.action ?? null) : new Set<string>();

  if (state.table.status === "finished" || pub.phase === "match_over") {
    return (
      <div class="game finished">
        <MatchEnd state={state} pub={pub} />
        <ChatPanel state={state} />
      </div>
    );
  }

  // Where only trumps are played: the seats out of the hand, and the cards of this hand that are dead.
  const out = new Set(view ? view.out_of_hand : pub.out_of_hand);
  const dead = deadCards(view);

  let playable = new Set<string>();
  if (view && myTurn) {
    if (pub.phase === "play") playable = new Set(view.legal);
    else if (choice && choice.free > 0) playable = choice.choosable;
  }

  const onCard = (card: string) => {
    if (choice) {
      const next = togglePick(choice, card);
      if (next) setPicked(next);
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
            fromLabel={pub.bidder_took.kitty > 0 ? "kitty" : "picked"}
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
        {view && <ReactionBar />}
        <PlayLog state={state} />
        <ChatPanel state={state} />
      </aside>
      {myTurn && (
        <p class="visually-hidden" aria-live="assertive">
          {t("a11y.your_turn")}
        </p>
      )}
    </div>
  );
}

