import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { errorText, LANG_NAMES, LANGS, loadLang, setLang, t, tk, type Lang } from "../i18n";
import { leave, navigate } from "../net";
import { loadSession } from "../session";
import { dismissToast, toast, update, useApp } from "../store";
import { savedSettings } from "../tableSettings";
import { showTurn } from "../turnTitle";
import { canAct, seatView } from "../types";
import { AppLink } from "./AppLink";
import { seatName } from "./names";
import { isPlayersRoute, PlayersLinks } from "./players/PlayersLinks";
import { NotFound } from "./NotFound";
import { ProfileNotice } from "./players/ProfileNotice";
import { InvitationBanner } from "./InvitationBanner";
import { GameScreen, HowToScreen, LandingScreen, LobbyScreen, PlayersScreen, PracticeScreen, ReplayScreen } from "./screens";

function ConnectionStatus() {
  const { conn } = useApp();
  const text = t(conn === "connected" ? "conn.connected" : conn === "connecting" ? "conn.connecting" : "conn.disconnected");
  return (
    <span class={`conn ${conn}`} role="status" title={text}>
      <span class="dot" aria-hidden="true" />
      <span class="conn-text">{text}</span>
    </span>
  );
}

function Menu() {
  const app = useApp();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !box.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener("pointerdown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const route = app.route;
  // A person about to take a bot's seat (at the next hand) holds it already, and may leave it.
  const held = app.state?.table.you ?? app.state?.table.you_arrive;
  const seated = route.kind === "table" && !route.watch && held != null && !!loadSession(route.code);
  const status = app.state?.table.status;
  const facts = app.presets.status === "ready" ? app.presets.facts : null;
  // At a table its own variant; elsewhere the one chosen last on the landing page's form.
  const preset = app.state?.table.settings.preset ?? (facts ? savedSettings(facts).preset : null);

  const onLeave = () => {
    setOpen(false);
    if (status === "playing" && !window.confirm(t("table.leave_confirm"))) return;
    void leave();
  };

  return (
    <div class="menu" ref={box}>
      <button
        type="button"
        class="btn small secondary menu-button"
        aria-expanded={open}
        aria-controls="main-menu"
        onClick={() => setOpen(!open)}
      >
        ☰ {t("menu.menu")}
      </button>
      {open && (
        <div class="menu-panel" id="main-menu">
          <label for="menu-lang">{t("menu.language")}</label>
          <select
            id="menu-lang"
            value={app.lang}
            onChange={(e) => {
              const lang = e.currentTarget.value as Lang;
              loadLang(lang).then(
                () => {
                  setLang(lang);
                  update({ lang });
                },
                () => toast({ text: "app.load_failed" }),
              );
            }}
          >
            {LANGS.map((lang) => (
              <option key={lang} value={lang} lang={lang}>
                {LANG_NAMES[lang]}
              </option>
            ))}
          </select>
          <label class="check">
            <input
              type="checkbox"
              checked={app.sound}
              onChange={(e) => {
                const sound = e.currentTarget.checked;
                try {
                  localStorage.setItem("smear.sound", sound ? "on" : "off");
                } catch {
                  // not remembered
                }
                update({ sound });
              }}
            />
            {t("menu.sound")}
          </label>
          <button
            type="button"
            class="btn small secondary"
            disabled={preset === null}
            onClick={() => {
              setOpen(false);
              update({ howTo: preset });
            }}
          >
            {t("menu.how_to_play")}
          </button>
          <PlayersLinks where="menu" onNavigate={() => setOpen(false)} />
          {route.kind === "table" && (
            <button
              type="button"
              class="btn small secondary"
              onClick={() => {
                setOpen(false);
                navigate("/");
              }}
            >
              {t("menu.home")}
            </button>
          )}
          {seated && (
            <button type="button" class="btn small danger" onClick={onLeave}>
              {t("menu.leave")}
            </button>
          )}
        </div>
      )}
    </div>
  );
}

function TopBar() {
  const app = useApp();
  const route = app.route;
  return (
    <header class="topbar">
      <a
        class="brand"
        href="/"
        onClick={(event) => {
          event.preventDefault();
          navigate("/");
        }}
      >
        <span aria-hidden="true">♠</span> {t("app.title")}
      </a>
      {route.kind === "table" && (
        <span class="table-code" title={route.code}>
          #{route.code}
        </span>
      )}
      <span class="spacer" />
      <ConnectionStatus />
      <Menu />
    </header>
  );
}

function Toasts() {
  const app = useApp();
  const state = app.state;
  const name = (seat: number) => (state ? seatName(state, seat) : t("lobby.seat_n", { n: seat + 1 }));
  return (
    <div class="toasts" role="status" aria-live="polite">
      {app.toasts.map((entry) => (
        <div key={entry.id} class="toast">
          <span>{entry.error ? errorText(entry.error, name) : tk(entry.text ?? "")}</span>
          <button type="button" class="toast-close" aria-label={t("menu.close")} onClick={() => dismissToast(entry.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

function TableScreen() {
  const app = useApp();
  const state = app.state;
  if (app.notFound) {
    return (
      <div class="panel light center-panel">
        <p>{t("error.no_such_table")}</p>
        <AppLink class="btn" href="/">
          {t("menu.home")}
        </AppLink>
      </div>
    );
  }
  if (!state) return <p class="loading">{t("app.loading")}</p>;
  if (state.table.status === "lobby") {
    // The table's chunk comes while the seats fill, so the start does not wait for it.
    GameScreen.preload();
    return <LobbyScreen state={state} />;
  }
  return <GameScreen state={state} />;
}

export function App() {
  const app = useApp();
  const view = app.route.kind === "table" && app.state ? seatView(app.state) : null;
  const myTurn = !!view && canAct(view);
  // After every render: a new state has just rewritten the title, which a hidden tab's turn replaces.
  useLayoutEffect(() => showTurn(myTurn, () => t("title.your_turn")));
  return (
    <>
      <TopBar />
      <main id="main" class={app.route.kind}>
        <ProfileNotice />
        <InvitationBanner />
        {isPlayersRoute(app.route) ? (
          <PlayersScreen route={app.route} />
        ) : app.route.kind === "replay" ? (
          <ReplayScreen key={app.route.match ?? ""} match={app.route.match} />
        ) : app.route.kind === "practice" ? (
          <PracticeScreen />
        ) : app.route.kind === "landing" ? (
          <LandingScreen />
        ) : app.route.kind === "not_found" ? (
          <NotFound />
        ) : (
          <TableScreen />
        )}
      </main>
      <Toasts />
      {app.howTo && <HowToScreen preset={app.howTo} />}
    </>
  );
}

