import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { t, tn } from "../../i18n";
import { useApp } from "../../store";
import { secondsLeft, URGENT_SECONDS } from "../../turnClock";
import type { PublicGame, StateMessage } from "../../types";
import { seatName, sideColor } from "../names";
import { ReactionBubble } from "./Reactions";
import { BotTag, FinishesTag, MarkTag, RatingTag, ReportButton } from "../players/common";
import { PersonButton } from "../PersonButton";
import { awayDeadline, awayTexts } from "./away";
import { bidChip, drewChip } from "./table";

/** Seconds left until `deadline` (client clock), counted down on screen. */
function TurnTimer({ deadline }: { deadline: number }) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const id = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, []);
  const left = secondsLeft(deadline, Date.now());
  return (
    <span class={`timer${left <= URGENT_SECONDS ? " urgent" : ""}`} role="timer" aria-live="off">
      {t("table.seconds_left", { n: left })}
    </span>
  );
}

/** A seat whose player is away: when a bot will play for them, counted down, then that it does. */
function AwayChip({ name, deadline }: { name: string; deadline: number }) {
  const [, setTick] = useState(0);
  const playing = Date.now() >= deadline;
  useEffect(() => {
    if (playing) return undefined;
    const id = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(id);
  }, [deadline, playing]);
  const { chip, spoken } = awayTexts(name, deadline, Date.now());
  return (
    <span class={`chip away${playing ? " playing" : ""}`} title={spoken}>
      <span aria-hidden="true">{chip}</span>
      <span class="visually-hidden">{spoken}</span>
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

/** A seat around the felt: its name, the dealer's chip, its cards face down, its bid, its timer. */
/**
 * A seat's name, cut short with an ellipsis when the plate is too narrow for it (eight seats on a
 * phone): then it takes the focus (a tap, or Tab) and shows whole while it holds it.
 */
function PlateName({ name }: { name: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || el === document.activeElement) return; // shown whole: measured again once it is not
    const now = el.scrollWidth > el.clientWidth + 1;
    if (now !== cut) setCut(now);
  });
  return (
    <span ref={ref} class="name-text" tabIndex={cut ? 0 : undefined} title={cut ? name : undefined}>
      {name}
    </span>
  );
}

export function SeatPlate({
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
  const active = pub.to_act === seat;
  const inAuction = pub.phase === "auction";
  const name = seatName(state, seat);
  const isYou = state.table.you === seat;
  const count = pub.hand_sizes[seat] ?? 0;
  const style = {
    left: `calc(50% + ${Math.cos(angle).toFixed(4)} * var(--rx))`,
    top: `calc(50% + ${Math.sin(angle).toFixed(4)} * var(--ry))`,
    "--side": sideColor(side),
    // -1 at the top of the felt, 1 at its bottom: which edge of the plate is pinned (styles/game.css).
    "--sin": Math.sin(angle).toFixed(4),
    // 1 for a plate at the top or the bottom of the felt, near 0 at its sides: how wide it may grow.
    "--top-or-bottom": (Math.sin(angle) ** 4).toFixed(3),
  };
  const drewText = drewChip(pub, seat);
  const bid = bidChip(pub, seat);
  const away = awayDeadline(state, seat, Date.now());
  return (
    <div
      class={`seat-plate${active ? " active" : ""}${isYou ? " you" : ""}${pub.bidder === seat && !inAuction ? " bidder" : ""}${out ? " out" : ""}`}
      style={style}
      aria-label={t(out ? "table.seat_out_aria" : "table.seat_aria", { name, cards: tn("table.cards", count) })}
      role="group"
    >
      <div class="seat-name">
        <PlateName name={info?.name ?? name} />
        <MarkTag mark={info?.mark} />
        {/* A person who takes the bot's seat at the next hand: named already, the bot playing meanwhile. */}
        {info?.arriving ? (
          <span class="tag arriving-tag">{t("table.arriving")}</span>
        ) : (
          info?.bot && <BotTag level={info.bot_level} />
        )}
        <RatingTag rating={info?.rating} />
        <FinishesTag finished={info?.finished} left={info?.left} />
        {isYou && <span class="tag">{t("table.you")}</span>}
        {!isYou && !info?.bot && info?.name && <ReportButton name={name} seat={seat} />}
        {!isYou && !info?.bot && info?.name && <PersonButton name={name} player={info.player} />}
      </div>
      <ReactionBubble seat={seat} />
      <div class="seat-meta">
        {pub.dealer === seat && (
          <span class="chip dealer" title={t("table.dealer")} aria-label={t("table.dealer")}>
            {t("table.dealer_short")}
          </span>
        )}
        {!isYou && <MiniBacks count={count} />}
        {bid && <span class={`chip bid${bid.passed ? " passed" : ""}${bid.moon ? " moon" : ""}`}>{bid.text}</span>}
        {drewText && <span class="chip drew">{drewText}</span>}
        {out && (
          <span class="chip out" title={t("table.out_title")}>
            {t("table.out")}
          </span>
        )}
        {away !== null ? (
          <AwayChip name={name} deadline={away} />
        ) : (
          !info?.connected && !info?.bot && <span class="chip offline">{t("table.offline")}</span>
        )}
        {active && app.turnClock.version === state.version && app.turnClock.deadline !== null && (
          <TurnTimer deadline={app.turnClock.deadline} />
        )}
      </div>
    </div>
  );
}
