// A link to another page of the app, followed without loading the page again.

import type { ComponentChildren } from "preact";
import { navigate } from "../net";

/**
 * A link to a page of the app: opened in place (the page is not loaded again), unless the reader
 * asks for a new tab or window with a modifier key or the middle button.
 */
export function AppLink({
  href,
  class: className,
  children,
  onNavigate,
  ...rest
}: {
  href: string;
  class?: string;
  children: ComponentChildren;
  onNavigate?: () => void;
  title?: string;
  "aria-current"?: "page" | undefined;
  "aria-label"?: string;
}) {
  return (
    <a
      {...rest}
      href={href}
      class={className}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        onNavigate?.();
        navigate(href);
        window.scrollTo(0, 0);
      }}
    >
      {children}
    </a>
  );
}
