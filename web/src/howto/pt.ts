import type { HowTo, Section } from "./types";

const scoring: Section = {
  title: "A contagem de uma mão",
  blocks: [
    "Se o lado de quem apostou fez pelo menos os pontos que apostou, soma tudo o que fez. Se ficou abaixo, não cumpriu: o valor da aposta sai do seu placar e ele não soma nada nessa mão.",
    "Os outros lados simplesmente somam os pontos que fizeram. O placar pode ficar negativo.",
  ],
};

const winning: Section = {
  title: "Quem vence a partida",
  blocks: [
    "Jogam-se mãos até que um lado chegue à meta ({target}, a não ser que a mesa tenha escolhido {other_targets}). Depois de cada mão:",
    {
      list: [
        "se o lado de quem apostou cumpriu a aposta e está na meta ou acima, ele vence, mesmo que outro lado também tenha chegado lá com mais pontos;",
        "senão, vence o lado com o maior placar entre os que estão na meta ou acima;",
        "se vários lados empatam nesse maior placar, joga-se mais uma mão.",
      ],
    },
    "Um lado que não cumpriu a aposta não pode vencer nessa mão.",
  ],
};

const atTable: Section = {
  title: "Nesta mesa",
  blocks: [
    "Só dá para clicar nas cartas que você pode jogar; as outras ficam apagadas. Se alguém se desconectar, um robô joga por essa pessoa depois de uma pequena espera, e se a mesa tiver tempo por jogada, joga-se automaticamente por quem deixar o tempo acabar.",
  ],
};

const tenPlayers: Section = {
  title: "Jogadores e lados",
  blocks: [
    "Com {alone_players} pessoas, cada uma pode jogar por si; com {team_players}, também se joga em duplas fixas, com os parceiros frente a frente dividindo o placar. Com {teams_only} jogadores sempre se joga em equipes.",
  ],
};

const tenDeck: Section = {
  title: "O baralho e a distribuição",
  blocks: [
    "Usa-se o baralho completo de {deck} cartas (as {pack_cards} e {jokers} curingas).",
    { facts: "deal" },
    "As cartas que não foram distribuídas (o monte) e todos os descartes ficam virados para baixo, fora do jogo, sem valor para ninguém. São mostrados quando a mão termina.",
  ],
};

const tenBidding: Section = {
  title: "A aposta",
  blocks: [
    "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores; quem passa está fora. Se todos os outros passaram, o carteador tem que apostar.",
  ],
};

const tenTrumpAndDiscard: Section = {
  title: "O trunfo e o descarte",
  blocks: [
    "Logo depois da aposta, quem a ganhou escolhe o naipe de trunfo. Depois cada jogador, começando por quem apostou e seguindo no sentido horário, descarta virado para baixo até ficar com {hand_size} cartas. Pode-se descartar qualquer carta, até trunfos, embora guardá-los costume ser uma boa ideia.",
  ],
};

const tenTrumps: Section = {
  title: "Os trunfos",
  blocks: [
    "O jick é o valete do outro naipe da mesma cor do trunfo: o valete de ouros quando o trunfo é copas, e assim por diante. Nessa mão ele é trunfo e nada mais. Os curingas também são trunfos. Do mais alto ao mais baixo:",
    {
      list: ["ás, rei, dama e valete de trunfo", "o jick", "o curinga grande e depois o pequeno", "{rank_T}, {rank_9}… até o {rank_2} de trunfo"],
    },
  ],
};

const tenPlay: Section = {
  title: "As vazas",
  blocks: [
    "Quem ganhou a aposta sai na primeira vaza e tem que sair de trunfo se tiver algum (o jick e os curingas contam); se não tiver nenhum, sai com o que quiser.",
    {
      list: [
        "Se a saída for de um naipe comum, você pode seguir o naipe ou jogar um trunfo, como preferir, mesmo tendo o naipe. Só se não tiver nem um nem outro pode jogar outra carta.",
        "Se a saída for de trunfo e você tiver trunfo, tem que jogá-lo.",
        "O jick e os curingas seguem o trunfo, nunca o naipe impresso.",
      ],
    },
    "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha sai na seguinte. São {hand_size} vazas.",
  ],
};

