import type { HowTo, Section } from "./types";

const scoring: Section = {
  title: "Cómo se anota una mano",
  blocks: [
    "Si el bando que ganó la apuesta consiguió al menos los puntos que apostó, suma todo lo que ganó. Si se quedó corto, no llega: se le resta lo apostado y no suma nada en esa mano.",
    "Los demás bandos suman sin más los puntos que ganaron. La puntuación puede volverse negativa.",
  ],
};

const winning: Section = {
  title: "Quién gana la partida",
  blocks: [
    "Se juegan manos hasta que un bando llega a la meta ({target}, salvo que la mesa haya elegido {other_targets}). Después de cada mano:",
    {
      list: [
        "si el bando apostador cumplió su apuesta y está en la meta o por encima, gana, aunque otro bando también haya llegado y tenga más;",
        "si no, gana el bando con la puntuación más alta entre los que están en la meta o por encima;",
        "si varios bandos empatan en esa puntuación más alta, se reparte otra mano.",
      ],
    },
    "Un bando que no cumplió su apuesta no puede ganar en esa mano.",
  ],
};

const atTable: Section = {
  title: "En esta mesa",
  blocks: [
    "Solo se pueden pulsar las cartas que puedes jugar; las demás aparecen atenuadas. Si alguien se desconecta, un bot juega por esa persona tras una breve espera, y si la mesa tiene tiempo por turno, se juega automáticamente por quien se quede sin tiempo.",
  ],
};

const tenPlayers: Section = {
  title: "Jugadores y bandos",
  blocks: [
    "Juegan {alone_players} personas cada una por su cuenta, o {team_players} en parejas fijas, con los compañeros sentados frente a frente y la puntuación compartida. Con {teams_only} jugadores siempre se juega por parejas.",
  ],
};

const tenDeck: Section = {
  title: "La baraja y el reparto",
  blocks: [
    "Se usa la baraja completa de {deck} cartas (las {pack_cards} y {jokers} comodines).",
    { facts: "deal" },
    "Las cartas que no se reparten (el mazo) y todos los descartes quedan boca abajo, fuera del juego, y no valen nada para nadie. Se muestran al terminar la mano.",
  ],
};

const tenBidding: Section = {
  title: "La apuesta",
  blocks: [
    "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar.",
  ],
};

const tenTrumpAndDiscard: Section = {
  title: "El triunfo y el descarte",
  blocks: [
    "Justo después de la apuesta, quien la ganó nombra el palo de triunfo. Luego cada jugador, empezando por el apostador y siguiendo las agujas del reloj, descarta boca abajo hasta quedarse con {hand_size} cartas. Se puede tirar cualquier carta, también triunfos, aunque guardarlos suele ser buena idea.",
  ],
};

const tenTrumps: Section = {
  title: "Los triunfos",
  blocks: [
    "El jick es la jota del otro palo del mismo color que el triunfo: la jota de diamantes cuando el triunfo es corazones, y así con los demás. Durante esa mano es un triunfo y nada más. Los comodines también son triunfos. De mayor a menor:",
    {
      list: ["as, rey, reina y jota de triunfo", "el jick", "el comodín grande y luego el pequeño", "{rank_T}, {rank_9}… hasta el {rank_2} de triunfo"],
    },
  ],
};

const tenPlay: Section = {
  title: "Las bazas",
  blocks: [
    "Quien ganó la apuesta sale en la primera baza y debe salir con triunfo si tiene alguno (el jick y los comodines cuentan); si no tiene ninguno, puede salir con lo que quiera.",
    {
      list: [
        "Si se sale con un palo normal, puedes seguir el palo o jugar un triunfo, como prefieras, aunque tengas cartas de ese palo. Solo si no puedes hacer ninguna de las cosas puedes jugar otra cosa.",
        "Si se sale con triunfo y tienes triunfo, tienes que jugarlo.",
        "El jick y los comodines siguen al triunfo, nunca al palo que llevan impreso.",
      ],
    },
    "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana sale en la siguiente. Se juegan {hand_size} bazas.",
  ],
};

