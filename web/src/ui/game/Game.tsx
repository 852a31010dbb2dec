import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { SUIT_SYMBOL } from "../../cards";
import { t } from "../../i18n";
import { actionCards } from "../../i18n/actions";
import { act, requestHint } from "../../net";
import { getApp, update, useApp } from "../../store";
import { canAct, publicGame, seatView, type PublicGame, type StateMessage } from "../../types";
import { CardRow } from "../Card";
import { Hand } from "../Hand";
import { verdictText } from "../summary";
import { ChatPanel } from "../Chat";
import { HandSummary, MatchEnd } from "../screens";
import { ActionPanel } from "./ActionPanel";
import { discardChoice, discardKey, pickedUpCards, togglePick, useDiscardPicks } from "./discard";
import { currentHint, HINT_TEXT_ID, hintedCards } from "./hint";
import { useKeptFocus } from "./keepFocus";
import { angleOf } from "./layout";
import { PlayLog } from "./PlayLog";
import { ReactionBar } from "./Reactions";
import { Scoreboard } from "./Scoreboard";
import { SeatPlate } from "./SeatPlate";
import { tableScreen, useScreenTop } from "./screenTop";
import { bidChip, contractText, deadCards } from "./table";
import { LastTrick, TrickArea } from "./Trick";

const SUMMARY_ID = "hand-summary";
// What in the summary can hold the keyboard's focus.
const FOCUSABLE = "button, a[href], select, input, [tabindex]";
// Where the table stacks in one column (styles/screens.css): the side column comes below the hand.
const NARROW = "(max-width: 980px)";

/**
 * The table's parts the Practice page draws a position with. It takes them from this chunk when it
 * loads (practice/tableParts.ts) rather than importing them, which would split them into a chunk of
 * their own: one more file, and more gzipped script, for the table's first page.
 */
export const tableParts = { Hand, TrickArea, angleOf, bidChip, contractText };

