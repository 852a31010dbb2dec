import { t } from "../i18n";
import { loadPresets } from "../presets";
import type { PresetsState } from "../presets";

/** While the presets' facts are not here: that they are coming, or that they failed, with a retry. */
export function PresetsPending({ presets }: { presets: PresetsState }) {
  if (presets.status === "failed") {
    return (
      <div class="presets-failed" role="alert">
        <p>{t("presets.failed")}</p>
        <button type="button" class="btn" onClick={() => void loadPresets()}>
          {t("presets.retry")}
        </button>
      </div>
    );
  }
  return (
    <p class="muted presets-loading" role="status">
      {t("presets.loading")}
    </p>
  );
}
