// The card faces and the card back, drawn by the project as SVG (our own art: no Mattel artwork).
//
//   Cards.face(code, {colorblind, coloradd}) -> SVG markup of the card with that notation code
//   Cards.back()                     -> SVG markup of a card's back
//   Cards.chooser(color, {colorblind, coloradd}) -> SVG markup of a colour swatch (with its marks)
//   Cards.mark(color)                -> SVG markup of a colour's colour-blind mark alone
//   Cards.colorAdd(color)            -> SVG markup of a colour's ColorADD symbol alone
//
// The markup has presentation attributes only (no style attributes, no ids), so any number of
// cards can share a page under a strict Content-Security-Policy. It is decorative: the element
// that holds it carries the card's name (aria-label), so the SVG is aria-hidden.

const COLORS = {
  R: "#d72600", Y: "#f8d626", G: "#379711", B: "#0956bf",
  // UNO Flip's dark side (docs/rules.md §15): pink, teal, orange and purple, on a black border.
  P: "#d01475", T: "#00a59b", O: "#f36f1e", V: "#7b3fb0",
};
const DARK = { P: true, T: true, O: true, V: true };
const DARK_FOUR = [COLORS.P, COLORS.T, COLORS.O, COLORS.V];
const INK = "#111";
const WILD_FIELD = "#1d1d1f";
const OVAL = 'cx="50" cy="75" rx="33" ry="56" transform="rotate(28 50 75)"';
const FONT = 'font-family="Arial Black, Arial, Helvetica, sans-serif" font-weight="900"';

// A colour-blind mark per colour: a triangle (red), a circle (yellow), a square (green) and
// three bars (blue), drawn in ink on a white disc, centred on (0, 0) with radius about 8.
const MARKS = {
  R: '<polygon points="0,-5.5 5.2,4 -5.2,4" fill="' + INK + '"/>',
  Y: '<circle r="4.6" fill="' + INK + '"/>',
  G: '<rect x="-4.2" y="-4.2" width="8.4" height="8.4" fill="' + INK + '"/>',
  B:
    '<rect x="-5" y="-4.6" width="10" height="2.2" fill="' + INK + '"/>' +
    '<rect x="-5" y="-1.1" width="10" height="2.2" fill="' + INK + '"/>' +
    '<rect x="-5" y="2.4" width="10" height="2.2" fill="' + INK + '"/>',
  // UNO Flip's dark colours: a diamond (pink), a ring (teal), a cross (orange), a star (purple).
  P: '<polygon points="0,-5.6 4.6,0 0,5.6 -4.6,0" fill="' + INK + '"/>',
  T: '<circle r="3.9" fill="none" stroke="' + INK + '" stroke-width="2"/>',
  O: '<rect x="-1.2" y="-5.2" width="2.4" height="10.4" fill="' + INK + '"/>' +
    '<rect x="-5.2" y="-1.2" width="10.4" height="2.4" fill="' + INK + '"/>',
  V: '<polygon points="0,-5.6 1.5,-1.7 5.5,-1.7 2.3,0.8 3.4,4.8 0,2.4 -3.4,4.8 -2.3,0.8 -5.5,-1.7 -1.5,-1.7" fill="' +
    INK + '"/>',
};

