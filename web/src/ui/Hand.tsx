import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardName, t } from "../i18n";
import { CardFace } from "./Card";

/** The least part of a card's width left in sight when the cards overlap, before a second row. */
const MIN_SHOWN = 0.4;
const MAX_ROWS = 3;

interface HandProps {
  cards: string[];
  /** Cards that may be clicked now: the legal plays, or every card while discarding. */
  playable: Set<string>;
  /** It is this seat's turn: unplayable cards are dimmed. */
  myTurn: boolean;
  /** While discarding: the cards chosen (those in `locked` included). */
  selected?: Set<string>;
  /** While discarding: cards that must be discarded, chosen already and not to be unchosen. */
  locked?: Set<string>;
  /** While discarding under rules that keep some cards: those not chosen and not choosable are dimmed. */
  keepDimmed?: boolean;
  /** Cards that can never be played this hand (non-trumps where only trumps are played): dimmed. */
  dead?: Set<string>;
  /** Cards just taken from the kitty (or the widow and the stock): tinted, and named so. */
  fromKitty?: Set<string>;
  /** How those cards are named: from the kitty, or picked up (the widow, the stock). */
  fromLabel?: "kitty" | "picked";
  /** Cards a hint suggests: marked, and described by the element with the id `describedBy`. */
  suggested?: Set<string>;
  describedBy?: string;
  onActivate: (card: string) => void;
  disabled?: boolean;
}

/**
 * The player's hand as a keyboard-friendly row of buttons: Tab reaches the hand, the arrow keys
 * (and Home/End) move between cards, Enter or Space plays (or selects, when discarding) the card.
 */
export function Hand({
  cards,
  playable,
  myTurn,
  selected,
  locked,
  keepDimmed,
  dead,
  fromKitty,
  fromLabel = "kitty",
  suggested,
  describedBy,
  onActivate,
  disabled,
}: HandProps) {
  const row = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState(0);
  // The left margin of every card but the first of a row (negative when the cards overlap).
  const [step, setStep] = useState<number | null>(null);
  // How many rows the cards are laid out in: more than one when a single row would hide their
  // corners (a big discard on a narrow screen).
  const [rows, setRows] = useState(1);

  // Overlap the cards just enough to fit the row's width, in as few rows as keep every corner readable.
  useLayoutEffect(() => {
    const element = row.current;
    if (!element) return undefined;
    const measure = () => {
      const first = element.querySelector<HTMLElement>(".hand-card");
      if (!first || cards.length < 2) {
        setStep(null);
        setRows(1);
        return;
      }
      const width = element.clientWidth - 8;
      const cardWidth = first.offsetWidth;
      let count = 1;
      let fit = (width - cardWidth) / (cards.length - 1);
      while (count < MAX_ROWS && fit < cardWidth * MIN_SHOWN) {
        count += 1;
        const perRow = Math.ceil(cards.length / count);
        fit = perRow > 1 ? (width - cardWidth) / (perRow - 1) : cardWidth;
      }
      setRows(count);
      setStep(Math.min(cardWidth + 6, fit) - cardWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [cards.length]);

  useEffect(() => {
    if (focus >= cards.length) setFocus(Math.max(0, cards.length - 1));
  }, [cards.length, focus]);

  // When it becomes our turn, the focus may start on the first playable card.
  const firstPlayable = cards.findIndex((card) => playable.has(card));

  const move = (index: number) => {
    const next = Math.max(0, Math.min(cards.length - 1, index));
    setFocus(next);
    row.current?.querySelectorAll<HTMLElement>(".hand-card")[next]?.focus();
  };

  const onKey = (event: KeyboardEvent, index: number) => {
    switch (event.key) {
      case "ArrowRight":
      case "ArrowDown":
        event.preventDefault();
        move(index + 1);
        break;
      case "ArrowLeft":
      case "ArrowUp":
        event.preventDefault();
        move(index - 1);
        break;
      case "Home":
        event.preventDefault();
        move(0);
        break;
      case "End":
        event.preventDefault();
        move(cards.length - 1);
        break;
      default:
    }
  };

  const tabIndexAt = focus < cards.length ? focus : firstPlayable >= 0 ? firstPlayable : 0;

  const perRow = Math.ceil(cards.length / rows);
  const buttons = cards.map((card, index) => {
    const canUse = playable.has(card) && !disabled;
    const isSelected = selected?.has(card) ?? false;
    const isSuggested = suggested?.has(card) ?? false;
    const isFromKitty = fromKitty?.has(card) ?? false;
    const isLocked = locked?.has(card) ?? false;
    const kept = !!keepDimmed && !isSelected && !playable.has(card);
    const isDead = dead?.has(card) ?? false;
    const dimmed = (myTurn && !playable.has(card)) || kept || isDead;
    let label = cardName(card);
    if (isFromKitty) label = t(fromLabel === "kitty" ? "card.from_kitty" : "card.picked_up", { card: label });
    if (isLocked) label = t("card.must_discard", { card: label });
    else if (isSelected) label = t("card.selected", { card: label });
    else if (kept) label = t("card.must_keep", { card: label });
    else if (isDead) label = t("card.dead", { card: label });
    else if (myTurn && !playable.has(card)) label = t("card.not_playable", { card: label });
    const margin = index % perRow > 0 && step !== null ? { marginLeft: `${step}px` } : undefined;
    return (
      <button
        key={card}
        type="button"
        class={`hand-card${canUse ? " playable" : ""}${dimmed ? " dimmed" : ""}${isDead ? " dead" : ""}${isSelected ? " selected" : ""}${isLocked ? " locked" : ""}${isSuggested ? " suggested" : ""}${isFromKitty ? " from-kitty" : ""}`}
        style={margin}
        tabIndex={index === tabIndexAt ? 0 : -1}
        aria-label={label}
        aria-disabled={!canUse}
        aria-pressed={selected ? isSelected : undefined}
        aria-describedby={isSuggested ? describedBy : undefined}
        onFocus={() => setFocus(index)}
        onKeyDown={(event) => onKey(event, index)}
        onClick={() => {
          if (canUse) onActivate(card);
        }}
      >
        <CardFace card={card} label="" />
        {isFromKitty && <span class="kitty-mark" aria-hidden="true" />}
      </button>
    );
  });

  return (
    <div
      class={`hand${rows > 1 ? " rows" : ""}`}
      ref={row}
      role="toolbar"
      aria-label={t("a11y.hand")}
      aria-orientation="horizontal"
    >
      {rows > 1
        ? Array.from({ length: rows }, (_, r) => (
            <div key={r} class="hand-row">
              {buttons.slice(r * perRow, (r + 1) * perRow)}
            </div>
          ))
        : buttons}
    </div>
  );
}
