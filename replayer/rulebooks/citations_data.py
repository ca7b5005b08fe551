"""The citation catalogue's data: every article a finding may cite, in English.

Written from the regulation texts themselves (``MO-97/2010`` Chinese, ``PT-217/2007`` and
``GG-2022`` Portuguese): each entry gives the article's title and its substance in one
line. Where the available copy of a text lost a list or a table, the entry says so and
names the rule the replayer applies instead. ``replayer.rulebooks.citations`` builds the
catalogue from these tables and resolves citation strings against it.

``SOURCES``: ``(key, title, summary)``. ``ENTRIES``: per source, ``(suffix, title,
summary)``; an entry's key is ``f"{source} {suffix}"``. ``ALIASES``: other spellings the
code uses for a catalogued key.
"""

from __future__ import annotations

SOURCES: tuple[tuple[str, str, str], ...] = (
    (
        "MO-97/2010",
        "Macau Despacho n.º 97/2010, Omaha Poker statutory rules",
        "Despacho of the Secretary for Economy and Finance of the Macau SAR (Boletim Oficial "
        "32/2010, 2010-08-09) authorising Omaha Poker and approving its 16-article statutory "
        "rules, in force from 2010-08-10",
    ),
    (
        "PT-217/2007",
        "Portaria n.º 217/2007, rules of casino games (Portugal)",
        "Portaria of 26 February 2007, in force 1 March 2007 (consolidated text): Section I "
        "chemin de fer baccarat, Section II non-banked poker (general rules, omaha, hold'em, "
        "póquer sintético, tournaments), Title III slot machines",
    ),
    (
        "GG-2022",
        "GGPoker house rules 2022",
        "GGPoker operational rules ('Regras da Casa'), updated 2022-09-28: cash-game and "
        "tournament policies, refunds after server failures, RNG casino, and live casino "
        "baccarat (II), blackjack (III) and roulette (IV)",
    ),
    (
        "casino-audit",
        "casino-audit rules of procedure",
        "How casino-audit itself decides what judges a record and what a readable record "
        "is: the rulebook registry, the event record schemas and the data-quality checks",
    ),
    (
        "SAS",
        "Slot Accounting System (SAS) meter practice",
        "The slot industry's meter protocol and accounting conventions, applied where "
        "PT-217/2007 III.9 requires meters but does not say how they count (not a regulation)",
    ),
)