// The ColorADD code's symbols (Miguel Neiva's code for colour-blind people, which Mattel's UNO
// ColorADD deck of 2017 prints in two corners of every card; docs/web.md, "Colour-blind
// symbols"): the three primaries are a triangle angled upwards (red), a triangle angled
// downwards (blue) and a diagonal line (yellow); a mixed colour joins its primaries' symbols
// (green = yellow's line and blue's triangle). Drawn in ink on a white badge centred on (0, 0).
const COLORADD = {
  R: '<polygon points="-4.5,4.5 4.5,4.5 4.5,-4.5" fill="' + INK + '"/>',
  B: '<polygon points="-4.5,-4.5 -4.5,4.5 4.5,4.5" fill="' + INK + '"/>',
  Y: '<line x1="-3.5" y1="4.5" x2="3.5" y2="-4.5" stroke="' + INK + '" stroke-width="2" stroke-linecap="round"/>',
  G:
    '<line x1="-7.5" y1="4.5" x2="-2.5" y2="-4.5" stroke="' + INK + '" stroke-width="2" stroke-linecap="round"/>' +
    '<polygon points="0,-4.5 0,4.5 8,4.5" fill="' + INK + '"/>',
  // UNO Flip's dark colours, by the code's own mixing: pink is red with white (white an empty
  // square), orange red with yellow, purple red with blue. The code has no teal: it is drawn as
  // ColorADD's light blue (blue with white), the nearest colour the code names.
  P:
    '<polygon points="-8.5,4.5 0.5,4.5 0.5,-4.5" fill="' + INK + '"/>' +
    '<rect x="3" y="-4" width="7" height="8" fill="#fff" stroke="' + INK + '" stroke-width="1.4"/>',
  T:
    '<polygon points="-8.5,-4.5 -8.5,4.5 0.5,4.5" fill="' + INK + '"/>' +
    '<rect x="3" y="-4" width="7" height="8" fill="#fff" stroke="' + INK + '" stroke-width="1.4"/>',
  O:
    '<polygon points="-8.5,4.5 0.5,4.5 0.5,-4.5" fill="' + INK + '"/>' +
    '<line x1="3.5" y1="4.5" x2="8.5" y2="-4.5" stroke="' + INK + '" stroke-width="2" stroke-linecap="round"/>',
  V:
    '<polygon points="-9,4.5 -1,4.5 -1,-4.5" fill="' + INK + '"/>' +
    '<polygon points="1,-4.5 1,4.5 9,4.5" fill="' + INK + '"/>',
};

function colorAddBadge(color) {
  const half = color === "G" || DARK[color] ? 10.5 : 7.5;
  return (
    '<g data-coloradd="' + color + '"><rect x="' + -half + '" y="-7" width="' + 2 * half + '" height="14" rx="2.5" ' +
    'fill="#fff" stroke="' + INK + '" stroke-width="1"/>' + COLORADD[color] + "</g>"
  );
}

function svg(body, label) {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" class="card-svg" ' +
    'aria-hidden="true" focusable="false"' + (label ? ' data-face="' + label + '"' : "") + ">" + body + "</svg>"
  );
}

// A card's border and field: white on the light faces, black on UNO Flip's dark ones.
function frame(field, dark) {
  return (
    (dark
      ? '<rect x="1" y="1" width="98" height="148" rx="11" fill="#17171b" stroke="#5a5a66" stroke-width="1"/>'
      : '<rect x="1" y="1" width="98" height="148" rx="11" fill="#fbfbf8" stroke="#c9c9c4" stroke-width="1"/>') +
    '<rect x="6" y="6" width="88" height="138" rx="8" fill="' + field + '"/>'
  );
}

// Text with a dark outline drawn under its fill, so it reads on every colour.
function label(text, x, y, size, fill, outline) {
  return (
    "<text x=\"" + x + "\" y=\"" + y + "\" " + FONT + ' font-size="' + size + '" font-style="italic" ' +
    'text-anchor="middle" fill="' + fill + '" stroke="' + INK + '" stroke-width="' + outline + '" ' +
    'stroke-linejoin="round" paint-order="stroke">' + text + "</text>"
  );
}

// Draws `shape` twice: a wider dark outline, then the shape itself.
function outlined(shape, width, color) {
  return (
    shape.replace("STROKE", INK).replace("WIDTH", String(width + 3.5)) +
    shape.replace("STROKE", color).replace("WIDTH", String(width))
  );
}

