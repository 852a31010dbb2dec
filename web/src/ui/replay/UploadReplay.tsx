import { useEffect, useRef, useState } from "preact/hooks";
import { t } from "../../i18n";
import { overRecordLimit, replayRecord, type ReplayLoad } from "../../replay/api";
import { LoadProblem } from "./LoadProblem";
import { ReplayViewer } from "./Viewer";

/** Whether a drag carries files (not text or a link). */
function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes("Files");
}

/**
 * The page that opens a `smear-record/1` file, chosen with the button or dropped anywhere on the
 * page: the server checks the record and builds its replay, shown below.
 */
export function UploadReplay() {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [file, setFile] = useState<string | null>(null);
  const [load, setLoad] = useState<ReplayLoad | null>(null);
  // Each opened file gets a fresh viewer, back at its first step.
  const [opened, setOpened] = useState(0);

  const open = async (chosen: File) => {
    setFile(chosen.name);
    setBusy(true);
    try {
      const answer: ReplayLoad =
        overRecordLimit(chosen.size) ? { ok: false, problem: "too_large" } : await replayRecord(await chosen.text());
      setLoad(answer);
      setOpened((n) => n + 1);
    } catch {
      setLoad({ ok: false, problem: "failed", error: null });
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    let depth = 0;
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = "copy";
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth = 0;
      setDragging(false);
      const dropped = event.dataTransfer?.files?.[0];
      if (dropped) void open(dropped);
    };
    document.addEventListener("dragenter", enter);
    document.addEventListener("dragover", over);
    document.addEventListener("dragleave", leave);
    document.addEventListener("drop", drop);
    return () => {
      document.removeEventListener("dragenter", enter);
      document.removeEventListener("dragover", over);
      document.removeEventListener("dragleave", leave);
      document.removeEventListener("drop", drop);
    };
  }, []);

  const shown = load?.ok ? load : null;
  return (
    <>
      <section class={`panel light replay-upload${shown ? " compact" : ""}`} aria-labelledby="replay-upload-title">
        <h1 id="replay-upload-title">{t("replay.upload_title")}</h1>
        {!shown && <p>{t("replay.upload_intro")}</p>}
        <div class="replay-upload-row">
          <input
            ref={input}
            id="replay-file"
            type="file"
            accept=".json,application/json"
            class="visually-hidden"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(event) => {
              const chosen = event.currentTarget.files?.[0];
              event.currentTarget.value = "";
              if (chosen) void open(chosen);
            }}
          />
          <button type="button" class="btn" disabled={busy} onClick={() => input.current?.click()}>
            {t(shown ? "replay.open_other" : "replay.choose_file")}
          </button>
          <span class="muted replay-drop-hint">{t("replay.drop_hint")}</span>
        </div>
        <div role="status" class="replay-upload-status">
          {busy ? t("replay.reading") : file && shown ? t("replay.file_name", { name: file }) : ""}
        </div>
        {load && !load.ok && !busy && <LoadProblem load={load} />}
      </section>
      {dragging && (
        <div class="replay-drop" aria-hidden="true">
          <span>{t("replay.drop_here")}</span>
        </div>
      )}
      {shown && <ReplayViewer key={opened} view={shown.view} match={null} syncUrl={false} nested />}
    </>
  );
}
