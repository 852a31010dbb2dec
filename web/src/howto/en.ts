import type { HowTo, Section } from "./types";

const scoring: Section = {
  title: "Scoring a hand",
  blocks: [
    "If the bidder's side took at least as many points as it bid, it adds everything it took. If it fell short, it is set: the bid comes off its score and it adds nothing for that hand.",
    "Every other side simply adds the points it took. Scores can become negative.",
  ],
};

const winning: Section = {
  title: "Winning the match",
  blocks: [
    "The match goes on hand after hand until a side reaches the target ({target} unless the table chose {other_targets}). After each hand:",
    {
      list: [
        "if the bidder's side made its bid and is at the target or above, it wins, even if another side got there too with more;",
        "otherwise the side with the highest score at or above the target wins;",
        "if that highest score is shared, another hand is dealt.",
      ],
    },
    "A side that was set cannot win on that hand.",
  ],
};

const atTable: Section = {
  title: "At this table",
  blocks: [
    "Only the cards you may play can be clicked; the others are dimmed. If a player disconnects, a bot plays for them after a short wait, and the turn timer, if the table uses it, plays for whoever runs out of time.",
  ],
};

const tenPlayers: Section = {
  title: "Players and sides",
  blocks: [
    "{alone_players} people play alone, or {team_players} play in fixed partnerships, partners sitting across from each other and scoring together. With {teams_only} players, it is always teams.",
  ],
};

const tenDeck: Section = {
  title: "The deck and the deal",
  blocks: [
    "The whole pack of {deck} cards is used ({pack_cards} cards and {jokers} jokers).",
    { facts: "deal" },
    "The undealt cards (the stock) and every discard stay face down, out of play, worth nothing to anybody. They are shown when the hand is over.",
  ],
};

const tenBidding: Section = {
  title: "Bidding",
  blocks: [
    "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer must bid.",
  ],
};

const tenTrumpAndDiscard: Section = {
  title: "Trump and the discard",
  blocks: [
    "Right after the auction the bidder names the trump suit. Then every player, starting with the bidder and going clockwise, discards face down until {hand_size} cards are left. Any cards may be thrown away, trumps included, although keeping your trumps is usually wise.",
  ],
};

const tenTrumps: Section = {
  title: "The trumps",
  blocks: [
    "The jick is the jack of the other suit of the same colour as trump: the jack of diamonds when hearts are trump, and so on. For that hand it is a trump and nothing else. The jokers are trumps too. From highest to lowest:",
    {
      list: ["ace, king, queen and jack of trump", "the jick", "the big joker, then the little joker", "{rank_T}, {rank_9}… down to the {rank_2} of trump"],
    },
  ],
};

const tenPlay: Section = {
  title: "Playing the tricks",
  blocks: [
    "The bidder leads the first trick and must lead a trump if they hold any (the jick and the jokers count); a bidder with no trump may lead anything.",
    {
      list: [
        "If a plain suit is led, you may follow suit or play a trump, as you prefer, even when you hold the suit. Only if you hold neither may you play something else.",
        "If trump is led and you hold a trump, you must play a trump.",
        "The jick and the jokers follow trump, never their printed suit.",
      ],
    },
    "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next. {hand_size} tricks are played.",
  ],
};

const tenPoints: Section = {
  title: "The points",
  blocks: [
    { facts: "points" },
    {
      list: [
        "High: the highest card of the trump suit that was played, to the side that captures it.",
        "Low: the lowest card of the trump suit that was played, to the side that captures it.",
        "Jack, Jick, Big joker, Little joker: each to the side that captures it.",
        "Game: to the side whose captured cards count the most ({rank_T} {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}). A tie gives it to nobody.",
        "{point_trey}: the {rank_3} of trump, to the side that captures it.",
      ],
    },
    "High and Low are chosen among the cards of the trump suit itself (never the jick or a joker) that were actually played. A point whose card was discarded or left in the stock goes to nobody.",
  ],
};

const tenAtTable: Section = {
  title: "At this table",
  blocks: [
    "To discard, click the cards you want to throw away (they rise), then confirm. Only the cards you may play can be clicked; the others are dimmed.",
  ],
};

