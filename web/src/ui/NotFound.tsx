// The page at an address the game has none for (the server answers it with status 404): says so,
// with a link home.

import { t } from "../i18n";
import { AppLink } from "./AppLink";

export function NotFound() {
  return (
    <div class="players-page narrow">
      <section class="panel light" aria-labelledby="not-found-title">
        <h1 id="not-found-title">{t("not_found.title")}</h1>
        <p>{t("not_found.text")}</p>
        <p>
          <AppLink href="/">{t("not_found.home")}</AppLink>
        </p>
      </section>
    </div>
  );
}
