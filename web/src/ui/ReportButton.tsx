// The "Report" button beside another player's name at a table or in a finished match of this
// browser's profile (`match`): it opens the report dialog, whose script is a chunk of its own
// fetched on the first press.

import { useState } from "preact/hooks";
import { t } from "../i18n";
import { lazyScreen } from "./lazyScreen";

const ReportDialog = lazyScreen(() => import("./ReportDialog").then((module) => module.ReportDialog));

export function ReportButton({ name, seat, match }: { name: string; seat: number; match?: string }) {
  const [open, setOpen] = useState(false);
  const label = t("report.action", { name });
  return (
    <>
      <button type="button" class="report-button" aria-label={label} title={label} onClick={() => setOpen(true)}>
        <span aria-hidden="true">⚑</span>
      </button>
      {open && <ReportDialog name={name} seat={seat} match={match} onClose={() => setOpen(false)} />}
    </>
  );
}
