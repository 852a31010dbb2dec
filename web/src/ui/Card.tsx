import { isRed, JOKER_FACE, parseCard, rankLabel, SUIT_SYMBOL } from "../cards";
import { cardName } from "../i18n";

interface FaceProps {
  card: string;
  size?: "md" | "sm" | "xs";
  /** The accessible name; the card's own name when left out. Empty hides it (decorative). */
  label?: string;
  className?: string;
}

/** A card drawn face up: rank and suit in the corners, a large pip in the middle. The bottom corner
 * is drawn by the stylesheet (from data-face): its text once on the page, the face reads as it is named. */
export function CardFace({ card, size = "md", label, className = "" }: FaceProps) {
  const parsed = parseCard(card);
  const name = label ?? cardName(card);
  const a11y: { role?: "img"; "aria-label"?: string; "aria-hidden"?: boolean } =
    name === "" ? { "aria-hidden": true } : { role: "img", "aria-label": name };
  if (!parsed) return <span class={`card ${size} ${className}`} {...a11y}>{card}</span>;
  const color = isRed(parsed) ? "red" : "black";
  if (parsed.joker) {
    return (
      <span class={`card ${size} joker ${color} ${className}`} {...a11y}>
        <span class="corner" aria-hidden="true">
          <span class="rank">{parsed.big ? "★" : "☆"}</span>
        </span>
        <span class="pip joker-pip" aria-hidden="true">
          {JOKER_FACE}
        </span>
        <span class="corner bottom" aria-hidden="true">
          <span class="rank" data-face={parsed.big ? "★" : "☆"} />
        </span>
      </span>
    );
  }
  const symbol = SUIT_SYMBOL[parsed.suit];
  return (
    <span class={`card ${size} ${color} suit-${parsed.suit} ${className}`} {...a11y}>
      <span class="corner" aria-hidden="true">
        <span class="rank">{rankLabel(parsed.rank)}</span>
        <span class="suit">{symbol}</span>
      </span>
      <span class="pip" aria-hidden="true">
        {symbol}
      </span>
      <span class="corner bottom" aria-hidden="true">
        <span class="rank" data-face={rankLabel(parsed.rank)} />
        <span class="suit" data-face={symbol} />
      </span>
    </span>
  );
}

/** A row of small face-up cards (the out cards, discards, a trick in a summary). */
export function CardRow({ cards, size = "sm" }: { cards: string[]; size?: "sm" | "xs" }) {
  return (
    <span class="card-row">
      {cards.map((card) => (
        <CardFace key={card} card={card} size={size} />
      ))}
    </span>
  );
}
