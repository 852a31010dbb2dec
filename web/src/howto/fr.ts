import type { HowTo, Section } from "./types";

const scoring: Section = {
  title: "Le décompte d’une donne",
  blocks: [
    "Si le camp du preneur a pris au moins autant de points qu’il en a annoncé, il marque tout ce qu’il a pris. Sinon il chute : son annonce est retirée de son score et il ne marque rien pour cette donne.",
    "Les autres camps marquent simplement les points qu’ils ont pris. Un score peut devenir négatif.",
  ],
};

const winning: Section = {
  title: "Gagner la partie",
  blocks: [
    "On enchaîne les donnes jusqu’à ce qu’un camp atteigne l’objectif ({target}, sauf si la table a choisi {other_targets}). Après chaque donne :",
    {
      list: [
        "si le camp du preneur a réussi son annonce et atteint ou dépasse l’objectif, il gagne, même si un autre camp l’a atteint aussi avec davantage de points ;",
        "sinon, le camp qui a le plus haut score parmi ceux qui ont atteint l’objectif gagne ;",
        "si plusieurs camps sont à égalité sur ce plus haut score, on joue une donne de plus.",
      ],
    },
    "Un camp qui vient de chuter ne peut pas gagner sur cette donne.",
  ],
};

const atTable: Section = {
  title: "À cette table",
  blocks: [
    "Seules les cartes jouables peuvent être cliquées ; les autres sont grisées. Si un joueur se déconnecte, un robot joue pour lui après un court délai, et si la table a un temps par tour, on joue automatiquement pour celui qui le dépasse.",
  ],
};

const tenPlayers: Section = {
  title: "Joueurs et camps",
  blocks: [
    "À {alone_players} joueurs, chacun joue pour soi ; à {team_players}, on peut aussi jouer en équipes fixes, les partenaires face à face partageant leur score. À {teams_only}, on joue toujours en équipes.",
  ],
};

const tenDeck: Section = {
  title: "Le jeu et la distribution",
  blocks: [
    "On utilise le jeu complet de {deck} cartes (les {pack_cards} cartes et {jokers} jokers).",
    { facts: "deal" },
    "Les cartes non distribuées (le talon) et tous les écarts restent face cachée, hors jeu, et ne valent rien pour personne. On les montre à la fin de la donne.",
  ],
};

const tenBidding: Section = {
  title: "Les annonces",
  blocks: [
    "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes ; qui a passé ne revient pas. Si tous les autres ont passé, le donneur doit annoncer.",
  ],
};

const tenTrumpAndDiscard: Section = {
  title: "L’atout et l’écart",
  blocks: [
    "Aussitôt les annonces finies, le preneur nomme la couleur d’atout. Puis chaque joueur, en commençant par le preneur et dans le sens des aiguilles d’une montre, écarte face cachée jusqu’à ne garder que {hand_size} cartes. On peut écarter n’importe quelles cartes, même des atouts, mais il est en général sage de garder les siens.",
  ],
};

const tenTrumps: Section = {
  title: "Les atouts",
  blocks: [
    "Le jick est le valet de l’autre couleur de même teinte que l’atout : le valet de carreau quand cœur est atout, et ainsi de suite. Pendant cette donne, c’est un atout et rien d’autre. Les jokers sont aussi des atouts. Du plus fort au plus faible :",
    {
      list: ["as, roi, dame et valet d’atout", "le jick", "le grand joker, puis le petit joker", "{rank_T}, {rank_9}… jusqu’au {rank_2} d’atout"],
    },
  ],
};

const tenPlay: Section = {
  title: "Les levées",
  blocks: [
    "Le preneur entame la première levée et doit entamer atout s’il en a (le jick et les jokers comptent) ; s’il n’en a aucun, il entame ce qu’il veut.",
    {
      list: [
        "Si l’entame est dans une couleur ordinaire, vous pouvez fournir ou couper, au choix, même si vous avez la couleur. Ce n’est que si vous ne pouvez faire ni ceci ni cela que vous jouez autre chose.",
        "Si l’entame est à l’atout et que vous en avez, vous devez en jouer.",
        "Le jick et les jokers suivent l’atout, jamais la couleur imprimée.",
      ],
    },
    "Le plus fort atout remporte la levée ; sans atout, c’est la plus forte carte de la couleur d’entame. Le gagnant entame la suivante. On joue {hand_size} levées.",
  ],
};