_MO: tuple[tuple[str, str, str], ...] = (
    (
        "art.1",
        "Equipment",
        "A table with a layout, a dealer button, one 52-card deck, a shoe with a white cut "
        "card or a shuffling machine; the button passes clockwise after each hand",
    ),
    ("art.1(1)(3)", "One 52-card deck", "The game is played with one deck of 52 cards"),
    (
        "art.1(2)",
        "Dealer button",
        "The button sits before the first player to the croupier's left and passes clockwise "
        "to the next player after each hand",
    ),
    (
        "art.2",
        "Seats and minimum players",
        "Ten player seats (the house may use more) and one for the croupier; at least two "
        "players are needed to start a hand",
    ),
    ("art.2(1)", "Ten seats", "The layout has ten seats for players and one for the croupier"),
    ("art.2(2)", "More seats allowed", "The house may use a layout with more than ten seats"),
    ("art.2(3)", "Minimum players", "At least two players are needed to start a hand"),
    (
        "art.3",
        "Opening procedure",
        "Cards are shuffled by hand and cut with the white card, or by a shuffling machine; "
        "the croupier deals in order from the first player to the button's left",
    ),
    (
        "art.3(2)",
        "Dealing order",
        "The croupier deals in order, starting with the first player to the left of the button",
    ),
    (
        "art.4",
        "Bets in chips",
        "All bets are made with chips; the table shows the minimum and maximum blinds",
    ),
    (
        "art.5",
        "Blinds",
        "Before the deal the 1st player left of the button posts the small blind (normally "
        "half the big blind) and the 2nd player left of the button the big blind",
    ),
    (
        "art.6",
        "Start of the hand",
        "Four hole cards each, face down; betting opens left of the blinds, the big blind "
        "acts last in the first round and the button last in the later rounds",
    ),
    (
        "art.6(1)",
        "Four hole cards",
        "The croupier deals each player four cards face down, one at a time, clockwise from "
        "the first player to the left of the button",
    ),
    (
        "art.6(3)",
        "First betting round",
        "After looking at their cards, players decide in turn clockwise, starting left of the "
        "two blinds: bet, raise or fold",
    ),
    (
        "art.6(4)",
        "Big blind's option",
        "In the first round the player with the highest big blind acts last and may fold, "
        "raise or check",
    ),
    (
        "art.6(5)",
        "Button acts last",
        "In the following rounds the player holding the button is the last to bet, raise or fold",
    ),
    (
        "art.7",
        "Flop and second betting round",
        "The croupier burns one card and turns three community cards (the flop); the second "
        "betting round starts left of the button",
    ),
    (
        "art.7(1)",
        "Flop",
        "The croupier burns one card, then turns three community cards face up (the flop)",
    ),
    (
        "art.7(2)",
        "Second round opener",
        "The second betting round starts with the first player to the left of the button",
    ),
    (
        "art.8",
        "Turn, river and showdown",
        "Burn and turn, a betting round from left of the button, burn and river, a last "
        "betting round, then every player still in shows his cards",
    ),
    ("art.8(1)", "Turn", "The croupier burns one card and turns a fourth community card"),
    (
        "art.8(2)",
        "Later round opener",
        "The next betting round starts with the player to the left of the button",
    ),
    ("art.8(3)", "River", "The croupier burns one card and turns the fifth community card"),
    (
        "art.9",
        "Misdeal",
        "Any error in dealing hole or community cards is corrected at once; if it cannot be, "
        "the hand is void and the bets are returned",
    ),
    (
        "art.9(2)",
        "Void hand, bets returned",
        "If a dealing error cannot be corrected the hand is declared void and every bet is "
        "returned to the players",
    ),
    (
        "art.10",
        "Final hand",
        "Best five cards from two hole cards and three community cards; the best hand takes "
        "the pot, ties split it equally, the indivisible rest goes left of the croupier",
    ),
    (
        "art.10(1)",
        "Two hole cards plus three board cards",
        "A player makes his best five-card hand from two of his hole cards and three of the "
        "community cards",
    ),
    (
        "art.10(2)",
        "Winner takes the pot",
        "The player with the best five-card hand wins all the bets on the table (the pot)",
    ),
    (
        "art.10(3)",
        "No pot-sharing agreements",
        "Players may not agree to share the pot; every seat plays on until the result",
    ),
    (
        "art.10(4)",
        "Split pot",
        "Two or more players with equal hands share the pot equally, down to the smallest "
        "divisible amount",
    ),
    (
        "art.10(5)",
        "Odd chip",
        "The amount that cannot be divided goes to the first player still in the hand to "
        "the croupier's left",
    ),
    (
        "art.11",
        "Betting rules",
        "Verbal bets bind; in limit (pot-limit) games a bet or raise is at most the pot; in "
        "no-limit games a bet is at least the minimum and all-in is allowed",
    ),
    (
        "art.11(2)",
        "Pot-limit betting",
        "In games with betting limits a player may bet any amount up to the pot, call the "
        "previous bet, or raise up to the value of the pot",
    ),
    (
        "art.11(2)(2)",
        "Call",
        "A player may call: match the amount of the previous player's bet",
    ),
    (
        "art.11(3)",
        "No-limit betting",
        "In games without limits a bet is at least the minimum bet, and a player may put in "
        "all his remaining chips (all-in)",
    ),
    (
        "art.12",
        "Raises",
        "A raise is at least the previous bet or raise; three raises per round in limit "
        "games; no limit in no-limit games or heads-up",
    ),
    (
        "art.12(1)",
        "Minimum raise",
        "A raise must be at least the amount of the previous bet or raise in the hand",
    ),
    (
        "art.12(2)",
        "Three raises per round",
        "In games with limits there are at most three raises in each betting round",
    ),
    (
        "art.12(3)",
        "No-limit raises",
        "In games without limits the amount of a bet or raise is not limited",
    ),
    (
        "art.12(4)",
        "Heads-up",
        "With only two players in the hand (heads-up) raising is not limited",
    ),
    (
        "art.13",
        "Folding",
        "A player may fold in any round, pushing his cards face down to the croupier; his "
        "bets stay in the pot",
    ),
    (
        "art.13(3)",
        "Folded bets stay in the pot",
        "The bets of a player who folds go into the pot won by the winner",
    ),
    (
        "art.14",
        "Card ranks",
        "Suits have no rank; cards rank A, K, Q, J, 10 down to 2; the ace is low in the "
        "straight 5-4-3-2-A",
    ),
    ("art.14(3)", "Ace low", "In the straight 5-4-3-2-A the ace counts as the lowest card"),
    (
        "art.15",
        "Hand ranking",
        "Royal flush, straight flush, four of a kind, full house, flush, straight, three of "
        "a kind, two pair, one pair, high card; identical five cards tie",
    ),
    (
        "art.15(3)",
        "Four of a kind",
        "Four cards of one rank; the fifth card does not count, the higher four wins",
    ),
    (
        "art.16",
        "Commission (rake)",
        "The house takes 3% to 5% of each pot as commission, at most five times the big blind",
    ),
    (
        "(silent on collusion: operator's house rules)",
        "Collusion: not addressed",
        "The Omaha rules say nothing on collusion beyond forbidding pot-sharing agreements "
        "(art.10(3)); the operator's house rules apply",
    ),
    (
        "art.4(2)",
        "Tournament chips stay on the table",
        "In a tournament a player may not take off the table, while playing, the chips he "
        "plays with or the chips he wins in it",
    ),
)