const tenPoints: Section = {
  title: "Os pontos",
  blocks: [
    { facts: "points" },
    {
      list: [
        "Alta: a carta mais alta do naipe de trunfo que foi jogada, para o lado que a ganha.",
        "Baixa: a carta mais baixa do naipe de trunfo que foi jogada, para o lado que a ganha.",
        "Valete, Jick, curinga grande, curinga pequeno: cada um para o lado que o ganha.",
        "Jogo: para o lado cujas cartas ganhas somam mais ({rank_T} {game_ten}, ás {game_ace}, rei {game_king}, dama {game_queen}, valete {game_jack}). Em caso de empate, ninguém leva.",
        "{point_trey}: o {rank_3} de trunfo, para o lado que o ganha.",
      ],
    },
    "Alta e Baixa são escolhidas entre as cartas do próprio naipe de trunfo (nunca o jick nem um curinga) que foram de fato jogadas. O ponto de uma carta descartada ou que ficou no monte não vai para ninguém.",
  ],
};

const tenAtTable: Section = {
  title: "Nesta mesa",
  blocks: [
    "Para descartar, clique nas cartas que quer jogar fora (elas sobem) e confirme. Só dá para clicar nas cartas que você pode jogar; as outras ficam apagadas.",
  ],
};

const trumpDiscardAtTable: Section = {
  title: "Nesta mesa",
  blocks: [
    "Para descartar, clique nas cartas que quer jogar fora (elas sobem) e confirme. As cartas que as regras obrigam você a descartar já aparecem levantadas e não descem; as que as regras obrigam você a guardar ficam apagadas e não podem ser escolhidas. O contador mostra quantas você já escolheu, e o botão funciona quando o número está certo.",
    "Se alguém se desconectar, um robô joga por essa pessoa depois de uma pequena espera, e se a mesa tiver tempo por jogada, joga-se automaticamente por quem deixar o tempo acabar.",
  ],
};

