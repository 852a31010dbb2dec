// The person dialog's texts ("Add friend", "Block" from a player's name) in every language, kept in
// the dialog's own chunk (not the catalogs every page fetches).

import type { Lang } from "../i18n";

export interface PeopleTexts {
  title: string;
  addFriend: string;
  asked: string;
  friends: string;
  block: string;
  blockNote: string;
  blocked: string;
  close: string;
}

export const PEOPLE_TEXTS: Record<Lang, PeopleTexts> = {
  en: {
    title: "{name}",
    addFriend: "Add friend",
    asked: "Friend request sent to {name}.",
    friends: "You and {name} are friends now.",
    block: "Block",
    blockNote: "You will no longer see their chat or reactions, and they cannot invite you or see when you are online. They are not told. Undo it from your profile page.",
    blocked: "{name} is blocked.",
    close: "Close",
  },
  es: {
    title: "{name}",
    addFriend: "Añadir amigo",
    asked: "Solicitud de amistad enviada a {name}.",
    friends: "{name} y tú ya sois amigos.",
    block: "Bloquear",
    blockNote: "Dejarás de ver su chat y sus reacciones, y no podrá invitarte ni ver si estás conectado. No se le avisa. Puedes deshacerlo desde tu perfil.",
    blocked: "{name} está bloqueado.",
    close: "Cerrar",
  },
  fr: {
    title: "{name}",
    addFriend: "Ajouter en ami",
    asked: "Demande d’ami envoyée à {name}.",
    friends: "Vous et {name} êtes maintenant amis.",
    block: "Bloquer",
    blockNote: "Vous ne verrez plus ses messages ni ses réactions, et cette personne ne pourra ni vous inviter ni voir si vous êtes en ligne. Elle n’en est pas avertie. Annulable depuis votre profil.",
    blocked: "{name} est bloqué.",
    close: "Fermer",
  },
  it: {
    title: "{name}",
    addFriend: "Aggiungi amico",
    asked: "Richiesta di amicizia inviata a {name}.",
    friends: "Tu e {name} ora siete amici.",
    block: "Blocca",
    blockNote: "Non vedrai più la sua chat né le sue reazioni, e non potrà invitarti né vedere se sei online. Non viene avvisato. Puoi annullare dal tuo profilo.",
    blocked: "{name} è bloccato.",
    close: "Chiudi",
  },
  pt: {
    title: "{name}",
    addFriend: "Adicionar amigo",
    asked: "Pedido de amizade enviado para {name}.",
    friends: "Você e {name} agora são amigos.",
    block: "Bloquear",
    blockNote: "Você não verá mais o chat nem as reações dessa pessoa, e ela não poderá convidar você nem ver quando você está online. Ela não é avisada. Desfaça no seu perfil.",
    blocked: "{name} está bloqueado.",
    close: "Fechar",
  },
};
