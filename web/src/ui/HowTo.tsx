import { useEffect, useRef, useState } from "preact/hooks";
import type { Block, HowTo, Section } from "../howto/types";
import { t, tk } from "../i18n";
import { update, useApp } from "../store";
import { PRESET_NAMES, type Preset } from "../types";

// Each language's page is its own chunk, loaded when the dialog opens.
const PAGES = import.meta.glob<{ howto: HowTo }>("../howto/[a-z][a-z].ts");

function BlockView({ block }: { block: Block }) {
  if (typeof block === "string") return <p>{block}</p>;
  if ("list" in block) {
    return (
      <ul>
        {block.list.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    );
  }
  const [head, ...rows] = block.table;
  return (
    <div class="table-scroll">
      <table>
        <thead>
          <tr>
            {head.map((cell) => (
              <th key={cell} scope="col">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.join("|")}>
              {row.map((cell, i) => (i === 0 ? <th scope="row" key={i}>{cell}</th> : <td key={i}>{cell}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SectionView({ section, id }: { section: Section; id?: string }) {
  return (
    <section id={id} tabIndex={id ? -1 : undefined}>
      <h3>{section.title}</h3>
      {section.blocks.map((block, i) => (
        <BlockView key={i} block={block} />
      ))}
    </section>
  );
}

const OPTIONS_ID = "howto-options";

export function HowToDialog({ preset }: { preset: Preset }) {
  const app = useApp();
  const [content, setContent] = useState<HowTo | null>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    let live = true;
    const load = PAGES[`../howto/${app.lang}.ts`] ?? PAGES["../howto/en.ts"];
    void load().then((module) => {
      if (live) setContent(module.howto);
    });
    return () => {
      live = false;
    };
  }, [app.lang]);

  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // Opened at the table options (from the landing page), or at the top of the page chosen.
  useEffect(() => {
    if (!content) return;
    if (app.howToAt === "options") {
      const target = document.getElementById(OPTIONS_ID);
      target?.scrollIntoView({ block: "start" });
      target?.focus({ preventScroll: true });
    } else if (dialog.current) {
      dialog.current.scrollTop = 0;
    }
  }, [content, preset, app.howToAt]);

  const showOptions = () => {
    if (app.howToAt === "options") {
      const target = document.getElementById(OPTIONS_ID);
      target?.scrollIntoView({ block: "start" });
      target?.focus({ preventScroll: true });
    } else {
      update({ howToAt: "options" });
    }
  };

  const close = () => {
    update({ howTo: null, howToAt: "top" });
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };

  const page = content?.[preset];
  return (
    <div class="modal-backdrop" onClick={(event) => event.target === event.currentTarget && close()}>
      <div ref={dialog} class="modal howto" role="dialog" aria-modal="true" aria-labelledby="howto-title">
        <div class="modal-head">
          <h1 id="howto-title">{t("howto.title")}</h1>
          <button ref={closeButton} type="button" class="btn small secondary" onClick={close}>
            {t("menu.close")}
          </button>
        </div>
        <div class="tabs" role="group" aria-label={t("landing.game")}>
          {PRESET_NAMES.map((name) => (
            <button
              key={name}
              type="button"
              class={`tab${name === preset ? " current" : ""}`}
              aria-pressed={name === preset}
              onClick={() => update({ howTo: name, howToAt: "top" })}
            >
              {tk(`preset.${name}`)}
            </button>
          ))}
        </div>
        {!page ? (
          <p>{t("app.loading")}</p>
        ) : (
          <article lang={app.lang}>
            <h2>{page.title}</h2>
            <p class="intro">{page.intro}</p>
            <p class="options-link">
              <button type="button" class="link-button" aria-controls={OPTIONS_ID} onClick={showOptions}>
                {t("howto.options_link")} ↓
              </button>
            </p>
            {page.sections.map((section) => (
              <SectionView key={section.title} section={section} />
            ))}
            {content && <SectionView section={content.options} id={OPTIONS_ID} />}
          </article>
        )}
      </div>
    </div>
  );
}
