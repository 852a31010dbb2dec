import type { HowTo } from "./types";

const scoring = {
  title: "Cómo se anota una mano",
  blocks: [
    "Si el bando que ganó la apuesta consiguió al menos los puntos que apostó, suma todo lo que ganó. Si se quedó corto, no llega: se le resta lo apostado y no suma nada en esa mano.",
    "Los demás bandos suman sin más los puntos que ganaron. La puntuación puede quedar por debajo de cero.",
  ],
};

const winning = {
  title: "Quién gana la partida",
  blocks: [
    "Se juegan manos hasta que un bando llega a la meta (21, salvo que la mesa haya elegido 11, 31 o 52). Después de cada mano:",
    {
      list: [
        "si el bando apostador cumplió su apuesta y está en la meta o por encima, gana, aunque otro bando también haya llegado y tenga más;",
        "si no, gana el bando con la puntuación más alta entre los que están en la meta o por encima;",
        "si dos bandos empatan en esa puntuación más alta, se reparte otra mano.",
      ],
    },
    "Un bando que no cumplió su apuesta no puede ganar en esa mano.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "Variante de la casa (6 puntos)",
    intro:
      "El Smear es un juego de bazas de la familia del Pitch. En la variante de la casa cada jugador recibe seis cartas, quien gana la apuesta fija el triunfo con su primera carta y en cada mano se juegan seis puntos.",
    sections: [
      {
        title: "Jugadores y bandos",
        blocks: [
          "Juegan de tres a ocho personas. Con cuatro, seis u ocho, el anfitrión puede elegir jugar por parejas: se sortean, los compañeros se sientan uno frente al otro, juntan las cartas que ganan y comparten la puntuación. Si no, cada uno juega por su cuenta.",
        ],
      },
      {
        title: "La baraja",
        blocks: [
          "Las 52 cartas más dos comodines, quitando los valores más bajos hasta que cada jugador recibe exactamente seis cartas y sobran unas pocas boca abajo. Esas cartas dormidas (cuatro si el número de jugadores es impar, seis si es par) no son de nadie y solo se muestran al terminar la mano.",
          {
            table: [
              ["Jugadores", "Cartas de cada palo", "Cartas dormidas"],
              ["3", "del 10 al as", "4"],
              ["4", "del 8 al as", "6"],
              ["5", "del 7 al as", "4"],
              ["6", "del 5 al as", "6"],
              ["7", "del 4 al as", "4"],
              ["8", "del 2 al as (las 54 cartas)", "6"],
            ],
          },
          "Los dos comodines siempre están en la baraja, así que cualquiera de ellos puede quedar dormido. El primer repartidor se sortea; después el reparto pasa un asiento en el sentido de las agujas del reloj en cada mano.",
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "Hay una sola vuelta, que empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta un número entero del 2 al 6 más alto que todas las apuestas anteriores. Quien pasa queda fuera de la subasta.",
          "Si todos los demás han pasado, el repartidor no puede pasar y tiene que apostar (cualquier cantidad del 2 al 6). El bando de quien hizo la apuesta más alta debe conseguir al menos esos puntos.",
        ],
      },
      {
        title: "El triunfo",
        blocks: [
          "Quien ganó la apuesta sale en la primera baza, y el palo de esa carta pasa a ser el triunfo durante toda la mano. No se puede salir con un comodín en la primera baza, porque no tiene palo. A partir de la segunda baza sí se puede salir con comodín, y eso cuenta como salir con triunfo.",
          "Los triunfos van del as al valor más bajo de la baraja, seguidos del comodín grande y después del pequeño: los comodines son los dos triunfos más bajos. Cualquier carta del palo de triunfo gana a los dos comodines. En esta variante no hay jick.",
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
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana la baza sale en la siguiente. Se juegan seis bazas.",
        ],
      },
      {
        title: "Los seis puntos",
        blocks: [
          {
            list: [
              "Alto: la carta más alta del palo de triunfo que se repartió, para el bando que la gana.",
              "Bajo: la carta más baja del palo de triunfo que se repartió, para el bando de quien la jugó, gane quien gane esa baza.",
              "Jota: la jota de triunfo, para el bando que la gana.",
              "Comodín grande y comodín pequeño: cada uno para el bando que lo gana.",
              "Juego: para el bando cuyas cartas ganadas suman más tantos (cada diez 10, as 4, rey 3, reina 2, jota 1, lo demás 0, de cualquier palo). Si hay empate en lo más alto, no es para nadie.",
            ],
          },
          "Los comodines nunca son Alto ni Bajo. Si solo se repartió una carta del palo de triunfo, es a la vez Alto y Bajo. El punto de una carta dormida no se da a nadie, así que algunas manos valen menos de seis puntos y una apuesta de 6 puede ser imposible.",
        ],
      },
      scoring,
      winning,
      {
        title: "En esta mesa",
        blocks: [
          "Solo se pueden pulsar las cartas que puedes jugar; las demás aparecen atenuadas. Si alguien se desconecta, un bot juega por esa persona tras una breve espera, y si la mesa tiene tiempo por turno, se juega automáticamente por quien se quede sin tiempo.",
        ],
      },
    ],
  },
  ten_point: {
    title: "Variante a diez puntos",
    intro:
      "El juego del Medio Oeste con jick y tres: se reparten diez cartas, se descarta hasta quedarse con seis, quien gana la apuesta nombra el triunfo y en cada mano se juegan diez puntos.",
    sections: [
      {
        title: "Jugadores y bandos",
        blocks: [
          "Juegan de tres a seis personas cada una por su cuenta, o cuatro, seis u ocho en parejas fijas, con los compañeros sentados frente a frente y una puntuación compartida. Con ocho jugadores siempre se juega por parejas.",
        ],
      },
      {
        title: "La baraja y el reparto",
        blocks: [
          "Se usa la baraja completa de 54 cartas (las 52 y dos comodines).",
          {
            table: [
              ["Jugadores", "Cartas para cada uno", "Descarte"],
              ["3, 4 o 5", "10", "4 cada uno, hasta quedarse con 6"],
              ["6", "8", "2 cada uno, hasta quedarse con 6"],
              ["8 (parejas)", "6", "ninguno"],
            ],
          },
          "Las cartas que no se reparten (el mazo) y todos los descartes quedan boca abajo, fuera del juego, y no valen nada para nadie. Se muestran al terminar la mano.",
        ],
      },
      {
        title: "La apuesta",
        blocks: [
          "Una sola vuelta, que empieza a la izquierda de quien reparte y termina en él. Cada jugador pasa o apuesta del 2 al 10, por encima de todas las apuestas anteriores; quien pasa queda fuera. Si todos los demás han pasado, el repartidor tiene que apostar.",
        ],
      },
      {
        title: "El triunfo y el descarte",
        blocks: [
          "Justo después de la apuesta, quien la ganó nombra el palo de triunfo. Luego cada jugador, empezando por el apostador y siguiendo las agujas del reloj, descarta boca abajo hasta quedarse con seis cartas. Se puede tirar cualquier carta, también triunfos, aunque guardarlos suele ser buena idea.",
        ],
      },
      {
        title: "Los triunfos",
        blocks: [
          "El jick es la jota del otro palo del mismo color que el triunfo: la jota de diamantes cuando el triunfo es corazones, y así con los demás. Durante esa mano es un triunfo y nada más. Los comodines también son triunfos. De mayor a menor:",
          {
            list: ["as, rey, reina y jota de triunfo", "el jick", "el comodín grande y luego el pequeño", "diez, nueve… hasta el dos de triunfo"],
          },
        ],
      },
      {
        title: "Las bazas",
        blocks: [
          "Quien ganó la apuesta sale en la primera baza y debe salir con triunfo si tiene alguno (el jick y los comodines cuentan); si no tiene ninguno, puede salir con lo que quiera.",
          {
            list: [
              "Si se sale con un palo normal, puedes seguir el palo o jugar un triunfo, como prefieras, aunque tengas cartas de ese palo. Solo si no tienes ni lo uno ni lo otro puedes jugar otra cosa.",
              "Si se sale con triunfo y tienes triunfo, tienes que jugarlo.",
              "El jick y los comodines siguen al triunfo, nunca al palo que llevan impreso.",
            ],
          },
          "Gana la baza el triunfo más alto; si no hay triunfos, la carta más alta del palo de salida. Quien gana sale en la siguiente. Se juegan seis bazas.",
        ],
      },
      {
        title: "Los diez puntos",
        blocks: [
          {
            list: [
              "Alto (1): la carta más alta del palo de triunfo que se jugó, para el bando que la gana.",
              "Bajo (1): la carta más baja del palo de triunfo que se jugó, para el bando que la gana.",
              "Jota (1), Jick (1), comodín grande (1), comodín pequeño (1): cada uno para el bando que lo gana.",
              "Juego (1): para el bando cuyas cartas ganadas suman más tantos (diez 10, as 4, rey 3, reina 2, jota 1). Si hay empate, no es para nadie.",
              "Tres (3): el tres de triunfo, para el bando que lo gana.",
            ],
          },
          "Alto y Bajo se eligen entre las cartas del propio palo de triunfo (nunca el jick ni un comodín) que se jugaron de verdad. El punto de una carta descartada o que quedó en el mazo no es para nadie.",
        ],
      },
      scoring,
      winning,
      {
        title: "En esta mesa",
        blocks: [
          "Para descartar, pulsa las cartas que quieres tirar (se levantan) y confirma. Solo se pueden pulsar las cartas que puedes jugar; las demás aparecen atenuadas.",
        ],
      },
    ],
  },
};
