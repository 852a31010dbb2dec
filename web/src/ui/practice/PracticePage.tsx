// /practice: positions from real hands, one at a time, drawn like the table; the player chooses, the
// server judges and answers with every choice's expected points. Positions come near the profile's
// practice rating, of a theme when one is picked; the daily position is the same for everyone. The
// page needs this browser's profile, made here under a name when there is none yet.

import { useEffect, useRef, useState } from "preact/hooks";
import { currentLang, errorText, t, type Lang } from "../../i18n";
import type { Answer } from "../../playersApi";
import { ensureProfile, forgetProfile, loadProfile, profileLost } from "../../profile";
import { loadName, saveName } from "../../session";
import { useApp } from "../../store";
import { nameRequired, playerName } from "../../tableSettings";
import type { ServerError } from "../../types";
import { matchReplayPath } from "../../replay/links";
import { AppLink } from "../AppLink";
import { useHeadingFocus, useProfile } from "../players/common";
import { AnswerPanel } from "./Answer";
import {
  getDaily,
  getNext,
  getThemes,
  ownPositions,
  postAttempt,
  postOwnAttempt,
  type AttemptResult,
  type PracticeQuestion,
  type PracticeRating,
  type ThemeCount,
} from "./api";
import { ChoicePanel, PracticeHand } from "./Choices";
import { practiceState } from "./practice";
import { PracticeTable } from "./PracticeTable";
import { hasPracticeWords, loadPracticeWords, pw, pwn, themeName } from "./words";
import { loadTableParts } from "./tableParts";
import "../../styles/practice.css";

/** What the page needs before it shows: its texts in `lang`, and the table's parts it draws with. */
export async function preparePractice(lang: Lang): Promise<void> {
  await Promise.all([loadPracticeWords(lang), loadTableParts()]);
}

const noSeat = (seat: number) => t("lobby.seat_n", { n: seat + 1 });

/** The player's own positions from a match (/practice?match=<id>), and which one is shown. */
interface Own {
  match: string;
  questions: PracticeQuestion[];
  index: number;
}

type Shown =
  | { kind: "loading" }
  | { kind: "none" }
  | { kind: "failed"; error: ServerError }
  | { kind: "question"; question: PracticeQuestion; daily: string | null }
  | { kind: "answered"; question: PracticeQuestion; daily: string | null; result: AttemptResult };

