import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { t } from "../i18n";
import { CardFace } from "./Card";
import { cardLook, fitHand, type HandMarks } from "./hand";

interface HandProps extends HandMarks {
  cards: string[];
  /** The id of the element describing the suggested cards. */
  describedBy?: string;
  onActivate: (card: string) => void;
}

/**
 * The player's hand as a keyboard-friendly row of buttons: Tab reaches the hand, the arrow keys
 * (and Home/End) move between cards, Enter or Space plays (or selects, when discarding) the card.
 */
export function Hand({ cards, describedBy, onActivate, ...marks }: HandProps) {
  const { playable, selected } = marks;
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
      const fit = first ? fitHand(cards.length, element.clientWidth - 8, first.offsetWidth) : { rows: 1, step: null };
      setRows(fit.rows);
      setStep(fit.step);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [cards.length]);

  useEffect(() => {
    if (focus >= cards.length) setFocus(Math.max(0, cards.length - 1));
  }, [cards.length, focus]);

  // A card moved in the row (the hand sorted anew once trump is named, or laid out in rows) is taken
  // out of the page and put back, which drops the keyboard's focus to the page's body: which card had
  // it is read before the move, and the focus put back on it before any key can land on the page.
  const shown = useRef<string[]>([]);
  const buttonsShown = row.current ? [...row.current.querySelectorAll(".hand-card")] : [];
  const focusedCard = shown.current[buttonsShown.indexOf(document.activeElement as Element)] ?? null;
  useLayoutEffect(() => {
    shown.current = cards;
    const index = focusedCard === null ? -1 : cards.indexOf(focusedCard);
    if (index >= 0 && (document.activeElement === null || document.activeElement === document.body)) {
      row.current?.querySelectorAll<HTMLElement>(".hand-card")[index]?.focus({ preventScroll: true });
    }
  });

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
    const look = cardLook(card, marks);
    const { canUse, dimmed, label } = look;
    const margin = index % perRow > 0 && step !== null ? { marginLeft: `${step}px` } : undefined;
    return (
      <button
        key={card}
        type="button"
        class={`hand-card${canUse ? " playable" : ""}${dimmed ? " dimmed" : ""}${look.dead ? " dead" : ""}${look.selected ? " selected" : ""}${look.locked ? " locked" : ""}${look.suggested ? " suggested" : ""}${look.fromKitty ? " from-kitty" : ""}`}
        style={margin}
        tabIndex={index === tabIndexAt ? 0 : -1}
        aria-label={label}
        aria-disabled={!canUse}
        aria-pressed={selected ? look.selected : undefined}
        aria-describedby={look.suggested ? describedBy : undefined}
        onFocus={() => setFocus(index)}
        onKeyDown={(event) => onKey(event, index)}
        onClick={() => {
          if (canUse) onActivate(card);
        }}
      >
        <CardFace card={card} label="" />
        {look.fromKitty && <span class="kitty-mark" aria-hidden="true" />}
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