// A wild card's oval in four quarters (top-left, top-right, bottom-left, bottom-right before the
// turn), drawn unrotated, then turned with the card's oval.
function quarteredOval(a, b, c, d) {
  const q = (path, fill) => '<path d="' + path + '" fill="' + fill + '"/>';
  return (
    '<g transform="rotate(28)">' +
    q("M0,0 L0,-56 A33,56 0 0,0 -33,0 Z", a) +
    q("M0,0 L33,0 A33,56 0 0,0 0,-56 Z", b) +
    q("M0,0 L-33,0 A33,56 0 0,0 0,56 Z", c) +
    q("M0,0 L0,56 A33,56 0 0,0 33,0 Z", d) +
    '<ellipse rx="33" ry="56" fill="none" stroke="#fff" stroke-width="2.5"/></g>'
  );
}

function smallCard(cx, cy, w, h, fill) {
  return (
    '<rect x="' + (cx - w / 2) + '" y="' + (cy - h / 2) + '" width="' + w + '" height="' + h + '" rx="3" ' +
    'fill="' + fill + '" stroke="#fff" stroke-width="2.4"/>' +
    '<rect x="' + (cx - w / 2 - 1.6) + '" y="' + (cy - h / 2 - 1.6) + '" width="' + (w + 3.2) + '" height="' +
    (h + 3.2) + '" rx="4" fill="none" stroke="' + INK + '" stroke-width="1"/>'
  );
}