_PT_I: tuple[tuple[str, str, str], ...] = (
    (
        "I.1",
        "Object of chemin de fer",
        "A non-banked game: with two or three cards, make 9 or the total nearest to it",
    ),
    (
        "I.2",
        "The higher total wins; equal points void the coup",
        "When the banker's total equals the ponto's the coup is void; otherwise the higher "
        "total wins",
    ),
    ("I.4", "Six decks", "Played with six 52-card decks, three of one colour, three of another"),
    (
        "I.9",
        "Card values",
        "The cards' point values (the list is missing from the available copy; the usual "
        "values apply: ace 1, 2-9 face value, tens and court cards 0)",
    ),
    ("I.10", "Counting", "A total above 10 or 20 counts only the amount over it (the last digit)"),
    ("I.11", "Bacará", "A total of 0, 10 or 20 is 'bacará'"),
    (
        "I.13",
        "Cut and warning card",
        "After the cut a red warning card goes between the 7th and 8th card from the end; "
        "the first card drawn sets how many cards are burnt",
    ),
    (
        "I.30",
        "Banker and pontos",
        "The player who receives the shoe is the banker; the other players are the pontos",
    ),
    (
        "I.34",
        "Garage after winning coups",
        "After his third winning coup, and each odd-numbered win after it, the banker may "
        "cut the bank by 50% and set those chips aside (garage); ties do not count, a new "
        "banker counts afresh",
    ),
    ("I.35", "Minimum bank", "A bank may not be below the table's minimum; there is no maximum"),
    (
        "I.36",
        "Stakes in multiples",
        "A ponto's stake must equal the minimum set for stakes or a multiple of it",
    ),
    (
        "I.37",
        "Limits posted",
        "The bank's minimum capital and the pontos' minimum stake are posted at the table",
    ),
    ("I.38", "Bets before the deal", "Stakes are placed on the table before any card is drawn"),
    (
        "I.40",
        "Close of betting",
        "The banker deals only after the croupier calls 'Jogo feito. Nada mais.'; stakes "
        "placed after that call are withdrawn",
    ),
    (
        "I.45",
        "Bets up to the bank",
        "The banker must accept one ponto staking the whole bank (banco), or several "
        "pontos' stakes up to, together, the amount of the bank",
    ),
    (
        "I.46",
        "Bank not fully covered",
        "When the stakes fell short of the bank, a winning banker may keep the accumulated "
        "amount in play or cut the bank to twice the stakes won; the surplus goes to garage",
    ),
    (
        "I.47",
        "Cagnotte",
        "The casino takes a percentage of the banker's winnings (cagnotte), which the banker "
        "may pay from outside the bank",
    ),
    (
        "I.58",
        "Stakes up to the bank",
        "If nobody calls banco, each ponto stakes what he likes until the bank is covered",
    ),
    (
        "I.62",
        "The deal",
        "In each coup the banker draws from the shoe, twice and alternately, one card for "
        "the ponto and one for himself",
    ),
    (
        "I.64",
        "The ponto's rules",
        "The ponto holding the cards looks first and must follow the drawing rules (missing "
        "from the copy; the classic rule applies: draw on 0-4, optional on 5, stand on 6-7)",
    ),
    (
        "I.65",
        "The ponto's call",
        "Having seen his cards, the ponto announces his decision in the set words (the "
        "wording is missing from the available copy)",
    ),
    (
        "I.66",
        "The call repeated",
        "The croupier repeats the ponto's call in Portuguese (and French or English)",
    ),
    (
        "I.67",
        "The banker's table",
        "The banker turns his two cards and plays by the table (missing from the copy; the "
        "classic table applies: 0-2 draw; 3 draws unless the ponto's third card is 8, "
        "optional on 9; 4 on 2-7; 5 on 5-7, optional on 4; 6 on 6-7; 7 stands; after a "
        "ponto stands, draw on 0-5)",
    ),
    (
        "I.70",
        "False draws in banco",
        "When banco is called, ponto and banker may draw falsely at their own risk, except a "
        "banker holding bacará",
    ),
    (
        "I.71",
        "False draw reconstructed",
        "When a ponto playing for the table draws falsely, the croupier reconstructs the coup "
        "under the inspector's watch and burns any surplus cards",
    ),
    (
        "I.75",
        "Cards discarded early",
        "A banker or ponto who discards cards loses the coup; if the croupier discards them "
        "before the totals are shown and called, the coup is annulled",
    ),
    (
        "I.76",
        "Equal totals",
        "Equal totals, whatever they are, void the coup; pontos may keep, withdraw, cut or "
        "raise their stakes (up to the bank) for the next coup",
    ),
    (
        "I.99",
        "The ponto's choice on 5",
        "Staff must explain the rules to a ponto who asks, but may not tell him to draw on "
        "5: that choice is his alone",
    ),
    (
        "I.100",
        "Staff error",
        "When the croupier has made a mistake, the coup is reconstructed according to the table",
    ),
    (
        "I.102",
        "Banker plays by the table",
        "For a banker who does not know the rules the croupier declares 'the banker plays by "
        "the table', and he must draw in the two cases where drawing is optional",
    ),
    (
        "I.14",
        "Last coup of the sabot",
        "Once the warning card is out, the coup in progress is the sabot's last; no other is "
        "played before the cards are shuffled and cut again (a coup whose draw the warning "
        "card opens is still played)",
    ),
    (
        "I.16",
        "Four players",
        "A game may neither begin nor go on unless at least four players are seated at the table",
    ),
    (
        "I.32",
        "The hand at the end of the sabot",
        "When the sabot ends, the hand stays with the banker who dealt the last coup if he won "
        "it, and passes to the player on his right if he lost it",
    ),
    (
        "I.33",
        "The bank at a new sabot",
        "A banker who keeps the hand at the end of the sabot may keep the bank or halve it",
    ),
    (
        "I.107",
        "Closing time",
        "Play goes on past the official closing time to the end of the sabot only if that "
        "sabot began at least twenty minutes before it",
    ),
)

