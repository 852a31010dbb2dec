// A heading whose level is given by where it is shown: the same part of a page (a hand's summary, a
// review) stands under an h1 on one screen and under an h2 on another, and levels must not skip.

import type { ComponentChildren } from "preact";

export type HeadingLevel = 2 | 3 | 4 | 5;

/** An h2 to h5, by `level`. */
export function Heading({ level, children, ...rest }: { level: HeadingLevel; children: ComponentChildren; class?: string }) {
  const Tag = `h${level}` as const;
  return <Tag {...rest}>{children}</Tag>;
}