const tenPoints: Section = {
  title: "Les points",
  blocks: [
    { facts: "points" },
    {
      list: [
        "Haut : la plus forte carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
        "Bas : la plus faible carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
        "Valet, Jick, grand joker, petit joker : chacun au camp qui le remporte.",
        "Partie : au camp dont les cartes remportées comptent le plus ({rank_T} {game_ten}, as {game_ace}, roi {game_king}, dame {game_queen}, valet {game_jack}). En cas d’égalité, à personne.",
        "{point_trey} : le {rank_3} d’atout, au camp qui le remporte.",
      ],
    },
    "Haut et Bas se choisissent parmi les cartes de la couleur d’atout elle-même (jamais le jick ni un joker) qui ont vraiment été jouées. Le point d’une carte écartée ou restée au talon n’est attribué à personne.",
  ],
};

const tenAtTable: Section = {
  title: "À cette table",
  blocks: [
    "Pour écarter, cliquez sur les cartes à jeter (elles se soulèvent), puis confirmez. Seules les cartes jouables peuvent être cliquées ; les autres sont grisées.",
  ],
};

const trumpDiscardAtTable: Section = {
  title: "À cette table",
  blocks: [
    "Pour écarter, cliquez sur les cartes à jeter (elles se soulèvent), puis confirmez. Les cartes que les règles vous obligent à jeter sont déjà soulevées et le restent ; celles qu’elles vous obligent à garder sont grisées et ne peuvent pas être choisies. Le compteur indique combien vous en avez choisi, et le bouton fonctionne quand le compte est juste.",
    "Si un joueur se déconnecte, un robot joue pour lui après un court délai, et si la table a un temps par tour, on joue automatiquement pour celui qui le dépasse.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "Variante maison",
    intro:
      "Le Smear est un jeu de levées de la famille du Pitch. Dans la variante maison, chacun reçoit {cards_dealt} cartes, le preneur fixe l’atout par sa première entame, et {points} points sont en jeu à chaque donne.",
    sections: [
      {
        title: "Joueurs et camps",
        blocks: [
          "On joue de {min_players} à {max_players}. À {team_players}, l’hôte peut choisir de jouer en équipes : les partenaires sont tirés au sort, s’assoient face à face, mettent en commun les cartes qu’ils remportent et partagent un même score. Sinon, chacun joue pour soi.",
        ],
      },
      {
        title: "Le jeu de cartes",
        blocks: [
          "Les {pack_cards} cartes plus {jokers} jokers, dont on retire les plus petites valeurs jusqu’à ce que chacun reçoive exactement {cards_dealt} cartes et qu’il en reste quelques-unes face cachée. Ces cartes dormantes ({sleeping_odd} avec un nombre impair de joueurs, {sleeping_even} avec un nombre pair) n’appartiennent à personne et ne sont montrées qu’à la fin de la donne.",
          { facts: "deal" },
          "Les jokers font toujours partie du jeu : chacun d’eux peut donc dormir. Le premier donneur est tiré au sort ; ensuite la donne passe à la place suivante dans le sens des aiguilles d’une montre à chaque fois.",
        ],
      },
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce un nombre entier de {min_bid} à {max_bid}, plus élevé que toutes les annonces précédentes. Qui a passé ne peut plus annoncer.",
          "Si tous les autres ont passé, le donneur n’a pas le droit de passer et doit annoncer (de {min_bid} à {max_bid}, à son choix). Le camp de la plus forte annonce doit ensuite prendre au moins autant de points.",
        ],
      },
      {
        title: "L’atout",
        blocks: [
          "Le preneur entame la première levée, et la couleur de cette carte devient l’atout pour toute la donne. On ne peut pas entamer la première levée avec un joker, puisqu’il n’a pas de couleur. À partir de la deuxième levée on peut entamer un joker, et cela revient à entamer atout.",
          "Les atouts vont de l’as jusqu’à la plus petite valeur du jeu, suivis du grand joker puis du petit joker : les jokers sont les plus petits atouts. N’importe quelle carte de la couleur d’atout bat les jokers. Il n’y a pas de jick dans cette variante.",
        ],
      },
      {
        title: "Les levées",
        blocks: [
          {
            list: [
              "Si l’entame est dans une couleur ordinaire et que vous en avez, vous devez fournir, et vous ne pouvez pas couper à la place.",
              "Si l’entame est à l’atout (joker compris) et que vous avez de l’atout, vous devez en jouer. Les jokers comptent comme des atouts.",
              "Si vous ne pouvez pas fournir, vous jouez la carte de votre choix, atouts compris.",
              "Un joker ne compte jamais comme une carte d’une couleur ordinaire.",
            ],
          },
          "Le plus fort atout remporte la levée ; s’il n’y a pas d’atout, c’est la plus forte carte de la couleur d’entame. Celui qui remporte la levée entame la suivante. On joue {hand_size} levées.",
        ],
      },
      {
        title: "Les points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Haut : la plus forte carte de la couleur d’atout distribuée, au camp qui la remporte.",
              "Bas : la plus faible carte de la couleur d’atout distribuée, au camp du joueur qui l’a jouée, quel que soit le gagnant de la levée.",
              "Valet : le valet d’atout, au camp qui le remporte.",
              "Grand joker et petit joker : chacun au camp qui le remporte.",
              "Partie : au camp dont les cartes remportées comptent le plus (chaque {rank_T} {game_ten}, as {game_ace}, roi {game_king}, dame {game_queen}, valet {game_jack}, le reste {game_other}, dans toutes les couleurs). En cas d’égalité en tête, personne ne la marque.",
            ],
          },
          "Les jokers ne sont jamais Haut ni Bas. Si la couleur d’atout n’a qu’une carte distribuée, cette carte est à la fois Haut et Bas. Le point d’une carte dormante n’est pas attribué : certaines donnes valent donc moins de {points} points, et une annonce de {max_bid} peut devenir impossible.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  ten_point: {
    title: "Variante à {points} points",
    intro:
      "Le jeu du Midwest avec le jick et le {point_trey} : {usual_dealt} cartes distribuées, un écart jusqu’à {hand_size}, un atout nommé par le preneur, et {points} points en jeu à chaque donne.",
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
    title: "{preset_ten_point} sans jick",
    intro:
      "La distribution et l’écart du jeu « {preset_ten_point} » avec un décompte plus court : ni jick ni {point_trey}, donc {points} points en jeu à chaque donne, comme au Pitch classique.",
    sections: [
      tenPlayers,
      tenDeck,
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes ; qui a passé ne revient pas. Si tous les autres ont passé, le donneur doit annoncer.",
        ],
      },
      tenTrumpAndDiscard,
      {
        title: "Les atouts",
        blocks: [
          "Il n’y a pas de jick : l’autre valet de la couleur de l’atout est une carte ordinaire de sa propre couleur, qu’on fournit comme n’importe quelle autre. Les jokers sont des atouts et se placent juste sous le valet d’atout. Du plus fort au plus faible :",
          {
            list: ["as, roi, dame et valet d’atout", "le grand joker, puis le petit joker", "{rank_T}, {rank_9}… jusqu’au {rank_2} d’atout"],
          },
        ],
      },
      {
        title: "Les levées",
        blocks: [
          "Le preneur entame la première levée et doit entamer atout s’il en a (les jokers comptent) ; s’il n’en a aucun, il entame ce qu’il veut.",
          {
            list: [
              "Si l’entame est dans une couleur ordinaire, vous pouvez fournir ou couper, au choix, même si vous avez la couleur. Ce n’est que si vous ne pouvez faire ni ceci ni cela que vous jouez autre chose.",
              "Si l’entame est à l’atout et que vous en avez, vous devez en jouer.",
              "Les jokers suivent l’atout, jamais une couleur ordinaire.",
            ],
          },
          "Le plus fort atout remporte la levée ; sans atout, c’est la plus forte carte de la couleur d’entame. Le gagnant entame la suivante. On joue {hand_size} levées.",
        ],
      },
      {
        title: "Les points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Haut : la plus forte carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
              "Bas : la plus faible carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
              "Valet : le valet d’atout, au camp qui le remporte.",
              "Grand joker et petit joker : chacun au camp qui le remporte.",
              "Partie : au camp dont les cartes remportées comptent le plus ({rank_T} {game_ten}, as {game_ace}, roi {game_king}, dame {game_queen}, valet {game_jack}). En cas d’égalité, à personne.",
            ],
          },
          "Il n’y a pas de point de {point_trey} : le {rank_3} d’atout n’est qu’un petit atout. Haut et Bas se choisissent parmi les cartes de la couleur d’atout elle-même (jamais un joker) qui ont vraiment été jouées, et le point d’une carte écartée ou restée au talon n’est attribué à personne.",
        ],
      },
      scoring,
      winning,
      tenAtTable,
    ],
  },
  cutthroat: {
    title: "À {alone_players}, chacun pour soi",
    intro:
      "Le jeu « {preset_ten_point} » pour exactement {alone_players} joueurs, chacun pour soi : le jick, le {point_trey} et {points} points à chaque donne, avec des annonces à partir de {min_bid}.",
    sections: [
      {
        title: "Les joueurs",
        blocks: [
          "Exactement {alone_players} personnes jouent, sans partenaires. Chaque point que vous prenez ne compte que pour vous, et chaque chute aussi.",
        ],
      },
      {
        title: "Le jeu et la distribution",
        blocks: [
          "On utilise le jeu complet de {deck} cartes (les {pack_cards} cartes et {jokers} jokers). Chacun reçoit {cards_dealt} cartes ; les {sleeping} autres restent face cachée et forment le talon, hors jeu et sans valeur pour personne. Une fois l’atout nommé, chaque joueur écarte jusqu’à n’en garder que {hand_size}. Le talon et les écarts sont montrés à la fin de la donne.",
          { facts: "deal" },
        ],
      },
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes : on ne peut pas annoncer moins de {min_bid}. Qui a passé ne revient pas. Si tous les autres joueurs ont passé, le donneur doit annoncer, au moins {min_bid}.",
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
    title: "À {points} points ({team_count} équipes)",
    intro:
      "{team_count} équipes dont les joueurs alternent autour de la table, un jeu avec {jokers} joker où tous les {rank_2} sont gardés, l’atout fixé par la première entame du preneur, et {points} points en jeu à chaque donne.",
    sections: [
      {
        title: "Joueurs et équipes",
        blocks: [
          "On joue à {team_players}, toujours en {team_count} équipes. Les partenaires ne sont pas côte à côte : les places alternent entre les équipes tout autour de la table. À {team_example_players}, les places {team_seats_a} jouent donc contre les places {team_seats_b}, et chacun est assis entre des adversaires. Les partenaires sont tirés au sort au début de la partie. Chaque équipe met en commun les cartes qu’elle remporte et partage son score.",
        ],
      },
      {
        title: "Le jeu de cartes",
        blocks: [
          "Les {pack_cards} cartes plus {jokers} joker. Tous les {rank_2} restent toujours dans le jeu ; avec moins de joueurs, on retire quelques valeurs du milieu pour que chacun reçoive {cards_dealt} cartes et qu’il en reste {sleeping} face cachée. Ces cartes dormantes n’appartiennent à personne et sont montrées à la fin de la donne.",
          { facts: "deal" },
          "Le joker peut se trouver parmi les cartes dormantes. Le premier donneur est tiré au sort ; ensuite la donne passe à la place suivante dans le sens des aiguilles d’une montre à chaque fois.",
        ],
      },
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes ; qui a passé ne revient pas. Si tous les autres ont passé, le donneur ne peut pas passer et doit annoncer. L’équipe du preneur doit ensuite prendre au moins autant de points.",
        ],
      },
      {
        title: "L’atout",
        blocks: [
          "Le preneur entame la première levée, et la couleur de cette carte devient l’atout pour toute la donne. Cette première carte ne peut pas être le joker, qui n’a pas de couleur ; à partir de la deuxième levée on peut l’entamer, et cela compte comme entamer atout.",
          "Les atouts vont de l’as jusqu’au {rank_2}, et le joker vient après eux tous : c’est le plus faible atout, et n’importe quelle carte de la couleur d’atout le bat. Il n’y a pas de jick.",
        ],
      },
      {
        title: "Les levées",
        blocks: [
          {
            list: [
              "Si l’entame est dans une couleur ordinaire et que vous avez cette couleur, vous devez fournir, et vous ne pouvez pas couper à la place.",
              "Si l’entame est à l’atout (joker compris) et que vous avez de l’atout, vous devez en jouer. Le joker compte comme un atout.",
              "Si vous ne pouvez pas fournir, vous jouez n’importe quelle carte, atouts compris.",
              "Le joker ne compte jamais comme une carte d’une couleur ordinaire.",
            ],
          },
          "Le plus fort atout remporte la levée ; sans atout, c’est la plus forte carte de la couleur d’entame. Le gagnant entame la levée suivante. On joue {hand_size} levées.",
        ],
      },
      {
        title: "Les points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Haut : la plus forte carte de la couleur d’atout qui a été distribuée, à l’équipe qui la remporte.",
              "Bas : la plus faible carte de la couleur d’atout qui a été distribuée, à l’équipe du joueur qui l’avait en main et l’a jouée, quel que soit le gagnant de la levée.",
              "Valet : le valet d’atout, à l’équipe qui le remporte.",
              "Joker : à l’équipe qui le remporte.",
              "Partie : à l’équipe dont les cartes remportées comptent le plus (chaque {rank_T} {game_ten}, as {game_ace}, roi {game_king}, dame {game_queen}, valet {game_jack}, le reste {game_other}, dans toutes les couleurs). En cas d’égalité, à personne.",
            ],
          },
          "Le joker n’est jamais Haut ni Bas. Le point d’une carte dormante n’est pas attribué : certaines donnes valent donc moins de {points} points.",
        ],
      },
      {
        title: "Option : le chien",
        blocks: [
          "Si la table est créée avec le chien, {kitty} des {sleeping} cartes restantes forment le chien et les {kitty_sleeping} autres dorment. Après les annonces, le preneur ramasse le chien sans le montrer, puis remet face cachée {kitty} de ses {kitty_held} cartes, celles qu’il veut, y compris celles du chien. Ensuite seulement il entame, et sa première carte fixe l’atout : l’échange se fait donc avant que l’atout soit connu. Les cartes remises ne comptent pour personne, comme les cartes dormantes, et tout le monde les voit à la fin de la donne.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  mcleod: {
    title: "McLeod (en équipes)",
    intro:
      "Un jeu d’équipes de la famille « {preset_ten_point} » : {usual_dealt} cartes chacun, un preneur qui nomme l’atout puis ramasse tout le talon, des écarts qui gardent les atouts tant qu’il reste une autre carte, et {points} points à chaque donne.",
    sections: [
      {
        title: "Joueurs et équipes",
        blocks: [
          "On joue à {team_players}, toujours en équipes : les partenaires sont face à face, mettent en commun les cartes qu’ils remportent et partagent leur score. Les équipes sont tirées au sort au début de la partie.",
        ],
      },
      {
        title: "Le jeu et la distribution",
        blocks: [
          "On utilise le jeu complet de {deck} cartes (les {pack_cards} cartes et {jokers} jokers). Les cartes non distribuées restent face cachée : c’est le talon.",
          { facts: "deal" },
          "À {max_players}, chacun reçoit {dealt_at_max} cartes et non {dealt_at_min} : {dealt_at_min} chacun demanderaient plus de cartes que n’en compte le jeu.",
        ],
      },
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes ; qui a passé ne revient pas. Si tous les autres ont passé, le donneur doit annoncer.",
        ],
      },
      {
        title: "L’atout, le talon et l’écart",
        blocks: [
          "Le preneur nomme l’atout, ramasse toutes les cartes du talon et écarte jusqu’à ne garder que {hand_size} cartes. Ensuite les autres, en partant de sa gauche et dans le sens des aiguilles d’une montre, écartent aussi jusqu’à {hand_size}.",
          "Personne ne peut jeter un atout en gardant une carte hors atout : les atouts ne partent qu’une fois toutes les autres cartes écartées, si bien que seul un joueur qui a plus de {hand_size} atouts écarte un atout. Les écarts restent face cachée et ne comptent pour personne ; on les montre à la fin de la donne.",
        ],
      },
      {
        title: "Les atouts",
        blocks: [
          "Le jick (le valet de l’autre couleur de même teinte que l’atout) et les jokers sont des atouts. Du plus fort au plus faible :",
          { list: ["as, roi, dame et valet d’atout", "le jick", "les jokers", "{rank_T}, {rank_9}… jusqu’au {rank_2} d’atout"] },
          "Les jokers sont jumeaux : aucun ne bat l’autre par lui-même. S’ils tombent dans la même levée, celui qui est joué le plus tard l’emporte. La table dessine encore un grand et un petit joker, seulement pour qu’on puisse les distinguer.",
        ],
      },
      {
        title: "Les levées",
        blocks: [
          "Le preneur entame la première levée et doit entamer atout s’il en a (le jick et les jokers comptent).",
          {
            list: [
              "On peut toujours couper au lieu de fournir : si l’entame est dans une couleur ordinaire, fournissez ou coupez, au choix. Ce n’est que si vous ne pouvez faire ni ceci ni cela que vous jouez autre chose.",
              "Si l’entame est à l’atout et que vous en avez, vous devez en jouer.",
              "Le jick et les jokers suivent l’atout, jamais la couleur imprimée.",
            ],
          },
          "Le plus fort atout remporte la levée ; sans atout, c’est la plus forte carte de la couleur d’entame. Le gagnant entame la suivante. On joue {hand_size} levées.",
        ],
      },
      tenPoints,
      scoring,
      {
        title: "Gagner la partie",
        blocks: [
          "On enchaîne les donnes jusqu’à ce qu’une équipe atteigne l’objectif ({target}, sauf si la table a choisi {other_targets}). Après chaque donne :",
          {
            list: [
              "si une ou plusieurs équipes atteignent ou dépassent l’objectif, celle qui a le plus haut score gagne, qu’elle ait pris ou non dans cette donne ;",
              "si ce score est partagé, l’équipe du preneur gagne si elle en fait partie ; sinon, on joue une donne de plus.",
            ],
          },
        ],
      },
      trumpDiscardAtTable,
    ],
  },
  widow: {
    title: "Veuve ({table_sizes} joueurs)",
    intro:
      "{cards_dealt} cartes chacun et une veuve de {widow} cartes pour le preneur. Les autres échangent leurs cartes hors atout contre des cartes neuves du talon, et le {point_two} et le {point_ten} prennent la place du Bas et de la Partie : {points} points à chaque donne.",
    sections: [
      {
        title: "Joueurs et camps",
        blocks: [
          "On joue à {table_sizes}. À {alone_only}, chacun joue pour soi ; à {teams_either}, chacun pour soi ou, si l’hôte choisit les équipes, en {team_count} équipes, les partenaires face à face partageant leur score.",
        ],
      },
      {
        title: "Le jeu et la distribution",
        blocks: [
          "On utilise le jeu complet de {deck} cartes (les {pack_cards} cartes et {jokers} jokers). Chacun reçoit {cards_dealt} cartes, {widow} autres sont posées face cachée pour former la veuve, et le reste forme le talon.",
          { facts: "deal" },
        ],
      },
      {
        title: "Les annonces",
        blocks: [
          "Les annonces commencent à gauche du donneur et finissent par lui. Chacun passe ou annonce de {min_bid} à {max_bid}, plus haut que toutes les annonces précédentes ; qui a passé ne revient pas. Si tous les autres ont passé, le donneur doit annoncer.",
        ],
      },
      {
        title: "La veuve et l’atout",
        blocks: [
          "Le preneur ramasse les {widow} cartes de la veuve sans les montrer, et c’est seulement ensuite qu’il nomme la couleur d’atout.",
        ],
      },
      {
        title: "L’échange avec le talon",
        blocks: [
          "Puis chacun des autres à son tour, en commençant à gauche du preneur, jette toutes ses cartes hors atout et pioche dans le talon jusqu’à retrouver {hand_size} cartes.",
          {
            list: [
              "Un joueur qui a plus de {hand_size} atouts en garde {hand_size} : il écarte ses cartes hors atout puis des atouts jusqu’à {hand_size}, mais jamais un atout qui compte tant qu’il lui reste un autre atout à écarter.",
              "Si le talon ne suffit plus, on n’écarte que le nombre de cartes qu’il peut remplacer, en choisissant quelles cartes hors atout garder.",
              "Enfin, le preneur prend ce qui reste du talon et écarte jusqu’à {hand_size} : d’abord les cartes hors atout, puis les atouts qui ne comptent pas, et les atouts qui comptent seulement quand il ne reste rien d’autre.",
            ],
          },
          "Les atouts qui comptent sont l’as, le valet, le jick, les jokers, le {rank_T}, le {rank_3} et le {rank_2} d’atout. Les écarts et ce qui reste du talon restent face cachée et ne comptent pour personne.",
        ],
      },
      tenTrumps,
      {
        title: "Les levées",
        blocks: [
          "Le preneur entame la première levée avec la carte de son choix : il n’est pas tenu d’entamer atout.",
          {
            list: [
              "Si l’entame est dans une couleur ordinaire, vous pouvez fournir ou couper, au choix, même si vous avez la couleur. Ce n’est que si vous ne pouvez faire ni ceci ni cela que vous jouez autre chose.",
              "Si l’entame est à l’atout et que vous en avez, vous devez en jouer.",
              "Le jick et les jokers suivent l’atout, jamais la couleur imprimée.",
            ],
          },
          "Le plus fort atout remporte la levée ; sans atout, c’est la plus forte carte de la couleur d’entame. Le gagnant entame la suivante. On joue {hand_size} levées.",
        ],
      },
      {
        title: "Les points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Haut : la plus forte carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
              "{point_two} : le {rank_2} d’atout, au camp du joueur qui le tient au début des levées, quel que soit le gagnant de la levée où il tombe.",
              "Valet, Jick, grand joker, petit joker : chacun au camp qui le remporte.",
              "{point_ten} : au camp qui le remporte. Il remplace la Partie : on ne compte pas les cartes.",
              "{point_trey} : le {rank_3} d’atout, au camp qui le remporte.",
            ],
          },
          "Il n’y a ni Bas ni Partie. Le point d’une carte écartée ou restée au talon n’est attribué à personne.",
        ],
      },
      scoring,
      winning,
      trumpDiscardAtTable,
    ],
  },
  nine_card: {
    title: "Jeu à {cards_dealt} cartes",
    intro:
      "Chacun reçoit {cards_dealt} cartes et échange toutes ses cartes hors atout contre des cartes neuves du talon. On ne joue que des atouts, et les joueurs sortent de la donne à mesure que leurs atouts s’épuisent. {points} points sont en jeu à chaque donne, les jokers comptent pour qui les tenait, et seul un camp qui a pris peut gagner la partie.",
    sections: [
      {
        title: "Joueurs et camps",
        blocks: [
          "On joue à {alone_players}, chacun pour soi ; ou à {team_players} en équipes, les partenaires assis face à face et partageant leur score.",
        ],
      },
      {
        title: "Le jeu de cartes et la distribution",
        blocks: [
          "On utilise le jeu complet de {deck} cartes ({pack_cards} cartes et {jokers} jokers). Chacun reçoit {cards_dealt} cartes ; le reste forme le talon, face cachée.",
          { facts: "deal" },
          "Quand tout le jeu est distribué (voir le tableau), il n’y a pas de talon, et personne ne pioche après avoir écarté.",
        ],
      },
      tenBidding,
      {
        title: "L’atout et l’échange avec le talon",
        blocks: [
          "Le preneur nomme l’atout. Puis chacun à son tour, le preneur d’abord et ensuite dans le sens des aiguilles d’une montre, jette toutes ses cartes qui ne sont pas de l’atout et reçoit des cartes du talon jusqu’à en avoir de nouveau {hand_size}.",
          {
            list: [
              "L’écart ne se choisit pas : toutes les cartes hors atout partent, tous les atouts restent.",
              "Un joueur qui n’a aucune carte hors atout n’écarte pas et ne reçoit rien.",
              "Un joueur qui a plus de {hand_size} atouts les garde tous et ne reçoit rien ; les atouts en trop se jouent à la première levée.",
              "Quand le talon est vide, la distribution s’arrête : les joueurs suivants reçoivent moins de cartes ou aucune, et peuvent en avoir moins de {hand_size}.",
              "Les cartes du talon qui ne sont pas de l’atout sont mortes : elles restent en main jusqu’à la fin de la donne et ne sont jamais jouées.",
            ],
          },
          "Les écarts et ce qui reste du talon restent face cachée et ne comptent pour personne ; tout le monde les voit à la fin de la donne.",
        ],
      },
      tenTrumps,
      {
        title: "Le jeu des levées",
        blocks: [
          "On ne joue que des atouts. Le preneur entame la première levée ou, s’il n’a pas d’atout, le premier joueur après lui, dans le sens des aiguilles d’une montre, qui en a un. Les autres jouent ensuite chacun leur tour, un atout chacun.",
          {
            list: [
              "Un joueur qui n’a plus d’atout sort de la donne : on passe son tour jusqu’à la fin, qu’il lui reste des cartes mortes ou non, si bien qu’une levée peut compter moins de cartes qu’il n’y a de joueurs.",
              "Un joueur qui a plus de {hand_size} cartes au début du jeu joue ses atouts en trop à la première levée, carte après carte à son tour, jusqu’à en garder autant que les autres après cette levée. La première levée peut donc contenir plusieurs cartes du même joueur.",
            ],
          },
          "Le plus fort atout remporte la levée, et son gagnant entame la suivante ; s’il n’a plus d’atout, c’est le joueur suivant qui en a un qui entame. La donne s’arrête dès que plus personne n’a d’atout : le nombre de levées varie d’une donne à l’autre, et certains peuvent finir avec des cartes mortes en main.",
        ],
      },
      {
        title: "Les points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Haut : la plus forte carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
              "Bas : la plus faible carte de la couleur d’atout qui a été jouée, au camp qui la remporte.",
              "Valet, Jick : chacun au camp qui le remporte.",
              "Grand joker, petit joker : chacun au camp du joueur qui le tenait et l’a joué, quel que soit le gagnant de la levée.",
              "Partie : au camp dont les cartes remportées comptent le plus ({rank_T} {game_ten}, as {game_ace}, roi {game_king}, dame {game_queen}, valet {game_jack}). En cas d’égalité, à personne.",
              "{point_trey} : le {rank_3} d’atout, au camp qui le remporte.",
            ],
          },
          "Haut et Bas se choisissent parmi les cartes de la couleur d’atout elle-même (jamais le jick ni un joker). Tout atout distribué ou pioché finit par être joué ; le point d’une carte restée au talon n’est attribué à personne.",
        ],
      },
      scoring,
      {
        title: "Gagner la partie",
        blocks: [
          "L’objectif est {target}, sauf si la table a choisi {other_targets}. Seul le camp du preneur peut gagner : après une donne, il remporte la partie s’il a réussi son annonce et atteint ou dépasse l’objectif.",
          "Les autres camps gardent simplement leurs points. Ils peuvent rester plusieurs donnes à l’objectif ou au-delà ; pour gagner la partie, il leur faut remporter les annonces et réussir la leur. Plusieurs camps peuvent dépasser l’objectif en même temps.",
          "Avec les options de la table, une lune manquée ou l’élimination peuvent aussi terminer la partie, comme l’expliquent les options ci-dessous.",
        ],
      },
      {
        title: "À cette table",
        blocks: [
          "Ce sont les règles qui font l’écart : vos cartes hors atout sont déjà soulevées, le compteur est plein, il ne reste qu’à confirmer. Pendant le reste de la donne, vos cartes mortes sont grisées et seuls vos atouts peuvent être cliqués.",
          "Un joueur qui n’a plus d’atout est marqué « hors jeu » à côté de son nom. Quand vous avez des atouts en trop pour la première levée, la main reste à vous jusqu’à ce que vous les ayez tous joués ; les cartes qu’un même joueur a mises dans une levée sont disposées en éventail à sa place.",
          "Si un joueur se déconnecte, un robot joue pour lui après un court délai, et si la table a un temps par tour, on joue automatiquement pour celui qui le dépasse.",
        ],
      },
    ],
  },
  options: {
    title: "Les options de la table",
    blocks: [
      "Elles sont choisies par qui crée la table ; la salle d’attente et le tableau des scores indiquent celles qui sont actives.",
      {
        list: [
          "Objectif : la partie se joue en {targets} points ({target} est l’usage).",
          "Viser la lune : les annonces gagnent une annonce juste au-dessus de la plus haute de la variante, affichée « Lune » : {moon_bid} dans cette variante. Pour la réussir, le camp du preneur doit remporter tous les points de la donne. Réussie, elle fait gagner la partie sur-le-champ, quels que soient les scores ; manquée, elle coûte la valeur annoncée, et la partie avec.",
          "Élimination à {elimination} : un camp dont le score tombe à {elimination} ou moins a perdu.",
          {
            option: "kitty",
            text: "Chien : après les annonces, le preneur ramasse {kitty} des cartes restantes et en remet {kitty}, à son choix, face cachée avant d’entamer ; la section du chien, plus haut, en dit plus.",
          },
        ],
      },
      "Ce qui se passe dans les cas qu’on se pose souvent :",
      {
        list: [
          "Le point d’une carte dormante, restée au talon ou écartée ne peut être pris par personne : dans cette donne, la lune est impossible à réussir.",
          "Une lune réussie par un camp dont le score était négatif ne fait pas gagner la partie : son score revient seulement à {moon_reset}, et le jeu continue.",
          "Quand une lune est manquée, l’autre camp qui a le plus haut score gagne. Si plusieurs sont à égalité, c’est le premier d’entre eux après le camp du preneur, dans l’ordre du tableau des scores, qui gagne.",
          "Avec l’élimination, s’il n’y a pas d’autre camp que l’adversaire, celui-ci gagne aussitôt ; sinon, le meilleur score parmi les camps encore en jeu gagne ; en cas d’égalité on joue une donne de plus, et un camp éliminé ne peut plus gagner.",
          "Atteindre l’objectif passe en premier : si un camp gagne selon les règles habituelles dans la même donne, l’élimination n’y change rien.",
        ],
      },
    ],
  },
};