// Symbols centred on (0, 0), about 50 units across, in colour `c`.
const SYMBOLS = {
  S(c) {
    return outlined(
      '<g fill="none" stroke="STROKE" stroke-width="WIDTH" stroke-linecap="round">' +
        '<circle r="18"/><line x1="-12.5" y1="12.5" x2="12.5" y2="-12.5"/></g>',
      7,
      c,
    );
  },
  R(c) {
    const arrow = "-13,-4 3,-4 3,-10 14,0 3,10 3,4 -13,4";
    const one = (t) =>
      '<polygon transform="' + t + '" points="' + arrow + '" fill="' + c + '" stroke="' + INK +
      '" stroke-width="2" stroke-linejoin="round"/>';
    return one("translate(-7.5 -7.5) rotate(-45)") + one("translate(7.5 7.5) rotate(135)");
  },
  "+2"(c) {
    return smallCard(-6, 5, 20, 30, c) + smallCard(6, -7, 20, 30, c);
  },
  "+3"(c) {
    return smallCard(-10, 9, 18, 27, c) + smallCard(0, -1, 18, 27, c) + smallCard(10, -11, 18, 27, c);
  },
  BLANK(c) {
    const pts = [];
    for (let i = 0; i < 10; i += 1) {
      const r = i % 2 ? 9 : 21;
      const a = (Math.PI / 5) * i - Math.PI / 2;
      pts.push((r * Math.cos(a)).toFixed(2) + "," + (r * Math.sin(a)).toFixed(2));
    }
    return (
      '<polygon points="' + pts.join(" ") + '" fill="' + c + '" stroke="' + INK +
      '" stroke-width="2.2" stroke-linejoin="round"/>'
    );
  },
  WILD() {
    return quarteredOval(COLORS.R, COLORS.B, COLORS.Y, COLORS.G);
  },
  "W+4"() {
    return (
      smallCard(-13, 12, 16, 24, COLORS.B) +
      smallCard(-4, 2, 16, 24, COLORS.G) +
      smallCard(5, -8, 16, 24, COLORS.R) +
      smallCard(14, -18, 16, 24, COLORS.Y)
    );
  },
  HOWLER() {
    // A red letter that shouts: an envelope, its flap open like a mouth, and sound lines.
    return (
      '<g stroke="' + INK + '" stroke-width="2" stroke-linejoin="round">' +
      '<rect x="-21" y="-9" width="38" height="27" rx="2" fill="#c62828"/>' +
      '<polygon points="-21,-9 -2,7 17,-9" fill="#8e1b1b"/>' +
      '<polygon points="-21,-9 -2,-25 17,-9" fill="#e53935"/></g>' +
      '<g stroke="#fff" stroke-width="3" stroke-linecap="round" fill="none">' +
      '<path d="M21,-22 L27,-28"/><path d="M23,-12 L31,-14"/><path d="M21,-31 L22,-39"/></g>'
    );
  },
  INVIS() {
    // A hooded cloak with nobody inside: a dashed outline over a faint fill.
    return (
      '<path d="M0,-30 C-14,-30 -19,-16 -19,-6 L-24,26 L-12,20 L-4,28 L4,20 L12,28 L24,20 L19,-6 ' +
      'C19,-16 14,-30 0,-30 Z" fill="#cfd8dc" fill-opacity="0.28" stroke="#fff" stroke-width="2.6" ' +
      'stroke-dasharray="5 3.5" stroke-linejoin="round"/>' +
      '<path d="M-9,-12 C-6,-19 6,-19 9,-12 C7,-4 -7,-4 -9,-12 Z" fill="' + WILD_FIELD + '"/>'
    );
  },
  MATER() {
    // A tow truck's hook on its cable, in rust and steel.
    return (
      '<line x1="0" y1="-34" x2="0" y2="-4" stroke="' + INK + '" stroke-width="6.5"/>' +
      '<line x1="0" y1="-34" x2="0" y2="-4" stroke="#b0bec5" stroke-width="3.5"/>' +
      '<path d="M0,-6 L0,10 A11,11 0 1 1 -11,21" fill="none" stroke="' + INK +
      '" stroke-width="10" stroke-linecap="round"/>' +
      '<path d="M0,-6 L0,10 A11,11 0 1 1 -11,21" fill="none" stroke="#b5651d" stroke-width="6" ' +
      'stroke-linecap="round"/>' +
      '<circle cx="0" cy="-34" r="4.5" fill="#8d6e63" stroke="' + INK + '" stroke-width="1.5"/>'
    );
  },
  SHUFFLE() {
    // Wild Shuffle Hands: two fans of cards in the four colours, crossing arrows between them.
    const arrow = (d) =>
      '<path d="' + d + '" fill="none" stroke="' + INK + '" stroke-width="5.5" stroke-linecap="round"/>' +
      '<path d="' + d + '" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/>';
    return (
      smallCard(-24, -20, 13, 19, COLORS.R) +
      smallCard(-18, -24, 13, 19, COLORS.Y) +
      smallCard(11, 3, 13, 19, COLORS.G) +
      smallCard(17, -1, 13, 19, COLORS.B) +
      arrow("M-14,14 C-4,14 4,-14 14,-14") +
      arrow("M-14,-14 C-4,-14 4,14 14,14") +
      '<polygon points="14,-19 22,-14 14,-9" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>' +
      '<polygon points="14,9 22,14 14,19" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>'
    );
  },
  CUSTOM() {
    // Wild Customizable: a blank card in the four colours' frame, a pen writing the rule on it.
    return (
      '<g transform="rotate(-10)">' +
      '<rect x="-17" y="-25" width="34" height="50" rx="4" fill="#fff" stroke="' + INK + '" stroke-width="2.2"/>' +
      '<rect x="-13" y="-21" width="13" height="3.5" fill="' + COLORS.R + '"/>' +
      '<rect x="0" y="-21" width="13" height="3.5" fill="' + COLORS.Y + '"/>' +
      '<rect x="-13" y="17.5" width="13" height="3.5" fill="' + COLORS.G + '"/>' +
      '<rect x="0" y="17.5" width="13" height="3.5" fill="' + COLORS.B + '"/>' +
      '<g stroke="#90a4ae" stroke-width="1.6" stroke-linecap="round">' +
      '<line x1="-10" y1="-8" x2="10" y2="-8"/><line x1="-10" y1="0" x2="6" y2="0"/></g></g>' +
      '<g transform="rotate(38)">' +
      '<rect x="-3.5" y="-30" width="7" height="32" fill="#ffb300" stroke="' + INK + '" stroke-width="1.6"/>' +
      '<polygon points="-3.5,2 3.5,2 0,10" fill="#ffe0b2" stroke="' + INK + '" stroke-width="1.4"/></g>'
    );
  },
};