_PT_II: tuple[tuple[str, str, str], ...] = (
    (
        "n.º 6",
        "Seats",
        "Tables have 10 or 11 seats numbered from the croupier's left; hold'em and omaha use "
        "10-seat tables, póquer sintético must offer 11",
    ),
    (
        "n.º 7",
        "House percentage",
        "The concessionaire's percentage is fixed before each session by one of the listed "
        "modalities (the list is missing from the available copy)",
    ),
    (
        "n.º 17",
        "Hand rankings",
        "The combinations ranked from highest to lowest (the list is missing from the "
        "available copy; the standard poker order applies)",
    ),
    (
        "n.º 20",
        "Minimum bet",
        "The minimum bet is 20% or 40% of the maximum by variant; no bet below the posted minimum",
    ),
    (
        "n.º 24",
        "Minimum players",
        "A game may not start or continue with fewer than four players; below four it is "
        "suspended, and closed if not restored within 15 minutes",
    ),
    (
        "n.º 29",
        "The mão",
        "The 'mão' (the dealer position) starts with the first player left of the croupier "
        "and moves clockwise; a marker is placed before the player holding it",
    ),
    (
        "n.º 35",
        "Dealing",
        "One card face down to each player in the hand, from the player who made the first "
        "bet, clockwise; then a second card the same way",
    ),
    (
        "n.º 38",
        "Pot and side pots",
        "All bets go to the central pot; a side pot is created for each all-in ('encavado') "
        "player with a different amount",
    ),
    (
        "n.º 41",
        "Flop",
        "After the first betting round the croupier burns a card and turns three community "
        "cards (the flop)",
    ),
    ("n.º 42", "Second round opener", "The player holding the mão opens the second round"),
    (
        "n.º 43",
        "Turn",
        "After the second round the croupier burns the next card and turns the fourth "
        "community card (turn)",
    ),
    ("n.º 44", "Third round opener", "The player holding the mão opens the third betting round"),
    (
        "n.º 45",
        "River",
        "After the third round the croupier burns the next card and turns the fifth and last "
        "community card (river)",
    ),
    ("n.º 46", "Last round opener", "The player holding the mão opens the last betting round"),
    (
        "n.º 47",
        "Raise limits",
        "The number of raises per betting interval may be limited by variant; with only two "
        "players in the hand raises are unlimited",
    ),
    (
        "n.º 48",
        "Equal stakes",
        "At the end of each betting round every active player has the same amount in the pot",
    ),
    (
        "n.º 49",
        "All-in player",
        "A player who cannot match the bet and does not fold is all-in ('encavado'); if he "
        "wins he takes his proportional part of the pot, the rest goes to the next best hands",
    ),
    (
        "n.º 50",
        "All-in share",
        "An all-in player's share of the pot is in the proportion of his bet to the full bets",
    ),
    (
        "n.º 51",
        "Uncontested pot",
        "When only one player bet and all others passed, he wins the pot without showing",
    ),
    (
        "n.º 56",
        "No collusion",
        "Players may not influence or criticise others' play; agreements between players to "
        "cancel plays ('parol') are expressly forbidden",
    ),
    (
        "n.º 62",
        "Showdown order",
        "After the last round the cards are shown at the croupier's call: first the player "
        "who opened the last round, then clockwise from his left",
    ),
    (
        "n.º 65",
        "Paying the pot",
        "The croupier pays the pot to the winner, taking the concessionaire's percentage, if "
        "any, from each payment",
    ),
    (
        "n.º 66",
        "Split pot",
        "Equal winning hands share the pot (or an all-in player's part, or the rest) in "
        "proportion to their bets",
    ),
    (
        "n.º 67",
        "Splitting unit and odd chips",
        "Shares are made so that the smallest chip in each equals the minimum bet; the "
        "largest share goes to the mão, the rest to the following players in turn",
    ),
    (
        "n.º 69",
        "Misdeal",
        "A dealing error makes the hand void and a new hand is dealt (the list of errors is "
        "missing from the available copy)",
    ),
    (
        "n.º 72",
        "Omaha deck",
        "Omaha uses one 52-card deck, A K Q J 10-2 in four suits; in straights the ace may "
        "be low (below the 2) or high",
    ),
    (
        "n.º 73",
        "Omaha hand",
        "The best hand from exactly two of the four hole cards and three of the five "
        "community cards",
    ),
    ("n.º 77", "Four hole cards", "In omaha each player is dealt four cards, as in n.º 35"),
    (
        "n.º 81",
        "Blinds",
        "Each hand, the first player left of the mão posts the small bet and the next player "
        "to his left the big bet",
    ),
    ("n.º 82", "Small blind", "The small bet is half the table minimum"),
    ("n.º 83", "Big blind", "The big bet is the table minimum"),
    (
        "n.º 84",
        "First to act",
        "In the first round the player immediately left of the big bet acts first",
    ),
    ("n.º 85", "Later rounds", "In the following rounds the player holding the mão speaks first"),
    (
        "n.º 86",
        "Raise size",
        "A raise is at least the table minimum and at most the total of the bets made so far "
        "(the last bet counted single, double or triple)",
    ),
    ("n.º 87", "Three raises", "At most three raises in each betting round"),
    ("n.º 88", "Heads-up", "With only two players in the hand raises are unlimited"),
    (
        "n.º 89",
        "Absent five hands",
        "A player who has not bet for five hands must post a big bet in the next hand",
    ),
    (
        "n.º 90",
        "Missed blinds",
        "A player who missed a blind while away repays it on his return; it does not count "
        "towards his bets in that hand",
    ),
    (
        "n.º 92",
        "Hold'em rules",
        "Hold'em follows the general rules and the omaha rules, with the changes that follow",
    ),
    ("n.º 93", "Hold'em cards", "Each player has two hole cards; there are five community cards"),
    (
        "n.º 94",
        "Hold'em hand",
        "Each player makes the best hand from any five of his seven cards",
    ),
    (
        "n.º 95",
        "Sintético deck",
        "Póquer sintético uses a 28-card deck, A K Q J 10 9 8 in four suits; in straights "
        "the ace may be low (below the 8) or high",
    ),
    ("n.º 96", "Sintético cards", "Two hole cards each and five community cards"),
    (
        "n.º 97",
        "Sintético hand",
        "The best five cards from exactly two hole cards and three of the five community cards",
    ),
    (
        "n.º 99",
        "Sintético table",
        "Round or oval tables with 11 seats numbered clockwise from the croupier's left",
    ),
    ("n.º 100", "No burn", "The cards are offered for the cut; no card is burnt"),
    (
        "n.º 102",
        "Ante",
        "After the cut and before the deal every player posts an initial bet (ante) of the "
        "minimum set by the concessionaire",
    ),
    (
        "n.º 103",
        "Sintético rankings",
        "The combinations ranked (the list is missing from the available copy; the replayer "
        "ranks a flush above a full house, the usual short-deck order)",
    ),
    (
        "n.º 104",
        "Sintético ties",
        "On a tie in cases e) to l) of n.º 103 the losing bets are divided equally between "
        "the tied players",
    ),
    (
        "n.º 105",
        "Changes to the rankings",
        "The n.º 103 combinations are those of n.º 17 with changes (the changes are missing "
        "from the available copy)",
    ),
    (
        "n.º 107",
        "First community card",
        "The croupier turns a card from the bottom of the deck; the first round starts with "
        "the player left of the mão",
    ),
    (
        "n.º 108",
        "Further community cards",
        "After each round the next card from the bottom is turned; the player who made the "
        "highest bet in the previous round opens the next, up to the fifth card",
    ),
    (
        "n.º 109",
        "Void hand",
        "A hand is void if one of the listed events occurs during the deal (the list is "
        "missing from the available copy)",
    ),
    ("n.º 112", "General rules apply", "Otherwise the general rules of subsection I apply"),
    (
        "n.º 112 (silent: previous bet or raise)",
        "Minimum raise not set",
        "The general rules the sintético refers to (n.º 112) set no minimum raise; the "
        "usual rule applies: at least the previous bet or raise",
    ),
    (
        "n.º 112 (silent: by structure)",
        "Maximum raise not set",
        "The general rules the sintético refers to (n.º 112) set no maximum raise; the "
        "table's structure applies: the whole stack in no-limit, the pot in pot-limit",
    ),
    (
        "n.º 113",
        "Tournaments",
        "Omaha and hold'em tournaments follow the general and variant rules plus the "
        "tournament rules that follow",
    ),
    (
        "n.º 115",
        "Tournament specifications",
        "The concessionaire notifies the gaming regulator, 10 days ahead, of the tournament's "
        "specifications (the list is missing from the available copy)",
    ),
    ("n.º 116", "Late entries", "Late registration, re-entries and rebuys are allowed"),
    (
        "n.º 117",
        "Personal entry",
        "An entry is personal and not transferable; no substitution, sale or deal on it",
    ),
    ("n.º 118", "End of a tournament", "A tournament ends when its winner is found"),
    (
        "n.º 119",
        "Final-table deals",
        "At the final table players may agree to end the tournament without a winner, "
        "including how the prizes are shared",
    ),
    (
        "n.º 19",
        "Bets within the table limits",
        "Players bet only with chips, and every bet lies within the limits authorised for "
        "the table and approved by the concessionaire",
    ),
    (
        "n.º 110",
        "Board card turned early (sintético)",
        "If the dealer turns more than one of the five community cards, as many betting "
        "rounds are lost as cards were turned",
    ),
    (
        "n.º 122",
        "Sanctioned players",
        "A player sanctioned with leaving the table takes the last place in dispute when he "
        "committed the fault; a disqualified player loses any prize",
    ),
)

