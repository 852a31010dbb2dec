import { SUIT_SYMBOL } from "../../cards";
import { scoreText, suitTitle, t, tk, tn } from "../../i18n";
import type { PublicGame, StateMessage } from "../../types";
import { seatName, sideColor } from "../names";
import { BotTag } from "../players/common";
import { contractText, tricksWon } from "./table";

/** The scores, the rules of the table, and the hand's contract and trump. */
export function Scoreboard({ state, pub }: { state: StateMessage; pub: PublicGame }) {
  const you = state.table.you;
  const contract = contractText(state, pub);
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
                  {state.table.seats[seat]?.bot && <BotTag level={state.table.seats[seat]?.bot_level} />}
                </span>
              ))}
            </span>
            {pub.phase === "play" && (
              <span class="muted tricks">{tn("table.tricks", tricksWon(pub, side))}</span>
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
          <dd class={contract.moon ? "moon" : undefined}>{contract.text}</dd>
        </div>
        {pub.rules.take_stock && (pub.phase === "widow" || pub.phase === "trump" || pub.phase === "discard") && (
          <div class="stock-line">
            <dt>{t("table.stock")}</dt>
            <dd>{tn("table.cards", pub.stock)}</dd>
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
