// Screens that come in a script chunk of their own, fetched when first shown (or preloaded), so the
// first page of a phone loads only what it shows. While the chunk comes, "Loading…"; if it cannot be
// had (the network), a message and a retry; when a retry fails too, the next one loads the page again,
// as a new build of the server may have replaced the chunk. preact/compat's `lazy` cannot retry: a
// failed import stays failed in it.

import type { ComponentType, JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { t } from "../i18n";

export interface LazyScreen<P> {
  (props: P): JSX.Element;
  /** Fetch the chunk now, ahead of need; a failure is left for the screen to show and retry. */
  preload(): void;
}

/** A screen whose component `load` imports; `load` is asked again after a failure. */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  let failures = 0;

  const fetchScreen = (): Promise<ComponentType<P>> => {
    pending ??= load().then(
      (screen) => (loaded = screen),
      (error: unknown) => {
        pending = null;
        failures += 1;
        throw error;
      },
    );
    return pending;
  };

  function Screen(props: P) {
    const [, setArrived] = useState(0);
    const [failed, setFailed] = useState(false);
    // Whether this render showed Loading…: a preloaded chunk may arrive after that render and before
    // this effect, which must then still draw the screen.
    const waiting = !loaded && !failed;
    useEffect(() => {
      if (!waiting) return undefined;
      let shown = true;
      fetchScreen().then(
        () => shown && setArrived((n) => n + 1),
        () => shown && setFailed(true),
      );
      return () => {
        shown = false;
      };
    }, [waiting]);
    if (loaded) {
      const Loaded = loaded;
      return <Loaded {...props} />;
    }
    if (failed) {
      return (
        <div class="panel light center-panel screen-failed" role="alert">
          <p>{t("app.load_failed")}</p>
          <button
            type="button"
            class="btn"
            onClick={() => (failures > 1 ? window.location.reload() : setFailed(false))}
          >
            {t("app.retry")}
          </button>
        </div>
      );
    }
    return (
      <p class="loading" role="status">
        {t("app.loading")}
      </p>
    );
  }
  Screen.preload = () => {
    fetchScreen().catch(() => undefined);
  };
  return Screen;
}