_PT_III: tuple[tuple[str, str, str], ...] = (
    (
        "III.2",
        "Minimum return",
        "Paytables must return at least 80% of the amounts wagered to players as prizes",
    ),
    (
        "III.3",
        "Jackpot",
        "A jackpot may be funded by an automatic deduction of a set percentage of the wagers",
    ),
    (
        "III.4",
        "Superjackpot",
        "Machines of one or more casinos may be linked to fund a common superjackpot by an "
        "automatic deduction from their wagers",
    ),
    (
        "III.5",
        "Jackpot funds held in trust",
        "Until awarded, jackpot and superjackpot amounts are held in trust by the "
        "concessionaire, available or guaranteed for the winner",
    ),
    (
        "III.6",
        "Unawarded jackpot moved",
        "Jackpot and superjackpot amounts that cannot be awarded by force majeure move to "
        "another machine or group of the same model and bets, or to machines the "
        "Inspecção-Geral de Jogos authorises",
    ),
    (
        "III.8",
        "Approved characteristics",
        "The characteristics of machine models the Inspecção-Geral de Jogos approved may not "
        "be altered afterwards without its approval",
    ),
    (
        "III.9",
        "Meters",
        "Machines have at least wager, prize and collection meters, always working and "
        "reliable, or they may not be opened for play",
    ),
    (
        "III.10",
        "Information displayed",
        "Machines show their identification number, the bet, the winning combinations and "
        "how prizes are paid",
    ),
    (
        "III.13",
        "Payment of prizes",
        "Prizes are paid by the machine or by the cashier, in cash, cheque or other means",
    ),
)

_PT: tuple[tuple[str, str, str], ...] = (
    (
        "I",
        "Section I: chemin de fer baccarat",
        "Non-banked chemin de fer: six decks, a banker against the pontos, 9 or the nearest "
        "total wins, equal totals void the coup",
    ),
    (
        "II",
        "Section II: non-banked poker",
        "General rules, omaha, hold'em, póquer sintético and tournament play",
    ),
    (
        "III",
        "Title III: slot machines",
        "Minimum return, jackpots, required meters, information displayed, payment of prizes",
    ),
    *_PT_I,
    *_PT_II,
    *_PT_III,
)

