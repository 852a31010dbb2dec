// The answer to a practice position: right or wrong, every choice with its expected points as the
// server gives them (the best marked), the practice rating before and after, the streak, and the
// rest of the hand replayed on the deals the search used.

import { useState } from "preact/hooks";
import { actionLine, actionShown } from "../../i18n/actions";
import { currentLang, signedPoints } from "../../i18n";
import type { StateMessage } from "../../types";
import { CardRow } from "../Card";
import { seatName } from "../names";
import type { AttemptResult, PracticeAnswer, PracticeQuestion } from "./api";
import { answerRows, lineAt } from "./practice";
import type { ComponentChildren, RefObject } from "preact";
import { pw, pwn } from "./words";

function ratingNumber(rating: number): string {
  return new Intl.NumberFormat(currentLang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rating);
}

/** One step after another of a line: who did what, and what each seat still holds. */
function LineReplay({ state, question, answer }: { state: StateMessage; question: PracticeQuestion; answer: PracticeAnswer }) {
  const [deal, setDeal] = useState(0);
  const [step, setStep] = useState(1);
  const line = answer.lines[deal];
  if (!line) return null;
  const total = line.actions.length;
  const shown = lineAt(line, step);
  const facts = { moonBid: question.public.rules.moon_bid, widow: question.public.rules.widow || null };
  return (
    <section class="practice-replay" aria-labelledby="practice-replay-title">
      <h3 id="practice-replay-title">{pw("practice.replay_title")}</h3>
      {answer.lines.length > 1 && (
        <div class="tool-row" role="group" aria-label={pw("practice.deals")}>
          {answer.lines.map((_, index) => (
            <button
              key={index}
              type="button"
              class="btn small secondary"
              aria-pressed={index === deal}
              onClick={() => {
                setDeal(index);
                setStep(1);
              }}
            >
              {pw("practice.deal_n", { n: index + 1 })}
            </button>
          ))}
        </div>
      )}
      <ul class="practice-hands">
        {shown.hands.map((hand, seat) => (
          <li key={seat}>
            <span class="name-text">{seatName(state, seat)}</span> <CardRow cards={hand} size="xs" />
          </li>
        ))}
      </ul>
      <div class="tool-row">
        <button type="button" class="btn small secondary" disabled={step <= 0} onClick={() => setStep(step - 1)}>
          {pw("practice.step_back")}
        </button>
        <span aria-live="polite">{pw("practice.step_of", { n: step, total })}</span>
        <button type="button" class="btn small secondary" disabled={step >= total} onClick={() => setStep(step + 1)}>
          {pw("practice.step_next")}
        </button>
      </div>
      <ol class="practice-steps">
        {shown.done.map(({ seat, action }, index) => (
          <li key={index} class={index === shown.done.length - 1 ? "last" : undefined}>
            {action ? actionLine(seatName(state, seat), action, facts) : seatName(state, seat)}
            {action?.kind === "play" && <CardRow cards={[action.card]} size="xs" />}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function AnswerPanel({
  state,
  question,
  result,
  heading,
  onNext,
  after,
}: {
  state: StateMessage;
  question: PracticeQuestion;
  result: AttemptResult;
  heading: RefObject<HTMLHeadingElement>;
  /** Null: no next position (the last of the player's own, where `after` leads on). */
  onNext: (() => void) | null;
  /** Beside the next button: a way back to where the positions came from. */
  after?: ComponentChildren;
}) {
  const [replay, setReplay] = useState(false);
  const { answer } = result;
  const moonBid = question.public.rules.moon_bid;
  const rows = answerRows(question, answer, result.choice);
  return (
    <section class={`panel light practice-answer ${result.correct ? "right" : "wrong"}`} aria-labelledby="practice-verdict">
      <h2 id="practice-verdict" ref={heading} tabIndex={-1}>
        {result.correct ? pw("practice.right") : pw("practice.wrong")}
      </h2>
      {answer.played == null ? (
        <p class="practice-rating">
          {pw("practice.rating_change", {
            before: ratingNumber(result.rating.before.rating),
            after: ratingNumber(result.rating.after.rating),
          })}{" "}
          · {pwn("practice.streak", result.streak)}
        </p>
      ) : (
        <p class="practice-rating">{pw("practice.unrated")}</p>
      )}
      <table class="practice-values">
        <caption>{pwn("practice.values_caption", answer.deals)}</caption>
        <thead>
          <tr>
            <th scope="col">{pw("practice.choice")}</th>
            <th scope="col">{pw("practice.expected")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const shown = row.action ? actionShown(row.action, moonBid) : { words: row.choice, cards: [] };
            return (
              <tr key={row.choice} class={`${row.best ? "best" : ""}${row.chosen ? " chosen" : ""}`}>
                <th scope="row">
                  {shown.words && <span>{shown.words} </span>}
                  {shown.cards.length > 0 && <CardRow cards={shown.cards} size="xs" />}
                  {row.best && <span class="tag best-tag">{pw("practice.best")}</span>}
                  {row.chosen && <span class="tag">{pw("practice.yours")}</span>}
                  {row.choice === answer.played && <span class="tag played-tag">{pw("practice.played")}</span>}
                </th>
                <td>{row.value === null ? "—" : signedPoints(row.value)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div class="tool-row">
        {onNext && (
          <button type="button" class="btn practice-next" onClick={onNext}>
            {pw("practice.next")}
          </button>
        )}
        {after}
        {answer.lines.length > 0 && (
          <button type="button" class="btn small secondary" aria-expanded={replay} onClick={() => setReplay(!replay)}>
            {pw("practice.replay")}
          </button>
        )}
      </div>
      {replay && <LineReplay state={state} question={question} answer={answer} />}
    </section>
  );
}
