// What the seat may do is what the server says it may (the view's `legal`, texts of the
// notation): sorted here for the screen, never worked out again from the rules.

// A seat's legal actions (texts of the notation) sorted for the screen.
export function sortLegal(legal) {
  const out = { plays: {}, more: {}, twins: new Set(), draw: false, pass: false, colors: [], accept: false,
    challenge: false, invis: [], uno: false, catches: [], wrongs: [] };
  for (const text of legal) {
    const parts = text.split(" ");
    if (parts[parts.length - 1] === "uno" && parts[0] !== "uno") {
      out.twins.add(text);
      continue;
    }
    switch (parts[0]) {
      case "play":
        if (parts[parts.length - 1] === "more") out.more[parts[1]] = text; // multi_play (rules §11.5)
        else (out.plays[parts[1]] ||= []).push(text);
        break;
      case "draw": out.draw = true; break;
      case "pass": out.pass = true; break;
      case "color": out.colors.push(parts[1]); break;
      case "accept": out.accept = true; break;
      case "challenge": out.challenge = true; break;
      case "invisibility": out.invis.push(parts[1]); break;
      case "uno": out.uno = true; break;
      case "catch": out.catches.push(Number(parts[1])); break;
      case "wrong": out.wrongs.push(Number(parts[1])); break;
      default: break;
    }
  }
  return out;
}

// Whether hand card i may be picked now for several cards at once (multi_play, docs/rules.md
// §11.5): the first pick a card the server lets begin a series ("play CARD more", or in a
// series any card it lets follow); each next one a card the server's view says may follow the
// last picked (view.follows, from the core: the page knows no rule of its own).
export function canPick(view, legal, picks, i) {
  const code = view.hand[i];
  if (!picks.length) return Boolean(legal.more[code] || (view.series && legal.plays[code]));
  const follows = (view.follows || {})[view.hand[picks[picks.length - 1]]] || [];
  return follows.includes(code);
}

// An action with the UNO call, when the seat armed it and the server offers that twin.
export function withUno(text, legal, armed) {
  const twin = `${text} uno`;
  return armed && legal.twins.has(twin) ? twin : text;
}