_GG_POLICIES: tuple[tuple[str, str, str], ...] = (
    (
        "(silent: standard online rules)",
        "Not stated: standard online rules",
        "The house rules leave the game rules to each game's page; where they are silent the "
        "standard online rules apply (e.g. minimum raise = previous bet or raise, no raise "
        "cap, first active player left of the button opens later rounds)",
    ),
    (
        "Apostas perdidas Blind",
        "Missed blinds",
        "A returning player who missed the small blind posts it dead; both blinds: a live big "
        "blind plus a dead small blind; a third blind too: a live third blind plus dead "
        "small and big blinds",
    ),
    (
        "Política de mãos atadas",
        "Tied hands",
        "Hands of equal rank are decided by card value, then by the kicker; an exact tie "
        "splits the pot equally between the tied players",
    ),
    (
        "Política de limite de tempo de jogo",
        "Time limit",
        "A player who does not act within the time limit has his hand folded and loses what "
        "he has bet in it",
    ),
    (
        "Política de tabela de férias",
        "Hit and run",
        "Leaving a cash table within 10 hands counts as a refusal; repeated refusals within "
        "12 hours block the blind level for 5, 15, 30, then 60 minutes",
    ),
    (
        "Política de taxas e de ancinho",
        "Fees and rake",
        "Cash games pay a commission (rake) on each pot as each game's page states; "
        "tournaments have no rake but a fee in the buy-in (e.g. $1 = $0.92 + $0.08 fee)",
    ),
    (
        "Política de torneios",
        "Tournaments",
        "Prizes are awarded as the tournament lobby states, except after a deal or a "
        "cancellation; they are final once registration and rebuys have closed",
    ),
    (
        "Política de eliminação de torneios",
        "Same-hand eliminations",
        "Of players eliminated in the same hand, the one with more chips at its start "
        "finishes ahead; with equal stacks, the first seated left of the button finishes ahead",
    ),
    (
        "Política de desconexões de torneios e de não participação",
        "Disconnections and sitting out",
        "A player out of time has his hand folded when facing action, checked otherwise; "
        "players may not agree to sit out together (possible collusion)",
    ),
    (
        "Poker Regras",
        "Table stakes",
        "No bet may exceed the chips on the table at the start of the hand; chips are added "
        "only between hands; a player who runs out of chips in a hand is all-in",
    ),
    (
        "Política sobre mãos em jogo",
        "Hands in play",
        "Influencing a hand in progress or its players' actions by chat, emoji or SnapCam is "
        "strictly forbidden",
    ),
    (
        "Política de conluio",
        "Collusion",
        "The house rules refer to GGPoker's collusion policy: players agreeing to sit out "
        "together, or to eliminate a player for his bounty, are colluding",
    ),
    (
        "Bounty Política de torneios",
        "Bounties",
        "The eliminating player collects the bounty; when identical winning hands split the "
        "pot that eliminates a player, the bounty is split equally between the winners",
    ),
    (
        "Política de concessão de prêmios de torneios",
        "Tournament prizes",
        "GGPoker may modify prizes; players never receive fractions of a cent ($4.096 is "
        "paid $4.09)",
    ),
    (
        "Política de concessão de prêmios (frações de centavo)",
        "Fractions of a cent",
        "Players never receive fractions of a cent: winnings are cut to the cent ($4.096 is "
        "paid $4.09; the text says 'nearest cent', its example truncates)",
    ),
    (
        "Política de prêmios para vários satélites/assentos",
        "Extra satellite seats",
        "A player winning a further seat for a target event he already entered gets T$ "
        "equal to its buy-in minus the fee instead (e.g. $100 = $90 + $10 fee: T$90)",
    ),
    (
        "Política de reembolso",
        "Refunds after a server failure",
        "After a server failure or unscheduled outage, cash hands in progress are reverted "
        "to their start; tournaments are refunded according to their status",
    ),
    (
        "Política de reembolso (Cash Games)",
        "Cash-game refund",
        "Cash hands in progress are reverted and every player's chips reset to their count "
        "at the start of the hand",
    ),
    (
        "Política de reembolso, torneios",
        "Tournament refund",
        "A tournament cancelled by a failure is refunded according to whether it had "
        "started and whether it had reached the paid places",
    ),
    (
        "Política de reembolso, torneios (1) não começado",
        "Tournament not started",
        "If the tournament had not started, every registered player gets his buy-ins and fees back",
    ),
    (
        "Política de reembolso, torneios (2) começado, antes dos lugares pagos",
        "Started, before the paid places",
        "Remaining players get their fee and current bounty back; the prize pool is paid 50% "
        "equally and 50% by chip count; an unmet guarantee pays only what entries collected",
    ),
    (
        "Política de reembolso, torneios (3) lugares pagos",
        "In the paid places",
        "Remaining players get their fees and bounties back; each receives the next prize to "
        "be won, and the rest of the pool is paid by chip count",
    ),
    (
        "Política de reembolso (staking)",
        "Staking and refunds",
        "Stake buyers share a backed player's cash refund in proportion to the stake bought; "
        "if he got a replacement ticket or entry instead, they get their cash back",
    ),
    (
        "casino 2",
        "RNG casino disconnection",
        "A player disconnected mid-game resumes on logging in; a pending bet is kept 24 "
        "hours, then cancelled and returned to the balance if the game is not completed",
    ),
    (
        "Política de banco de horas",
        "Time bank",
        "A player who has not decided in time draws on his time bank; one who has not acted "
        "when the bank runs out has his hand folded",
    ),
    (
        "Política de negociação de torneios",
        "Tournament deals",
        "A deal is allowed in many tournaments when every remaining player agrees to make "
        "one, chosen at the table; it is then discussed and accepted or rejected",
    ),
    (
        "Política de apostas em torneios",
        "Tournament staking",
        "A player may sell part of his action after registering and before the start; if "
        "he unregisters before the start, the stakes go back to those who bought them",
    ),
)

