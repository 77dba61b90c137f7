// Every word the page shows goes through t("English sentence {name}", {name}) or
// tn("{n} card", "{n} cards", n): the first argument is always a plain string literal, the
// English msgid that the catalogue (GET /api/words/LANG) translates (docs/i18n.md, "The page's words").

const WORDS = { lang: "en", plural: (n) => (n !== 1 ? 1 : 0), messages: {} };
export const LANGUAGES = [["en", "English"], ["pt", "Português (Portugal)"], ["pt_BR", "Português (Brasil)"], ["fr", "Français"]];

// A catalogue's code as a language tag for the page's lang attribute (pt_BR -> pt-BR).
export function langTag(code) {
  return String(code).replace("_", "-");
}

// The catalogue the page speaks now ("en" until one is loaded).
export function wordsLang() {
  return WORDS.lang;
}

// The catalogue's plural rules are data, read without eval: the two forms the contract names.
const PLURAL_RULES = {
  "n!=1": (n) => (n !== 1 ? 1 : 0),
  "n != 1": (n) => (n !== 1 ? 1 : 0),
  "n>1": (n) => (n > 1 ? 1 : 0),
  "n > 1": (n) => (n > 1 ? 1 : 0),
};

// French elides and contracts at the edges of the fields it fills in, as the server's messages
// do (unotable.i18n.elide): "la main de {name}" with Ana is "la main d'Ana", "le tour de {card}"
// with "le 7 rouge" is "le tour du 7 rouge".
const ELIDED = ["de", "que", "le", "la", "je", "me", "te", "se", "ne", "jusque", "lorsque", "puisque"];
const ELISION_TAIL = new RegExp(`(^|[\\s(«"“’'/—-])(${ELIDED.join("|")}|à) $`, "i");
const CONTRACTED = { "de le": "du", "de les": "des", "à le": "au", "à les": "aux" };
const MUTE_H = new Set(["hélène", "hugo", "henri", "hector", "hermione", "homère", "honoré", "hortense", "hubert",
  "hippolyte", "héloïse", "hervé", "huguette", "hôpital", "heure", "heures", "homme", "histoire", "hiver", "honneur"]);
const VOWELS = "aeiouàâäéèêëîïôöùûüœæ";