// UNO All Wild (docs/rules.md §13): every card wild, so each symbol is drawn in the four
// colours at once, on a white oval.
const FOUR = [COLORS.R, COLORS.Y, COLORS.G, COLORS.B];
Object.assign(SYMBOLS, {
  AWREV() {
    const arrow = "-13,-4 3,-4 3,-10 14,0 3,10 3,4 -13,4";
    const one = (t, c) =>
      '<polygon transform="' + t + '" points="' + arrow + '" fill="' + c + '" stroke="' + INK +
      '" stroke-width="2" stroke-linejoin="round"/>';
    return one("translate(-7.5 -7.5) rotate(-45)", COLORS.G) + one("translate(7.5 7.5) rotate(135)", COLORS.B);
  },
  AWSKIP() {
    return SYMBOLS.S(COLORS.R) + '<circle r="5" fill="' + COLORS.Y + '" stroke="' + INK + '" stroke-width="1.2"/>';
  },
  AWSKIP2() {
    return at(-12, -12, 0.62, SYMBOLS.S(COLORS.G)) + at(12, 12, 0.62, SYMBOLS.S(COLORS.B));
  },
  "AW+2"() {
    return smallCard(-6, 5, 20, 30, COLORS.Y) + smallCard(6, -7, 20, 30, COLORS.R);
  },
  "AWT+2"() {
    // A target of the four colours, two cards at its centre.
    const rings = FOUR.map((c, i) => '<circle r="' + (26 - i * 6) + '" fill="' + c + '" stroke="' + INK +
      '" stroke-width="1.2"/>').join("");
    return rings + smallCard(-3, 2, 10, 15, "#fff") + smallCard(3, -3, 10, 15, "#fff");
  },
  AWSWAP() {
    // Two hands of cards, arrows between them going both ways.
    const arrow = (d) =>
      '<path d="' + d + '" fill="none" stroke="' + INK + '" stroke-width="5.5" stroke-linecap="round"/>' +
      '<path d="' + d + '" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round"/>';
    return (
      smallCard(-16, -16, 14, 20, COLORS.R) + smallCard(-10, -20, 14, 20, COLORS.Y) +
      smallCard(10, 16, 14, 20, COLORS.G) + smallCard(16, 12, 14, 20, COLORS.B) +
      arrow("M8,-22 C22,-18 24,-6 22,0") + arrow("M-8,22 C-22,18 -24,6 -22,0") +
      '<polygon points="17,-2 27,-2 22,6" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>' +
      '<polygon points="-17,2 -27,2 -22,-6" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>'
    );
  },
});

