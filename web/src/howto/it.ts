import type { HowTo, Section } from "./types";

const scoring: Section = {
  title: "Il conteggio di una mano",
  blocks: [
    "Se la parte di chi ha vinto l’asta ha fatto almeno i punti dichiarati, segna tutto quello che ha preso. Se resta sotto, va sotto: la dichiarazione le viene tolta dal punteggio e per quella mano non segna niente.",
    "Le altre parti segnano semplicemente i punti che hanno preso. Il punteggio può diventare negativo.",
  ],
};

const winning: Section = {
  title: "Chi vince la partita",
  blocks: [
    "Si gioca una mano dopo l’altra finché una parte raggiunge il traguardo ({target}, a meno che il tavolo non abbia scelto {other_targets}). Dopo ogni mano:",
    {
      list: [
        "se la parte di chi ha vinto l’asta ha mantenuto la dichiarazione ed è al traguardo o oltre, vince, anche se un’altra parte ci è arrivata con più punti;",
        "altrimenti vince la parte con il punteggio più alto tra quelle al traguardo o oltre;",
        "se più parti sono pari su quel punteggio più alto, si gioca un’altra mano.",
      ],
    },
    "Una parte che è appena andata sotto non può vincere con quella mano.",
  ],
};

const atTable: Section = {
  title: "A questo tavolo",
  blocks: [
    "Si possono cliccare solo le carte che puoi giocare; le altre appaiono sbiadite. Se qualcuno si disconnette, dopo una breve attesa un bot gioca al suo posto, e se il tavolo ha un tempo per turno, si gioca in automatico per chi lo lascia scadere.",
  ],
};

const tenPlayers: Section = {
  title: "Giocatori e parti",
  blocks: [
    "In {alone_players} si gioca ognuno per sé, oppure in {team_players} si gioca a coppie fisse, con i compagni seduti di fronte e il punteggio in comune. In {teams_only} si gioca sempre a squadre.",
  ],
};

const tenDeck: Section = {
  title: "Il mazzo e la distribuzione",
  blocks: [
    "Si usa il mazzo completo di {deck} carte (le {pack_cards} e {jokers} jolly).",
    { facts: "deal" },
    "Le carte non distribuite (il tallone) e tutti gli scarti restano coperti, fuori gioco, e non valgono niente per nessuno. Si scoprono a fine mano.",
  ],
};

const tenBidding: Section = {
  title: "L’asta",
  blocks: [
    "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti; chi passa è fuori. Se tutti gli altri hanno passato, il mazziere deve dichiarare.",
  ],
};

const tenTrumpAndDiscard: Section = {
  title: "La briscola e lo scarto",
  blocks: [
    "Subito dopo l’asta, chi l’ha vinta nomina il seme di briscola. Poi ogni giocatore, a partire da chi ha vinto l’asta e in senso orario, scarta coperto fino a tenere {hand_size} carte. Si può scartare qualsiasi carta, anche le briscole, anche se di solito conviene tenerle.",
  ],
};

const tenTrumps: Section = {
  title: "Le briscole",
  blocks: [
    "Il jick è il fante dell’altro seme dello stesso colore della briscola: il fante di quadri quando la briscola è cuori, e così via. Per quella mano è una briscola e nient’altro. Anche i jolly sono briscole. Dalla più alta alla più bassa:",
    {
      list: ["asso, re, donna e fante di briscola", "il jick", "il jolly grande, poi quello piccolo", "{rank_T}, {rank_9}… fino al {rank_2} di briscola"],
    },
  ],
};

const tenPlay: Section = {
  title: "Le prese",
  blocks: [
    "Chi ha vinto l’asta apre la prima presa e deve aprire con una briscola se ne ha (il jick e i jolly contano); se non ne ha, apre con quello che vuole.",
    {
      list: [
        "Se si apre con un seme normale, puoi rispondere al seme o giocare una briscola, come preferisci, anche se hai quel seme. Solo se non puoi fare né questo né quello puoi giocare altro.",
        "Se si apre con la briscola e tu ne hai, devi giocarla.",
        "Il jick e i jolly rispondono alla briscola, mai al seme stampato sulla carta.",
      ],
    },
    "Vince la presa la briscola più alta; senza briscole, la carta più alta del seme di apertura. Chi vince apre la successiva. Si giocano {hand_size} prese.",
  ],
};

