// "Your turn" in the tab itself while the page is out of sight: the title says so and the icon gets
// a dot, so a player reading another tab sees it there. Both go back when the page is shown again
// or the turn passes. The chime (sound.ts) is separate and unchanged.

/** The parts of the page this touches, so the logic can be tested without a browser. */
export interface Tab {
  readonly hidden: boolean;
  title: string;
  /** The address of the tab's icon, or null where the page has none. */
  icon: string | null;
}

const SVG = "data:image/svg+xml,";
// A red dot with a white ring in the icon's top right corner, on the page's 32×32 icon.
const DOT = "<circle cx='25' cy='7' r='6.5' fill='#e53935' stroke='white' stroke-width='2'/>";

/** The page's icon with the dot added (an SVG icon keeps its drawing), or the dot alone. */
export function iconWithDot(icon: string | null): string {
  if (icon?.startsWith(SVG)) {
    const svg = decodeURIComponent(icon.slice(SVG.length));
    const end = svg.lastIndexOf("</svg>");
    if (end >= 0) return SVG + encodeURIComponent(svg.slice(0, end) + DOT + svg.slice(end));
  }
  return SVG + encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'>${DOT}</svg>`);
}

export class TurnSignal {
  private myTurn = false;
  /** The title this put up, while it is up. */
  private shown: string | null = null;
  private titleBefore = "";
  private iconBefore: string | null = null;

  /** ``text`` is the title to show, read each time so a change of language applies. */
  constructor(
    private readonly tab: Tab,
    private readonly text: () => string,
  ) {}

  /** Whether it is this player's turn now. */
  turn(myTurn: boolean): void {
    this.myTurn = myTurn;
    this.apply();
  }

  /** Call when the page is hidden or shown. */
  apply(): void {
    const tab = this.tab;
    if (tab.hidden && this.myTurn) {
      if (this.shown === null) {
        this.iconBefore = tab.icon;
        if (tab.icon !== null) tab.icon = iconWithDot(tab.icon);
      }
      // The page writes its own title on every change: keep the latest one to give back.
      if (tab.title !== this.shown) this.titleBefore = tab.title;
      this.shown = this.text();
      tab.title = this.shown;
    } else if (this.shown !== null) {
      if (tab.title === this.shown) tab.title = this.titleBefore;
      if (this.iconBefore !== null) tab.icon = this.iconBefore;
      this.shown = null;
    }
  }
}

/** The document as a Tab: its title, its visibility and the href of its first icon link. */
export function documentTab(doc: Document): Tab {
  const link = () => doc.querySelector<HTMLLinkElement>("link[rel~='icon']");
  return {
    get hidden() {
      return doc.hidden;
    },
    get title() {
      return doc.title;
    },
    set title(value: string) {
      doc.title = value;
    },
    get icon() {
      return link()?.getAttribute("href") ?? null;
    },
    set icon(value: string | null) {
      if (value !== null) link()?.setAttribute("href", value);
    },
  };
}

let signal: TurnSignal | null = null;

/**
 * Tell the page's signal whose turn it is; the first call sets it up on the document and follows
 * its visibility from then on.
 */
export function showTurn(myTurn: boolean, text: () => string): void {
  if (!signal) {
    const made = new TurnSignal(documentTab(document), text);
    document.addEventListener("visibilitychange", () => made.apply());
    signal = made;
  }
  signal.turn(myTurn);
}