// UNO Show 'Em No Mercy (docs/rules.md §14): its coloured cards in their colour, its wild cards
// in the four colours on a white oval.
Object.assign(SYMBOLS, {
  SE(c) {
    // Skip Everyone: a Skip sign with the other players' arrows going round it.
    const arc = '<path d="M-24,-8 A25,25 0 0,1 8,-24" fill="none" stroke="STROKE" stroke-width="WIDTH" ' +
      'stroke-linecap="round"/>';
    return (
      at(0, 0, 0.72, SYMBOLS.S(c)) +
      outlined(arc, 3.5, c) +
      outlined(arc.replace("M-24,-8 A25,25 0 0,1 8,-24", "M24,8 A25,25 0 0,1 -8,24"), 3.5, c) +
      '<polygon points="8,-30 16,-23 6,-18" fill="' + c + '" stroke="' + INK + '" stroke-width="1.2"/>' +
      '<polygon points="-8,30 -16,23 -6,18" fill="' + c + '" stroke="' + INK + '" stroke-width="1.2"/>'
    );
  },
  DA(c) {
    // Discard All: a fan of cards of the colour going down onto the pile.
    return (
      smallCard(-14, -10, 16, 24, c) + smallCard(0, -14, 16, 24, c) + smallCard(14, -10, 16, 24, c) +
      outlined('<path d="M0,4 L0,24" fill="none" stroke="STROKE" stroke-width="WIDTH" stroke-linecap="round"/>', 4, c) +
      '<polygon points="-8,20 8,20 0,30" fill="' + c + '" stroke="' + INK + '" stroke-width="1.4"/>'
    );
  },
  "+4"(c) {
    return (
      smallCard(-13, 12, 16, 24, c) + smallCard(-4, 2, 16, 24, c) + smallCard(5, -8, 16, 24, c) +
      smallCard(14, -18, 16, 24, c)
    );
  },
  "WR+4"() {
    return SYMBOLS.AWREV() + smallCard(0, 0, 12, 18, COLORS.R) + smallCard(4, -4, 12, 18, COLORS.Y);
  },
  "W+6"() {
    return FOUR.concat(FOUR.slice(0, 2)).map((c, i) => smallCard(-18 + i * 7, 16 - i * 7, 13, 20, c)).join("");
  },
  "W+10"() {
    const cards = [];
    for (let i = 0; i < 10; i += 1) cards.push(smallCard(-22 + i * 4.8, 20 - i * 4.6, 11, 17, FOUR[i % 4]));
    return cards.join("");
  },
  WCR() {
    // Wild Colour Roulette: a wheel of the four colours, its pointer at the top.
    const q = (a, c) => {
      const r = 25;
      const x1 = (r * Math.cos(a)).toFixed(2);
      const y1 = (r * Math.sin(a)).toFixed(2);
      const x2 = (r * Math.cos(a + Math.PI / 4)).toFixed(2);
      const y2 = (r * Math.sin(a + Math.PI / 4)).toFixed(2);
      return '<path d="M0,0 L' + x1 + "," + y1 + " A" + r + "," + r + " 0 0,1 " + x2 + "," + y2 + ' Z" fill="' + c + '"/>';
    };
    const slices = [];
    for (let i = 0; i < 8; i += 1) slices.push(q((Math.PI / 4) * i, FOUR[i % 4]));
    return (
      '<circle r="27" fill="' + INK + '"/>' + slices.join("") +
      '<circle r="5" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>' +
      '<polygon points="-6,-33 6,-33 0,-22" fill="#fff" stroke="' + INK + '" stroke-width="1.5"/>'
    );
  },
});

// UNO Flip (docs/rules.md §15): the light side's Draw One and Flip, its Wild and Wild Draw Two
// in the light colours; the dark side's Draw Five, Skip Everyone (No Mercy's sign), Reverse,
// Flip, Wild and Wild Draw Color in the dark colours, each on a black border.
Object.assign(SYMBOLS, {
  "+1"(c) {
    return smallCard(0, 0, 24, 36, c);
  },
  "+5"(c) {
    const cards = [];
    for (let i = 0; i < 5; i += 1) cards.push(smallCard(-16 + i * 8, 14 - i * 7, 14, 21, c));
    return cards.join("");
  },
  F(c) {
    // Flip: a card of the colour turning over onto its black other side, a curved arrow round it.
    const arc = '<path d="M-25,6 A26,26 0 0,1 10,-24" fill="none" stroke="STROKE" stroke-width="WIDTH" ' +
      'stroke-linecap="round"/>';
    return (
      smallCard(7, 5, 20, 30, "#17171b") + smallCard(-6, -3, 20, 30, c) +
      outlined(arc, 3.5, c) + outlined(arc.replace("M-25,6 A26,26 0 0,1 10,-24", "M25,-6 A26,26 0 0,1 -10,24"), 3.5, c) +
      '<polygon points="8,-31 17,-22 5,-18" fill="' + c + '" stroke="' + INK + '" stroke-width="1.2"/>' +
      '<polygon points="-8,31 -17,22 -5,18" fill="' + c + '" stroke="' + INK + '" stroke-width="1.2"/>'
    );
  },
  "LW+2"() {
    return smallCard(-6, 5, 20, 30, COLORS.G) + smallCard(6, -7, 20, 30, COLORS.R);
  },
  DWILD() {
    // The dark Wild: the oval in the four dark colours.
    return quarteredOval(COLORS.P, COLORS.V, COLORS.O, COLORS.T);
  },
  "DW+C"() {
    // Wild Draw Color: the dark colours' cards fanned, a question of colour on the last.
    return (
      DARK_FOUR.map((c, i) => smallCard(-15 + i * 9, 14 - i * 9, 16, 24, c)).join("") +
      label("?", 12, -6, 16, "#fff", 2.4)
    );
  },
});

