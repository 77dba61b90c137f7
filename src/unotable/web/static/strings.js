// Every word the page shows, in one place (translate this file to translate the page).
"use strict";

const COLOR_NAMES = { R: "red", Y: "yellow", G: "green", B: "blue" };
const VALUE_NAMES = { S: "Skip", R: "Reverse", "+2": "Draw Two", "+3": "Draw Three", BLANK: "Blank" };
const WILD_NAMES = { W: "Wild", "W+4": "Wild Draw Four", HOWLER: "Howler", INVIS: "Invisibility", MATER: "Mater" };
const WILD_FACES = { W: "W", "W+4": "+4", HOWLER: "H", INVIS: "I", MATER: "M" };
const VALUE_FACES = { S: "⊘", R: "⇄", "+2": "+2", "+3": "+3", BLANK: "★" };

function cardName(code) {
  if (WILD_NAMES[code]) return WILD_NAMES[code];
  const color = COLOR_NAMES[code[0]];
  const value = code.slice(1);
  return `${color} ${VALUE_NAMES[value] || value}`;
}

function cardsText(codes) {
  return codes.map(cardName).join(", ");
}

window.STRINGS = {
  title: "unotable",
  tagline: "UNO with the exact rules of your box, with friends in the browser.",
  createTitle: "Make a room",
  joinTitle: "Join a room",
  edition: "Edition",
  players: "Players at the table",
  mode: "Game",
  modes: {
    solo: "Everyone for themselves",
    partners: "Partners (2 against 2)",
    teams: "Teams (even against odd seats)",
    "rotating-partners": "Rotating partners (4 players)",
    "two-tables": "Two tables of four (8 players)",
    challenge: "Challenge (last one standing)",
  },
  target: "Points to win",
  rounds: "Rounds of the schedule",
  mustPlayDrawn: "A playable drawn card must be played",
  lenientPlays: "Wrong cards stand unless someone points them out",
  scoringLowest: "Lowest score wins (each player is charged their cards)",
  house: "House rules",
  housePresets: {
    official: "Official (none)",
    popular: "Popular: stack the same draw card, draw until you can play",
    party: "Party: stack any draw card, 7 swaps and 0 passes hands, jump in, draw until you can play",
  },
  houseCustom: "Custom (below)",
  stacking: "Stack draw cards",
  stackingValues: {
    false: "No",
    same: "The same kind (Draw Two on Draw Two, Wild Draw Four on Wild Draw Four)",
    any: "Any draw card on any draw card",
  },
  houseRules: {
    seven_zero: "A 7 swaps hands with a player you choose; a 0 passes every hand on",
    jump_in: "Jump in out of turn with the twin of the top card",
    draw_to_match: "Draw until you can play",
  },
  turnSeconds: "Turn timer in seconds (0: none)",
  botDelay: "Bots think for (seconds)",
  seats: "Seats",
  seatPerson: "A person",
  botKinds: {
    random: "Random bot",
    greedy: "Greedy bot",
    aggressive: "Aggressive bot",
    cautious: "Cautious bot",
    search: "Search bot (strong, slower)",
  },
  botStrengths: {
    "search:budget=100": "Search bot, quick (100 playouts)",
    "search:budget=1000": "Search bot, strongest (1,000 playouts)",
    "greedy:forget_uno=0": "Greedy bot that never forgets UNO",
  },
  create: "Make the room",
  roomCode: "Room code",
  join: "Join",
  yourName: "Your name",
  takeSeat: "Take this seat",
  takeAnySeat: "Take a seat",
  watch: "Watch",
  freeSeat: "free",
  invite: "Invite link",
  copy: "Copy",
  copied: "Copied",
  waitingFor: (n) => `Waiting for ${n} more ${n === 1 ? "player" : "players"} to take a seat.`,
  botName: (kind, player) => `Bot ${player + 1} (${kind})`,
  you: "you",
  watching: "You are watching: hands stay hidden.",
  reconnecting: "Connection lost: reconnecting…",
  cards: (n) => `${n} ${n === 1 ? "card" : "cards"}`,
  points: (n) => `${n} pts`,
  drawPile: (n) => `Draw pile: ${n}`,
  direction: (d) => (d > 0 ? "↻ clockwise" : "↺ counterclockwise"),
  colorNow: (c) => (c ? `Colour: ${COLOR_NAMES[c]}` : "Colour: any"),
  turnOf: (name) => `${name} to play`,
  yourTurn: "Your turn",
  phase: {
    turn: "play a card or draw",
    after_draw: "play the drawn card or keep it",
    choose_color: "choose a colour",
    respond: "answer the card played on you",
  },
  dealer: "dealer",
  handNumber: (hand, gameNumber) => `Hand ${hand}` + (gameNumber > 1 ? ` of game ${gameNumber}` : ""),
  timer: (s) => `${Math.ceil(s)} s`,
  uno: "UNO!",
  unoArmed: "UNO! (armed: it goes with your next play)",
  unoCalled: "UNO",
  exposed: "no UNO call!",
  draw: "Draw",
  playDrawn: "Play it",
  keep: "Keep it",
  accept: "Accept",
  challenge: "Challenge",
  invisibility: (c) => `Invisibility: ${COLOR_NAMES[c]}`,
  catchSeat: (name) => `Catch ${name}!`,
  wrongSeat: (name) => `${name}'s card was wrong`,
  chooseColor: "Choose a colour",
  chooseTarget: "Who gets the Howler?",
  chooseSwap: "Swap hands with whom?",
  pendingDraw: (n) => `${n} cards to draw`,
  jumpIn: "Jump in: play your identical card now",
  colorButton: (c) => COLOR_NAMES[c],
  cancel: "Cancel",
  scoresTitle: (hand) => `Scores after hand ${hand}`,
  handWon: (name, points) => `${name} went out: ${points} points.`,
  nextHand: "Next hand",
  waitNextHand: "Waiting for a player to deal the next hand.",
  gameOver: "Game over",
  winners: (names) => `${names.join(" and ")} ${names.length === 1 ? "wins" : "win"} the game!`,
  rematch: "Rematch",
  replayLink: (n) => `Replay of game ${n + 1}`,
  replayTitle: (n) => `Replay of game ${n + 1}`,
  step: (i, n) => `Step ${i} of ${n}`,
  prev: "◀ Back",
  next: "Forward ▶",
  team: (i) => `Team ${i + 1}`,
  log: "What happened",
  keysHelp: "Keys: 1-9 or ← → and Enter play a card, D draw, P/K play or keep the drawn card, U UNO, C catch, A accept, X challenge, R Y G B colours.",
  errors: {
    bad_token: "This browser's seat in the room is not valid any more.",
    illegal: "That is not legal now.",
    too_fast: "Slow down: too many clicks.",
    no_room: "There is no such room.",
    room_full: "Every seat is taken: you can watch.",
    seat_taken: "That seat was just taken.",
    bad_name: "Pick a name of 1 to 24 characters.",
    storage: "The server could not save that; try again.",
  },
  narrate(e, names) {
    const who = e.seat !== undefined && names[e.seat] !== undefined ? names[e.seat] : "The table";
    const target = e.target !== undefined && names[e.target] !== undefined ? names[e.target] : "";
    const color = e.color ? COLOR_NAMES[e.color] : "";
    const cards = e.cards ? cardsText(e.cards) : "";
    switch (e.kind) {
      case "dealer_draw": return `${who} drew ${cards} for the deal.`;
      case "dealer": return `${who} deals.`;
      case "first_card": return `The first card is ${cards}.`;
      case "returned": return `${cards} goes back into the middle of the pile.`;
      case "play": {
        const why = (e.reason || "").split(" ");
        let text = `${who} ${why.includes("jump_in") ? "jumped in with" : "played"} ${cards}`;
        if (target) text += ` on ${target}`;
        if (color) text += ` and called ${color}`;
        return why.includes("uno") ? `${text}: UNO!` : `${text}.`;
      }
      case "draw": {
        if (e.reason === "deal") return e.cards ? `${who} was dealt ${cards}.` : null;
        const n = e.count || 0;
        const what = e.cards ? cards : `${n} ${n === 1 ? "card" : "cards"}`;
        const why = e.reason ? ` (${e.reason})` : "";
        return n ? `${who} drew ${what}${why}.` : `${who} had nothing to draw.`;
      }
      case "pass": return `${who} passed${e.reason ? " (nothing to draw)" : ""}.`;
      case "color": return `${who} called ${color}.`;
      case "uno": return `${who} called UNO!`;
      case "catch": return `${who} caught ${target} without UNO: 2 cards.`;
      case "challenge": return `${who} challenged ${target}'s Wild Draw Four: ${e.reason}.`;
      case "accept": return e.reason === "stack" ? `${who} takes the stack: ${e.count} cards.`
        : `${who} accepted the ${cards}.`;
      case "swap": return `${who} swapped hands with ${target}.`;
      case "pass_hands": return `Every hand passes to the ${e.reason === "left" ? "left" : "right"}.`;
      case "invisibility": return `${who} cancelled it with Invisibility and called ${color}.`;
      case "reveal": return `${who} showed ${e.cards ? cards : "their hand"} (${e.reason}).`;
      case "skip": return `${who} is skipped.`;
      case "reverse": return "Play changes direction.";
      case "reshuffle": return `The discard pile is shuffled into a new draw pile (${e.count} cards).`;
      case "penalty": return `${target} draws ${e.count} for a suggestion.`;
      case "wrong": return `${who} pointed out ${target}'s wrong card.`;
      case "hand_over": return `${who} went out and scored ${e.points} points.`;
      case "game_over": return `${who} wins the game!`;
      default: return null;
    }
  },
  cardName,
  cardFace(code) {
    if (WILD_FACES[code]) return WILD_FACES[code];
    const value = code.slice(1);
    return VALUE_FACES[value] || value;
  },
};
