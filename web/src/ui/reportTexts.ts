// The report dialog's texts in every language, kept in the dialog's own chunk (not the catalogs
// every page fetches); the reasons are the server's codes (GET /api/presets), each worded here.

import type { Lang } from "../i18n";

export interface ReportTexts {
  title: string;
  why: string;
  reasons: Record<string, string>;
  text: string;
  send: string;
  cancel: string;
  thanks: string;
  close: string;
}

export const REPORT_TEXTS: Record<Lang, ReportTexts> = {
  en: {
    title: "Report {name}",
    why: "Why?",
    reasons: {
      abusive_chat: "Abusive chat",
      cheating_or_collusion: "Cheating or collusion",
      offensive_name: "Offensive name",
      leaving_or_stalling: "Leaving or stalling",
      other: "Something else",
    },
    text: "Anything to add (optional)",
    send: "Send report",
    cancel: "Cancel",
    thanks: "Thanks, an operator will read it.",
    close: "Close",
  },
  es: {
    title: "Denunciar a {name}",
    why: "¿Por qué?",
    reasons: {
      abusive_chat: "Chat ofensivo",
      cheating_or_collusion: "Trampas o colusión",
      offensive_name: "Nombre ofensivo",
      leaving_or_stalling: "Abandona o hace esperar",
      other: "Otra cosa",
    },
    text: "¿Algo que añadir? (opcional)",
    send: "Enviar denuncia",
    cancel: "Cancelar",
    thanks: "Gracias, un operador la leerá.",
    close: "Cerrar",
  },
  fr: {
    title: "Signaler {name}",
    why: "Pourquoi ?",
    reasons: {
      abusive_chat: "Propos injurieux",
      cheating_or_collusion: "Triche ou collusion",
      offensive_name: "Nom offensant",
      leaving_or_stalling: "Abandon ou attente volontaire",
      other: "Autre chose",
    },
    text: "Quelque chose à ajouter (facultatif)",
    send: "Envoyer le signalement",
    cancel: "Annuler",
    thanks: "Merci, un opérateur le lira.",
    close: "Fermer",
  },
  it: {
    title: "Segnala {name}",
    why: "Perché?",
    reasons: {
      abusive_chat: "Chat offensiva",
      cheating_or_collusion: "Imbrogli o collusione",
      offensive_name: "Nome offensivo",
      leaving_or_stalling: "Abbandona o perde tempo",
      other: "Altro",
    },
    text: "Qualcosa da aggiungere (facoltativo)",
    send: "Invia segnalazione",
    cancel: "Annulla",
    thanks: "Grazie, un operatore la leggerà.",
    close: "Chiudi",
  },
  pt: {
    title: "Denunciar {name}",
    why: "Por quê?",
    reasons: {
      abusive_chat: "Chat ofensivo",
      cheating_or_collusion: "Trapaça ou conluio",
      offensive_name: "Nome ofensivo",
      leaving_or_stalling: "Abandona ou enrola",
      other: "Outra coisa",
    },
    text: "Algo a acrescentar (opcional)",
    send: "Enviar denúncia",
    cancel: "Cancelar",
    thanks: "Obrigado, um operador vai ler.",
    close: "Fechar",
  },
};