const WILDS = {
  W: "WILD", "W+4": "W+4", HOWLER: "HOWLER", INVIS: "INVIS", MATER: "MATER", SHUFFLE: "SHUFFLE", CUSTOM: "CUSTOM",
  AW: "WILD", AWREV: "AWREV", AWSKIP: "AWSKIP", AWSKIP2: "AWSKIP2", "AW+2": "AW+2", "AW+4": "W+4", "AWT+2": "AWT+2",
  AWSWAP: "AWSWAP", "WR+4": "WR+4", "W+6": "W+6", "W+10": "W+10", WCR: "WCR",
  LW: "WILD", "LW+2": "LW+2", DW: "DWILD", "DW+C": "DW+C",
};
// UNO Flip's dark wild cards: a black border.
const DARK_WILDS = { DW: true, "DW+C": true };
const OVAL_FILL = {
  W: WILD_FIELD, "W+4": "#fff", HOWLER: "#fff", INVIS: "#37474f", MATER: "#ffe0b2", SHUFFLE: "#fff", CUSTOM: "#eceff1",
  AW: WILD_FIELD, AWREV: "#fff", AWSKIP: "#fff", AWSKIP2: "#fff", "AW+2": "#fff", "AW+4": "#fff", "AWT+2": "#fff",
  AWSWAP: "#fff", "WR+4": "#fff", "W+6": "#fff", "W+10": "#fff", WCR: "#fff",
  LW: WILD_FIELD, "LW+2": "#fff", DW: WILD_FIELD, "DW+C": "#fff",
};
const CORNER_TEXT = {
  "+2": "+2", "+3": "+3", "+4": "+4", "W+4": "+4", "AW+2": "+2", "AW+4": "+4", "AWT+2": "+2", "WR+4": "+4",
  "W+6": "+6", "W+10": "+10", "+1": "+1", "+5": "+5", "LW+2": "+2",
};

function at(x, y, scale, body) {
  return '<g transform="translate(' + x + " " + y + ") scale(" + scale + ')">' + body + "</g>";
}

function corners(body) {
  return body + '<g transform="rotate(180 50 75)">' + body + "</g>";
}

function markBadge(color, x, y) {
  return at(x, y, 1, '<circle r="8" fill="#fff" stroke="' + INK + '" stroke-width="1.2"/>' + MARKS[color]);
}

// The colour and value of a coloured code ("R7", "G+2", "YBLANK"); null for a wild.
function split(code) {
  if (WILDS[code]) return null;
  const color = code[0];
  if (!COLORS[color]) return null;
  return { color, value: code.slice(1) };
}

