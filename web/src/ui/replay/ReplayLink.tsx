import type { ComponentChildren } from "preact";
import { t } from "../../i18n";
import { navigate } from "../../net";
import { matchReplayPath } from "../../replay/links";

export { matchReplayPath } from "../../replay/links";

/**
 * A link to a finished match's replay (/m/{match}), for other pages (a profile's match list): it
 * opens in the page like the app's other links, and in a new tab with the usual keys.
 */
export function ReplayLink({ match, children, className = "" }: { match: string; children?: ComponentChildren; className?: string }) {
  const href = matchReplayPath(match);
  return (
    <a
      class={className}
      href={href}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children ?? t("replay.watch")}
    </a>
  );
}
