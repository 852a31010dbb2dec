// The button beside another person's name (at a table, in a match history, on a leaderboard) that
// opens "Add friend" and "Block"; shown only to a browser with a profile, for a person's profile
// other than its own. The dialog's script is a chunk of its own fetched on the first press.

import { useState } from "preact/hooks";
import { t } from "../i18n";
import { loadProfile } from "../profile";
import { lazyScreen } from "./lazyScreen";

const PersonDialog = lazyScreen(() => import("./PersonDialog").then((module) => module.PersonDialog));

export function PersonButton({ name, player }: { name: string; player: string | null | undefined }) {
  const [open, setOpen] = useState(false);
  const me = loadProfile();
  if (!player || !me || me.player === player) return null;
  const label = t("people.action", { name });
  return (
    <>
      <button type="button" class="person-button" aria-label={label} title={label} onClick={() => setOpen(true)}>
        <span aria-hidden="true">+</span>
      </button>
      {open && <PersonDialog name={name} player={player} onClose={() => setOpen(false)} />}
    </>
  );
}
