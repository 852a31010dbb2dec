import { useEffect, useRef, useState } from "preact/hooks";
import type { Block, HowTo, Section } from "../howto/types";
import { t, tk } from "../i18n";
import { presetFacts, type PresetFacts } from "../presets";
import { update, useApp } from "../store";
import type { Preset } from "../types";
import { dealTable, factValues, fillFacts, pointsTable, type FactTable } from "./howtoFacts";
import { PresetsPending } from "./PresetsPending";

// Each language's page is its own chunk, loaded when the dialog opens.
const PAGES = import.meta.glob<{ howto: HowTo }>("../howto/[a-z][a-z].ts");

/** What a page's blocks are drawn with: the preset's facts, and the numbers its prose names. */
interface Facts {
  preset: PresetFacts;
  values: Record<string, string | number>;
}

function FactTableView({ table, caption, kind }: { table: FactTable; caption: string; kind: string }) {
  // The caption stands above the box that scrolls sideways on a narrow screen, so it is never cut;
  // the box can be scrolled from the keyboard.
  const id = `howto-facts-${kind}`;
  return (
    <div class="fact-table">
      <p class="fact-caption" id={id}>
        {caption}
      </p>
      <div class="table-scroll" role="region" aria-labelledby={id} tabIndex={0}>
        <table class={`facts-${kind}`} aria-labelledby={id}>
          <thead>
            <tr>
              {table.head.map((cell) => (
                <th key={cell} scope="col">
                  {cell}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.join("|")}>
                {row.map((cell, i) => (i === 0 ? <th scope="row" key={i}>{cell}</th> : <td key={i}>{cell}</td>))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function BlockView({ block, facts }: { block: Block; facts: Facts }) {
  const fill = (text: string) => fillFacts(text, facts.values);
  if (typeof block === "string") return <p>{fill(block)}</p>;
  if ("list" in block) {
    // An item about a table option is shown only where the preset offers that option.
    const shown = block.list.flatMap((item) =>
      typeof item === "string" ? [item] : facts.preset.options[item.option] ? [item.text] : [],
    );
    return (
      <ul>
        {shown.map((item) => (
          <li key={item}>{fill(item)}</li>
        ))}
      </ul>
    );
  }
  if (block.facts === "deal") {
    return <FactTableView table={dealTable(facts.preset)} caption={t("howto.deal_title")} kind="deal" />;
  }
  return <FactTableView table={pointsTable(facts.preset)} caption={t("howto.points_title")} kind="points" />;
}

function SectionView({ section, facts, id }: { section: Section; facts: Facts; id?: string }) {
  return (
    <section id={id} tabIndex={id ? -1 : undefined}>
      <h3>{fillFacts(section.title, facts.values)}</h3>
      {section.blocks.map((block, i) => (
        <BlockView key={i} block={block} facts={facts} />
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

  // What scrolls into view (a section jumped to, a focused link, a heading found) stops below the
  // sticky title, however tall the title is in this language and width.
  const head = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = head.current;
    const box = dialog.current;
    if (!element || !box || typeof ResizeObserver === "undefined") return undefined;
    const observer = new ResizeObserver(() => box.style.setProperty("--howto-head", `${element.offsetHeight}px`));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

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

  const all = app.presets.status === "ready" ? app.presets.facts : null;
  const facts = all ? presetFacts(all, preset) : null;
  const drawn: Facts | null = facts ? { preset: facts, values: factValues(facts) } : null;
  const page = drawn ? content?.[preset] : undefined;
  return (
    <div class="modal-backdrop" onClick={(event) => event.target === event.currentTarget && close()}>
      <div ref={dialog} class="modal howto" role="dialog" aria-modal="true" aria-labelledby="howto-title">
        <div class="modal-head" ref={head}>
          <h1 id="howto-title">{t("howto.title")}</h1>
          <button ref={closeButton} type="button" class="btn small secondary" onClick={close}>
            {t("menu.close")}
          </button>
        </div>
        <div class="tabs" role="group" aria-label={t("landing.game")}>
          {(all?.presets ?? []).map(({ name }) => (
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
        {!all ? (
          <PresetsPending presets={app.presets} />
        ) : !page || !drawn ? (
          <p>{t("app.loading")}</p>
        ) : (
          <article lang={app.lang}>
            <h2>{fillFacts(page.title, drawn.values)}</h2>
            <p class="intro">{fillFacts(page.intro, drawn.values)}</p>
            <p class="options-link">
              <button type="button" class="link-button" aria-controls={OPTIONS_ID} onClick={showOptions}>
                {t("howto.options_link")} ↓
              </button>
            </p>
            {page.sections.map((section) => (
              <SectionView key={section.title} section={section} facts={drawn} />
            ))}
            {content && <SectionView section={content.options} facts={drawn} id={OPTIONS_ID} />}
          </article>
        )}
      </div>
    </div>
  );
}
