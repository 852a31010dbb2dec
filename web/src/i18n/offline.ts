// What the first page says when no catalog at all can be fetched (the network, or a new build of the
// server that replaced the chunks this page knows): the only texts of a catalog the entry holds. They
// are English's own words for these keys (a unit test keeps them equal), as English is the language
// spoken when the picked one cannot be had; in every language they would cost each first page about
// 0.3 KB of gzipped script, for a page that fails anyway.

import type { Catalog } from "./en";

export const OFFLINE: Pick<Catalog, "app.load_failed" | "app.retry"> = {
  "app.load_failed": "Part of the game could not be loaded. Check your connection and try again.",
  "app.retry": "Try again",
};

/**
 * Say that the game could not be loaded, with a button to try again, in the page's `#app` (where the
 * app is drawn once a catalog is here). A press takes the message away and resolves, to try again;
 * when `reload` is set, a press loads the page again instead, as a new build of the server may have
 * replaced the chunks (what a screen does when its chunk fails twice).
 */
export function offlineNotice(reload: boolean): Promise<void> {
  const host = document.getElementById("app") as HTMLElement;
  host.innerHTML =
    '<div class="panel light center-panel screen-failed" role="alert" lang="en">' +
    `<p>${OFFLINE["app.load_failed"]}</p>` +
    `<button type="button" class="btn">${OFFLINE["app.retry"]}</button></div>`;
  return new Promise((resolve) => {
    host.querySelector("button")?.addEventListener("click", () => {
      if (reload) {
        location.reload();
        return;
      }
      host.replaceChildren();
      resolve();
    });
  });
}