_GG_LIVE_II: tuple[tuple[str, str, str], ...] = (
    (
        "live II",
        "Live baccarat (punto banco)",
        "Definitions, cards, bets, payouts, card handling and drawing rules of live baccarat",
    ),
    (
        "live II 1.1",
        "Baccarat definitions",
        "A natural is 8 or 9 on the first two cards; a tie is equal counts; the point count "
        "is the last digit of the cards' total",
    ),
    (
        "live II 1.3.1",
        "Eight decks",
        "Eight 52-card decks dealt from a shoe, the cut card placed seven cards from the back",
    ),
    (
        "live II 1.3.2",
        "Card values",
        "2 to 9 count face value; tens, jacks, queens and kings count zero; aces count one",
    ),
    (
        "live II 2.1.1",
        "Placing bets",
        "Bets are placed in the layout's areas, and the only areas are Player, Banker and "
        "Tie (at most three bets)",
    ),
    (
        "live II 2.1.2",
        "Banker bet",
        "Wins when the Banker count is higher than the Player's, loses when lower, neither "
        "on equal counts",
    ),
    (
        "live II 2.1.3",
        "Player bet",
        "Wins when the Player count is higher than the Banker's, loses when lower, neither "
        "on equal counts",
    ),
    ("live II 2.1.4", "Tie bet", "Wins when the two counts are equal, loses otherwise"),
    ("live II 2.1.5", "Tie returns", "After a tie every other bet is returned automatically"),
    (
        "live II 2.1.6",
        "No more bets",
        "No bet is accepted, raised or cancelled after the betting timer's signal; 'No More "
        "Bets' is called before the first card leaves the shoe",
    ),
    (
        "live II 2.1.7",
        "Settlement and limits",
        "After the result losing bets are collected and winning bets paid; a bet outside the "
        "posted minimum and maximum, or late, may be rejected before the deal",
    ),
    ("live II 2.1.8", "Malfunction", "A system malfunction voids all payouts and plays"),
    (
        "live II 2.2",
        "Payouts",
        "Player pays 1:1; Banker pays 1:1 less a 5% commission on the amount won; Tie pays 8:1",
    ),
    (
        "live II 3.4.3",
        "Deal order",
        "Two hands dealt face up: the first and third cards are the Player's, the second and "
        "fourth the Banker's",
    ),
    (
        "live II 3.5.1",
        "Drawing rules",
        "Naturals stand; Player draws on 0-5; if Player stood, Banker draws on 0-5; else "
        "Banker draws on 0-2, on 3 unless Player's third card is 8, on 4 if it is 2-7, on 5 "
        "if 4-7, on 6 if 6-7, and stands on 7",
    ),
    (
        "live II 3.5.4",
        "Cut card",
        "When the cut card appears, the hand in play is the last before the shuffle; no "
        "further cards are dealt until the cards are shuffled",
    ),
    (
        "live II 3.2.2",
        "Reshuffle at the cut card",
        "After each shoe the cards are shuffled again, at the end of the hand during which "
        "the cut card is reached",
    ),
    (
        "live II 3.3.4",
        "Cut card position",
        "The cut card is placed seven cards from the back of the stack",
    ),
)

_GG_LIVE_III: tuple[tuple[str, str, str], ...] = (
    (
        "live III",
        "Live blackjack",
        "Definitions, cards, bets, payouts, insurance, doubling, splitting and drawing rules "
        "of live blackjack",
    ),
    (
        "live III 1.2.3",
        "Table notices",
        "The table states 'Dealer must draw to 16 and stand on 17', 'Blackjack pays 3 to 2' "
        "and 'Insurance pays 2 to 1'",
    ),
    (
        "live III 1.5",
        "Card values",
        "2 to 10 count face value, court cards 10, an ace 1 or 11 (1 when 11 would pass 21)",
    ),
    (
        "live III 2.1.1",
        "Winning and losing bets",
        "A bet wins when the dealer busts and the player does not, when the player's total "
        "beats the dealer's within 21, or on a player blackjack; equal totals push",
    ),
    (
        "live III 2.1.2",
        "Bets fixed at the first card",
        "Except to split, double or insure, no bet may be raised, lowered or withdrawn once "
        "the first card of the round is dealt",
    ),
    (
        "live III 2.1.3",
        "No more bets",
        "No bet is accepted, raised or cancelled after the betting timer ends; 'No More Bets' "
        "is called before the first card leaves the shoe",
    ),
    (
        "live III 2.1.4",
        "Settlement and limits",
        "After the result losing bets are collected and winning bets paid; a bet outside the "
        "posted minimum and maximum, or late, may be rejected before the deal",
    ),
    ("live III 2.1.5", "Malfunction", "A system malfunction voids all payouts and plays"),
    (
        "live III 2.2",
        "Push and exceptions",
        "Equal totals, or two blackjacks, return the bet; a dealer blackjack beats a player's "
        "21 that is not blackjack; a player who busts loses even if the dealer busts",
    ),
    (
        "live III 2.3",
        "Payouts",
        "Winning bets pay at least 1:1 and blackjack at least 3:2; equal totals push; a "
        "player over 21 loses his bet",
    ),
    (
        "live III 2.4",
        "Handling of bets",
        "Once an insurance, double or split bet is confirmed, no player may touch, remove or "
        "change the bets until his hand is settled",
    ),
    (
        "live III 2.5.1",
        "Insurance",
        "When the dealer's first card is an ace a player may insure for half his initial "
        "bet; insurance wins if the hole card is worth ten",
    ),
    (
        "live III 2.5.2",
        "Insurance timing",
        "Insurance is placed after each player's second card and the dealer's up card, "
        "before any further card is dealt",
    ),
    (
        "live III 2.5.3",
        "Insurance pays 2:1",
        "Winning insurance pays 2:1; losing insurance is collected once the dealer has "
        "checked for blackjack",
    ),
    (
        "live III 2.6",
        "Doubling",
        "A player may double on his first two cards with an extra bet up to the original "
        "bet, and receives exactly one more card",
    ),
    (
        "live III 2.7",
        "Splitting",
        "Two first cards of equal value may be split once (aces too) with an equal bet; split "
        "aces may get one card each, and an ace and a ten after a split is 21, not blackjack",
    ),
    ("live III 3.3", "Cut card", "The cut card is placed 4 decks from the back of the shoe"),
    (
        "live III 3.4",
        "Deal order",
        "From the dealer's left, clockwise: a card up to each betting player, one up to the "
        "dealer, a second up to each player, a second face down to the dealer",
    ),
    (
        "live III 3.5",
        "Player options",
        "With two cards each, every player may double, split, stand, hit or insure in turn; "
        "a player on 21 or more is passed",
    ),
    (
        "live III 3.7",
        "Dealer's hole card",
        "The dealer does not look at the hole card until the players are served, unless the "
        "up card is an ace: then insurance is offered and blackjack checked",
    ),
    (
        "live III 4.4",
        "Drawing",
        "A player under 21 may draw (not on blackjack or 21); the dealer draws until a hard "
        "or soft 17 to 21, and not at all when every player's hand is decided",
    ),
    (
        "live III 3.2.2",
        "Reshuffle at the cut card",
        "After each shoe the cards are shuffled again, at the end of the hand during which "
        "the cut card is reached",
    ),
)

