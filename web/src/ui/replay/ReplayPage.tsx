import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n";
import { loadMatchReplay, type ReplayLoad } from "../../replay/api";
import { matchRecordUrl, matchReplayPath } from "../../replay/links";
import type { Position } from "../../replay/steps";
import { AppLink } from "../AppLink";
import { LoadProblem } from "./LoadProblem";
import { UploadReplay } from "./UploadReplay";
import { ReplayViewer } from "./Viewer";

/** The page title while a replay page is open. */
function useReplayTitle(): void {
  useEffect(() => {
    document.title = `${t("replay.title")} · ${t("app.title")}`;
    return () => {
      document.title = t("app.title");
    };
  }, []);
}

/** Copies the link to this match at the step on show. */
function CopyLinkButton({ match, position }: { match: string; position: () => Position }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const link = `${location.origin}${matchReplayPath(match, position())}`;
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // no clipboard API (plain http): offer the link to copy by hand
      window.prompt(t("replay.copy_link"), link);
      return;
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  const shown = copied ? `✓ ${t("lobby.copied")}` : t("replay.copy_link");
  return (
    <button type="button" class="btn small secondary" onClick={copy} aria-label={t("replay.copy_link_aria", { shown })}>
      {shown}
    </button>
  );
}

/** A finished match's replay, from /m/{match}. */
function MatchReplay({ match }: { match: string }) {
  const [load, setLoad] = useState<ReplayLoad | null>(null);
  const [attempt, setAttempt] = useState(0);
  const position = useRef<Position>({ hand: 0, step: 0 });
  useEffect(() => {
    let live = true;
    setLoad(null);
    void loadMatchReplay(match).then((answer) => {
      if (live) setLoad(answer);
    });
    return () => {
      live = false;
    };
  }, [match, attempt]);

  if (!load) return <p class="loading" role="status">{t("app.loading")}</p>;
  if (!load.ok) {
    return (
      <div class="panel light center-panel replay-problem">
        <LoadProblem load={load} />
        <div class="replay-problem-actions">
          {load.problem === "failed" && (
            <button type="button" class="btn" onClick={() => setAttempt(attempt + 1)}>
              {t("presets.retry")}
            </button>
          )}
          <AppLink class="btn secondary" href="/">
            {t("menu.home")}
          </AppLink>
        </div>
      </div>
    );
  }
  return (
    <ReplayViewer
      view={load.view}
      match={load.match}
      syncUrl
      reviewMatch={match}
      onMove={(at) => {
        position.current = at;
      }}
      actions={
        <>
          <CopyLinkButton match={match} position={() => position.current} />
          <a class="btn small secondary" href={matchRecordUrl(match)} download={`smear-${match}.json`}>
            {t("end.download")}
          </a>
        </>
      }
    />
  );
}

/** The replay pages: a finished match's (/m/{match}), or the page that opens a record file (/replay). */
export function ReplayPage({ match }: { match: string | null }) {
  useReplayTitle();
  return <div class="replay-page">{match ? <MatchReplay match={match} /> : <UploadReplay />}</div>;
}