function elidesBefore(value) {
  const word = String(value).split(/[\s,.;:!?'’()«»"-]/, 1)[0].toLowerCase();
  if (!word) return false;
  if (VOWELS.includes(word[0])) return true;
  if (word[0] === "y") return word.length > 1 && !VOWELS.includes(word[1]);
  return MUTE_H.has(word);
}

function elide(before, value) {
  const m = ELISION_TAIL.exec(before);
  if (!m) return [before, value];
  const word = m[2];
  const head = before.slice(0, m.index + m[1].length);
  const space = value.indexOf(" ");
  if (space > 0 && space < value.length - 1) {
    const contracted = CONTRACTED[`${word.toLowerCase()} ${value.slice(0, space).toLowerCase()}`];
    if (contracted) {
      const cased = word[0] === word[0].toUpperCase() ? contracted[0].toUpperCase() + contracted.slice(1) : contracted;
      return [`${head}${cased} `, value.slice(space + 1)];
    }
  }
  if (word.toLowerCase() !== "à" && elidesBefore(value)) return [`${head}${word.slice(0, -1)}'`, value];
  return [before, value];
}

export function fillWords(text, vars) {
  if (!vars) return text;
  if (WORDS.lang !== "fr") {
    return text.replace(/\{(\w+)\}/g, (whole, key) => (key in vars ? String(vars[key]) : whole));
  }
  let out = "";
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (!(m[1] in vars)) {
      out += m[0];
      continue;
    }
    const [before, value] = elide(out, String(vars[m[1]]));
    out = before + value;
  }
  return out + text.slice(last);
}

export function t(msgid, vars) {
  const found = WORDS.messages[msgid];
  return fillWords(typeof found === "string" && found ? found : msgid, vars);
}

export function tn(singular, plural, n, vars) {
  const forms = WORDS.messages[`${singular}\u0004${plural}`];
  const all = { n, ...(vars || {}) };
  if (Array.isArray(forms)) {
    const form = forms[WORDS.plural(n)];
    if (form) return fillWords(form, all);
  }
  return fillWords(n === 1 ? singular : plural, all);
}

export function pickLanguage() {
  const known = LANGUAGES.map(([code]) => code);
  const stored = localStorage.getItem("lang");
  if (stored && known.includes(stored)) return stored;
  for (const tag of navigator.languages || []) {
    const parts = String(tag).toLowerCase().split(/[-_]/);
    // Brazil's Portuguese for pt-BR; Portugal's for pt, pt-PT and the other Portuguese countries.
    const code = parts[0] === "pt" && parts.slice(1).includes("br") ? "pt_BR" : parts[0];
    if (known.includes(code)) return code;
  }
  return "en";
}

// The catalogue of `lang`; English (no catalogue) when the server has none (404) or fails.
export async function loadWords(lang) {
  WORDS.lang = "en";
  WORDS.messages = {};
  WORDS.plural = PLURAL_RULES["n!=1"];
  document.documentElement.lang = langTag(lang);
  if (lang === "en") return;
  try {
    const res = await fetch(`/api/words/${encodeURIComponent(lang)}`);
    if (!res.ok) return;
    const data = await res.json();
    if (!data || typeof data.messages !== "object") return;
    WORDS.lang = lang;
    WORDS.messages = data.messages;
    WORDS.plural = PLURAL_RULES[String(data.plural || "n!=1").replace(/\s+/g, "")] || PLURAL_RULES["n!=1"];
  } catch (err) {
    void err; // stay English
  }
}

// ---------------------------------------------------------------------------------------------
// Cards and colours in words: one whole name per card, so each language can order its words.

export function colorName(c) {
  switch (c) {
    case "R": return t("red");
    case "Y": return t("yellow");
    case "G": return t("green");
    case "B": return t("blue");
    case "P": return t("pink"); // UNO Flip's dark side (docs/rules.md §15)
    case "T": return t("teal");
    case "O": return t("orange");
    case "V": return t("purple");
    default: return t("any colour");
  }
}

export function cardName(code) {
  switch (code) {
    case "W": return t("Wild");
    case "W+4": return t("Wild Draw Four");
    case "HOWLER": return t("Howler");
    case "INVIS": return t("Invisibility");
    case "MATER": return t("Mater");
    case "SHUFFLE": return t("Wild Shuffle Hands");
    case "CUSTOM": return t("Wild Customizable");
    case "AW": return t("Wild");
    case "AWREV": return t("Wild Reverse");
    case "AWSKIP": return t("Wild Skip");
    case "AWSKIP2": return t("Wild Skip Two");
    case "AW+2": return t("Wild Draw Two");
    case "AW+4": return t("Wild Draw Four");
    case "AWT+2": return t("Wild Targeted Draw Two");
    case "AWSWAP": return t("Wild Forced Swap");
    case "WR+4": return t("Wild Reverse Draw Four");
    case "W+6": return t("Wild Draw Six");
    case "W+10": return t("Wild Draw Ten");
    case "WCR": return t("Wild Colour Roulette");
    case "LW": return t("Wild");
    case "LW+2": return t("Wild Draw Two");
    case "DW": return t("Wild");
    case "DW+C": return t("Wild Draw Color");
    default: break;
  }
  const c = code[0];
  const value = code.slice(1);
  if (/^\d$/.test(value)) {
    if (c === "R") return t("red {number}", { number: value });
    if (c === "Y") return t("yellow {number}", { number: value });
    if (c === "G") return t("green {number}", { number: value });
    if (c === "P") return t("pink {number}", { number: value });
    if (c === "T") return t("teal {number}", { number: value });
    if (c === "O") return t("orange {number}", { number: value });
    if (c === "V") return t("purple {number}", { number: value });
    return t("blue {number}", { number: value });
  }
  const names = {
    S: { R: t("red Skip"), Y: t("yellow Skip"), G: t("green Skip"), B: t("blue Skip") },
    R: { R: t("red Reverse"), Y: t("yellow Reverse"), G: t("green Reverse"), B: t("blue Reverse"),
      P: t("pink Reverse"), T: t("teal Reverse"), O: t("orange Reverse"), V: t("purple Reverse") },
    "+2": { R: t("red Draw Two"), Y: t("yellow Draw Two"), G: t("green Draw Two"), B: t("blue Draw Two") },
    "+3": { R: t("red Draw Three"), Y: t("yellow Draw Three"), G: t("green Draw Three"), B: t("blue Draw Three") },
    BLANK: { R: t("red blank card"), Y: t("yellow blank card"), G: t("green blank card"), B: t("blue blank card") },
    SE: { R: t("red Skip Everyone"), Y: t("yellow Skip Everyone"), G: t("green Skip Everyone"), B: t("blue Skip Everyone"),
      P: t("pink Skip Everyone"), T: t("teal Skip Everyone"), O: t("orange Skip Everyone"), V: t("purple Skip Everyone") },
    DA: { R: t("red Discard All"), Y: t("yellow Discard All"), G: t("green Discard All"), B: t("blue Discard All") },
    "+4": { R: t("red Draw Four"), Y: t("yellow Draw Four"), G: t("green Draw Four"), B: t("blue Draw Four") },
    "+1": { R: t("red Draw One"), Y: t("yellow Draw One"), G: t("green Draw One"), B: t("blue Draw One") },
    "+5": { P: t("pink Draw Five"), T: t("teal Draw Five"), O: t("orange Draw Five"), V: t("purple Draw Five") },
    F: { R: t("red Flip"), Y: t("yellow Flip"), G: t("green Flip"), B: t("blue Flip"),
      P: t("pink Flip"), T: t("teal Flip"), O: t("orange Flip"), V: t("purple Flip") },
  };
  return (names[value] && names[value][c]) || code;
}

function cardsText(codes) {
  return codes.map(cardName).join(", ");
}

export function namesText(names) {
  if (names.length <= 1) return names.join("");
  return t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

// ---------------------------------------------------------------------------------------------
// What happened, in plain words (the log and the announcements): never a card code.

function drawLine(e, who) {
  const n = e.count || 0;
  if (!n) return t("{name} had nothing to draw.", { name: who });
  const r = e.reason || "";
  if (e.cards && !r) return t("{name} drew {cards}.", { name: who, cards: cardsText(e.cards) });
  if (r === "caught without UNO") return tn("{name} draws {n} card for not calling UNO.", "{name} draws {n} cards for not calling UNO.", n, { name: who });
  if (r === "lost challenge") return tn("{name} draws {n} card for a lost challenge.", "{name} draws {n} cards for a lost challenge.", n, { name: who });
  // UNO Flip's Wild Draw Two is challenged as a Wild Draw Four (FL-6; the engine's reason is the same)
  if (r === "guilty Wild Draw Four" && lastPlayed === "LW+2") return tn("{name} draws {n} card: the Wild Draw Two was a bluff.", "{name} draws {n} cards: the Wild Draw Two was a bluff.", n, { name: who });
  if (r === "guilty Wild Draw Four") return tn("{name} draws {n} card: the Wild Draw Four was a bluff.", "{name} draws {n} cards: the Wild Draw Four was a bluff.", n, { name: who });
  if (r === "guilty Wild Draw Color") return tn("{name} draws {n} card: the Wild Draw Color was a bluff.", "{name} draws {n} cards: the Wild Draw Color was a bluff.", n, { name: who });
  if (r === "wrong card") return tn("{name} draws {n} card for a wrong card.", "{name} draws {n} cards for a wrong card.", n, { name: who });
  if (r === "suggestion") return tn("{name} draws {n} card for a suggestion.", "{name} draws {n} cards for a suggestion.", n, { name: who });
  if (r === "first card") return tn("{name} draws {n} card for the first card.", "{name} draws {n} cards for the first card.", n, { name: who });
  if (/^[RYGBWPTOVLD]/.test(r) || ["HOWLER", "MATER", "INVIS", "SHUFFLE", "CUSTOM"].includes(r) || /^AW/.test(r)) {
    return tn("{name} draws {n} card for the {card}.", "{name} draws {n} cards for the {card}.", n, { name: who, card: cardName(r) });
  }
  if (e.cards) return t("{name} drew {cards}.", { name: who, cards: cardsText(e.cards) });
  return tn("{name} drew {n} card.", "{name} drew {n} cards.", n, { name: who });
}

function revealLine(e, who) {
  const shown = e.cards ? cardsText(e.cards) : null;
  switch (e.reason) {
    case "challenge": return shown ? t("{name} showed their hand to the challenger: {cards}.", { name: who, cards: shown })
      : t("{name} showed their hand to the challenger.", { name: who });
    case "howler": return shown ? t("The Howler shouts {name}'s hand: {cards}.", { name: who, cards: shown })
      : t("The Howler shouts {name}'s hand to the others.", { name: who });
    case "mater": return shown ? t("Mater looks at {name}'s hand: {cards}.", { name: who, cards: shown })
      : t("Mater looks at {name}'s hand.", { name: who });
    case "blank": return shown ? t("{name} shows their hand for a blank card: {cards}.", { name: who, cards: shown })
      : t("{name} shows their hand for a blank card.", { name: who });
    default: return shown ? t("{name} showed {cards}.", { name: who, cards: shown }) : t("{name} showed their hand.", { name: who });
  }
}

function playLine(e, who, target) {
  const card = cardsText(e.cards || []);
  const words = (e.reason || "").split(" ");
  const color = e.color ? colorName(e.color) : "";
  let text;
  if (words.includes("jump_in")) text = t("{name} jumped in with {card}.", { name: who, card });
  else if (target && color) text = t("{name} played {card} on {target} and called {color}.", { name: who, card, target, color });
  else if (target) text = t("{name} played {card} on {target}.", { name: who, card, target });
  else if (color) text = t("{name} played {card} and called {color}.", { name: who, card, color });
  else text = t("{name} played {card}.", { name: who, card });
  if (words.includes("uno")) text = [text, t("{name} called UNO!", { name: who })].join(" ");
  return text;
}

// The card last played in the events narrated (they are narrated in order, the log's and the
// replay's): a challenge names the wild draw card it is about (UNO Flip's are not the Wild Draw Four).
let lastPlayed = null;

export function narrate(e, names) {
  if (e.kind === "play") lastPlayed = (e.cards || [])[0] || null;
  const who = e.seat !== undefined && names[e.seat] !== undefined ? names[e.seat] : t("The table");
  const target = e.target !== undefined && names[e.target] !== undefined ? names[e.target] : "";
  const cards = e.cards ? cardsText(e.cards) : "";
  switch (e.kind) {
    case "dealer_draw": return t("{name} drew {cards} for the deal.", { name: who, cards });
    case "dealer": return t("{name} deals.", { name: who });
    case "first_card": return t("The first card is {card}.", { card: cards });
    case "returned": return t("{card} goes back into the middle of the pile.", { card: cards });
    case "play": return playLine(e, who, target);
    case "draw":
      if (e.reason === "deal") return e.cards ? t("{name} was dealt {cards}.", { name: who, cards }) : null;
      return drawLine(e, who);
    case "pass":
      if (e.reason === "hand limit") return t("{name} is at the hand limit and passed.", { name: who });
      return e.reason ? t("{name} had nothing to draw and passed.", { name: who }) : t("{name} kept the card.", { name: who });
    case "color": return t("{name} called {color}.", { name: who, color: colorName(e.color) });
    case "uno": return t("{name} called UNO!", { name: who });
    case "catch": return t("{name} caught {target} without UNO.", { name: who, target });
    case "challenge":
      if (lastPlayed === "LW+2" || lastPlayed === "DW+C") { // UNO Flip's (FL-6, FL-7)
        const card = cardName(lastPlayed);
        return e.reason === "guilty"
          ? t("{name} challenged {target}'s {card} and won: it was a bluff.", { name: who, target, card })
          : t("{name} challenged {target}'s {card} and lost: it was fair.", { name: who, target, card });
      }
      return e.reason === "guilty"
        ? t("{name} challenged {target}'s Wild Draw Four and won: it was a bluff.", { name: who, target })
        : t("{name} challenged {target}'s Wild Draw Four and lost: it was fair.", { name: who, target });
    case "accept":
      if (e.reason === "stack") return tn("{name} takes the stack: {n} card.", "{name} takes the stack: {n} cards.", e.count || 0, { name: who });
      return cards ? t("{name} accepted the {card}.", { name: who, card: cards }) : t("{name} accepted.", { name: who });
    case "swap": return t("{name} swapped hands with {target}.", { name: who, target });
    case "deflect": return tn("{name} sent the {card} on to {target}: {n} card.", "{name} sent the {card} on to {target}: {n} cards.", e.count || 0, { name: who, card: cards, target });
    case "shuffle_hands": return tn("{name} gathered every hand and dealt the {n} card out again.", "{name} gathered every hand and dealt the {n} cards out again.", e.count || 0, { name: who });
    case "discard_all": return tn("{name} discarded {n} more card of its colour with the Discard All.", "{name} discarded {n} more cards of its colour with the Discard All.", e.count || 0, { name: who });
    case "knocked_out": return tn("{name} holds {n} card: the mercy rule puts them out of the hand.", "{name} holds {n} cards: the mercy rule puts them out of the hand.", e.count || 0, { name: who });
    case "pass_hands": return e.reason === "left" ? t("Every hand passes to the left.") : t("Every hand passes to the right.");
    case "invisibility": return t("{name} vanished with Invisibility and called {color}.", { name: who, color: colorName(e.color) });
    case "reveal": return revealLine(e, who);
    case "flip": return e.reason === "dark" ? t("{name} played a Flip: everything turns over, the dark side is up.", { name: who })
      : t("{name} played a Flip: everything turns over, the light side is up.", { name: who });
    case "skip": return t("{name} is skipped.", { name: who });
    case "reverse": return t("Play changes direction.");
    case "reshuffle": return tn("The discard pile is shuffled into a new draw pile of {n} card.", "The discard pile is shuffled into a new draw pile of {n} cards.", e.count || 0);
    case "penalty": return tn("{name} gets {n} card for a suggestion.", "{name} gets {n} cards for a suggestion.", e.count || 0, { name: target });
    case "wrong": return t("{name} pointed out {target}'s wrong card.", { name: who, target });
    case "hand_over": return tn("{name} went out and scored {n} point.", "{name} went out and scored {n} points.", e.points || 0, { name: who });
    case "game_over": return t("{name} wins the game!", { name: who });
    default: return null;
  }
}

// Server error codes in words (the server's own sentence when the page has none).
export function errorWords(code) {
  switch (code) {
    case "bad_token": return t("This browser's seat in the room is not valid any more.");
    case "illegal": return t("That is not legal now.");
    case "too_fast": return t("Slow down: too many clicks.");
    case "no_room": return t("There is no such room.");
    case "room_full": return t("Every seat is taken: you can watch.");
    case "seat_taken": return t("That seat was just taken.");
    case "bad_name": return t("Pick a name of 1 to 24 characters.");
    case "storage": return t("The server could not save that; try again.");
    case "not_host": return t("Only the host can do that.");
    case "host_self": return t("The host cannot free or replace their own seat.");
    case "penalty_off": return t("This room plays without the suggestion penalty.");
    case "penalty_given": return t("That player has already had the suggestion penalty in this hand.");
    case "chat_off": return t("This room has no chat.");
    case "no_more_time": return t("This room gives no more time.");
    case "no_clock": return t("No timer runs for you now.");
    case "more_time_used": return t("You have already had more time in this hand.");
    case "bad_chat": return t("A message is 1 to 120 characters of plain text.");
    case "slow_down": return t("Slow down a little.");
    case "bad_rejoin": return t("That link or code does not take back a seat: it may have been used already.");
    case "no_spectator_reactions": return t("Spectators cannot react in this room.");
    default: return null;
  }
}