const trumpDiscardAtTable: Section = {
  title: "At this table",
  blocks: [
    "To discard, click the cards you want to throw away (they rise), then confirm. Cards the rules make you throw away are raised already and stay raised; cards the rules make you keep are dimmed and cannot be chosen. The counter tells you how many are chosen, and the button works once it is exactly right.",
    "If a player disconnects, a bot plays for them after a short wait, and the turn timer, if the table uses it, plays for whoever runs out of time.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "House game",
    intro:
      "Smear is a trick-taking game of the Pitch family. In the house game everyone gets {cards_dealt} cards, the highest bidder makes trump with their first lead, and {points} points are at stake in every hand.",
    sections: [
      {
        title: "Players and sides",
        blocks: [
          "{min_players} to {max_players} people play. With {team_players} players the host may choose teams: partners are drawn at random, sit across from each other, pool the cards they win and score together. Otherwise everyone plays alone.",
        ],
      },
      {
        title: "The deck",
        blocks: [
          "The {pack_cards} cards plus {jokers} jokers, cut down from the lowest ranks so that everyone gets exactly {cards_dealt} cards and a few are left over face down. These sleeping cards ({sleeping_odd} with an odd number of players, {sleeping_even} with an even number) belong to nobody and are only shown when the hand is over.",
          { facts: "deal" },
          "The jokers are always in the deck, so any of them may be sleeping. The first dealer is drawn at random; the deal then moves to the next seat clockwise every hand.",
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids a whole number from {min_bid} to {max_bid} that is higher than every bid so far. Once you pass, you are out of the auction.",
          "If everyone else has passed, the dealer may not pass and must bid (any amount from {min_bid} to {max_bid}). The highest bidder's side must then take at least that many points.",
        ],
      },
      {
        title: "Trump",
        blocks: [
          "The bidder leads the first trick, and the suit of that card becomes trump for the whole hand. A joker cannot be led to the first trick, because it has no suit. From the second trick on a joker may be led, and leading it counts as leading trump.",
          "Trumps rank from the ace down to the lowest rank in the deck, followed by the big joker and then the little joker: the jokers are the lowest trumps. Any card of the trump suit beats them. There is no jick in this game.",
        ],
      },
      {
        title: "Playing the tricks",
        blocks: [
          {
            list: [
              "If a plain suit is led and you hold that suit, you must follow suit, and you may not trump instead.",
              "If trump is led (a joker lead included) and you hold a trump, you must play a trump. The jokers count as trumps.",
              "If you cannot follow, you may play any card, trumps included.",
              "A joker never counts as a card of a plain suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads the next trick. {hand_size} tricks are played.",
        ],
      },
      {
        title: "The points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "High: the highest card of the trump suit that was dealt, to the side that captures it.",
              "Low: the lowest card of the trump suit that was dealt, to the side of the player who played it, whoever wins that trick.",
              "Jack: the jack of trump, to the side that captures it.",
              "Big joker and Little joker: each to the side that captures it.",
              "Game: to the side whose captured cards count the most (each {rank_T} {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}, everything else {game_other}, in every suit). A tie for the most gives Game to nobody.",
            ],
          },
          "The jokers are never High or Low. If the trump suit has a lone card in the deal, that card is High and Low at once. A point whose card is sleeping is not awarded, so some hands are worth fewer than {points} points and a bid of {max_bid} can be out of reach.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  ten_point: {
    title: "{points}-point game",
    intro:
      "The Midwest game with the jick and the trey: {usual_dealt} cards dealt, a discard down to {hand_size}, trump named by the bidder, and {points} points at stake in every hand.",
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
    title: "{preset_ten_point} without the jick",
    intro:
      "The deal and discard of the {preset_ten_point} game with a shorter count: there is no jick and no trey, so {points} points are at stake in every hand, as in classic Pitch.",
    sections: [
      tenPlayers,
      tenDeck,
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer must bid.",
        ],
      },
      tenTrumpAndDiscard,
      {
        title: "The trumps",
        blocks: [
          "There is no jick: the other jack of the trump's colour is an ordinary card of its own suit, followed like any other. The jokers are trumps and rank just below the jack of trump. From highest to lowest:",
          {
            list: ["ace, king, queen and jack of trump", "the big joker, then the little joker", "{rank_T}, {rank_9}… down to the {rank_2} of trump"],
          },
        ],
      },
      {
        title: "Playing the tricks",
        blocks: [
          "The bidder leads the first trick and must lead a trump if they hold any (the jokers count); a bidder with no trump may lead anything.",
          {
            list: [
              "If a plain suit is led, you may follow suit or play a trump, as you prefer, even when you hold the suit. Only if you hold neither may you play something else.",
              "If trump is led and you hold a trump, you must play a trump.",
              "The jokers follow trump, never a plain suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next. {hand_size} tricks are played.",
        ],
      },
      {
        title: "The points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "High: the highest card of the trump suit that was played, to the side that captures it.",
              "Low: the lowest card of the trump suit that was played, to the side that captures it.",
              "Jack: the jack of trump, to the side that captures it.",
              "Big joker and Little joker: each to the side that captures it.",
              "Game: to the side whose captured cards count the most ({rank_T} {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}). A tie gives it to nobody.",
            ],
          },
          "There is no {point_trey}: the {rank_3} of trump is just a low trump. High and Low are chosen among the cards of the trump suit itself (never a joker) that were actually played, and a point whose card was discarded or left in the stock goes to nobody.",
        ],
      },
      scoring,
      winning,
      tenAtTable,
    ],
  },
  cutthroat: {
    title: "Cut-throat ({alone_players} players)",
    intro:
      "The {preset_ten_point} game for exactly {alone_players} players, each on their own: the jick, the trey and {points} points in every hand, with bids starting at {min_bid}.",
    sections: [
      {
        title: "Players",
        blocks: [
          "Exactly {alone_players} people play, with no partners. Every point you take counts for you alone, and so does every bid you fail to make.",
        ],
      },
      {
        title: "The deck and the deal",
        blocks: [
          "The whole pack of {deck} cards is used ({pack_cards} cards and {jokers} jokers). Everyone gets {cards_dealt} cards; the other {sleeping} stay face down as the stock, out of play and worth nothing to anybody. After trump is named, each player discards down to {hand_size} cards. The stock and the discards are shown when the hand is over.",
          { facts: "deal" },
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far: a bid below {min_bid} is not allowed. Once you pass you are out. If every other player has passed, the dealer must bid, at least {min_bid}.",
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
    title: "{points}-point game ({team_count} teams)",
    intro:
      "{team_count} teams whose players alternate around the table, a deck with {jokers} joker and every {rank_2} kept, trump set by the bidder's first lead, and {points} points at stake in every hand.",
    sections: [
      {
        title: "Players and teams",
        blocks: [
          "{team_players} people play, always as {team_count} teams. Team-mates do not sit together: the seats alternate between the teams all the way round, so with {team_example_players} players seats {team_seats_a} play against seats {team_seats_b}, and everyone sits between opponents. Partners are drawn at random when the match starts. Each team pools the cards it wins and scores together.",
        ],
      },
      {
        title: "The deck",
        blocks: [
          "The {pack_cards} cards plus {jokers} joker. Every {rank_2} stays in; with fewer players some middle ranks are taken out, so that everyone gets {cards_dealt} cards and {sleeping} cards are left over face down. These sleeping cards belong to nobody and are shown when the hand is over.",
          { facts: "deal" },
          "The joker may be among the sleeping cards. The first dealer is drawn at random; the deal then moves to the next seat clockwise every hand.",
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer may not pass and must bid. The bidder's team must then take at least that many points.",
        ],
      },
      {
        title: "Trump",
        blocks: [
          "The bidder leads the first trick, and the suit of that card becomes trump for the whole hand. The joker cannot be that first card, because it has no suit; from the second trick on it may be led, and leading it counts as leading trump.",
          "Trumps rank from the ace down to the {rank_2}, and the joker comes after them all: it is the lowest trump, so any card of the trump suit beats it. There is no jick.",
        ],
      },
      {
        title: "Playing the tricks",
        blocks: [
          {
            list: [
              "If a plain suit is led and you hold that suit, you must follow suit, and you may not trump instead.",
              "If trump is led (the joker included) and you hold a trump, you must play a trump. The joker counts as a trump.",
              "If you cannot follow, you may play any card, trumps included.",
              "The joker never counts as a card of a plain suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads the next trick. {hand_size} tricks are played.",
        ],
      },
      {
        title: "The points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "High: the highest card of the trump suit that was dealt, to the team that captures it.",
              "Low: the lowest card of the trump suit that was dealt, to the team of the player who held it and played it, whoever wins that trick.",
              "Jack: the jack of trump, to the team that captures it.",
              "Joker: to the team that captures it.",
              "Game: to the team whose captured cards count the most (each {rank_T} {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}, everything else {game_other}, in every suit). A tie gives Game to nobody.",
            ],
          },
          "The joker is never High or Low. A point whose card is sleeping is not awarded, so some hands are worth fewer than {points} points.",
        ],
      },
      {
        title: "Option: the kitty",
        blocks: [
          "When the table is created with the kitty, {kitty} of the {sleeping} leftover cards form a kitty and the other {kitty_sleeping} sleep. After the auction the bidder picks up the kitty without showing it, then puts any {kitty} of its {kitty_held} cards back face down, which may be the kitty's own. Only then does it lead, and its first card sets trump, so the exchange is made before trump is known. The cards put back count for nobody, like the sleeping ones, and everyone sees them when the hand is over.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  mcleod: {
    title: "McLeod (partnerships)",
    intro:
      "A partnership game of the {preset_ten_point} family: {usual_dealt} cards each, a bidder who names trump and then gathers the whole stock, discards that keep every trump as long as a non-trump is left, and {points} points in every hand.",
    sections: [
      {
        title: "Players and partners",
        blocks: [
          "{team_players} people play, always in partnerships: partners sit across from each other, pool the cards they win and score together. Partners are drawn at random when the match starts.",
        ],
      },
      {
        title: "The deck and the deal",
        blocks: [
          "The whole pack of {deck} cards is used ({pack_cards} cards and {jokers} jokers). The undealt cards stay face down as the stock.",
          { facts: "deal" },
          "With {max_players} players each gets {dealt_at_max} cards rather than {dealt_at_min}: {dealt_at_min} each would need more cards than the pack holds.",
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer must bid.",
        ],
      },
      {
        title: "Trump, the stock and the discard",
        blocks: [
          "The bidder names trump, then picks up every card of the stock and discards down to {hand_size} cards. After that the others, clockwise from the bidder's left, each discard down to {hand_size} as well.",
          "Nobody may throw away a trump while keeping a non-trump: trumps may go only once every non-trump has gone, so only a player holding more than {hand_size} trumps ever discards a trump. The discards stay face down and count for nobody; everyone sees them when the hand is over.",
        ],
      },
      {
        title: "The trumps",
        blocks: [
          "The jick (the jack of the other suit of the trump's colour) and the jokers are trumps. From highest to lowest:",
          { list: ["ace, king, queen and jack of trump", "the jick", "the jokers", "{rank_T}, {rank_9}… down to the {rank_2} of trump"] },
          "The jokers are twins: neither outranks the other. When they fall in the same trick, the joker played later beats the earlier. The table still draws a big and a little joker, only so that you can tell them apart.",
        ],
      },
      {
        title: "Playing the tricks",
        blocks: [
          "The bidder leads the first trick and must lead a trump if they hold any (the jick and the jokers count).",
          {
            list: [
              "You may always trump instead of following suit: if a plain suit is led, follow it or play a trump, as you prefer. Only if you hold neither may you play something else.",
              "If trump is led and you hold a trump, you must play a trump.",
              "The jick and the jokers follow trump, never their printed suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next. {hand_size} tricks are played.",
        ],
      },
      tenPoints,
      scoring,
      {
        title: "Winning the match",
        blocks: [
          "The match goes on hand after hand until a partnership reaches the target ({target} unless the table chose {other_targets}). After each hand:",
          {
            list: [
              "if any partnership is at the target or above, the partnership with the highest score wins, whether or not it bid that hand;",
              "if that highest score is shared, the bidding partnership wins if it is among them; otherwise another hand is dealt.",
            ],
          },
        ],
      },
      trumpDiscardAtTable,
    ],
  },
  widow: {
    title: "Widow ({table_sizes} players)",
    intro:
      "{cards_dealt} cards each and a widow of {widow} cards for the highest bidder. The other players trade their non-trumps for fresh cards from the stock, and the {point_two} and the {point_ten} take the places of Low and Game: {points} points in every hand.",
    sections: [
      {
        title: "Players and sides",
        blocks: [
          "{table_sizes} people play. With {alone_only} players everyone plays alone; with {teams_either}, they play alone or, if the host chooses teams, in {team_count} partnerships, partners sitting across from each other and scoring together.",
        ],
      },
      {
        title: "The deck and the deal",
        blocks: [
          "The whole pack of {deck} cards is used ({pack_cards} cards and {jokers} jokers). Everyone gets {cards_dealt} cards, {widow} more are dealt face down as the widow, and the rest form the stock.",
          { facts: "deal" },
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "Bidding starts on the dealer's left and ends with the dealer. Each player passes or bids from {min_bid} to {max_bid}, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer must bid.",
        ],
      },
      {
        title: "The widow and trump",
        blocks: [
          "The bidder picks up the {widow} cards of the widow without showing them, and only then names the trump suit.",
        ],
      },
      {
        title: "Trading with the stock",
        blocks: [
          "Then each other player in turn, starting on the bidder's left, throws away every card that is not a trump and draws from the stock until they hold {hand_size} cards again.",
          {
            list: [
              "A player with more than {hand_size} trumps keeps {hand_size} of them: they discard their non-trumps and then trumps down to {hand_size}, but never a scoring trump while another trump is left to discard.",
              "If the stock runs short, a player discards only as many cards as the stock can replace, and chooses which non-trumps to keep.",
              "Last of all, the bidder takes whatever is left of the stock and discards down to {hand_size}: non-trumps first, then trumps that do not score, and scoring trumps only when nothing else is left.",
            ],
          },
          "The scoring trumps are the ace, the jack, the jick, the jokers, the {rank_T}, the {rank_3} and the {rank_2} of trump. Discards and any cards left in the stock stay face down and count for nobody.",
        ],
      },
      tenTrumps,
      {
        title: "Playing the tricks",
        blocks: [
          "The bidder leads the first trick with any card they like: there is no need to lead a trump.",
          {
            list: [
              "If a plain suit is led, you may follow suit or play a trump, as you prefer, even when you hold the suit. Only if you hold neither may you play something else.",
              "If trump is led and you hold a trump, you must play a trump.",
              "The jick and the jokers follow trump, never their printed suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next. {hand_size} tricks are played.",
        ],
      },
      {
        title: "The points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "High: the highest card of the trump suit that was played, to the side that captures it.",
              "{point_two}: the {rank_2} of trump, to the side of the player who holds it when play begins, whoever wins the trick it falls in.",
              "Jack, Jick, Big joker, Little joker: each to the side that captures it.",
              "{point_ten}: to the side that captures it. It stands in for Game: the cards are not counted.",
              "{point_trey}: the {rank_3} of trump, to the side that captures it.",
            ],
          },
          "There is no Low and no Game. A point whose card was discarded or stayed in the stock goes to nobody.",
        ],
      },
      scoring,
      winning,
      trumpDiscardAtTable,
    ],
  },
  nine_card: {
    title: "{cards_dealt}-card game",
    intro:
      "Everyone gets {cards_dealt} cards and trades every non-trump for fresh cards from the stock. Only trumps are ever played, and players drop out of the hand as their trumps run out. {points} points are at stake in every hand, the jokers count for whoever held them, and only a side that bids can win the match.",
    sections: [
      {
        title: "Players and sides",
        blocks: [
          "{alone_players} people play, each on their own; or {team_players} play in partnerships, partners sitting across from each other and scoring together.",
        ],
      },
      {
        title: "The deck and the deal",
        blocks: [
          "The whole pack of {deck} cards is used ({pack_cards} cards and {jokers} jokers). Everyone gets {cards_dealt} cards; the rest stay face down as the stock.",
          { facts: "deal" },
          "When the whole pack is dealt (see the table) there is no stock, and nobody draws after discarding.",
        ],
      },
      tenBidding,
      {
        title: "Trump and the trade with the stock",
        blocks: [
          "The bidder names trump. Then each player in turn, the bidder first and then clockwise, throws away every card that is not a trump and is dealt cards from the stock until they hold {hand_size} again.",
          {
            list: [
              "The discard is not a choice: all the non-trumps go, and every trump stays.",
              "A player who holds no non-trump does not discard and draws nothing.",
              "A player who holds more than {hand_size} trumps keeps them all and draws nothing; the extra trumps are played to the first trick.",
              "The refill stops when the stock runs out: the players still to come draw fewer cards or none at all, and may hold fewer than {hand_size}.",
              "Cards from the stock that are not trumps are dead: they stay in the hand until it is over and are never played.",
            ],
          },
          "The discards and whatever is left of the stock stay face down and count for nobody; everyone sees them when the hand is over.",
        ],
      },
      tenTrumps,
      {
        title: "Playing the tricks",
        blocks: [
          "Only trumps are played. The bidder leads the first trick, or if the bidder holds no trump, the first player clockwise from them who does. The others then play in turn, clockwise, each putting down a trump.",
          {
            list: [
              "A player with no trump left is out of the hand: their turn is skipped from then on, dead cards or not, so a trick can have fewer cards than there are players.",
              "A player who holds more than {hand_size} cards when play begins plays the extra trumps to the first trick, a card at a time on their turn, until they are left with as many cards as everyone else after that trick. The first trick can therefore hold several cards from the same player.",
            ],
          },
          "The highest trump wins the trick, and the winner leads the next trick; if the winner has no trump left, the next player clockwise who holds a trump leads. The hand ends as soon as nobody holds a trump, so the number of tricks changes from hand to hand, and players may finish still holding dead cards.",
        ],
      },
      {
        title: "The points",
        blocks: [
          { facts: "points" },
          {
            list: [
              "High: the highest card of the trump suit that was played, to the side that captures it.",
              "Low: the lowest card of the trump suit that was played, to the side that captures it.",
              "Jack, Jick: each to the side that captures it.",
              "Big joker, Little joker: each to the side of the player who held it and played it, whoever wins the trick it falls in.",
              "Game: to the side whose captured cards count the most ({rank_T} {game_ten}, ace {game_ace}, king {game_king}, queen {game_queen}, jack {game_jack}). A tie gives it to nobody.",
              "{point_trey}: the {rank_3} of trump, to the side that captures it.",
            ],
          },
          "High and Low are chosen among the cards of the trump suit itself (never the jick or a joker). Every trump that was dealt or drawn is played sooner or later; a point whose card stayed in the stock goes to nobody.",
        ],
      },
      scoring,
      {
        title: "Winning the match",
        blocks: [
          "The target is {target} unless the table chose {other_targets}. Only the bidding side can win: after a hand, the side that bid wins the match if it made its bid and is at the target or above.",
          "Every other side just keeps its points. It may sit at the target or above for several hands; to take the match it has to win an auction and make its bid. Several sides can be above the target at the same time.",
          "With the table options, a moon that is set or an elimination can also end the match, as the options below explain.",
        ],
      },
      {
        title: "At this table",
        blocks: [
          "The rules decide the discard: your non-trumps are raised already, the counter is full, and you just confirm. For the rest of the hand your dead cards are dimmed, and only your trumps can be clicked.",
          "A player with no trump left is marked “out” beside their name. When you have extra trumps for the first trick, the turn stays with you until they are all played; cards a player put in the same trick are fanned out at their place.",
          "If a player disconnects, a bot plays for them after a short wait, and the turn timer, if the table uses it, plays for whoever runs out of time.",
        ],
      },
    ],
  },
  options: {
    title: "Table options",
    blocks: [
      "Whoever creates the table chooses these; the lobby and the scoreboard show which ones are on.",
      {
        list: [
          "Target: the match is played to {targets} points ({target} is the usual).",
          "Shoot the moon: the auction gains a bid above the game's highest, shown as “Moon”: {moon_bid} in this game. To make it, the bidding side must take every point of the hand. Made, it wins the match on the spot, whatever the scores; set, it loses the amount bid and the match as well.",
          "Elimination at {elimination}: a side whose score falls to {elimination} or below loses.",
          {
            option: "kitty",
            text: "Kitty: after the auction the bidder picks up {kitty} of the leftover cards and puts any {kitty} back face down before leading; the kitty’s section above says more.",
          },
        ],
      },
      "What happens in the cases players ask about:",
      {
        list: [
          "A point whose card is sleeping, in the stock or discarded cannot be taken by anyone, so in that hand the moon cannot be made.",
          "A moon made by a side whose score was negative does not win the match: its score only goes back to {moon_reset}, and play goes on.",
          "When a moon is set, the other side with the highest score wins. If several share that score, the first of them after the bidding side, in the scoreboard's order, wins.",
          "With elimination, a side that is out hands the match at once to its opponent when there is no other side; otherwise the best score among the sides still in wins; if several share it, another hand is played, and a side that is out can no longer win.",
          "Reaching the target comes first: if a side wins by the usual rules in the same hand, elimination does not change that.",
        ],
      },
    ],
  },
};
