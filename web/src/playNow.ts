// "Play now" from the landing page: create the table, put a bot in every other seat and start, so
// the player arrives at the first bid. Only the usual requests (create_table, set_bot, start).

import { createTable, request } from "./net";
import type { PresetFacts } from "./presets";
import { loadSession } from "./session";
import { getApp, toast, update } from "./store";
import type { Settings } from "./types";

export async function playNow(name: string, settings: Settings, preset: PresetFacts): Promise<void> {
  if (!(await createTable(name, settings, preset))) return;
  // createTable kept the seat and went to the table's page.
  const route = getApp().route;
  const session = route.kind === "table" ? loadSession(route.code) : null;
  if (!session) return;
  const table = { table: session.table, token: session.token };
  // The lobby's buttons stay disabled meanwhile; on a refusal the player is left in the lobby,
  // where every step can be done by hand.
  update({ pending: true });
  try {
    for (let seat = 0; seat < settings.players; seat++) {
      if (seat === session.seat) continue;
      const ack = await request("set_bot", { ...table, seat, bot: true });
      if (!ack.ok) {
        toast({ error: ack.error });
        return;
      }
    }
    const ack = await request("start", table);
    if (!ack.ok) toast({ error: ack.error });
  } finally {
    update({ pending: false });
  }
}