/** The name form shown when this browser has no profile yet. */
function NameForm() {
  const [name, setName] = useState(loadName());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const valid = playerName(name);
    if (valid === null) {
      setError(nameRequired());
      return;
    }
    setBusy(true);
    saveName(valid);
    const made = await ensureProfile(valid);
    setBusy(false);
    if (!made) setError(pw("practice.no_profile"));
  };
  return (
    <form class="panel light practice-name" onSubmit={submit} noValidate>
      <p>{pw("practice.needs_profile")}</p>
      <label for="practice-name">{t("landing.your_name")}</label>
      <div class="copy-row">
        <input
          id="practice-name"
          value={name}
          autoComplete="nickname"
          aria-invalid={error !== null}
          aria-describedby={error ? "practice-name-error" : undefined}
          onInput={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
        />
        <button type="submit" class="btn" disabled={busy}>
          {pw("practice.start")}
        </button>
      </div>
      {error && (
        <p id="practice-name-error" class="field-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

export function PracticePage() {
  const app = useApp();
  const [, setWordsCame] = useState(0);
  // A language switched to here: its practice texts come before the page speaks it.
  useEffect(() => {
    if (!hasPracticeWords(app.lang)) void loadPracticeWords(app.lang).then(() => setWordsCame((n) => n + 1), () => undefined);
  }, [app.lang]);
  const me = useProfile();
  const [themes, setThemes] = useState<ThemeCount[]>([]);
  const [theme, setTheme] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown>({ kind: "loading" });
  const [rating, setRating] = useState<PracticeRating | null>(null);
  const [streak, setStreak] = useState(0);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  // The match whose costliest decisions are practised here, from the address (null: the usual positions).
  const [fromMatch] = useState(() => new URLSearchParams(location.search).get("match"));
  const [own, setOwn] = useState<Own | null>(null);
  const asked = useRef(0);
  const verdict = useRef<HTMLHeadingElement>(null);
  // The page's heading takes the focus once, when the first thing is shown; later positions start
  // at what to decide (below).
  const everShown = useRef(false);
  if (shown.kind !== "loading") everShown.current = true;
  const heading = useHeadingFocus(everShown.current);

  /** Show what a request brings, unless a later one was made meanwhile. */
  const take = <T,>(answer: Answer<T>, request: number, then: (data: T) => void) => {
    if (request !== asked.current) return;
    if (answer.ok) then(answer.data);
    else {
      if (profileLost(answer.error.code)) forgetProfile();
      setShown({ kind: "failed", error: answer.error });
    }
  };

  const nextPosition = async (chosen: string | null) => {
    if (!me) return;
    const request = ++asked.current;
    setShown({ kind: "loading" });
    setPicked(new Set());
    take(await getNext(me.player, me.secret, chosen), request, (next) => {
      setRating(next.rating);
      setStreak(next.streak);
      setShown({ kind: "question", question: next.position, daily: null });
    });
  };

  const dailyPosition = async () => {
    const request = ++asked.current;
    setShown({ kind: "loading" });
    setPicked(new Set());
    take(await getDaily(), request, (daily) =>
      setShown({ kind: "question", question: daily.position, daily: daily.date || "" }),
    );
  };

  useEffect(() => {
    void getThemes().then((answer) => answer.ok && setThemes(answer.data));
  }, []);
  const ownPosition = (list: Own) => {
    setOwn(list);
    setPicked(new Set());
    const question = list.questions[list.index];
    setShown(question ? { kind: "question", question, daily: null } : { kind: "none" });
  };

  const ownFromMatch = async (match: string) => {
    if (!me) return;
    const request = ++asked.current;
    setShown({ kind: "loading" });
    take(await ownPositions(me.player, me.secret, match), request, (questions) =>
      ownPosition({ match, questions, index: 0 }),
    );
  };

  useEffect(() => {
    if (fromMatch) void ownFromMatch(fromMatch);
    else void nextPosition(theme);
  }, [me?.player]);

  const choose = async (choice: string) => {
    if (!me || shown.kind !== "question" || busy) return;
    setBusy(true);
    const request = asked.current;
    const attempt = own ? postOwnAttempt : postAttempt;
    const answer = await attempt(me.player, me.secret, shown.question.id, choice);
    setBusy(false);
    take(answer, request, (result) => {
      setRating(result.rating.after);
      setStreak(result.streak);
      setShown({ ...shown, kind: "answered", result });
    });
  };
  useEffect(() => {
    if (shown.kind === "answered") verdict.current?.focus();
  }, [shown.kind]);
  // A new position after "Next" (whose button is gone): the keyboard starts at what to decide.
  const questionId = shown.kind === "question" ? shown.question.id : null;
  useEffect(() => {
    const active = document.activeElement;
    if (questionId && (!active || active === document.body || !active.isConnected)) {
      document.getElementById("practice-decide")?.focus();
    }
  }, [questionId]);

  const question = shown.kind === "question" || shown.kind === "answered" ? shown.question : null;
  const state = question ? practiceState(question, loadProfile()?.name) : null;
  return (
    <div class="practice">
      <div class="practice-head">
        <h1 ref={heading} tabIndex={-1}>
          {fromMatch
            ? pw("practice.from_match_title")
            : (shown.kind === "question" || shown.kind === "answered") && shown.daily !== null
              ? pw("practice.daily_title", { date: shown.daily })
              : pw("practice.title")}
        </h1>
        {fromMatch && (
          <>
            {own && own.questions.length > 0 && (
              <p class="practice-status">{pw("practice.from_match_of", { n: own.index + 1, total: own.questions.length })}</p>
            )}
            <AppLink class="btn small secondary" href={matchReplayPath(fromMatch)}>
              {pw("practice.back_to_replay")}
            </AppLink>
          </>
        )}
        {me && !fromMatch && (
          <>
            <label class="practice-theme">
              <span>{pw("practice.theme")}</span>
              <select
                value={theme ?? ""}
                onChange={(e) => {
                  const picked = e.currentTarget.value || null;
                  setTheme(picked);
                  void nextPosition(picked);
                }}
              >
                <option value="">{pw("practice.all_themes")}</option>
                {themes.map(({ id, positions }) => (
                  <option key={id} value={id}>
                    {pw("practice.theme_count", { theme: themeName(id), n: positions })}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" class="btn small secondary" onClick={() => void dailyPosition()}>
              {pw("practice.daily")}
            </button>
          </>
        )}
        {rating && !fromMatch && (
          <p class="practice-status" aria-live="polite">
            {pw("practice.rating", { rating: new Intl.NumberFormat(currentLang(), { maximumFractionDigits: 0 }).format(rating.rating) })} ·{" "}
            {pwn("practice.streak", streak)}
          </p>
        )}
      </div>
      {!me ? (
        <NameForm />
      ) : shown.kind === "loading" ? (
        <p class="loading" role="status">
          {fromMatch ? pw("practice.from_match_working") : t("app.loading")}
        </p>
      ) : shown.kind === "none" ? (
        <p class="panel light">{pw("practice.from_match_none")}</p>
      ) : shown.kind === "failed" ? (
        <div class="panel light" role="alert">
          <p>{errorText(shown.error, noSeat)}</p>
          <button type="button" class="btn" onClick={() => void (fromMatch ? ownFromMatch(fromMatch) : nextPosition(theme))}>
            {t("app.retry")}
          </button>
        </div>
      ) : (
        question &&
        state && (
          <div class={`practice-position kind-${question.kind}`}>
            {question.themes.length > 0 && (
              <p class="practice-themes">
                {question.themes.map((id) => (
                  <span key={id} class="tag">
                    {themeName(id)}
                  </span>
                ))}
              </p>
            )}
            <PracticeTable state={state} pub={question.public} />
            {shown.kind === "answered" ? (
              <AnswerPanel
                state={state}
                question={question}
                result={shown.result}
                heading={verdict}
                onNext={
                  !own
                    ? () => void nextPosition(theme)
                    : own.index + 1 < own.questions.length
                      ? () => ownPosition({ ...own, index: own.index + 1 })
                      : null
                }
              />
            ) : (
              <ChoicePanel question={question} busy={busy} picked={picked} onPick={setPicked} onChoose={(c) => void choose(c)} />
            )}
            <PracticeHand question={question} busy={busy || shown.kind === "answered"} picked={picked} onPick={setPicked} onChoose={(c) => void choose(c)} />
          </div>
        )
      )}
    </div>
  );
}
