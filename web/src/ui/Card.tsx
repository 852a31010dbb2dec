import { isRed, parseCard, rankLabel, SUIT_SYMBOL } from "../cards";
import { cardName } from "../i18n";

interface FaceProps {
  card: string;
  size?: "md" | "sm" | "xs";
  /** The accessible name; the card's own name when left out. Empty hides it (decorative). */
  label?: string;
  className?: string;
}

/** A card drawn face up: rank and suit in the corners, a large pip in the middle. */
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
          JOKER
        </span>
        <span class="corner bottom" aria-hidden="true">
          <span class="rank">{parsed.big ? "★" : "☆"}</span>
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
        <span class="rank">{rankLabel(parsed.rank)}</span>
        <span class="suit">{symbol}</span>
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