/** Whether the table is laid out in one column, followed as the window is resized. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(NARROW).matches);
  useEffect(() => {
    const query = window.matchMedia(NARROW);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return narrow;
}

/** The table during a match: the scores, the felt with the seats and the trick, the hand, the side panel. */
export function GameScreen({ state }: { state: StateMessage }) {
  const app = useApp();
  const pub = publicGame(state) as PublicGame;
  const view = seatView(state);
  const bottom = view ? view.seat : 0;
  const myTurn = !!view && canAct(view);

  // The summary of a hand opens when the hand ends and closes at the first card of the next one,
  // unless the player asked for its review (it is then "pinned" until closed). It
  // stands beside the felt (at the top of the side column), never over the seats or the action panel,
  // so the next auction can be followed while it is still open. In one column, the side comes after
  // the hand: between two hands, with no card held, the summary stands just under the felt instead.
  const resultsSeen = useRef(pub.phase === "hand_over" ? pub.results.length - 1 : pub.results.length);
  const [summary, setSummary] = useState<{ index: number; auto: boolean; pinned?: boolean } | null>(
    pub.phase === "hand_over" && pub.results.length > 0 ? { index: pub.results.length - 1, auto: true } : null,
  );
  const side = useRef<HTMLElement>(null);
  const summaryTitle = useRef<HTMLHeadingElement>(null);
  const lastHandButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pub.results.length > resultsSeen.current) {
      resultsSeen.current = pub.results.length;
      setSummary({ index: pub.results.length - 1, auto: true });
      if (side.current) side.current.scrollTop = 0; // where the side column scrolls, show it the summary
    } else if (pub.results.length < resultsSeen.current) {
      resultsSeen.current = pub.results.length; // a new match
      setSummary(null);
    }
  }, [pub.results.length]);
  const closeSummary = () => {
    // Focus that was in the summary goes back to the button that opens it, not to the page's top.
    const inside = !!summaryTitle.current?.closest(".summary-overlay")?.contains(document.activeElement);
    setSummary(null);
    if (inside) lastHandButton.current?.focus();
  };
  const openSummary = () => {
    setSummary({ index: pub.results.length - 1, auto: false });
  };
  useEffect(() => {
    if (summary && !summary.auto) summaryTitle.current?.focus();
  }, [summary?.auto, summary?.index]);
  const narrow = useNarrow();
  const summaryUnderFelt = narrow && pub.phase === "hand_over";
  // Focus in the summary follows it when it moves, to the same control, without scrolling the page to
  // it. Where the focus is must be read before the move, which takes it away with the element it was
  // on, and put back before any key can land on the page in between.
  const summaryPlace = useRef(summaryUnderFelt);
  const refocusSummary = useRef<number | null>(null);
  if (summaryPlace.current !== summaryUnderFelt) {
    summaryPlace.current = summaryUnderFelt;
    const overlay = document.activeElement?.closest(".summary-overlay");
    refocusSummary.current = overlay
      ? [...overlay.querySelectorAll(FOCUSABLE)].indexOf(document.activeElement as Element)
      : null;
  }
  useLayoutEffect(() => {
    const place = refocusSummary.current;
    if (place === null) return;
    refocusSummary.current = null;
    const overlay = summaryTitle.current?.closest(".summary-overlay");
    const control = place >= 0 ? overlay?.querySelectorAll<HTMLElement>(FOCUSABLE)[place] : undefined;
    (control ?? summaryTitle.current)?.focus({ preventScroll: true });
  }, [summaryUnderFelt]);
  useEffect(() => {
    if (summary?.auto && !summary.pinned && pub.phase === "play") closeSummary();
  }, [pub.phase]);
  useEffect(() => {
    if (!summary) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !getApp().howTo) closeSummary();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [summary]);

  // On this seat's turn to discard, what the rules allow (the view says it), and the cards picked so
  // far, forgotten whenever the choice changes.
  const discardInfo = view && myTurn && pub.phase === "discard" ? view.discard : null;
  const pickedKey = discardKey(pub.hand_number, discardInfo);
  const [picked, setPicked] = useDiscardPicks(pickedKey);
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
  // The focus never falls to the page's body after an action; a turn of bids or suits brings it to
  // them once they can be used (not while a request is waiting).
  useKeptFocus(myTurn && !app.pending ? `${pub.hand_number}/${pub.phase}` : null);

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
  useScreenTop(`${state.table.code}/${tableScreen(state, pub)}`);

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
    if (pub.phase === "play") playable = new Set(view.legal.flatMap((action) => actionCards(action)));
    else if (choice && choice.free > 0) playable = choice.choosable;
  }

  const summaryPanel = summary && pub.results[summary.index] && (
    <section
      id={SUMMARY_ID}
      class="summary-overlay"
      role="dialog"
      aria-labelledby="summary-title"
    >
      <div class="summary-head">
        <h2 id="summary-title" ref={summaryTitle} tabIndex={-1}>
          {t("sum.title", { n: pub.results[summary.index].number })}
        </h2>
        <button type="button" class="btn small secondary" onClick={closeSummary}>
          {t("menu.close")}
        </button>
      </div>
      <HandSummary
        state={state}
        pub={pub}
        index={summary.index}
        onReview={() => setSummary((shown) => shown && { ...shown, pinned: true })}
      />
    </section>
  );

  const onCard = (card: string) => {
    if (choice) {
      const next = togglePick(choice, card);
      if (next) setPicked(next);
    } else if (pub.phase === "play") {
      void act(card);
    }
  };

  return (
    <div class={`game${myTurn ? " my-turn" : ""}`} data-phase={pub.phase}>
      <h1 class="visually-hidden" tabIndex={-1}>
        {t("table.hand_n", { n: pub.hand_number })}
      </h1>
      <Scoreboard state={state} pub={pub} />
      {/* The felt and the hand together fill the window, on a phone too: every decision in sight. */}
      <div class="play-area">
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
          {summaryUnderFelt && summaryPanel}
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
      </div>
      <aside class="side" ref={side}>
        {!summaryUnderFelt && summaryPanel}
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
                ref={lastHandButton}
                type="button"
                class="btn small secondary"
                aria-expanded={!!summary}
                aria-controls={summary ? SUMMARY_ID : undefined}
                onClick={() => (summary ? closeSummary() : openSummary())}
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
      <p class="visually-hidden" aria-live="polite">
        {summary?.auto && pub.results[summary.index]
          ? `${t("sum.title", { n: pub.results[summary.index].number })}. ${verdictText(state, pub, summary.index)}`
          : ""}
      </p>
      {myTurn && (
        <p class="visually-hidden" aria-live="assertive">
          {t("a11y.your_turn")}
        </p>
      )}
    </div>
  );
}

