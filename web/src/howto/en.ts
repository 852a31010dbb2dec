import type { HowTo } from "./types";

const scoring = {
  title: "Scoring a hand",
  blocks: [
    "If the bidder's side took at least as many points as it bid, it adds everything it took. If it fell short, it is set: the bid comes off its score and it adds nothing for that hand.",
    "Every other side simply adds the points it took. Scores can drop below zero.",
  ],
};

const winning = {
  title: "Winning the match",
  blocks: [
    "The match goes on hand after hand until a side reaches the target (21 unless the table chose 11, 31 or 52). After each hand:",
    {
      list: [
        "if the bidder's side made its bid and is at the target or above, it wins, even if another side got there too with more;",
        "otherwise the side with the highest score at or above the target wins;",
        "if two sides share that highest score, another hand is dealt.",
      ],
    },
    "A side that was set cannot win on that hand.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "House game (6 points)",
    intro:
      "Smear is a trick-taking game of the Pitch family. In the house game everyone gets six cards, the highest bidder makes trump with their first lead, and six points are at stake in every hand.",
    sections: [
      {
        title: "Players and sides",
        blocks: [
          "Three to eight people play. With four, six or eight players the host may choose teams: partners are drawn at random, sit across from each other, pool the cards they win and share one score. Otherwise everyone plays alone.",
        ],
      },
      {
        title: "The deck",
        blocks: [
          "The 52 cards plus two jokers, cut down from the lowest ranks so that everyone gets exactly six cards and a few are left over face down. These sleeping cards (four with an odd number of players, six with an even number) belong to nobody and are only shown when the hand is over.",
          {
            table: [
              ["Players", "Ranks in each suit", "Sleeping cards"],
              ["3", "10 to ace", "4"],
              ["4", "8 to ace", "6"],
              ["5", "7 to ace", "4"],
              ["6", "5 to ace", "6"],
              ["7", "4 to ace", "4"],
              ["8", "2 to ace (all 54 cards)", "6"],
            ],
          },
          "Both jokers are always in the deck, so either of them may be sleeping. The first dealer is drawn at random; the deal then moves one seat clockwise every hand.",
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "There is a single round, starting on the dealer's left and ending with the dealer. Each player passes or bids a whole number from 2 to 6 that is higher than every bid so far. Once you pass, you are out of the auction.",
          "If everyone else has passed, the dealer may not pass and must bid (any amount from 2 to 6). The highest bidder's side must then take at least that many points.",
        ],
      },
      {
        title: "Trump",
        blocks: [
          "The bidder leads the first trick, and the suit of that card becomes trump for the whole hand. A joker cannot be led to the first trick, because it has no suit. From the second trick on a joker may be led, and leading it counts as leading trump.",
          "Trumps rank from the ace down to the lowest rank in the deck, followed by the big joker and then the little joker: the jokers are the two lowest trumps. Any card of the trump suit beats both jokers. There is no jick in this game.",
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
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads the next trick. Six tricks are played.",
        ],
      },
      {
        title: "The six points",
        blocks: [
          {
            list: [
              "High: the highest card of the trump suit that was dealt, to the side that captures it.",
              "Low: the lowest card of the trump suit that was dealt, to the side of the player who played it, whoever wins that trick.",
              "Jack: the jack of trump, to the side that captures it.",
              "Big joker and Little joker: each to the side that captures it.",
              "Game: to the side whose captured cards count the most (each ten 10, ace 4, king 3, queen 2, jack 1, everything else 0, in every suit). A tie for the most gives Game to nobody.",
            ],
          },
          "The jokers are never High or Low. If only one card of the trump suit was dealt, it is both High and Low. A point whose card is sleeping is not awarded, so some hands are worth fewer than six points and a bid of 6 can be out of reach.",
        ],
      },
      scoring,
      winning,
      {
        title: "At this table",
        blocks: [
          "Only the cards you may play can be clicked; the others are dimmed. If a player disconnects, a bot plays for them after a short wait, and a turn timer, when the table has one, plays for whoever runs out of time.",
        ],
      },
    ],
  },
  ten_point: {
    title: "Ten-point game",
    intro:
      "The Midwest game with the jick and the trey: ten cards dealt, a discard down to six, trump named by the bidder, and ten points at stake in every hand.",
    sections: [
      {
        title: "Players and sides",
        blocks: [
          "Three to six people play alone, or four, six or eight play in fixed partnerships, partners sitting across from each other and sharing one score. Eight players always play in teams.",
        ],
      },
      {
        title: "The deck and the deal",
        blocks: [
          "The whole pack of 54 cards is used (52 cards and two jokers).",
          {
            table: [
              ["Players", "Cards dealt to each", "Discard"],
              ["3, 4 or 5", "10", "4 each, down to 6"],
              ["6", "8", "2 each, down to 6"],
              ["8 (teams)", "6", "none"],
            ],
          },
          "The undealt cards (the stock) and every discard stay face down, out of play, worth nothing to anybody. They are shown when the hand is over.",
        ],
      },
      {
        title: "Bidding",
        blocks: [
          "One round, starting on the dealer's left and ending with the dealer. Each player passes or bids from 2 to 10, higher than every bid so far; once you pass you are out. If everyone else has passed, the dealer must bid.",
        ],
      },
      {
        title: "Trump and the discard",
        blocks: [
          "Right after the auction the bidder names the trump suit. Then every player, starting with the bidder and going clockwise, discards face down until six cards are left. Any cards may be thrown away, trumps included, although keeping your trumps is usually wise.",
        ],
      },
      {
        title: "The trumps",
        blocks: [
          "The jick is the jack of the other suit of the same colour as trump: the jack of diamonds when hearts are trump, and so on. For that hand it is a trump and nothing else. The jokers are trumps too. From highest to lowest:",
          {
            list: ["ace, king, queen and jack of trump", "the jick", "the big joker, then the little joker", "ten, nine… down to the two of trump"],
          },
        ],
      },
      {
        title: "Playing the tricks",
        blocks: [
          "The bidder leads the first trick and must lead a trump if they hold one (the jick and the jokers count); a bidder with no trump may lead anything.",
          {
            list: [
              "If a plain suit is led, you may follow suit or play a trump, as you prefer, even when you hold the suit. Only if you hold neither may you play something else.",
              "If trump is led and you hold a trump, you must play one.",
              "The jick and the jokers follow trump, never their printed suit.",
            ],
          },
          "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next. Six tricks are played.",
        ],
      },
      {
        title: "The ten points",
        blocks: [
          {
            list: [
              "High (1): the highest card of the trump suit that was played, to the side that captures it.",
              "Low (1): the lowest card of the trump suit that was played, to the side that captures it.",
              "Jack (1), Jick (1), Big joker (1), Little joker (1): each to the side that captures it.",
              "Game (1): to the side whose captured cards count the most (ten 10, ace 4, king 3, queen 2, jack 1). A tie gives it to nobody.",
              "Trey (3): the three of trump, to the side that captures it.",
            ],
          },
          "High and Low are chosen among the cards of the trump suit itself (never the jick or a joker) that were actually played. A point whose card was discarded or left in the stock goes to nobody.",
        ],
      },
      scoring,
      winning,
      {
        title: "At this table",
        blocks: [
          "To discard, click the cards you want to throw away (they rise), then confirm. Only the cards you may play can be clicked; the others are dimmed.",
        ],
      },
    ],
  },
};
