import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { cardName, t } from "../i18n";
import { CardFace } from "./Card";

interface HandProps {
  cards: string[];
  /** Cards that may be clicked now: the legal plays, or every card while discarding. */
  playable: Set<string>;
  /** It is this seat's turn: unplayable cards are dimmed. */
  myTurn: boolean;
  selected?: Set<string>;
  /** Cards just taken from the kitty: tinted, and named so. */
  fromKitty?: Set<string>;
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
export function Hand({ cards, playable, myTurn, selected, fromKitty, suggested, describedBy, onActivate, disabled }: HandProps) {
  const row = useRef<HTMLDivElement>(null);
  const [focus, setFocus] = useState(0);
  // The left margin of every card but the first (negative when the cards overlap).
  const [step, setStep] = useState<number | null>(null);

  // Overlap the cards just enough to fit the row's width.
  useLayoutEffect(() => {
    const element = row.current;
    if (!element) return undefined;
    const measure = () => {
      const first = element.querySelector<HTMLElement>(".hand-card");
      if (!first || cards.length < 2) {
        setStep(null);
        return;
      }
      const width = element.clientWidth - 8;
      const cardWidth = first.offsetWidth;
      const fit = (width - cardWidth) / (cards.length - 1);
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

  return (
    <div class="hand" ref={row} role="toolbar" aria-label={t("a11y.hand")} aria-orientation="horizontal">
      {cards.map((card, index) => {
        const canUse = playable.has(card) && !disabled;
        const isSelected = selected?.has(card) ?? false;
        const isSuggested = suggested?.has(card) ?? false;
        const isFromKitty = fromKitty?.has(card) ?? false;
        let label = cardName(card);
        if (isFromKitty) label = t("card.from_kitty", { card: label });
        if (isSelected) label = t("card.selected", { card: label });
        else if (myTurn && !playable.has(card)) label = t("card.not_playable", { card: label });
        const margin = index > 0 && step !== null ? { marginLeft: `${step}px` } : undefined;
        return (
          <button
            key={card}
            type="button"
            class={`hand-card${canUse ? " playable" : ""}${myTurn && !playable.has(card) ? " dimmed" : ""}${isSelected ? " selected" : ""}${isSuggested ? " suggested" : ""}${isFromKitty ? " from-kitty" : ""}`}
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
      })}
    </div>
  );
}