const tenPoints: Section = {
  title: "Los puntos",
  blocks: [
    { facts: "points" },
    {
      list: [
        "Alto: la carta más alta del palo de triunfo que se jugó, para el bando que la gana.",
        "Bajo: la carta más baja del palo de triunfo que se jugó, para el bando que la gana.",
        "Jota, Jick, comodín grande, comodín pequeño: cada uno para el bando que lo gana.",
        "Juego: para el bando cuyas cartas ganadas suman más tantos ({rank_T} {game_ten}, as {game_ace}, rey {game_king}, reina {game_queen}, jota {game_jack}). Si hay empate, no es para nadie.",
        "{point_trey}: el {rank_3} de triunfo, para el bando que lo gana.",
      ],
    },
    "Alto y Bajo se eligen entre las cartas del propio palo de triunfo (nunca el jick ni un comodín) que se jugaron de verdad. El punto de una carta descartada o que quedó en el mazo no es para nadie.",
  ],
};

const tenAtTable: Section = {
  title: "En esta mesa",
  blocks: [
    "Para descartar, pulsa las cartas que quieres tirar (se levantan) y confirma. Solo se pueden pulsar las cartas que puedes jugar; las demás aparecen atenuadas.",
  ],
};

const trumpDiscardAtTable: Section = {
  title: "En esta mesa",
  blocks: [
    "Para descartar, pulsa las cartas que quieres tirar (se levantan) y confirma. Las cartas que las reglas te obligan a tirar ya aparecen levantadas y no se pueden bajar; las que las reglas te obligan a guardar aparecen atenuadas y no se pueden elegir. El contador indica cuántas llevas, y el botón funciona cuando el número es exacto.",
    "Si alguien se desconecta, un bot juega por esa persona tras una breve espera, y si la mesa tiene tiempo por turno, se juega automáticamente por quien se quede sin tiempo.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "Variante de la casa",
    intro:
      "El Smear es un juego de bazas de la familia del Pitch. En la variante de la casa cada jugador recibe {cards_dealt} cartas, quien gana la apuesta fija el triunfo con su primera carta y en cada mano se juegan {points} puntos.",
    sections: [
      {
        title: "Jugadores y bandos",
        blocks: [
          "Juegan de {min_players} a {max_players} personas. Con {team_players}, el anfitrión puede elegir jugar por parejas: se sortean, los compañeros se sientan frente a frente, juntan las cartas que ganan y comparten la puntuación. Si no, cada uno juega por su cuenta.",
        ],
      },
      {
        title: "La baraja",
        blocks: [
          "Las {pack_cards} cartas más {jokers} comodines, quitando los valores más bajos hasta que cada jugador recibe exactamente {cards_dealt} cartas y sobran unas pocas boca abajo. Esas cartas dormidas ({sleeping_odd} si el número de jugadores es impar, {sleeping_even} si es par) no son de nadie y solo se muestran al terminar la mano.",
          { facts: "deal" },
          "Los comodines siempre están en la baraja, así que cualquiera de ellos puede quedar dormido. El primer repartidor se sortea; después el reparto pasa al asiento siguiente en el sentido de las agujas del reloj en cada mano.",
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta un número entero del {min_bid} al {max_bid} más alto que todas las apuestas anteriores. Quien pasa queda fuera de la subasta.",
          "Si todos los demás han pasado, el repartidor no puede pasar y tiene que apostar (cualquier cantidad del {min_bid} al {max_bid}). El bando de quien hizo la apuesta más alta debe conseguir al menos esos puntos.",
        ],
      },
      {
        title: "El triunfo",
        blocks: [
          "Quien ganó la apuesta sale en la primera baza, y el palo de esa carta pasa a ser el triunfo durante toda la mano. No se puede salir con un comodín en la primera baza, porque no tiene palo. A partir de la segunda baza sí se puede salir con comodín, y eso cuenta como salir con triunfo.",
          "Los triunfos van del as al valor más bajo de la baraja, seguidos del comodín grande y después del pequeño: los comodines son los triunfos más bajos. Cualquier carta del palo de triunfo gana a los comodines. En esta variante no hay jick.",
        ],
      },
      {
        title: "Las bazas",
        blocks: [
          {
            list: [
              "Si se sale con un palo normal y tienes cartas de ese palo, tienes que seguirlo, y no puedes fallar con triunfo.",
              "Si se sale con triunfo (también con un comodín) y tienes triunfo, tienes que jugar triunfo. Los comodines cuentan como triunfos.",
              "Si no puedes seguir el palo, puedes jugar cualquier carta, triunfos incluidos.",
              "Un comodín nunca cuenta como carta de un palo normal.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana la baza sale en la siguiente. Se juegan {hand_size} bazas.",
        ],
      },
      {
        title: "Los puntos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se repartió, para el bando que la gana.",
              "Bajo: la carta más baja del palo de triunfo que se repartió, para el bando de quien la jugó, gane quien gane esa baza.",
              "Jota: la jota de triunfo, para el bando que la gana.",
              "Comodín grande y comodín pequeño: cada uno para el bando que lo gana.",
              "Juego: para el bando cuyas cartas ganadas suman más tantos (cada {rank_T} {game_ten}, as {game_ace}, rey {game_king}, reina {game_queen}, jota {game_jack}, lo demás {game_other}, de cualquier palo). Si hay empate en lo más alto, no es para nadie.",
            ],
          },
          "Los comodines nunca son Alto ni Bajo. Si solo se repartió una carta del palo de triunfo, es a la vez Alto y Bajo. El punto de una carta dormida no se da a nadie, así que algunas manos valen menos de {points} puntos y una apuesta de {max_bid} puede ser imposible.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  ten_point: {
    title: "Variante a {points} puntos",
    intro:
      "El juego del Medio Oeste con jick y {point_trey}: se reparten {usual_dealt} cartas, se descarta hasta quedarse con {hand_size}, quien gana la apuesta nombra el triunfo y en cada mano se juegan {points} puntos.",
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
    title: "{preset_ten_point} sin jick",
    intro:
      "El reparto y el descarte del juego «{preset_ten_point}» con una cuenta más corta: no hay jick ni {point_trey}, así que en cada mano se juegan {points} puntos, como en el Pitch clásico.",
    sections: [
      tenPlayers,
      tenDeck,
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar.",
        ],
      },
      tenTrumpAndDiscard,
      {
        title: "Los triunfos",
        blocks: [
          "No hay jick: la otra jota del color del triunfo es una carta normal de su propio palo y se sigue como cualquier otra. Los comodines son triunfos y van justo por debajo de la jota de triunfo. De mayor a menor:",
          {
            list: ["as, rey, reina y jota de triunfo", "el comodín grande y luego el pequeño", "{rank_T}, {rank_9}… hasta el {rank_2} de triunfo"],
          },
        ],
      },
      {
        title: "Las bazas",
        blocks: [
          "Quien ganó la apuesta sale en la primera baza y debe salir con triunfo si tiene alguno (los comodines cuentan); si no tiene ninguno, puede salir con lo que quiera.",
          {
            list: [
              "Si se sale con un palo normal, puedes seguir el palo o jugar un triunfo, como prefieras, aunque tengas cartas de ese palo. Solo si no puedes hacer ninguna de las cosas puedes jugar otra cosa.",
              "Si se sale con triunfo y tienes triunfo, tienes que jugarlo.",
              "Los comodines siguen al triunfo, nunca a un palo normal.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana sale en la siguiente. Se juegan {hand_size} bazas.",
        ],
      },
      {
        title: "Los puntos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se jugó, para el bando que la gana.",
              "Bajo: la carta más baja del palo de triunfo que se jugó, para el bando que la gana.",
              "Jota: la jota de triunfo, para el bando que la gana.",
              "Comodín grande y comodín pequeño: cada uno para el bando que lo gana.",
              "Juego: para el bando cuyas cartas ganadas suman más tantos ({rank_T} {game_ten}, as {game_ace}, rey {game_king}, reina {game_queen}, jota {game_jack}). Si hay empate, no es para nadie.",
            ],
          },
          "No hay punto de {point_trey}: el {rank_3} de triunfo es solo un triunfo bajo. Alto y Bajo se eligen entre las cartas del propio palo de triunfo (nunca un comodín) que se jugaron de verdad, y el punto de una carta descartada o que quedó en el mazo no es para nadie.",
        ],
      },
      scoring,
      winning,
      tenAtTable,
    ],
  },
  cutthroat: {
    title: "Todos contra todos ({alone_players} jugadores)",
    intro:
      "El juego «{preset_ten_point}» para exactamente {alone_players} jugadores, cada uno por su cuenta: con jick, {point_trey} y {points} puntos en cada mano, y apuestas a partir de {min_bid}.",
    sections: [
      {
        title: "Jugadores",
        blocks: [
          "Juegan exactamente {alone_players} personas, sin compañeros. Cada punto que ganas cuenta solo para ti, igual que cada apuesta que no cumples.",
        ],
      },
      {
        title: "La baraja y el reparto",
        blocks: [
          "Se usa la baraja completa de {deck} cartas (las {pack_cards} y {jokers} comodines). Cada jugador recibe {cards_dealt} cartas; las otras {sleeping} quedan boca abajo como mazo, fuera del juego y sin valor para nadie. Después de nombrar el triunfo, cada jugador descarta hasta quedarse con {hand_size}. El mazo y los descartes se muestran al terminar la mano.",
          { facts: "deal" },
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores: no se puede apostar menos de {min_bid}. Quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar, como mínimo {min_bid}.",
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
    title: "A {points} puntos ({team_count} equipos)",
    intro:
      "{team_count} equipos cuyos jugadores se alternan alrededor de la mesa, una baraja con {jokers} comodín y con todos los {rank_2}, el triunfo fijado por la primera salida del apostador y {points} puntos en juego en cada mano.",
    sections: [
      {
        title: "Jugadores y equipos",
        blocks: [
          "Juegan {team_players} personas, siempre en {team_count} equipos. Los compañeros no se sientan juntos: los asientos se alternan entre los equipos en toda la vuelta, de modo que con {team_example_players} jugadores los asientos {team_seats_a} juegan contra los asientos {team_seats_b}, y todos tienen rivales a los lados. Los compañeros se sortean al empezar la partida. Cada equipo junta las cartas que gana y comparte la puntuación.",
        ],
      },
      {
        title: "La baraja",
        blocks: [
          "Las {pack_cards} cartas más {jokers} comodín. Todos los {rank_2} se quedan siempre; con menos jugadores se quitan algunos valores intermedios, para que cada uno reciba {cards_dealt} cartas y sobren {sleeping} boca abajo. Esas cartas dormidas no son de nadie y se muestran al terminar la mano.",
          { facts: "deal" },
          "El comodín puede ser una de las cartas dormidas. El primer repartidor se sortea; después el reparto pasa al asiento siguiente en el sentido de las agujas del reloj en cada mano.",
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor no puede pasar y tiene que apostar. El equipo de quien ganó la apuesta debe conseguir al menos esos puntos.",
        ],
      },
      {
        title: "El triunfo",
        blocks: [
          "Quien ganó la apuesta sale en la primera baza, y el palo de esa carta pasa a ser el triunfo durante toda la mano. Esa primera carta no puede ser el comodín, porque no tiene palo; a partir de la segunda baza sí se puede salir con él, y eso cuenta como salir con triunfo.",
          "Los triunfos van del as al {rank_2}, y el comodín va detrás de todos: es el triunfo más bajo, así que cualquier carta del palo de triunfo le gana. No hay jick.",
        ],
      },
      {
        title: "Las bazas",
        blocks: [
          {
            list: [
              "Si se sale con un palo normal y tienes cartas de ese palo, tienes que seguirlo, y no puedes fallar con triunfo.",
              "Si se sale con triunfo (también con el comodín) y tienes triunfo, tienes que jugar triunfo. El comodín cuenta como triunfo.",
              "Si no puedes seguir el palo, puedes jugar cualquier carta, triunfos incluidos.",
              "El comodín nunca cuenta como carta de un palo normal.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana la baza sale en la siguiente. Se juegan {hand_size} bazas.",
        ],
      },
      {
        title: "Los puntos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se repartió, para el equipo que la gana.",
              "Bajo: la carta más baja del palo de triunfo que se repartió, para el equipo de quien la tenía y la jugó, gane quien gane esa baza.",
              "Jota: la jota de triunfo, para el equipo que la gana.",
              "Comodín: para el equipo que lo gana.",
              "Juego: para el equipo cuyas cartas ganadas suman más tantos (cada {rank_T} {game_ten}, as {game_ace}, rey {game_king}, reina {game_queen}, jota {game_jack}, lo demás {game_other}, de cualquier palo). Si hay empate, no es para nadie.",
            ],
          },
          "El comodín nunca es Alto ni Bajo. El punto de una carta dormida no se da a nadie, así que algunas manos valen menos de {points} puntos.",
        ],
      },
      {
        title: "Opción: el monte",
        blocks: [
          "Si la mesa se crea con monte, {kitty} de las {sleeping} cartas sobrantes forman el monte y las otras {kitty_sleeping} duermen. Tras la subasta, el apostador recoge el monte sin enseñarlo y devuelve boca abajo {kitty} de sus {kitty_held} cartas, las que quiera, aunque sean las del propio monte. Solo entonces sale, y su primera carta fija el triunfo: el cambio se hace antes de saber cuál será. Las cartas devueltas no son de nadie, como las dormidas, y todos las ven al terminar la mano.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  mcleod: {
    title: "McLeod (por parejas)",
    intro:
      "Un juego por parejas de la familia «{preset_ten_point}»: {usual_dealt} cartas para cada uno, un apostador que nombra el triunfo y después se queda con todo el mazo, descartes que conservan los triunfos mientras quede otra carta, y {points} puntos en cada mano.",
    sections: [
      {
        title: "Jugadores y parejas",
        blocks: [
          "Juegan {team_players} personas, siempre en parejas: los compañeros se sientan frente a frente, juntan las cartas que ganan y comparten la puntuación. Las parejas se sortean al empezar la partida.",
        ],
      },
      {
        title: "La baraja y el reparto",
        blocks: [
          "Se usa la baraja completa de {deck} cartas (las {pack_cards} y {jokers} comodines). Las cartas que no se reparten quedan boca abajo formando el mazo.",
          { facts: "deal" },
          "Con {max_players} jugadores cada uno recibe {dealt_at_max} cartas y no {dealt_at_min}: {dealt_at_min} para cada uno serían más cartas de las que tiene la baraja.",
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar.",
        ],
      },
      {
        title: "El triunfo, el mazo y el descarte",
        blocks: [
          "El apostador nombra el triunfo, recoge todas las cartas del mazo y descarta hasta quedarse con {hand_size}. Después los demás, empezando por su izquierda y en el sentido de las agujas del reloj, descartan también hasta quedarse con {hand_size}.",
          "Nadie puede tirar un triunfo mientras se quede con una carta que no lo sea: los triunfos solo se descartan cuando ya se han ido todas las demás cartas, así que solo quien tiene más de {hand_size} triunfos llega a tirar alguno. Los descartes quedan boca abajo y no cuentan para nadie; se muestran al acabar la mano.",
        ],
      },
      {
        title: "Los triunfos",
        blocks: [
          "El jick (la jota del otro palo del color del triunfo) y los comodines son triunfos. De mayor a menor:",
          { list: ["as, rey, reina y jota de triunfo", "el jick", "los comodines", "{rank_T}, {rank_9}… hasta el {rank_2} de triunfo"] },
          "Los comodines son gemelos: ninguno vale más que el otro. Si caen en la misma baza, el que se juega después gana al anterior. La mesa sigue dibujando un comodín grande y otro pequeño solo para que puedas distinguirlos.",
        ],
      },
      {
        title: "Las bazas",
        blocks: [
          "El apostador sale en la primera baza y debe salir con triunfo si tiene alguno (el jick y los comodines cuentan).",
          {
            list: [
              "Siempre puedes fallar en vez de seguir el palo: si se sale con un palo normal, síguelo o juega un triunfo, como prefieras. Solo si no puedes hacer ninguna de las cosas puedes jugar otra cosa.",
              "Si se sale con triunfo y tienes triunfo, tienes que jugarlo.",
              "El jick y los comodines siguen al triunfo, nunca al palo que llevan impreso.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana sale en la siguiente. Se juegan {hand_size} bazas.",
        ],
      },
      tenPoints,
      scoring,
      {
        title: "Quién gana la partida",
        blocks: [
          "Se juegan manos hasta que una pareja llega a la meta ({target}, salvo que la mesa haya elegido {other_targets}). Después de cada mano:",
          {
            list: [
              "si una o varias parejas están en la meta o por encima, gana la de puntuación más alta, haya apostado o no en esa mano;",
              "si esa puntuación está empatada, gana la pareja apostadora si está entre ellas; si no, se reparte otra mano.",
            ],
          },
        ],
      },
      trumpDiscardAtTable,
    ],
  },
  widow: {
    title: "Viuda ({table_sizes} jugadores)",
    intro:
      "{cards_dealt} cartas para cada uno y una viuda de {widow} cartas para quien gana la apuesta. Los demás cambian lo que no es triunfo por cartas nuevas del mazo, y el {point_two} y el {point_ten} ocupan el lugar del Bajo y del Juego: {points} puntos en cada mano.",
    sections: [
      {
        title: "Jugadores y bandos",
        blocks: [
          "Juegan {table_sizes} personas. Con {alone_only}, cada uno juega por su cuenta; con {teams_either}, cada uno por su cuenta o, si el anfitrión elige equipos, en {team_count} parejas, con los compañeros frente a frente y la puntuación compartida.",
        ],
      },
      {
        title: "La baraja y el reparto",
        blocks: [
          "Se usa la baraja completa de {deck} cartas (las {pack_cards} y {jokers} comodines). Cada uno recibe {cards_dealt} cartas, se reparten {widow} más boca abajo como viuda y el resto forma el mazo.",
          { facts: "deal" },
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "La subasta empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del {min_bid} al {max_bid}, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar.",
        ],
      },
      {
        title: "La viuda y el triunfo",
        blocks: [
          "El apostador recoge las {widow} cartas de la viuda sin enseñarlas, y solo entonces nombra el palo de triunfo.",
        ],
      },
      {
        title: "El cambio con el mazo",
        blocks: [
          "Luego cada uno de los demás, por turno y empezando a la izquierda del apostador, tira todas las cartas que no son triunfo y roba del mazo hasta volver a tener {hand_size}.",
          {
            list: [
              "Quien tiene más de {hand_size} triunfos se queda con {hand_size}: tira lo que no es triunfo y después triunfos hasta quedarse con {hand_size}, pero nunca un triunfo que puntúa mientras le quede otro triunfo por tirar.",
              "Si el mazo no alcanza, se descartan solo tantas cartas como el mazo pueda reponer, y cada uno elige qué cartas que no son triunfo se queda.",
              "Por último, el apostador toma lo que queda del mazo y descarta hasta quedarse con {hand_size}: primero lo que no es triunfo, luego los triunfos que no puntúan, y los triunfos que puntúan solo cuando no queda nada más.",
            ],
          },
          "Los triunfos que puntúan son el as, la jota, el jick, los comodines, el {rank_T}, el {rank_3} y el {rank_2} de triunfo. Los descartes y lo que quede en el mazo siguen boca abajo y no cuentan para nadie.",
        ],
      },
      tenTrumps,
      {
        title: "Las bazas",
        blocks: [
          "El apostador sale en la primera baza con la carta que quiera: no está obligado a salir con triunfo.",
          {
            list: [
              "Si se sale con un palo normal, puedes seguir el palo o jugar un triunfo, como prefieras, aunque tengas cartas de ese palo. Solo si no puedes hacer ninguna de las cosas puedes jugar otra cosa.",
              "Si se sale con triunfo y tienes triunfo, tienes que jugarlo.",
              "El jick y los comodines siguen al triunfo, nunca al palo que llevan impreso.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana sale en la siguiente. Se juegan {hand_size} bazas.",
        ],
      },
      {
        title: "Los puntos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se jugó, para el bando que la gana.",
              "{point_two}: el {rank_2} de triunfo, para el bando de quien lo tiene al empezar el juego de bazas, gane quien gane la baza en que cae.",
              "Jota, Jick, comodín grande, comodín pequeño: cada uno para el bando que lo gana.",
              "{point_ten}: para el bando que lo gana. Sustituye al Juego: no se cuentan tantos.",
              "{point_trey}: el {rank_3} de triunfo, para el bando que lo gana.",
            ],
          },
          "No hay Bajo ni Juego. El punto de una carta descartada o que quedó en el mazo no es para nadie.",
        ],
      },
      scoring,
      winning,
      trumpDiscardAtTable,
    ],
  },
  nine_card: {
    title: "{cards_dealt} cartas",
    intro:
      "Cada uno recibe {cards_dealt} cartas y cambia todo lo que no es triunfo por cartas nuevas del mazo. Solo se juegan triunfos, y quien se queda sin ellos sale de la mano. Hay {points} puntos en juego en cada mano, los comodines cuentan para quien los tenía y solo un bando que apuesta puede ganar la partida.",
    sections: [
      {
        title: "Jugadores y bandos",
        blocks: [
          "Juegan {alone_players} personas, cada una por su cuenta; o {team_players} por parejas, con los compañeros frente a frente y la puntuación compartida.",
        ],
      },
      {
        title: "La baraja y el reparto",
        blocks: [
          "Se usa la baraja completa de {deck} cartas (las {pack_cards} y {jokers} comodines). Cada uno recibe {cards_dealt} cartas; el resto queda boca abajo como mazo.",
          { facts: "deal" },
          "Cuando se reparte la baraja entera (ver la tabla) no hay mazo y nadie roba después de descartar.",
        ],
      },
      tenBidding,
      {
        title: "El triunfo y el cambio con el mazo",
        blocks: [
          "El apostador nombra el triunfo. Después, por turno, primero el apostador y luego los demás en el sentido de las agujas del reloj, cada uno tira todas las cartas que no son triunfo y recibe cartas del mazo hasta volver a tener {hand_size}.",
          {
            list: [
              "El descarte no se elige: se va todo lo que no es triunfo y se quedan todos los triunfos.",
              "Quien no tiene ninguna carta que no sea triunfo no descarta ni roba.",
              "Quien tiene más de {hand_size} triunfos se los queda todos y no roba nada; los triunfos de sobra se juegan en la primera baza.",
              "Cuando se acaba el mazo se acaba el reparto: los que faltan reciben menos cartas o ninguna, y pueden quedarse con menos de {hand_size}.",
              "Las cartas del mazo que no son triunfo están muertas: se quedan en la mano hasta el final y nunca se juegan.",
            ],
          },
          "Los descartes y lo que quede del mazo siguen boca abajo y no cuentan para nadie; todos los ven al terminar la mano.",
        ],
      },
      tenTrumps,
      {
        title: "Las bazas",
        blocks: [
          "Solo se juegan triunfos. El apostador sale en la primera baza o, si no tiene triunfo, el primer jugador a su izquierda que lo tenga. Los demás juegan por turno, en el sentido de las agujas del reloj, un triunfo cada uno.",
          {
            list: [
              "Quien se queda sin triunfos sale de la mano: desde entonces se salta su turno, tenga o no cartas muertas, así que una baza puede tener menos cartas que jugadores.",
              "Quien tiene más de {hand_size} cartas al empezar el juego juega sus triunfos de sobra en la primera baza, de carta en carta en su turno, hasta quedarse con tantas cartas como los demás tras esa baza. Por eso la primera baza puede tener varias cartas del mismo jugador.",
            ],
          },
          "Gana la baza el triunfo más alto, y quien la gana sale en la siguiente; si ya no tiene triunfos, sale el siguiente jugador a su izquierda que los tenga. La mano termina en cuanto nadie tiene triunfos, así que el número de bazas cambia de una mano a otra, y algunos pueden acabar con cartas muertas en la mano.",
        ],
      },
      {
        title: "Los puntos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se jugó, para el bando que la gana.",
              "Bajo: la carta más baja del palo de triunfo que se jugó, para el bando que la gana.",
              "Jota, Jick: cada uno para el bando que lo gana.",
              "Comodín grande, comodín pequeño: cada uno para el bando de quien lo tenía y lo jugó, gane quien gane la baza en que cae.",
              "Juego: para el bando cuyas cartas ganadas suman más ({rank_T} {game_ten}, as {game_ace}, rey {game_king}, reina {game_queen}, jota {game_jack}). En caso de empate no es para nadie.",
              "{point_trey}: el {rank_3} de triunfo, para el bando que lo gana.",
            ],
          },
          "Alto y Bajo se eligen entre las cartas del propio palo de triunfo (nunca el jick ni un comodín). Todo triunfo repartido o robado acaba jugándose; el punto de una carta que quedó en el mazo no es para nadie.",
        ],
      },
      scoring,
      {
        title: "Ganar la partida",
        blocks: [
          "La meta es {target}, salvo que la mesa haya elegido {other_targets}. Solo puede ganar el bando que apuesta: después de una mano, el bando apostador gana la partida si cumplió su apuesta y está en la meta o por encima.",
          "Los demás bandos simplemente suman sus puntos. Pueden pasar varias manos en la meta o por encima; para llevarse la partida tienen que ganar una subasta y cumplir la apuesta. Varios bandos pueden estar por encima de la meta a la vez.",
          "Con las opciones de la mesa, una luna fallida o la eliminación también pueden terminar la partida, como explican las opciones más abajo.",
        ],
      },
      {
        title: "En esta mesa",
        blocks: [
          "El descarte lo deciden las reglas: las cartas que no son triunfo ya aparecen levantadas, el contador está completo y solo tienes que confirmar. Durante el resto de la mano tus cartas muertas aparecen apagadas y solo se pueden pulsar tus triunfos.",
          "Junto al nombre de quien se queda sin triunfos aparece «fuera». Cuando tienes triunfos de sobra para la primera baza, el turno sigue siendo tuyo hasta que los hayas jugado todos; las cartas que un mismo jugador pone en una baza se ven en abanico en su sitio.",
          "Si alguien se desconecta, un bot juega por él tras una breve espera, y si la mesa tiene tiempo por turno, se juega automáticamente por quien lo agote.",
        ],
      },
    ],
  },
  options: {
    title: "Opciones de la mesa",
    blocks: [
      "Las elige quien crea la mesa; la sala de espera y el marcador muestran cuáles están activadas.",
      {
        list: [
          "Meta: la partida se juega a {targets} puntos ({target} es lo habitual).",
          "Apostar la luna: la subasta gana una apuesta por encima de la más alta de la variante, que aparece como «Luna»: {moon_bid} en esta variante. Para cumplirla, el bando que apuesta tiene que llevarse todos los puntos de la mano. Si lo consigue, gana la partida en el acto, vayan como vayan los tanteos; si no, pierde lo apostado y además la partida.",
          "Eliminación en {elimination}: el bando cuya puntuación baja a {elimination} o menos pierde.",
          {
            option: "kitty",
            text: "Monte: tras la subasta, el apostador recoge {kitty} de las cartas sobrantes y devuelve {kitty}, las que quiera, boca abajo antes de salir; la sección del monte, más arriba, lo explica.",
          },
        ],
      },
      "Lo que pasa en los casos que suelen preguntarse:",
      {
        list: [
          "El punto de una carta dormida, que quedó en el mazo o que se descartó no lo puede ganar nadie, así que en esa mano la luna no se puede cumplir.",
          "Si un bando con puntuación negativa cumple la luna, no gana la partida: su puntuación solo vuelve a {moon_reset} y se sigue jugando.",
          "Si la luna no se cumple, gana el otro bando con la puntuación más alta. Si varios la comparten, gana el primero de ellos después del bando apostador, en el orden del marcador.",
          "Con eliminación, si no hay más bando que el rival, este gana en el acto; si hay más, gana la mejor puntuación entre los que siguen en juego; si varios la comparten, se juega otra mano, y un bando eliminado ya no puede ganar.",
          "Llegar a la meta va primero: si en la misma mano un bando gana por las reglas habituales, la eliminación no lo cambia.",
        ],
      },
    ],
  },
};