export const howto: HowTo = {
  house: {
    title: "Variante da casa",
    intro:
      "O Smear é um jogo de vazas da família do Pitch. Na variante da casa cada um recebe {cards_dealt} cartas, quem ganha a aposta define o trunfo com a primeira carta que joga, e cada mão vale {points} pontos.",
    sections: [
      {
        title: "Jogadores e lados",
        blocks: [
          "Jogam de {min_players} a {max_players} pessoas. Com {team_players}, o anfitrião pode escolher jogar em equipes: os parceiros são sorteados, sentam frente a frente, juntam as cartas que ganham e dividem o placar. Caso contrário, cada um joga por si.",
        ],
      },
      {
        title: "O baralho",
        blocks: [
          "As {pack_cards} cartas mais {jokers} curingas, tirando os valores mais baixos até que cada um receba exatamente {cards_dealt} cartas e sobrem algumas viradas para baixo. Essas cartas dormidas ({sleeping_odd} com número ímpar de jogadores, {sleeping_even} com número par) não são de ninguém e só aparecem quando a mão termina.",
          { facts: "deal" },
          "Os curingas estão sempre no baralho, então qualquer um deles pode ficar dormindo. O primeiro carteador é sorteado; depois a vez de dar as cartas passa ao lugar seguinte no sentido horário a cada mão.",
        ],
      },
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta um número inteiro de {min_bid} a {max_bid} maior que todas as apostas anteriores. Quem passa está fora do leilão.",
          "Se todos os outros passaram, o carteador não pode passar e tem que apostar (qualquer valor de {min_bid} a {max_bid}). O lado de quem fez a maior aposta precisa então fazer pelo menos esses pontos.",
        ],
      },
      {
        title: "O trunfo",
        blocks: [
          "Quem ganhou a aposta sai na primeira vaza, e o naipe dessa carta vira trunfo durante a mão inteira. Não se pode sair com curinga na primeira vaza, porque ele não tem naipe. A partir da segunda vaza pode-se sair com curinga, e isso conta como sair de trunfo.",
          "Os trunfos vão do ás até o valor mais baixo do baralho, seguidos do curinga grande e depois do pequeno: os curingas são os trunfos mais baixos. Qualquer carta do naipe de trunfo ganha dos curingas. Não há jick nesta variante.",
        ],
      },
      {
        title: "As vazas",
        blocks: [
          {
            list: [
              "Se a saída for de um naipe comum e você tiver esse naipe, tem que segui-lo, e não pode cortar com trunfo.",
              "Se a saída for de trunfo (inclusive de curinga) e você tiver trunfo, tem que jogar trunfo. Os curingas contam como trunfos.",
              "Se não puder seguir o naipe, pode jogar qualquer carta, trunfos inclusive.",
              "Um curinga nunca conta como carta de um naipe comum.",
            ],
          },
          "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha a vaza sai na seguinte. São {hand_size} vazas.",
        ],
      },
      {
        title: "Os pontos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: a carta mais alta do naipe de trunfo que foi distribuída, para o lado que a ganha.",
              "Baixa: a carta mais baixa do naipe de trunfo que foi distribuída, para o lado de quem a jogou, não importa quem ganhe a vaza.",
              "Valete: o valete de trunfo, para o lado que o ganha.",
              "Curinga grande e curinga pequeno: cada um para o lado que o ganha.",
              "Jogo: para o lado cujas cartas ganhas somam mais (cada {rank_T} {game_ten}, ás {game_ace}, rei {game_king}, dama {game_queen}, valete {game_jack}, o resto {game_other}, em qualquer naipe). Se houver empate no topo, ninguém leva.",
            ],
          },
          "Os curingas nunca são Alta nem Baixa. Se só uma carta do naipe de trunfo foi distribuída, ela é Alta e Baixa ao mesmo tempo. O ponto de uma carta dormida não vai para ninguém, então algumas mãos valem menos de {points} pontos e uma aposta de {max_bid} pode ser impossível.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  ten_point: {
    title: "Variante de {points} pontos",
    intro:
      "O jogo do Meio-Oeste com jick e {point_trey}: {usual_dealt} cartas distribuídas, descarte até ficar com {hand_size}, trunfo escolhido por quem ganha a aposta, e {points} pontos em jogo a cada mão.",
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
    title: "{preset_ten_point} sem jick",
    intro:
      "A distribuição e o descarte do jogo “{preset_ten_point}” com uma contagem mais curta: não há jick nem {point_trey}, então cada mão vale {points} pontos, como no Pitch clássico.",
    sections: [
      tenPlayers,
      tenDeck,
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores; quem passa está fora. Se todos os outros passaram, o carteador tem que apostar.",
        ],
      },
      tenTrumpAndDiscard,
      {
        title: "Os trunfos",
        blocks: [
          "Não há jick: o outro valete da cor do trunfo é uma carta comum do seu próprio naipe e é seguido como qualquer outra. Os curingas são trunfos e ficam logo abaixo do valete de trunfo. Do mais alto ao mais baixo:",
          {
            list: ["ás, rei, dama e valete de trunfo", "o curinga grande e depois o pequeno", "{rank_T}, {rank_9}… até o {rank_2} de trunfo"],
          },
        ],
      },
      {
        title: "As vazas",
        blocks: [
          "Quem ganhou a aposta sai na primeira vaza e tem que sair de trunfo se tiver algum (os curingas contam); se não tiver nenhum, sai com o que quiser.",
          {
            list: [
              "Se a saída for de um naipe comum, você pode seguir o naipe ou jogar um trunfo, como preferir, mesmo tendo o naipe. Só se não tiver nem um nem outro pode jogar outra carta.",
              "Se a saída for de trunfo e você tiver trunfo, tem que jogá-lo.",
              "Os curingas seguem o trunfo, nunca um naipe comum.",
            ],
          },
          "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha sai na seguinte. São {hand_size} vazas.",
        ],
      },
      {
        title: "Os pontos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: a carta mais alta do naipe de trunfo que foi jogada, para o lado que a ganha.",
              "Baixa: a carta mais baixa do naipe de trunfo que foi jogada, para o lado que a ganha.",
              "Valete: o valete de trunfo, para o lado que o ganha.",
              "Curinga grande e curinga pequeno: cada um para o lado que o ganha.",
              "Jogo: para o lado cujas cartas ganhas somam mais ({rank_T} {game_ten}, ás {game_ace}, rei {game_king}, dama {game_queen}, valete {game_jack}). Em caso de empate, ninguém leva.",
            ],
          },
          "Não há ponto de {point_trey}: o {rank_3} de trunfo é só um trunfo baixo. Alta e Baixa são escolhidas entre as cartas do próprio naipe de trunfo (nunca um curinga) que foram de fato jogadas, e o ponto de uma carta descartada ou que ficou no monte não vai para ninguém.",
        ],
      },
      scoring,
      winning,
      tenAtTable,
    ],
  },
  cutthroat: {
    title: "Todos contra todos ({alone_players} jogadores)",
    intro:
      "O jogo “{preset_ten_point}” para exatamente {alone_players} jogadores, cada um por si: com jick, {point_trey} e {points} pontos a cada mão, e apostas a partir de {min_bid}.",
    sections: [
      {
        title: "Jogadores",
        blocks: [
          "Jogam exatamente {alone_players} pessoas, sem parceiros. Cada ponto que você faz conta só para você, assim como cada aposta que você não cumpre.",
        ],
      },
      {
        title: "O baralho e a distribuição",
        blocks: [
          "Usa-se o baralho completo de {deck} cartas (as {pack_cards} e {jokers} curingas). Cada um recebe {cards_dealt} cartas; as outras {sleeping} ficam viradas para baixo como monte, fora do jogo e sem valor para ninguém. Depois que o trunfo é escolhido, cada jogador descarta até ficar com {hand_size}. O monte e os descartes são mostrados quando a mão termina.",
          { facts: "deal" },
        ],
      },
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores: não se pode apostar menos de {min_bid}. Quem passa está fora. Se todos os outros passaram, o carteador tem que apostar, no mínimo {min_bid}.",
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
    title: "{points} pontos ({team_count} equipes)",
    intro:
      "{team_count} equipes cujos jogadores se alternam ao redor da mesa, um baralho com {jokers} curinga e com todos os {rank_2}, o trunfo definido pela primeira saída de quem apostou, e {points} pontos em jogo a cada mão.",
    sections: [
      {
        title: "Jogadores e equipes",
        blocks: [
          "Jogam {team_players} pessoas, sempre em {team_count} equipes. Os parceiros não sentam lado a lado: os lugares se alternam entre as equipes ao redor de toda a mesa, então com {team_example_players} jogadores os lugares {team_seats_a} jogam contra os lugares {team_seats_b}, e cada um fica entre adversários. Os parceiros são sorteados quando a partida começa. Cada equipe junta as cartas que ganha e divide o placar.",
        ],
      },
      {
        title: "O baralho",
        blocks: [
          "As {pack_cards} cartas mais {jokers} curinga. Todos os {rank_2} ficam sempre no baralho; com menos jogadores tiram-se alguns valores do meio, para que cada um receba {cards_dealt} cartas e sobrem {sleeping} viradas para baixo. Essas cartas dormidas não são de ninguém e são mostradas quando a mão termina.",
          { facts: "deal" },
          "O curinga pode ser uma das cartas dormidas. O primeiro carteador é sorteado; depois a vez de dar as cartas passa ao lugar seguinte no sentido horário a cada mão.",
        ],
      },
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores; quem passa está fora. Se todos os outros passaram, o carteador não pode passar e tem que apostar. A equipe de quem ganhou a aposta precisa então fazer pelo menos esses pontos.",
        ],
      },
      {
        title: "O trunfo",
        blocks: [
          "Quem ganhou a aposta sai na primeira vaza, e o naipe dessa carta vira trunfo durante a mão inteira. Essa primeira carta não pode ser o curinga, que não tem naipe; a partir da segunda vaza pode-se sair com ele, e isso conta como sair de trunfo.",
          "Os trunfos vão do ás até o {rank_2}, e o curinga vem depois de todos: é o trunfo mais baixo, e qualquer carta do naipe de trunfo ganha dele. Não há jick.",
        ],
      },
      {
        title: "As vazas",
        blocks: [
          {
            list: [
              "Se a saída for de um naipe comum e você tiver esse naipe, tem que segui-lo, e não pode cortar com trunfo.",
              "Se a saída for de trunfo (inclusive o curinga) e você tiver trunfo, tem que jogar trunfo. O curinga conta como trunfo.",
              "Se não puder seguir o naipe, pode jogar qualquer carta, trunfos inclusive.",
              "O curinga nunca conta como carta de um naipe comum.",
            ],
          },
          "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha a vaza sai na seguinte. São {hand_size} vazas.",
        ],
      },
      {
        title: "Os pontos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: a carta mais alta do naipe de trunfo que foi distribuída, para a equipe que a ganha.",
              "Baixa: a carta mais baixa do naipe de trunfo que foi distribuída, para a equipe de quem a tinha e a jogou, não importa quem ganhe a vaza.",
              "Valete: o valete de trunfo, para a equipe que o ganha.",
              "Curinga: para a equipe que o ganha.",
              "Jogo: para a equipe cujas cartas ganhas somam mais (cada {rank_T} {game_ten}, ás {game_ace}, rei {game_king}, dama {game_queen}, valete {game_jack}, o resto {game_other}, em qualquer naipe). Em caso de empate, ninguém leva.",
            ],
          },
          "O curinga nunca é Alta nem Baixa. O ponto de uma carta dormida não vai para ninguém, então algumas mãos valem menos de {points} pontos.",
        ],
      },
      {
        title: "Opção: o monte",
        blocks: [
          "Se a mesa for criada com monte, {kitty} das {sleeping} cartas que sobram formam o monte e as outras {kitty_sleeping} ficam dormidas. Depois da aposta, quem ganhou pega o monte sem mostrá-lo e devolve, viradas para baixo, {kitty} das suas {kitty_held} cartas, as que quiser, mesmo que sejam as do próprio monte. Só então sai, e a sua primeira carta define o trunfo: a troca é feita antes de se saber qual será. As cartas devolvidas não contam para ninguém, como as dormidas, e todos as veem quando a mão termina.",
        ],
      },
      scoring,
      winning,
      atTable,
    ],
  },
  mcleod: {
    title: "McLeod (em duplas)",
    intro:
      "Um jogo de duplas da família “{preset_ten_point}”: {usual_dealt} cartas para cada um, quem apostou escolhe o trunfo e depois recolhe o monte inteiro, descartes que guardam os trunfos enquanto sobrar outra carta, e {points} pontos em cada mão.",
    sections: [
      {
        title: "Jogadores e duplas",
        blocks: [
          "Jogam {team_players} pessoas, sempre em duplas: os parceiros sentam frente a frente, juntam as cartas que ganham e dividem o placar. As duplas são sorteadas no começo da partida.",
        ],
      },
      {
        title: "O baralho e a distribuição",
        blocks: [
          "Usa-se o baralho completo de {deck} cartas (as {pack_cards} e {jokers} curingas). As cartas que não foram distribuídas ficam viradas para baixo: são o monte.",
          { facts: "deal" },
          "Com {max_players} jogadores cada um recebe {dealt_at_max} cartas, e não {dealt_at_min}: {dealt_at_min} para cada um seriam mais cartas do que o baralho tem.",
        ],
      },
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores; quem passa está fora. Se todos os outros passaram, o carteador tem que apostar.",
        ],
      },
      {
        title: "O trunfo, o monte e o descarte",
        blocks: [
          "Quem apostou escolhe o trunfo, recolhe todas as cartas do monte e descarta até ficar com {hand_size}. Depois os outros, a partir da esquerda de quem apostou e no sentido horário, também descartam até ficar com {hand_size}.",
          "Ninguém pode jogar fora um trunfo enquanto guarda uma carta que não é trunfo: os trunfos só saem depois de todas as outras cartas, então só quem tem mais de {hand_size} trunfos chega a descartar algum. Os descartes ficam virados para baixo e não contam para ninguém; são mostrados quando a mão termina.",
        ],
      },
      {
        title: "Os trunfos",
        blocks: [
          "O jick (o valete do outro naipe da mesma cor do trunfo) e os curingas são trunfos. Do mais alto ao mais baixo:",
          { list: ["ás, rei, dama e valete de trunfo", "o jick", "os curingas", "{rank_T}, {rank_9}… até o {rank_2} de trunfo"] },
          "Os curingas são gêmeos: nenhum vale mais que o outro. Se caírem na mesma vaza, o que for jogado depois ganha do anterior. A mesa continua desenhando um curinga grande e outro pequeno só para você poder distingui-los.",
        ],
      },
      {
        title: "As vazas",
        blocks: [
          "Quem apostou sai na primeira vaza e tem que sair de trunfo se tiver algum (o jick e os curingas contam).",
          {
            list: [
              "Você sempre pode cortar em vez de seguir o naipe: se a saída for de um naipe comum, siga o naipe ou jogue um trunfo, como preferir. Só se não tiver nem um nem outro pode jogar outra carta.",
              "Se a saída for de trunfo e você tiver trunfo, tem que jogá-lo.",
              "O jick e os curingas seguem o trunfo, nunca o naipe impresso.",
            ],
          },
          "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha sai na seguinte. São {hand_size} vazas.",
        ],
      },
      tenPoints,
      scoring,
      {
        title: "Quem vence a partida",
        blocks: [
          "Jogam-se mãos até que uma dupla chegue à meta ({target}, a não ser que a mesa tenha escolhido {other_targets}). Depois de cada mão:",
          {
            list: [
              "se uma ou mais duplas estão na meta ou acima, vence a de maior placar, tenha apostado ou não nessa mão;",
              "se esse placar for dividido, vence a dupla de quem apostou, se estiver entre elas; senão, joga-se mais uma mão.",
            ],
          },
        ],
      },
      trumpDiscardAtTable,
    ],
  },
  widow: {
    title: "Viúva ({table_sizes} jogadores)",
    intro:
      "{cards_dealt} cartas para cada um e uma viúva de {widow} cartas para quem ganha a aposta. Os outros trocam as cartas que não são trunfo por cartas novas do monte, e o {point_two} e o {point_ten} ficam no lugar da Baixa e do Jogo: {points} pontos em cada mão.",
    sections: [
      {
        title: "Jogadores e lados",
        blocks: [
          "Jogam {table_sizes} pessoas. Com {alone_only}, cada um joga por si; com {teams_either}, cada um por si ou, se o anfitrião escolher equipes, em {team_count} duplas, com os parceiros frente a frente dividindo o placar.",
        ],
      },
      {
        title: "O baralho e a distribuição",
        blocks: [
          "Usa-se o baralho completo de {deck} cartas (as {pack_cards} e {jokers} curingas). Cada um recebe {cards_dealt} cartas, outras {widow} ficam viradas para baixo como a viúva, e o resto forma o monte.",
          { facts: "deal" },
        ],
      },
      {
        title: "A aposta",
        blocks: [
          "O leilão começa à esquerda do carteador e termina nele. Cada jogador passa ou aposta de {min_bid} a {max_bid}, acima de todas as apostas anteriores; quem passa está fora. Se todos os outros passaram, o carteador tem que apostar.",
        ],
      },
      {
        title: "A viúva e o trunfo",
        blocks: [
          "Quem apostou pega as {widow} cartas da viúva sem mostrá-las, e só então escolhe o naipe de trunfo.",
        ],
      },
      {
        title: "A troca com o monte",
        blocks: [
          "Depois cada um dos outros, na sua vez e começando à esquerda de quem apostou, joga fora todas as cartas que não são trunfo e compra do monte até voltar a ter {hand_size} cartas.",
          {
            list: [
              "Quem tem mais de {hand_size} trunfos fica com {hand_size}: descarta o que não é trunfo e depois trunfos até ficar com {hand_size}, mas nunca um trunfo que vale ponto enquanto tiver outro trunfo para descartar.",
              "Se o monte não der, descartam-se só tantas cartas quantas o monte puder repor, e cada um escolhe quais cartas que não são trunfo vai guardar.",
              "Por último, quem apostou pega o que sobrou do monte e descarta até ficar com {hand_size}: primeiro o que não é trunfo, depois os trunfos que não valem ponto, e os trunfos que valem ponto só quando não sobrar mais nada.",
            ],
          },
          "Os trunfos que valem ponto são o ás, o valete, o jick, os curingas, o {rank_T}, o {rank_3} e o {rank_2} de trunfo. Os descartes e o que ficar no monte continuam virados para baixo e não contam para ninguém.",
        ],
      },
      tenTrumps,
      {
        title: "As vazas",
        blocks: [
          "Quem apostou sai na primeira vaza com a carta que quiser: não precisa sair de trunfo.",
          {
            list: [
              "Se a saída for de um naipe comum, você pode seguir o naipe ou jogar um trunfo, como preferir, mesmo tendo o naipe. Só se não tiver nem um nem outro pode jogar outra carta.",
              "Se a saída for de trunfo e você tiver trunfo, tem que jogá-lo.",
              "O jick e os curingas seguem o trunfo, nunca o naipe impresso.",
            ],
          },
          "Ganha a vaza o trunfo mais alto; sem trunfos, a carta mais alta do naipe de saída. Quem ganha sai na seguinte. São {hand_size} vazas.",
        ],
      },
      {
        title: "Os pontos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: a carta mais alta do naipe de trunfo que foi jogada, para o lado que a ganha.",
              "{point_two}: o {rank_2} de trunfo, para o lado de quem o tem na mão quando começam as vazas, seja quem for que ganhe a vaza em que ele cai.",
              "Valete, Jick, curinga grande, curinga pequeno: cada um para o lado que o ganha.",
              "{point_ten}: para o lado que o ganha. Ele substitui o Jogo: as cartas não são contadas.",
              "{point_trey}: o {rank_3} de trunfo, para o lado que o ganha.",
            ],
          },
          "Não há Baixa nem Jogo. O ponto de uma carta descartada ou que ficou no monte não vai para ninguém.",
        ],
      },
      scoring,
      winning,
      trumpDiscardAtTable,
    ],
  },
  nine_card: {
    title: "Jogo de {cards_dealt} cartas",
    intro:
      "Cada um recebe {cards_dealt} cartas e troca tudo o que não é trunfo por cartas novas do monte. Só se jogam trunfos, e quem fica sem eles sai da mão. Há {points} pontos em jogo em cada mão, os curingas valem para quem os tinha e só um lado que apostou pode ganhar a partida.",
    sections: [
      {
        title: "Jogadores e lados",
        blocks: [
          "Jogam {alone_players} pessoas, cada uma por si; ou {team_players} em duplas, com os parceiros sentados frente a frente e o placar em comum.",
        ],
      },
      {
        title: "O baralho e a distribuição",
        blocks: [
          "Usa-se o baralho completo de {deck} cartas ({pack_cards} cartas e {jokers} curingas). Cada um recebe {cards_dealt} cartas; o resto fica virado para baixo como monte.",
          { facts: "deal" },
          "Quando o baralho inteiro é distribuído (veja a tabela), não há monte, e ninguém compra depois de descartar.",
        ],
      },
      tenBidding,
      {
        title: "O trunfo e a troca com o monte",
        blocks: [
          "Quem apostou escolhe o trunfo. Depois, cada um na sua vez, primeiro quem apostou e então os outros no sentido horário, joga fora todas as cartas que não são trunfo e recebe cartas do monte até voltar a ter {hand_size}.",
          {
            list: [
              "O descarte não se escolhe: sai tudo o que não é trunfo e ficam todos os trunfos.",
              "Quem não tem nenhuma carta que não seja trunfo não descarta e não recebe nada.",
              "Quem tem mais de {hand_size} trunfos fica com todos e não recebe nada; os trunfos que sobram são jogados na primeira vaza.",
              "Quando o monte acaba, a reposição para: quem vem depois recebe menos cartas ou nenhuma, e pode ficar com menos de {hand_size}.",
              "As cartas do monte que não são trunfo estão mortas: ficam na mão até o fim e nunca são jogadas.",
            ],
          },
          "Os descartes e o que sobrar do monte continuam virados para baixo e não valem para ninguém; todos os veem no fim da mão.",
        ],
      },
      tenTrumps,
      {
        title: "As vazas",
        blocks: [
          "Só se jogam trunfos. Quem apostou sai na primeira vaza ou, se não tiver trunfo, o primeiro jogador depois dele no sentido horário que tiver. Os outros jogam depois, cada um na sua vez, um trunfo cada.",
          {
            list: [
              "Quem fica sem trunfos sai da mão: a partir daí a sua vez é pulada, com ou sem cartas mortas, então uma vaza pode ter menos cartas do que jogadores.",
              "Quem tem mais de {hand_size} cartas quando o jogo começa joga os trunfos que sobram na primeira vaza, carta após carta na sua vez, até ficar com tantas cartas quanto os outros depois dessa vaza. Por isso a primeira vaza pode ter várias cartas do mesmo jogador.",
            ],
          },
          "O trunfo mais alto ganha a vaza, e quem ganha sai na seguinte; se não tiver mais trunfos, sai o próximo jogador no sentido horário que tiver. A mão termina assim que ninguém tem trunfo, então o número de vazas muda de uma mão para outra, e alguns podem terminar com cartas mortas na mão.",
        ],
      },
      {
        title: "Os pontos",
        blocks: [
          { facts: "points" },
          {
            list: [
              "Alta: a carta mais alta do naipe de trunfo que foi jogada, para o lado que a ganha.",
              "Baixa: a carta mais baixa do naipe de trunfo que foi jogada, para o lado que a ganha.",
              "Valete, Jick: cada um para o lado que o ganha.",
              "Curinga grande, curinga pequeno: cada um para o lado de quem o tinha e o jogou, seja quem for que ganhe a vaza em que cai.",
              "Jogo: para o lado cujas cartas ganhas somam mais ({rank_T} {game_ten}, ás {game_ace}, rei {game_king}, dama {game_queen}, valete {game_jack}). Em caso de empate, ninguém leva.",
              "{point_trey}: o {rank_3} de trunfo, para o lado que o ganha.",
            ],
          },
          "Alta e Baixa são escolhidas entre as cartas do próprio naipe de trunfo (nunca o jick nem um curinga). Todo trunfo distribuído ou comprado acaba sendo jogado; o ponto de uma carta que ficou no monte não vai para ninguém.",
        ],
      },
      scoring,
      {
        title: "Ganhar a partida",
        blocks: [
          "A meta é {target}, a não ser que a mesa tenha escolhido {other_targets}. Só pode ganhar o lado que apostou: depois de uma mão, ele ganha a partida se cumpriu a aposta e está na meta ou acima.",
          "Os outros lados simplesmente guardam os seus pontos. Podem ficar várias mãos na meta ou acima; para levar a partida precisam ganhar um leilão e cumprir a aposta. Vários lados podem estar acima da meta ao mesmo tempo.",
          "Com as opções da mesa, uma lua que falha ou a eliminação também podem encerrar a partida, como explicam as opções abaixo.",
        ],
      },
      {
        title: "Nesta mesa",
        blocks: [
          "O descarte é decidido pelas regras: as cartas que não são trunfo já aparecem levantadas, o contador está completo e basta confirmar. No resto da mão as suas cartas mortas ficam apagadas e só os seus trunfos podem ser clicados.",
          "Ao lado do nome de quem ficou sem trunfos aparece “fora”. Quando você tem trunfos sobrando para a primeira vaza, a vez continua sua até você jogar todos eles; as cartas que um mesmo jogador pôs na vaza aparecem em leque no lugar dele.",
          "Se alguém se desconectar, um robô joga por essa pessoa depois de uma pequena espera, e se a mesa tiver tempo por jogada, joga-se automaticamente por quem deixar o tempo acabar.",
        ],
      },
    ],
  },
  options: {
    title: "Opções da mesa",
    blocks: [
      "Quem cria a mesa escolhe estas opções; a sala de espera e o placar mostram quais estão ligadas.",
      {
        list: [
          "Meta: a partida vai até {targets} pontos ({target} é o normal).",
          "Apostar a lua: o leilão ganha uma aposta acima da mais alta da variante, mostrada como “Lua”: {moon_bid} nesta variante. Para cumpri-la, o lado de quem apostou precisa levar todos os pontos da mão. Se conseguir, ganha a partida na hora, seja qual for o placar; se não, perde o valor apostado e a partida também.",
          "Eliminação em {elimination}: o lado cujo placar cai para {elimination} ou menos perde.",
          {
            option: "kitty",
            text: "Monte: depois da aposta, quem ganhou pega {kitty} das cartas que sobram e devolve {kitty}, as que quiser, viradas para baixo antes de sair; a seção do monte, mais acima, explica melhor.",
          },
        ],
      },
      "O que acontece nos casos que sempre geram dúvida:",
      {
        list: [
          "O ponto de uma carta dormida, que ficou no monte ou que foi descartada não pode ser feito por ninguém, então nessa mão a lua não pode ser cumprida.",
          "Se um lado com placar negativo cumpre a lua, ele não ganha a partida: o placar só volta a {moon_reset} e o jogo continua.",
          "Quando a lua não é cumprida, ganha o outro lado com o maior placar. Se vários empatam, ganha o primeiro deles depois do lado de quem apostou, na ordem do placar.",
          "Com eliminação, se não houver outro lado além do adversário, este ganha na hora; senão, ganha o maior placar entre os que ainda estão no jogo; se vários empatam, joga-se mais uma mão, e um lado eliminado não pode mais ganhar.",
          "Chegar à meta vem primeiro: se um lado ganha pelas regras normais na mesma mão, a eliminação não muda isso.",
        ],
      },
    ],
  },
};