_GG_LIVE_IV: tuple[tuple[str, str, str], ...] = (
    (
        "live IV",
        "Live roulette",
        "Definitions, bets, payouts and wheel handling of single-zero live roulette",
    ),
    (
        "live IV 1.1",
        "Roulette bets",
        "Straight (one number or 0), split (two), street (three in a row), corner (four, or "
        "0-1-2-3), six line, column and dozen (twelve), red/black, odd/even, low/high",
    ),
    ("live IV 1.2.1", "Single zero", "A standard European single-zero roulette layout"),
    (
        "live IV 2.1.1",
        "Placing bets",
        "Bets are placed on the layout until the dealer calls 'No more bets' or the timer "
        "flashes red",
    ),
    (
        "live IV 2.1.3",
        "Settlement by position",
        "Each bet is settled strictly by its position on the layout when the ball drops",
    ),
    ("live IV 2.1.4", "Limits", "The minimum and maximum bets are shown on the game screen"),
    (
        "live IV 2.1.5",
        "Rejected bets",
        "A bet may be rejected before the spin if late, outside the limits or not received",
    ),
    ("live IV 2.1.6", "Malfunction", "A system malfunction voids all payouts and plays"),
    (
        "live IV 2.2",
        "Payouts",
        "Straight 35:1, split 17:1, street 11:1, four numbers 8:1, six numbers 5:1, column "
        "and dozen 2:1, red, black, odd, even, low and high 1:1",
    ),
    (
        "live IV 3.1.1",
        "Valid spin",
        "The ball is spun against the wheel and must complete at least three revolutions",
    ),
    (
        "live IV 3.1.2",
        "Winning number",
        "When the ball stops in a pocket the dealer announces its number",
    ),
    (
        "live IV 3.1.3",
        "Settlement",
        "Once the result is announced, losing bets are collected and winning bets paid",
    ),
    (
        "live IV 3.3.2",
        "Pockets",
        "37 pockets: 1 to 36 (18 red, 18 black) and a green 0",
    ),
)

_GG: tuple[tuple[str, str, str], ...] = (
    *_GG_POLICIES,
    *_GG_LIVE_II,
    *_GG_LIVE_III,
    *_GG_LIVE_IV,
)

_CASINO_AUDIT: tuple[tuple[str, str, str], ...] = (
    (
        "rulebook registry",
        "Rulebook registry",
        "A subject is judged only under a rulebook in force for its game and start time; "
        "with none, or several and none named, it is reported, never judged by a guess",
    ),
    (
        "event sequence",
        "One event per subject and sequence",
        "A subject's events are numbered by the operator from 0 and each is stored once; a "
        "subject with numbers missing is incomplete and is not judged until they arrive; a "
        "different event sent for a stored number is a conflicting version: the stored one "
        "stands, the other is kept in quarantine",
    ),
    (
        "tournament chips",
        "Tournament chips conserved",
        "A tournament hand is played for chips and pays no rake or fee from its pots: the "
        "table holds as many chips when the hand ends as when it began, and none is taken "
        "by the house or paid in from outside",
    ),
    (
        "data quality",
        "Data-quality checks",
        "Each night's records are checked against casino-audit's data expectations; a "
        "failed check is reported against the record or input file it concerns",
    ),
    (
        "chip continuity",
        "Chips carried between hands",
        "A cash player seated at the same seat in two consecutive hands of a table starts "
        "the second with at least what the first's own records leave him (chips added "
        "between hands are top-ups); less, with no leave or cash-out recorded, contradicts "
        "the records themselves",
    ),
    (
        "room record consistency",
        "A room's record agrees with itself",
        "A room's hand that records no rake and pays the whole pot, while the winner's "
        "stack in the next hand is net of a rake, is the room's record disagreeing with "
        "itself: reported as that, not as chips taken",
    ),
)

#: Record schemas: their keys are the schema's path (no source prefix).
_SCHEMAS: tuple[tuple[str, str, str], ...] = (
    (
        "schemas/poker_hand.avsc",
        "Poker hand record",
        "The poker hand event contract: a hand whose events are unreadable, missing or out "
        "of sequence cannot be judged as recorded",
    ),
    (
        "schemas/banked_round.avsc",
        "Banked round record",
        "The banked-game round event contract: a round whose events are unreadable or "
        "incomplete cannot be judged as recorded",
    ),
    (
        "schemas/slot_machine.avsc",
        "Slot machine record",
        "The slot machine event contract: a machine whose configuration or meter events are "
        "unreadable or missing cannot be reconciled",
    ),
    (
        "schemas/table_terms.avsc",
        "Table terms record",
        "The contract of a table's declared terms (rake, commission): unreadable terms "
        "cannot be applied",
    ),
)

_SAS: tuple[tuple[str, str, str], ...] = (
    (
        "meter practice",
        "Slot meter practice",
        "Meters count to 8 (4-byte BCD, wrapping at 10^8) up to 18 digits; composites equal "
        "their parts; a falling meter is a rollover or RAM clear to explain; deltas equal events",
    ),
)

ENTRIES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "MO-97/2010": _MO,
    "PT-217/2007": _PT,
    "GG-2022": _GG,
    "casino-audit": _CASINO_AUDIT,
    "SAS": _SAS,
}

#: Keys without a source prefix, with their source.
BARE_ENTRIES: dict[str, tuple[tuple[str, str, str], ...]] = {"casino-audit": _SCHEMAS}

#: Matched, like every key, ignoring case and accents ("prémios" is "prêmios").
ALIASES: dict[str, str] = {
    "GG-2022 concessão de prémios (frações de centavo)": (
        "GG-2022 Política de concessão de prêmios (frações de centavo)"
    ),
    "GG-2022 concessão de prémios": "GG-2022 Política de concessão de prêmios de torneios",
    "GG-2022 Política de desconexões": (
        "GG-2022 Política de desconexões de torneios e de não participação"
    ),
}