const tenPoints: Section = {
  title: "I punti",
  blocks: [
    { facts: "points" },
    {
      list: [
        "Alta: la carta più alta del seme di briscola che è stata giocata, alla parte che la prende.",
        "Bassa: la carta più bassa del seme di briscola che è stata giocata, alla parte che la prende.",
        "Fante, Jick, jolly grande, jolly piccolo: ciascuno alla parte che lo prende.",
        "Partita: alla parte le cui carte prese contano di più ({rank_T} {game_ten}, asso {game_ace}, re {game_king}, donna {game_queen}, fante {game_jack}). In caso di parità non va a nessuno.",
        "{point_trey}: il {rank_3} di briscola, alla parte che lo prende.",
      ],
    },
    "Alta e Bassa si scelgono tra le carte del seme di briscola vero e proprio (mai il jick né un jolly) effettivamente giocate. Il punto di una carta scartata o rimasta nel tallone non va a nessuno.",
  ],
};

const tenAtTable: Section = {
  title: "A questo tavolo",
  blocks: [
    "Per scartare, clicca le carte da buttare (si alzano) e conferma. Si possono cliccare solo le carte che puoi giocare; le altre appaiono sbiadite.",
  ],
};

const trumpDiscardAtTable: Section = {
  title: "A questo tavolo",
  blocks: [
    "Per scartare, clicca le carte da buttare (si alzano) e conferma. Le carte che le regole ti obbligano a scartare sono già alzate e restano così; quelle che le regole ti obbligano a tenere appaiono sbiadite e non si possono scegliere. Il contatore dice quante ne hai scelte, e il pulsante funziona quando il numero è esatto.",
    "Se qualcuno si disconnette, dopo una breve attesa un bot gioca al suo posto, e se il tavolo ha un tempo per turno, si gioca in automatico per chi lo lascia scadere.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "Variante della casa",
    intro:
      "Lo Smear è un gioco di prese della famiglia del Pitch. Nella variante della casa ognuno riceve {cards_dealt} carte, chi vince l’asta fissa la briscola con la prima carta che gioca, e in ogni mano sono in palio {points} punti.",
    sections: [
      {
        title: "Giocatori e parti",
        blocks: [
          "Giocano da {min_players} a {max_players} persone. In {team_players} il padrone di casa può scegliere di giocare a squadre: i compagni vengono sorteggiati, siedono di fronte, mettono insieme le carte che prendono e hanno il punteggio in comune. Altrimenti ognuno gioca per sé.",
        ],
      },
      {
        title: "Il mazzo",
        blocks: [
          "Le {pack_cards} carte più {jokers} jolly, togliendo i valori più bassi finché ognuno riceve esattamente {cards_dealt} carte e ne avanzano alcune coperte. Queste carte dormienti ({sleeping_odd} con un numero dispari di giocatori, {sleeping_even} con un numero pari) non sono di nessuno e si scoprono solo a fine mano.",
          { facts: "deal" },
          "I jolly sono sempre nel mazzo, quindi ciascuno di loro può restare dormiente. Il primo mazziere è sorteggiato; poi a ogni mano il mazzo passa al posto successivo in senso orario.",
        ],
      },
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara un numero intero da {min_bid} a {max_bid} più alto di tutte le dichiarazioni precedenti. Chi passa è fuori dall’asta.",
          "Se tutti gli altri hanno passato, il mazziere non può passare e deve dichiarare (quanto vuole, da {min_bid} a {max_bid}). La parte di chi ha fatto la dichiarazione più alta deve poi prendere almeno quei punti.",
        ],
      },
      {
        title: "La briscola",
        blocks: [
          "Chi ha vinto l’asta apre la prima presa, e il seme di quella carta diventa briscola per tutta la mano. Non si può aprire la prima presa con un jolly, perché non ha seme. Dalla seconda presa in poi si può aprire con un jolly, e vale come aprire con la briscola.",
          "Le briscole vanno dall’asso fino al valore più basso del mazzo, seguite dal jolly grande e poi da quello piccolo: i jolly sono le briscole più basse. Qualunque carta del seme di briscola batte i jolly. In questa variante non c’è il jick.",
        ],
      },
      {
        title: "Le prese",
        blocks: [
          {
            list: [
              "Se si apre con un seme normale e tu ce l’hai, devi rispondere al seme, e non puoi tagliare con la briscola.",
              "Se si apre con la briscola (anche con un jolly) e tu ne hai, devi giocare una briscola. I jolly contano come briscole.",
              "Se non puoi rispondere al seme, puoi giocare qualsiasi carta, briscole comprese.",
              "Un jolly non conta mai come carta di un seme normale.",
            ],
          },
          "Vince la presa la briscola più alta; se non ci sono briscole, la carta più alta del seme di apertura. Chi vince la presa apre la successiva. Si giocano {hand_size} prese.",
        ],
      },
      {
        title: "I punti",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: la carta più alta del seme di briscola tra quelle distribuite, alla parte che la prende.",
              "Bassa: la carta più bassa del seme di briscola tra quelle distribuite, alla parte di chi l’ha giocata, chiunque vinca quella presa.",
              "Fante: il fante di briscola, alla parte che lo prende.",
              "Jolly grande e jolly piccolo: ciascuno alla parte che lo prende.",
              "Partita: alla parte le cui carte prese contano di più (ogni {rank_T} {game_ten}, asso {game_ace}, re {game_king}, donna {game_queen}, fante {game_jack}, il resto {game_other}, in ogni seme). In caso di parità in testa non va a nessuno.",
            ],
          },
          "I jolly non sono mai Alta né Bassa. Se del seme di briscola è stata distribuita soltanto una carta, quella carta è sia Alta sia Bassa. Il punto di una carta dormiente non viene assegnato: alcune mani valgono quindi meno di {points} punti, e una dichiarazione di {max_bid} può diventare impossibile.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  ten_point: {
    title: "Variante a {points} punti",
    intro:
      "Il gioco del Midwest con il jick e il {point_trey}: {usual_dealt} carte distribuite, lo scarto fino a {hand_size}, la briscola nominata da chi vince l’asta, e {points} punti in palio a ogni mano.",
    sections: [
      tenPlayers,
      tenDeck,
      tenBidding,
      tenTrumpAndDiscard,
      tenTrumps,
      tenPlay,
      tenPoints,
      scoring,
      winning,
      tenAtTable,
    ],
  },
  no_jick: {
    title: "{preset_ten_point} senza jick",
    intro:
      "La distribuzione e lo scarto del gioco «{preset_ten_point}» con un conteggio più breve: niente jick e niente {point_trey}, quindi in ogni mano sono in palio {points} punti, come nel Pitch classico.",
    sections: [
      tenPlayers,
      tenDeck,
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti; chi passa è fuori. Se tutti gli altri hanno passato, il mazziere deve dichiarare.",
        ],
      },
      tenTrumpAndDiscard,
      {
        title: "Le briscole",
        blocks: [
          "Non c’è il jick: l’altro fante del colore della briscola è una carta normale del suo seme e si risponde a quel seme come con qualsiasi altra. I jolly sono briscole e stanno subito sotto il fante di briscola. Dalla più alta alla più bassa:",
          {
            list: ["asso, re, donna e fante di briscola", "il jolly grande, poi quello piccolo", "{rank_T}, {rank_9}… fino al {rank_2} di briscola"],
          },
        ],
      },
      {
        title: "Le prese",
        blocks: [
          "Chi ha vinto l’asta apre la prima presa e deve aprire con una briscola se ne ha (i jolly contano); se non ne ha, apre con quello che vuole.",
          {
            list: [
              "Se si apre con un seme normale, puoi rispondere al seme o giocare una briscola, come preferisci, anche se hai quel seme. Solo se non puoi fare né questo né quello puoi giocare altro.",
              "Se si apre con la briscola e tu ne hai, devi giocarla.",
              "I jolly rispondono alla briscola, mai a un seme normale.",
            ],
          },
          "Vince la presa la briscola più alta; senza briscole, la carta più alta del seme di apertura. Chi vince apre la successiva. Si giocano {hand_size} prese.",
        ],
      },
      {
        title: "I punti",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: la carta più alta del seme di briscola che è stata giocata, alla parte che la prende.",
              "Bassa: la carta più bassa del seme di briscola che è stata giocata, alla parte che la prende.",
              "Fante: il fante di briscola, alla parte che lo prende.",
              "Jolly grande e jolly piccolo: ciascuno alla parte che lo prende.",
              "Partita: alla parte le cui carte prese contano di più ({rank_T} {game_ten}, asso {game_ace}, re {game_king}, donna {game_queen}, fante {game_jack}). In caso di parità non va a nessuno.",
            ],
          },
          "Non c’è il punto del {point_trey}: il {rank_3} di briscola è solo una briscola bassa. Alta e Bassa si scelgono tra le carte del seme di briscola vero e proprio (mai un jolly) effettivamente giocate, e il punto di una carta scartata o rimasta nel tallone non va a nessuno.",
        ],
      },
      scoring,
      winning,
      tenAtTable,
    ],
  },
  cutthroat: {
    title: "Tutti contro tutti ({alone_players} giocatori)",
    intro:
      "Il gioco «{preset_ten_point}» per esattamente {alone_players} giocatori, ognuno per sé: con il jick, il {point_trey} e {points} punti in ogni mano, e dichiarazioni da {min_bid} in su.",
    sections: [
      {
        title: "I giocatori",
        blocks: [
          "Giocano esattamente {alone_players} persone, senza compagni. Ogni punto che prendi conta solo per te, e così ogni dichiarazione che non mantieni.",
        ],
      },
      {
        title: "Il mazzo e la distribuzione",
        blocks: [
          "Si usa il mazzo completo di {deck} carte (le {pack_cards} e {jokers} jolly). Ognuno riceve {cards_dealt} carte; le altre {sleeping} restano coperte come tallone, fuori gioco e senza valore per nessuno. Dopo che è stata nominata la briscola, ognuno scarta fino a tenerne {hand_size}. Il tallone e gli scarti si scoprono a fine mano.",
          { facts: "deal" },
        ],
      },
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti: non si può dichiarare meno di {min_bid}. Chi passa è fuori. Se tutti gli altri hanno passato, il mazziere deve dichiarare, almeno {min_bid}.",
        ],
      },
      tenTrumpAndDiscard,
      tenTrumps,
      tenPlay,
      tenPoints,
      scoring,
      winning,
      tenAtTable,
    ],
  },
  five_point: {
    title: "A {points} punti ({team_count} squadre)",
    intro:
      "{team_count} squadre i cui giocatori si alternano attorno al tavolo, un mazzo con {jokers} jolly e con tutti i {rank_2}, la briscola fissata dalla prima carta di chi vince l’asta, e {points} punti in palio in ogni mano.",
    sections: [
      {
        title: "Giocatori e squadre",
        blocks: [
          "Giocano {team_players} persone, sempre in {team_count} squadre. I compagni non siedono vicini: i posti si alternano tra le squadre lungo tutto il giro, quindi in {team_example_players} i posti {team_seats_a} giocano contro i posti {team_seats_b}, e ognuno siede tra avversari. I compagni vengono sorteggiati all’inizio della partita. Ogni squadra mette insieme le carte che prende e ha il punteggio in comune.",
        ],
      },
      {
        title: "Il mazzo",
        blocks: [
          "Le {pack_cards} carte più {jokers} jolly. Tutti i {rank_2} restano sempre nel mazzo; con meno giocatori si tolgono alcuni valori di mezzo, così che ognuno riceva {cards_dealt} carte e ne avanzino {sleeping} coperte. Queste carte dormienti non sono di nessuno e si scoprono a fine mano.",
          { facts: "deal" },
          "Il jolly può essere una delle carte dormienti. Il primo mazziere è sorteggiato; poi a ogni mano il mazzo passa al posto successivo in senso orario.",
        ],
      },
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti; chi passa è fuori. Se tutti gli altri hanno passato, il mazziere non può passare e deve dichiarare. La squadra di chi ha vinto l’asta deve poi prendere almeno quei punti.",
        ],
      },
      {
        title: "La briscola",
        blocks: [
          "Chi ha vinto l’asta apre la prima presa, e il seme di quella carta diventa briscola per tutta la mano. Quella prima carta non può essere il jolly, che non ha seme; dalla seconda presa in poi si può aprire con il jolly, e vale come aprire con la briscola.",
          "Le briscole vanno dall’asso fino al {rank_2}, e il jolly viene dopo tutte: è la briscola più bassa, e qualunque carta del seme di briscola lo batte. Non c’è il jick.",
        ],
      },
      {
        title: "Le prese",
        blocks: [
          {
            list: [
              "Se si apre con un seme normale e tu ce l’hai, devi rispondere al seme, e non puoi tagliare con la briscola.",
              "Se si apre con la briscola (anche con il jolly) e tu ne hai, devi giocare una briscola. Il jolly conta come briscola.",
              "Se non puoi rispondere al seme, puoi giocare qualsiasi carta, briscole comprese.",
              "Il jolly non conta mai come carta di un seme normale.",
            ],
          },
          "Vince la presa la briscola più alta; se non ci sono briscole, la carta più alta del seme di apertura. Chi vince la presa apre la successiva. Si giocano {hand_size} prese.",
        ],
      },
      {
        title: "I punti",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: la carta più alta del seme di briscola tra quelle distribuite, alla squadra che la prende.",
              "Bassa: la carta più bassa del seme di briscola tra quelle distribuite, alla squadra di chi l’aveva in mano e l’ha giocata, chiunque vinca quella presa.",
              "Fante: il fante di briscola, alla squadra che lo prende.",
              "Jolly: alla squadra che lo prende.",
              "Partita: alla squadra le cui carte prese contano di più (ogni {rank_T} {game_ten}, asso {game_ace}, re {game_king}, donna {game_queen}, fante {game_jack}, il resto {game_other}, in ogni seme). In caso di parità non va a nessuno.",
            ],
          },
          "Il jolly non è mai Alta né Bassa. Il punto di una carta dormiente non viene assegnato, quindi alcune mani valgono meno di {points} punti.",
        ],
      },
      {
        title: "Opzione: il monte",
        blocks: [
          "Se il tavolo è creato con il monte, {kitty} delle {sleeping} carte avanzate formano il monte e le altre {kitty_sleeping} restano dormienti. Finita l’asta, chi l’ha vinta prende il monte senza mostrarlo e rimette coperte {kitty} delle sue {kitty_held} carte, quelle che vuole, anche quelle del monte. Solo allora apre, e la sua prima carta fissa la briscola: lo scambio si fa quindi prima di sapere quale sarà. Le carte rimesse non valgono per nessuno, come quelle dormienti, e tutti le vedono alla fine della mano.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  mcleod: {
    title: "McLeod (a coppie)",
    intro:
      "Un gioco a coppie della famiglia «{preset_ten_point}»: {usual_dealt} carte a testa, chi vince l’asta nomina la briscola e poi raccoglie tutto il tallone, scarti che tengono le briscole finché resta un’altra carta, e {points} punti in ogni mano.",
    sections: [
      {
        title: "Giocatori e coppie",
        blocks: [
          "Si gioca in {team_players}, sempre a coppie: i compagni siedono di fronte, mettono insieme le carte che prendono e hanno il punteggio in comune. Le coppie si sorteggiano all’inizio della partita.",
        ],
      },
      {
        title: "Il mazzo e la distribuzione",
        blocks: [
          "Si usa il mazzo completo di {deck} carte (le {pack_cards} e {jokers} jolly). Le carte non distribuite restano coperte: sono il tallone.",
          { facts: "deal" },
          "In {max_players} ognuno riceve {dealt_at_max} carte e non {dealt_at_min}: {dealt_at_min} a testa sarebbero più carte di quante ne abbia il mazzo.",
        ],
      },
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti; chi passa è fuori. Se tutti gli altri hanno passato, il mazziere deve dichiarare.",
        ],
      },
      {
        title: "La briscola, il tallone e lo scarto",
        blocks: [
          "Chi ha vinto l’asta nomina la briscola, raccoglie tutte le carte del tallone e scarta fino a tenerne {hand_size}. Poi gli altri, partendo dalla sua sinistra e in senso orario, scartano anche loro fino a {hand_size}.",
          "Nessuno può buttare una briscola tenendo una carta che non lo è: le briscole si scartano solo dopo tutte le altre carte, quindi solo chi ha più di {hand_size} briscole arriva a scartare una briscola. Gli scarti restano coperti e non contano per nessuno; si scoprono a fine mano.",
        ],
      },
      {
        title: "Le briscole",
        blocks: [
          "Il jick (il fante dell’altro seme dello stesso colore della briscola) e i jolly sono briscole. Dalla più alta alla più bassa:",
          { list: ["asso, re, donna e fante di briscola", "il jick", "i jolly", "{rank_T}, {rank_9}… fino al {rank_2} di briscola"] },
          "I jolly sono gemelli: nessuno vale più dell’altro. Se cadono nella stessa presa, quello giocato dopo batte quello giocato prima. Il tavolo continua a disegnare un jolly grande e un jolly piccolo solo perché tu possa distinguerli.",
        ],
      },
      {
        title: "Le prese",
        blocks: [
          "Chi ha vinto l’asta apre la prima presa e deve aprire con una briscola se ne ha (il jick e i jolly contano).",
          {
            list: [
              "Puoi sempre tagliare invece di rispondere al seme: se si apre con un seme normale, rispondi o gioca una briscola, come preferisci. Solo se non puoi fare né questo né quello puoi giocare altro.",
              "Se si apre con la briscola e tu ne hai, devi giocarla.",
              "Il jick e i jolly rispondono alla briscola, mai al seme stampato sulla carta.",
            ],
          },
          "Vince la presa la briscola più alta; senza briscole, la carta più alta del seme di apertura. Chi vince apre la successiva. Si giocano {hand_size} prese.",
        ],
      },
      tenPoints,
      scoring,
      {
        title: "Chi vince la partita",
        blocks: [
          "Si gioca una mano dopo l’altra finché una coppia raggiunge il traguardo ({target}, a meno che il tavolo non abbia scelto {other_targets}). Dopo ogni mano:",
          {
            list: [
              "se una o più coppie sono al traguardo o oltre, vince quella con il punteggio più alto, che abbia dichiarato o no in quella mano;",
              "se quel punteggio è condiviso, vince la coppia di chi ha vinto l’asta, se è tra queste; altrimenti si gioca un’altra mano.",
            ],
          },
        ],
      },
      trumpDiscardAtTable,
    ],
  },
  widow: {
    title: "Vedova ({table_sizes} giocatori)",
    intro:
      "{cards_dealt} carte a testa e una vedova di {widow} carte per chi vince l’asta. Gli altri cambiano le carte che non sono briscola con carte nuove del tallone, e il {point_two} e il {point_ten} prendono il posto della Bassa e della Partita: {points} punti in ogni mano.",
    sections: [
      {
        title: "Giocatori e parti",
        blocks: [
          "Si gioca in {table_sizes}. In {alone_only} ognuno gioca per sé; in {teams_either} ognuno per sé oppure, se chi ospita sceglie le squadre, in {team_count} coppie, con i compagni seduti di fronte e il punteggio in comune.",
        ],
      },
      {
        title: "Il mazzo e la distribuzione",
        blocks: [
          "Si usa il mazzo completo di {deck} carte (le {pack_cards} e {jokers} jolly). Ognuno riceve {cards_dealt} carte, altre {widow} vanno coperte a formare la vedova e il resto forma il tallone.",
          { facts: "deal" },
        ],
      },
      {
        title: "L’asta",
        blocks: [
          "L’asta parte alla sinistra del mazziere e finisce con lui. Ognuno passa o dichiara da {min_bid} a {max_bid}, più di tutte le dichiarazioni precedenti; chi passa è fuori. Se tutti gli altri hanno passato, il mazziere deve dichiarare.",
        ],
      },
      {
        title: "La vedova e la briscola",
        blocks: [
          "Chi ha vinto l’asta raccoglie le {widow} carte della vedova senza mostrarle, e solo dopo nomina il seme di briscola.",
        ],
      },
      {
        title: "Il cambio con il tallone",
        blocks: [
          "Poi ciascuno degli altri a turno, a partire dalla sinistra di chi ha vinto l’asta, butta tutte le carte che non sono briscola e pesca dal tallone fino a riavere {hand_size} carte.",
          {
            list: [
              "Chi ha più di {hand_size} briscole ne tiene {hand_size}: scarta le carte che non sono briscola e poi briscole fino a {hand_size}, ma mai una briscola che vale punti finché gli resta un’altra briscola da scartare.",
              "Se il tallone non basta, si scartano solo tante carte quante il tallone può sostituire, e ognuno sceglie quali carte non di briscola tenere.",
              "Per ultimo, chi ha vinto l’asta prende quello che resta del tallone e scarta fino a {hand_size}: prima le carte che non sono briscola, poi le briscole che non valgono punti, e quelle che valgono punti solo quando non resta nient’altro.",
            ],
          },
          "Le briscole che valgono punti sono l’asso, il fante, il jick, i jolly, il {rank_T}, il {rank_3} e il {rank_2} di briscola. Gli scarti e quello che resta nel tallone restano coperti e non contano per nessuno.",
        ],
      },
      tenTrumps,
      {
        title: "Le prese",
        blocks: [
          "Chi ha vinto l’asta apre la prima presa con la carta che vuole: non è obbligato ad aprire con una briscola.",
          {
            list: [
              "Se si apre con un seme normale, puoi rispondere al seme o giocare una briscola, come preferisci, anche se hai quel seme. Solo se non puoi fare né questo né quello puoi giocare altro.",
              "Se si apre con la briscola e tu ne hai, devi giocarla.",
              "Il jick e i jolly rispondono alla briscola, mai al seme stampato sulla carta.",
            ],
          },
          "Vince la presa la briscola più alta; senza briscole, la carta più alta del seme di apertura. Chi vince apre la successiva. Si giocano {hand_size} prese.",
        ],
      },
      {
        title: "I punti",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: la carta più alta del seme di briscola che è stata giocata, alla parte che la prende.",
              "{point_two}: il {rank_2} di briscola, alla parte di chi lo ha in mano quando cominciano le prese, chiunque vinca la presa in cui cade.",
              "Fante, Jick, jolly grande, jolly piccolo: ciascuno alla parte che lo prende.",
              "{point_ten}: alla parte che lo prende. Sostituisce la Partita: le carte non si contano.",
              "{point_trey}: il {rank_3} di briscola, alla parte che lo prende.",
            ],
          },
          "Non ci sono la Bassa e la Partita. Il punto di una carta scartata o rimasta nel tallone non va a nessuno.",
        ],
      },
      scoring,
      winning,
      trumpDiscardAtTable,
    ],
  },
  nine_card: {
    title: "Gioco a {cards_dealt} carte",
    intro:
      "Ognuno riceve {cards_dealt} carte e cambia tutte quelle che non sono briscola con carte nuove del tallone. Si giocano solo briscole, e chi le finisce esce dalla mano. In ogni mano ci sono {points} punti in palio, i jolly contano per chi li aveva e solo una parte che ha vinto l’asta può vincere la partita.",
    sections: [
      {
        title: "Giocatori e parti",
        blocks: [
          "Giocano {alone_players} persone, ognuna per sé; oppure {team_players} a coppie, con i compagni seduti di fronte e il punteggio in comune.",
        ],
      },
      {
        title: "Il mazzo e la distribuzione",
        blocks: [
          "Si usa il mazzo completo di {deck} carte ({pack_cards} carte e {jokers} jolly). Ognuno riceve {cards_dealt} carte; il resto rimane coperto come tallone.",
          { facts: "deal" },
          "Quando si distribuisce tutto il mazzo (vedi la tabella) non c’è tallone e nessuno pesca dopo lo scarto.",
        ],
      },
      tenBidding,
      {
        title: "La briscola e il cambio con il tallone",
        blocks: [
          "Chi ha vinto l’asta nomina la briscola. Poi, a turno, prima lui e poi gli altri in senso orario, ognuno butta tutte le carte che non sono briscola e riceve carte dal tallone finché non ne ha di nuovo {hand_size}.",
          {
            list: [
              "Lo scarto non si sceglie: se ne vanno tutte le carte che non sono briscola e restano tutte le briscole.",
              "Chi non ha carte che non siano briscola non scarta e non riceve niente.",
              "Chi ha più di {hand_size} briscole le tiene tutte e non riceve niente; le briscole in più si giocano nella prima presa.",
              "Quando il tallone finisce, la distribuzione si ferma: chi viene dopo riceve meno carte o nessuna, e può restare con meno di {hand_size} carte.",
              "Le carte del tallone che non sono briscola sono morte: restano in mano fino alla fine della mano e non si giocano mai.",
            ],
          },
          "Gli scarti e quel che resta del tallone rimangono coperti e non contano per nessuno; tutti li vedono a fine mano.",
        ],
      },
      tenTrumps,
      {
        title: "Le prese",
        blocks: [
          "Si giocano solo briscole. Chi ha vinto l’asta apre la prima presa o, se non ha briscole, il primo giocatore dopo di lui in senso orario che ne ha. Gli altri giocano poi a turno in senso orario, una briscola ciascuno.",
          {
            list: [
              "Chi non ha più briscole esce dalla mano: da quel momento il suo turno viene saltato, che abbia o no carte morte, quindi una presa può avere meno carte dei giocatori.",
              "Chi ha più di {hand_size} carte quando comincia il gioco gioca le briscole in più nella prima presa, carta dopo carta al suo turno, finché gliene restano quante agli altri dopo quella presa. La prima presa può quindi contenere più carte dello stesso giocatore.",
            ],
          },
          "La briscola più alta vince la presa, e chi la vince apre la successiva; se non ha più briscole, apre il giocatore seguente in senso orario che ne ha. La mano finisce appena nessuno ha più briscole, quindi il numero di prese cambia da una mano all’altra, e qualcuno può finire con carte morte in mano.",
        ],
      },
      {
        title: "I punti",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: la carta più alta del seme di briscola che è stata giocata, alla parte che la prende.",
              "Bassa: la carta più bassa del seme di briscola che è stata giocata, alla parte che la prende.",
              "Fante, Jick: ciascuno alla parte che lo prende.",
              "Jolly grande, jolly piccolo: ciascuno alla parte del giocatore che lo aveva e l’ha giocato, chiunque vinca la presa in cui cade.",
              "Partita: alla parte le cui carte prese contano di più ({rank_T} {game_ten}, asso {game_ace}, re {game_king}, donna {game_queen}, fante {game_jack}). In caso di parità non va a nessuno.",
              "{point_trey}: il {rank_3} di briscola, alla parte che lo prende.",
            ],
          },
          "Alta e Bassa si scelgono tra le carte del seme di briscola vero e proprio (mai il jick né un jolly). Ogni briscola distribuita o pescata prima o poi si gioca; il punto di una carta rimasta nel tallone non va a nessuno.",
        ],
      },
      scoring,
      {
        title: "Vincere la partita",
        blocks: [
          "Il traguardo è {target}, a meno che il tavolo abbia scelto {other_targets}. Può vincere solo la parte che ha vinto l’asta: dopo una mano, vince la partita se ha mantenuto la dichiarazione ed è al traguardo o oltre.",
          "Le altre parti si tengono semplicemente i loro punti. Possono restare al traguardo o oltre per più mani; per vincere la partita devono aggiudicarsi un’asta e mantenere la dichiarazione. Più parti possono stare oltre il traguardo nello stesso momento.",
          "Con le opzioni del tavolo, anche una luna fallita o l’eliminazione possono chiudere la partita, come spiegano le opzioni qui sotto.",
        ],
      },
      {
        title: "A questo tavolo",
        blocks: [
          "Lo scarto lo decidono le regole: le carte che non sono briscola sono già alzate, il contatore è pieno e basta confermare. Per il resto della mano le tue carte morte appaiono sbiadite e si possono cliccare solo le briscole.",
          "Accanto al nome di chi non ha più briscole compare «fuori». Quando hai briscole in più per la prima presa, il turno resta tuo finché non le hai giocate tutte; le carte che lo stesso giocatore ha messo nella presa appaiono a ventaglio al suo posto.",
          "Se qualcuno si disconnette, dopo una breve attesa un bot gioca al suo posto, e se il tavolo ha un tempo per turno, si gioca in automatico per chi lo lascia scadere.",
        ],
      },
    ],
  },
  options: {
    title: "Le opzioni del tavolo",
    blocks: [
      "Le sceglie chi crea il tavolo; la sala d’attesa e il punteggio mostrano quali sono attive.",
      {
        list: [
          "Traguardo: la partita si gioca a {targets} punti ({target} è il solito).",
          "Puntare alla luna: l’asta si allunga con una dichiarazione sopra la più alta della variante, indicata come «Luna»: {moon_bid} in questa variante. Per mantenerla, la parte che dichiara deve prendere tutti i punti della mano. Se ci riesce vince subito la partita, qualunque sia il punteggio; se no, perde quanto ha dichiarato e anche la partita.",
          "Eliminazione a {elimination}: una parte il cui punteggio scende a {elimination} o meno ha perso.",
          {
            option: "kitty",
            text: "Monte: finita l’asta, chi l’ha vinta prende {kitty} delle carte avanzate e ne rimette {kitty}, a scelta, coperte prima di aprire; la sezione sul monte, più sopra, spiega il resto.",
          },
        ],
      },
      "Che cosa succede nei casi su cui ci si chiede sempre:",
      {
        list: [
          "Il punto di una carta dormiente, rimasta nel tallone o scartata non può prenderlo nessuno, quindi in quella mano la luna non si può mantenere.",
          "Se una parte con punteggio negativo mantiene la luna, non vince la partita: il suo punteggio torna solo a {moon_reset} e si continua a giocare.",
          "Quando la luna non viene mantenuta, vince l’altra parte con il punteggio più alto. Se più parti sono pari, vince la prima di loro dopo la parte che ha dichiarato, nell’ordine in cui compaiono nel punteggio.",
          "Con l’eliminazione, se non c’è altra parte oltre all’avversaria, questa vince subito; altrimenti vince il punteggio migliore tra quelle ancora in gioco; in caso di parità si gioca un’altra mano, e una parte eliminata non può più vincere.",
          "Arrivare al traguardo viene prima: se nella stessa mano una parte vince secondo le regole solite, l’eliminazione non cambia nulla.",
        ],
      },
    ],
  },
};