function face(code, options) {
  const opts = options || {};
  const parts = split(code);
  if (parts === null) {
    const kind = WILDS[code];
    if (!kind) return back();
    const symbol = SYMBOLS[kind];
    const center =
      kind === "WILD" || kind === "DWILD"
        ? at(50, 75, 1, symbol())
        : '<ellipse ' + OVAL + ' fill="' + OVAL_FILL[code] + '" stroke="#fff" stroke-width="2.5"/>' +
          at(50, 75, 1.05, symbol());
    const corner = CORNER_TEXT[code]
      ? label(CORNER_TEXT[code], 20, 30, 20, "#fff", 2.6)
      : at(18, 24, kind === "WILD" || kind === "DWILD" ? 0.24 : 0.34, symbol());
    return svg(frame(WILD_FIELD, DARK_WILDS[code]) + center + corners(corner), code);
  }
  const { color, value } = parts;
  const c = COLORS[color];
  let center;
  let corner;
  if (/^[0-9]$/.test(value)) {
    center = label(value, 50, 95, 58, c, 3.2);
    corner = label(value, 19, 31, 22, "#fff", 2.6);
    if (value === "6" || value === "9") {
      center += '<rect x="37" y="101" width="26" height="4.5" rx="2" fill="' + c + '" stroke="' + INK +
        '" stroke-width="1.5"/>';
      corner += '<rect x="13" y="34" width="12" height="2.5" rx="1" fill="#fff" stroke="' + INK +
        '" stroke-width="0.8"/>';
    }
  } else {
    const symbol = SYMBOLS[value];
    if (!symbol) return back();
    center = at(50, 75, 1.1, symbol(c));
    corner = CORNER_TEXT[value] ? label(CORNER_TEXT[value], 20, 30, 20, "#fff", 2.6) : at(19, 23, 0.42, symbol("#fff"));
  }
  const mark = opts.colorblind ? markBadge(color, 82, 20) + markBadge(color, 18, 130) : "";
  // ColorADD under the top-left index and above the bottom-right one, upright both times: the
  // code's triangles tell red from blue by their slant, which a half turn would swap.
  const add = opts.coloradd ? at(19, 50, 1.3, colorAddBadge(color)) + at(81, 100, 1.3, colorAddBadge(color)) : "";
  return svg(
    frame(c, DARK[color]) + '<ellipse ' + OVAL + ' fill="#fff"/>' + center + corners(corner) + mark + add,
    code,
  );
}

function back() {
  return svg(
    frame("#151515") +
      '<ellipse ' + OVAL + ' fill="' + COLORS.R + '" stroke="#fff" stroke-width="2.5"/>' +
      '<g transform="rotate(-28 50 75)">' + label("UNO", 50, 85, 30, "#fff", 3) + "</g>" +
      at(50, 75, 1, ""),
    "back",
  );
}

function chooser(color, options) {
  const opts = options || {};
  const c = COLORS[color];
  if (!c) return "";
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" class="swatch-svg" aria-hidden="true" ' +
    'focusable="false"><circle cx="20" cy="20" r="18" fill="' + c + '" stroke="#fff" stroke-width="3"/>' +
    (opts.colorblind ? at(20, opts.coloradd ? 12.5 : 20, opts.coloradd ? 0.85 : 1.25,
      '<circle r="8" fill="#fff"/>' + MARKS[color]) : "") +
    (opts.coloradd ? at(20, opts.colorblind ? 28.5 : 20, opts.colorblind ? 0.8 : 1.15, colorAddBadge(color)) : "") +
    "</svg>"
  );
}

function mark(color) {
  if (!MARKS[color]) return "";
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-9 -9 18 18" class="mark-svg" aria-hidden="true" ' +
    'focusable="false"><circle r="8" fill="#fff" stroke="' + INK + '" stroke-width="1.2"/>' + MARKS[color] + "</svg>"
  );
}

function colorAdd(color) {
  if (!COLORADD[color]) return "";
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-11 -8 22 16" class="coloradd-svg" aria-hidden="true" ' +
    'focusable="false">' + colorAddBadge(color) + "</svg>"
  );
}

export const Cards = Object.freeze({ face, back, chooser, mark, colorAdd, colors: Object.freeze({ ...COLORS }) });
