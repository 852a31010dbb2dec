// The choices of a practice position, drawn as the table's controls: bids as the bid buttons, trump
// by suit, a card by clicking it in the hand, a discard by picking cards then confirming (or by one
// of the discards offered). `onChoose` sends the choice's text as the server gave it.

import { SUIT_SYMBOL } from "../../cards";
import { actionShown, choiceShort } from "../../i18n/actions";
import { suitTitle, t } from "../../i18n";
import { isMoonBid } from "../../types";
import { CardRow } from "../Card";
import type { PracticeQuestion } from "./api";
import { table } from "./tableParts";
import { choiceActions, discardableCards, discardChoices, discardPicked, playableCards, togglePicked } from "./practice";
import { pw, pwn } from "./words";

interface ChoicesProps {
  question: PracticeQuestion;
  busy: boolean;
  picked: Set<string>;
  onPick: (picked: Set<string>) => void;
  onChoose: (choice: string) => void;
}

/** The buttons of the choices that are not cards: bids, trump, the widow. */
function ChoiceButtons({ question, busy, onChoose }: Omit<ChoicesProps, "picked" | "onPick">) {
  const rules = question.public.rules;
  const choices = choiceActions(question);
  if (question.kind === "trump") {
    return (
      <div class="trump-buttons">
        {choices.map(({ choice, action }) =>
          action?.kind === "trump" ? (
            <button key={choice} type="button" class={`btn suit-btn suit-${action.suit}`} disabled={busy} onClick={() => onChoose(choice)}>
              <span class="trump-symbol" aria-hidden="true">
                {SUIT_SYMBOL[action.suit]}
              </span>{" "}
              {suitTitle(action.suit)}
            </button>
          ) : null,
        )}
      </div>
    );
  }
  return (
    <div class="bid-buttons">
      {choices.map(({ choice, action }) => {
        if (action?.kind === "play" || action?.kind === "discard") return null;
        const moon = action?.kind === "bid" && isMoonBid(rules, action.amount);
        const label = !action ? choice : choiceShort(action, rules.moon_bid) ?? actionShown(action, rules.moon_bid).words;
        return (
          <button
            key={choice}
            type="button"
            class={`btn ${action?.kind === "pass" ? "secondary pass-btn" : "bid-btn"}${moon ? " moon-btn" : ""}`}
            disabled={busy}
            aria-label={action?.kind === "bid" ? (moon ? t("act.moon_aria", { n: action.amount }) : t("act.bid_n", { n: action.amount })) : undefined}
            onClick={() => onChoose(choice)}
          >
            {label}
          </button>
        );
      })}
    </div>
  );
}

/** What to decide, and its controls. */
export function ChoicePanel({ question, busy, picked, onPick, onChoose }: ChoicesProps) {
  const titles = { bid: "act.bid_title", widow: "act.widow_title", trump: "act.trump_title", card: "act.play_title" } as const;
  if (question.kind === "discard") {
    const offered = discardChoices(question);
    const ready = discardPicked(question, picked);
    const count = offered[0]?.cards.length ?? 0;
    return (
      <div class="action-panel mine discard-panel" role="group" aria-labelledby="practice-decide">
        <h2 id="practice-decide" tabIndex={-1}>{pwn("practice.discard_title", count)}</h2>
        <p class="muted">{pw("practice.discard_note")}</p>
        <div class="practice-offers">
          {offered.map(({ choice, cards }) => (
            <button
              key={choice}
              type="button"
              class={`btn small secondary practice-offer${ready === choice ? " chosen" : ""}`}
              aria-pressed={ready === choice}
              disabled={busy}
              onClick={() => onPick(new Set(cards))}
            >
              <CardRow cards={cards} size="xs" />
            </button>
          ))}
        </div>
        <div class="discard-row">
          <button type="button" class="btn" disabled={ready === null || busy} onClick={() => ready && onChoose(ready)}>
            {t("act.discard_confirm")}
          </button>
          {picked.size > 0 && (
            <button type="button" class="btn small secondary" disabled={busy} onClick={() => onPick(new Set())}>
              {t("act.discard_clear")}
            </button>
          )}
        </div>
      </div>
    );
  }
  return (
    <div class="action-panel mine" role="group" aria-labelledby="practice-decide">
      <h2 id="practice-decide" tabIndex={-1}>{t(titles[question.kind])}</h2>
      {question.kind === "card" ? (
        <p class="muted">{pw("practice.card_note")}</p>
      ) : (
        <ChoiceButtons question={question} busy={busy} onChoose={onChoose} />
      )}
    </div>
  );
}

/** The seat's hand: the cards it may play (or pick for a discard) can be used. */
export function PracticeHand({ question, busy, picked, onPick, onChoose }: ChoicesProps) {
  const { Hand } = table();
  const discarding = question.kind === "discard";
  const usable = discarding ? discardableCards(question) : question.kind === "card" ? playableCards(question) : new Set<string>();
  return (
    <Hand
      cards={question.you.hand}
      playable={usable}
      myTurn={question.kind === "card"}
      selected={discarding ? picked : undefined}
      keepDimmed={discarding && usable.size < question.you.hand.length}
      disabled={busy}
      onActivate={(card) => {
        if (discarding) onPick(togglePicked(question, picked, card));
        else onChoose(choiceActions(question).find(({ action }) => action?.kind === "play" && action.card === card)?.choice ?? card);
      }}
    />
  );
}
