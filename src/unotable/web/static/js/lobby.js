// The lobby (Play now, open rooms, make a room, join by code) and a room's join page.
import { api, errorText, getOptions, tokenKey } from "./api.js";
import { $, el, show } from "./dom.js";
import { enterTable, provide, route } from "./late.js";
import { avatarNode } from "./pieces.js";
import { inviteNode } from "./social.js";
import { avatarOf, game, playerName } from "./state.js";
import { t, tn } from "./strings.js";

let AVATAR_COLORS = ["#b71c1c", "#ad1457", "#4a148c", "#1a237e", "#0d47a1", "#006064", "#1b5e20", "#e65100", "#4e342e", "#37474f"];

const me = {
  name: () => localStorage.getItem("name") || "",
  color: () => {
    const stored = localStorage.getItem("avatar");
    return stored && /^#[0-9a-fA-F]{6}$/.test(stored) ? stored : AVATAR_COLORS[0];
  },
  remember(name, color) {
    if (name !== undefined) localStorage.setItem("name", name);
    if (color !== undefined) localStorage.setItem("avatar", color);
  },
  avatar() {
    const name = this.name().trim();
    return { color: this.color(), initial: name ? name.slice(0, 1).toUpperCase() : "?" };
  },
};

// The person's name and avatar, remembered by this browser.
function whoAmINode(onChange) {
  const name = el("input", { type: "text", id: "name", maxlength: 24, autocomplete: "nickname",
    placeholder: t("Your name"), value: me.name() });
  const preview = avatarNode(me.avatar(), "big");
  preview.id = "avatar-preview";
  const redraw = () => {
    const a = me.avatar();
    preview.textContent = a.initial;
    preview.style.backgroundColor = a.color;
  };
  name.addEventListener("input", () => {
    me.remember(name.value);
    redraw();
    if (onChange) onChange();
  });
  const swatches = el("div", { class: "avatar-colors", role: "radiogroup", "aria-label": t("Your colour") },
    AVATAR_COLORS.map((c, i) => {
      const b = el("button", { type: "button", role: "radio", class: "avatar-color", "aria-checked": String(c === me.color()),
        "aria-label": t("Colour {number}", { number: i + 1 }), dataset: { color: c } });
      b.style.backgroundColor = c;
      b.addEventListener("click", () => {
        me.remember(undefined, c);
        swatches.querySelectorAll("button").forEach((x) => x.setAttribute("aria-checked", String(x.dataset.color === c)));
        redraw();
      });
      return b;
    }));
  return el("div", { class: "who" }, preview,
    el("div", { class: "who-fields" }, el("label", { for: "name" }, t("Your name")), name, swatches));
}

function nameOrAsk(box) {
  const name = me.name().trim();
  if (!name) {
    box.textContent = t("Pick a name of 1 to 24 characters.");
    $("name").focus();
    return null;
  }
  return name;
}

// The avatar's colour goes with a name to a server that has avatars (its options list colours).
export async function joinBody(name, player) {
  const opts = await getOptions().catch(() => ({}));
  const body = { name };
  if (Array.isArray(opts.colors)) body.color = me.color();
  if (player !== undefined && player !== null) body.player = player;
  return body;
}

// The house rules' records (docs/web.md, GET /api/options `house_rules`): from /api/options when the server sends
// them, else the four rules of RULES §11 written here in the same shape.
function houseRuleRecords(opts) {
  if (Array.isArray(opts.house_rules) && opts.house_rules.length) return opts.house_rules;
  return [
    { name: "stacking", kind: "choice", values: [false, "same", "any"], default: false,
      label: t("Stack draw cards"), help: t("A draw card played on you may be answered with another, and the next player takes the whole stack.") },
    { name: "seven_zero", kind: "bool", values: [false, true], default: false,
      label: t("A 7 swaps hands with a player you choose; a 0 passes every hand on"), help: "" },
    { name: "jump_in", kind: "bool", values: [false, true], default: false,
      label: t("Jump in out of turn with the twin of the top card"), help: "" },
    { name: "draw_to_match", kind: "bool", values: [false, true], default: false,
      label: t("Draw until you can play"), help: "" },
  ];
}

function valueWords(value) {
  if (value === false || value === "false") return t("No");
  if (value === true || value === "true") return t("Yes");
  if (value === "same") return t("The same kind (Draw Two on Draw Two, Wild Draw Four on Wild Draw Four)");
  if (value === "any") return t("Any draw card on any draw card");
  return t(String(value));
}

function presetWords(name) {
  switch (name) {
    case "official": return t("Official (none)");
    case "popular": return t("Popular: stack the same draw card, draw until you can play");
    case "party": return t("Party: stack any draw card, 7 swaps and 0 passes hands, jump in, draw until you can play");
    default: return t(name);
  }
}

function modeWords(mode) {
  switch (mode) {
    case "solo": return t("Everyone for themselves");
    case "partners": return t("Partners (2 against 2)");
    case "teams": return t("Teams (even against odd seats)");
    case "rotating-partners": return t("Rotating partners (4 players)");
    case "two-tables": return t("Two tables of four (8 players)");
    case "challenge": return t("Challenge (last one standing)");
    case "elimination": return t("Elimination (the most points in a hand is out)");
    default: return t(mode);
  }
}

function botWords(spec) {
  switch (spec) {
    case "random": return t("Random bot");
    case "greedy": return t("Greedy bot");
    case "aggressive": return t("Aggressive bot");
    case "cautious": return t("Cautious bot");
    case "search": return t("Search bot (strong, slower)");
    case "expert": return t("Expert bot (strongest, slowest)");
    case "learned": return t("Learned bot (a trained network)");
    case "search:budget=100": return t("Search bot, quick (100 playouts)");
    case "search:budget=1000": return t("Search bot, strongest (1,000 playouts)");
    case "greedy:forget_uno=0": return t("Greedy bot that never forgets UNO");
    default: return t(spec);
  }
}

function levelTitle(level) {
  switch (level) {
    case "easy": return t("Easy");
    case "medium": return t("Medium");
    case "hard": return t("Hard");
    case "expert": return t("Expert");
    default: return level;
  }
}

// A strength the server offers (GET /api/options' bot_levels): its name, its bot and how it
// fares, as measured (docs/bots.md).
export function levelWords(lv) {
  return t("{level} ({bot} bot): wins {share} of hands heads-up against {against}", {
    level: levelTitle(lv.level), bot: lv.bot, share: `${Math.round(100 * lv.rate)}%`, against: levelTitle(lv.against),
  });
}

// One house rule's control, built from its record.
function houseControl(rule) {
  const id = `house-${rule.name.replaceAll("_", "-")}`;
  const help = rule.help ? t(rule.help) : "";
  if (rule.kind === "choice") {
    const labels = Array.isArray(rule.value_labels) ? rule.value_labels : null;
    const select = el("select", { id, dataset: { rule: rule.name } },
      rule.values.map((v, i) => el("option", { value: String(v) }, labels && labels[i] ? t(labels[i]) : valueWords(v))));
    select.value = String(rule.default);
    return { input: select, node: el("div", { class: "field" }, el("label", { for: id }, t(rule.label)), select,
      help ? el("small", { class: "help" }, help) : null),
    read: () => { const v = rule.values.find((x) => String(x) === select.value); return v === undefined ? false : v; },
    write: (v) => { select.value = String(v === undefined ? rule.default : v); } };
  }
  if (rule.kind === "int") {
    // A whole number between the record's bounds (the missed-UNO count, the hand limit).
    const [low, high] = rule.values;
    const num = el("input", { type: "number", id, min: low, max: high, step: 1, dataset: { rule: rule.name } });
    num.value = String(rule.default);
    const clamp = (v) => Math.min(high, Math.max(low, Math.round(Number(v))));
    return { input: num, node: el("div", { class: "field" }, el("label", { for: id }, t(rule.label)), num,
      help ? el("small", { class: "help" }, help) : null),
    read: () => (Number.isFinite(Number(num.value)) && num.value !== "" ? clamp(num.value) : rule.default),
    write: (v) => { num.value = String(v === undefined || v === false ? rule.default : v); } };
  }
  const box = el("input", { type: "checkbox", id, dataset: { rule: rule.name } });
  box.checked = Boolean(rule.default);
  return { input: box, node: el("div", { class: "field check" }, box, el("label", { for: id }, t(rule.label)),
    help ? el("small", { class: "help" }, help) : null),
  read: () => box.checked, write: (v) => { box.checked = Boolean(v); } };
}

export async function lobby() {
  show("lobby");
  $("room-badge").hidden = true;
  let opts;
  try {
    opts = await getOptions();
  } catch (err) {
    $("lobby").replaceChildren(el("p", { class: "error" }, errorText(err)));
    return;
  }
  if (Array.isArray(opts.colors) && opts.colors.length) AVATAR_COLORS = opts.colors;
  const playError = el("div", { class: "error", id: "play-error", role: "alert" });
  const playNow = el("button", { type: "button", id: "play-now", class: "big" }, t("Play now"));
  playNow.addEventListener("click", async () => {
    const name = nameOrAsk(playError);
    if (!name) return;
    playNow.disabled = true;
    try {
      let r;
      try {
        r = await api("POST", "/api/play-now", await joinBody(name));
      } catch (err) {
        if (err.status !== 404 && err.status !== 405) throw err;
        // A server without Play now: the same room made with the form's API.
        const room = await api("POST", "/api/rooms", { players: 4, seats: ["human", "greedy", "greedy", "greedy"] });
        const joined = await api("POST", `/api/rooms/${room.code}/join`, { name, player: 0 });
        r = { code: room.code, url: room.url, token: joined.token };
      }
      localStorage.setItem(tokenKey(r.code), r.token);
      history.pushState({}, "", r.url || `/r/${r.code}`);
      enterTable(r.code, r.token);
    } catch (err) {
      playError.textContent = errorText(err);
    } finally {
      playNow.disabled = false;
    }
  });

  const openRooms = el("section", { class: "panel", id: "open-rooms", "aria-labelledby": "open-title" },
    el("h2", { id: "open-title" }, t("Rooms waiting for players")), el("p", { class: "muted" }, t("Looking…")));
  listOpenRooms(openRooms, opts);

  const form = createForm(opts);
  const code = el("input", { type: "text", id: "join-code", maxlength: 8, placeholder: "ABC123", autocomplete: "off" });
  const joinForm = el("form", { id: "join-form", class: "inline" }, el("label", { for: "join-code" }, t("Room code")), code,
    el("button", { type: "submit" }, t("Join")));
  joinForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    history.pushState({}, "", `/r/${code.value.trim().toUpperCase()}`);
    route();
  });
  $("lobby").replaceChildren(
    el("div", { class: "hero" }, el("h1", {}, t("UNO with friends, in the browser")),
      el("p", { class: "tagline" }, editionsLine(opts))),
    el("section", { class: "panel", id: "quick", "aria-label": t("Play now") }, whoAmINode(), playNow,
      el("p", { class: "muted" }, t("One click: you and three bots.")), playError),
    openRooms,
    el("section", { class: "panel", "aria-labelledby": "create-title" }, el("h2", { id: "create-title" }, t("Make a room")), form),
    el("section", { class: "panel", "aria-labelledby": "join-title" }, el("h2", { id: "join-title" }, t("Join a room")), joinForm));
}

// The lobby's subtitle: how many boxes the server plays (their titles are in the form's list).
function editionsLine(opts) {
  const n = Object.keys(opts.editions || {}).length;
  return tn("The exact rules of your box ({n} box to choose from). No account, no download.",
    "The exact rules of your box ({n} boxes to choose from). No account, no download.", n);
}

async function listOpenRooms(box, opts) {
  let rooms;
  try {
    rooms = await api("GET", "/api/rooms?open=1");
  } catch (err) {
    box.hidden = true;
    return;
  }
  const list = Array.isArray(rooms) ? rooms : rooms.rooms || [];
  const title = box.querySelector("h2");
  if (!list.length) {
    box.replaceChildren(title, el("p", { class: "muted", id: "no-open-rooms" }, t("No open rooms right now: make one, or play now.")));
    return;
  }
  box.replaceChildren(title, el("ul", { class: "room-list", id: "room-list" }, list.map((r) => {
    const join = el("button", { type: "button", class: "secondary", dataset: { join: r.code } }, t("Join"));
    join.addEventListener("click", async () => {
      const err = $("play-error");
      const name = nameOrAsk(err);
      if (!name) return;
      try {
        const j = await api("POST", `/api/rooms/${r.code}/join`, await joinBody(name));
        localStorage.setItem(tokenKey(j.code), j.token);
        history.pushState({}, "", `/r/${j.code}`);
        enterTable(j.code, j.token);
      } catch (e) {
        err.textContent = errorText(e);
      }
    });
    const edition = r.title || (opts.editions || {})[r.edition] || r.edition;
    return el("li", {}, el("span", { class: "room-info" },
      el("b", {}, r.host ? t("{host}'s room", { host: r.host }) : t("Room {code}", { code: r.code })), " ",
      t("{edition}, {players} players", { edition: t(edition), players: r.players }), " · ",
      tn("{n} free seat", "{n} free seats", Number(r.free_seats) || 0)), join);
  })));
}

function createForm(opts) {
  const seatsBox = el("div", { class: "seats-field", id: "seat-choices" });
  const edition = el("select", { name: "edition", id: "edition", "aria-describedby": "edition-note" },
    Object.entries(opts.editions).map(([k, v]) => el("option", { value: k }, t(v))));
  // What sets the box chosen apart (its deck, its own cards): ruletext's notes, in the page's language.
  const editionNote = el("p", { class: "muted edition-note", id: "edition-note" });
  const showNote = () => {
    editionNote.textContent = ((opts.edition_notes || {})[edition.value] || []).map((n) => t(n)).join(" ");
  };
  edition.addEventListener("change", showNote);
  showNote();
  const mode = el("select", { name: "mode", id: "mode" }, opts.modes.map((k) => el("option", { value: k }, modeWords(k))));
  const players = el("input", { type: "number", id: "players", min: opts.players[0], max: opts.players[1], value: 4 });
  const target = el("input", { type: "number", id: "target", min: opts.target[0], max: opts.target[1], value: 500 });
  // Elimination is played until one player is left, not to a target (docs/rules.md §10, H-38).
  mode.addEventListener("change", () => { target.disabled = mode.value === "elimination"; });
  const rounds = el("input", { type: "number", id: "rounds", min: opts.rounds[0], max: opts.rounds[1], value: 1 });
  const turn = el("input", { type: "number", id: "turn-seconds", min: 0, max: opts.turn_seconds[1], value: 0 });
  const delay = el("input", { type: "number", id: "bot-delay", min: 0, max: opts.bot_delay[1], step: 0.1, value: opts.bot_delay[2] });
  const mustPlay = el("input", { type: "checkbox", id: "must-play-drawn" });
  const lenient = el("input", { type: "checkbox", id: "lenient-plays" });
  const lowest = el("input", { type: "checkbox", id: "scoring-lowest" });
  const listed = el("input", { type: "checkbox", id: "listed" });
  const chat = el("input", { type: "checkbox", id: "chat" });
  const penalty = el("input", { type: "checkbox", id: "suggestion-penalty" });
  const spectators = el("input", { type: "checkbox", id: "spectator-reactions" });
  const roomBounds = opts.room || {};
  const graceRange = roomBounds.grace_seconds || [0, 600, 20];
  const grace = el("input", { type: "number", id: "grace-seconds", min: graceRange[0], max: graceRange[1], value: graceRange[2] });
  // Time to answer (docs/web.md): Harry Potter's answer window (or off: the room waits for the
  // answer) and the seconds of each person's "More time", once a hand.
  const answerRange = roomBounds.auto_accept_seconds || [0, 120, 3];
  const answer = el("input", { type: "number", id: "answer-seconds", min: answerRange[0], max: answerRange[1], step: 0.5,
    value: answerRange[2] });
  const answerOff = el("input", { type: "checkbox", id: "answer-off" });
  answerOff.addEventListener("change", () => { answer.disabled = answerOff.checked; });
  const moreRange = roomBounds.more_time_seconds || null;
  const moreTime = moreRange ? el("input", { type: "number", id: "more-time-seconds", min: moreRange[0], max: moreRange[1],
    value: moreRange[2] }) : null;
  const house = el("select", { name: "house", id: "house" },
    (opts.house || ["official"]).map((k) => el("option", { value: k },
      opts.house_preset_labels && opts.house_preset_labels[k] ? t(opts.house_preset_labels[k]) : presetWords(k))),
    el("option", { value: "custom" }, t("Custom (below)")));
  const records = houseRuleRecords(opts);
  const controls = records.map(houseControl);
  const presets = opts.house_presets || {};
  const houseRules = () => Object.fromEntries(records.map((r, i) => [r.name, controls[i].read()]));
  const samePreset = (a, b) => Object.keys(b).every((k) => (a[k] || false) === (b[k] || false));
  // A rule that needs another (deflection needs stacking) is off and greyed while that one is.
  const enforceNeeds = () => {
    const now = houseRules();
    records.forEach((r, i) => {
      if (!Array.isArray(r.needs) || !r.needs.length) return;
      const missing = r.needs.some((name) => {
        const needed = records.find((x) => x.name === name);
        return needed && now[name] === needed.default;
      });
      controls[i].input.disabled = missing;
      if (missing) controls[i].write(r.default);
    });
  };
  house.addEventListener("change", () => {
    const rules = presets[house.value];
    if (!rules) return;
    records.forEach((r, i) => controls[i].write(rules[r.name] === undefined ? r.default : rules[r.name]));
    enforceNeeds();
  });
  const showPreset = () => {
    enforceNeeds();
    const rules = houseRules();
    house.value = Object.keys(presets).find((k) => samePreset(presets[k], rules) && samePreset(rules, presets[k])) || "custom";
  };
  controls.forEach((c) => c.input.addEventListener("change", showPreset));
  enforceNeeds();
  const error = el("div", { class: "error", id: "create-error", role: "alert" });

  const seatCount = () => opts.game_players[mode.value] || Number(players.value) || 4;
  function drawSeats() {
    const n = Math.max(2, Math.min(seatCount(), 10));
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const levels = opts.bot_levels || [];
    const byLevel = new Set(levels.map((lv) => lv.bot));
    const bots = [...opts.bots, "search:budget=100", "search:budget=1000", "greedy:forget_uno=0"].filter((b) => !byLevel.has(b));
    seatsBox.replaceChildren(el("div", { class: "label" }, t("Seats")), el("div", { class: "seat-grid" },
      Array.from({ length: n }, (_, i) => el("label", { class: "seat-choice" },
        el("span", {}, t("Seat {number}", { number: i + 1 })),
        el("select", { dataset: { seat: String(i) } }, el("option", { value: "human" }, t("A person")),
          levels.length ? el("optgroup", { label: t("Bots by strength") },
            levels.map((lv) => el("option", { value: lv.bot, title: levelWords(lv), dataset: { level: lv.level } },
              t("{level} bot", { level: levelTitle(lv.level) })))) : null,
          el("optgroup", { label: t("Other bots") }, bots.map((b) => el("option", { value: b }, botWords(b)))))))),
      // The strengths' measured words once, under the seats: a closed select shows only its
      // short label.
      levels.length ? el("ul", { class: "level-notes", id: "level-notes" },
        levels.map((lv) => el("li", { dataset: { level: lv.level } }, levelWords(lv)))) : null);
    seatsBox.querySelectorAll("select").forEach((s, i) => { s.value = old[i] || (i < 2 ? "human" : "greedy"); });
  }
  players.addEventListener("input", drawSeats);
  mode.addEventListener("change", drawSeats);
  drawSeats();

  const field = (label, input) => el("div", { class: "field" }, el("label", { for: input.id }, label), input);
  const check = (input, label) => el("div", { class: "field check" }, input, el("label", { for: input.id }, label));
  const more = el("details", { class: "more", id: "more-rules" }, el("summary", {}, t("More rules")),
    el("div", { class: "form-grid" },
      field(t("Game"), mode), field(t("Rounds of the schedule"), rounds),
      field(t("Turn timer in seconds (0: none)"), turn), field(t("Bots think for (seconds)"), delay)),
    check(mustPlay, t("A playable drawn card must be played")),
    check(lenient, t("Wrong cards stand unless someone points them out")),
    check(lowest, t("Lowest score wins (each player is charged their cards)")),
    el("fieldset", { class: "house" }, el("legend", {}, t("House rules")), field(t("Preset"), house), controls.map((c) => c.node)),
    el("fieldset", { class: "room-options" }, el("legend", {}, t("The room")),
      field(t("A bot plays for someone away this many seconds"), grace),
      field(t("Harry Potter: seconds to answer a card played on you"), answer),
      check(answerOff, t("Wait for every answer (no time limit on answering)")),
      moreTime ? field(t("More time: seconds a player may add to their timer, once a hand (0: none)"), moreTime) : null,
      check(listed, t("List this room so anyone can join it")),
      check(chat, t("Allow a short chat")),
      check(spectators, t("Spectators may react")),
      check(penalty, t("Suggestion penalty: players may ask for it against a seat that suggests plays"))));
  const form = el("form", { class: "create", id: "create-form" },
    el("div", { class: "form-grid" },
      field(t("Edition"), edition), field(t("Players at the table"), players), field(t("Points to win"), target)),
    editionNote, seatsBox, more, error,
    el("button", { type: "submit", id: "create", class: "big" }, t("Make the room")));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {
      edition: edition.value, mode: mode.value, players: Number(players.value),
      target: mode.value === "elimination" ? 500 : Number(target.value),
      options: { must_play_drawn: mustPlay.checked, lenient_plays: lenient.checked,
        scoring: lowest.checked ? "lowest" : "standard" },
      seats: [...seatsBox.querySelectorAll("select")].map((s) => s.value),
      turn_seconds: Number(turn.value), bot_delay: Number(delay.value),
    };
    const rules = houseRules();
    if (Object.values(rules).some(Boolean)) body.house = rules;
    if (Number(rounds.value) !== 1) body.rounds = Number(rounds.value);
    if (opts.room) {  // a server with the room's own options (docs/web.md)
      body.room = { listed: listed.checked, chat: chat.checked, spectator_reactions: spectators.checked,
        suggestion_penalty: penalty.checked, grace_seconds: Number(grace.value),
        auto_accept_seconds: answerOff.checked ? null : Number(answer.value) };
      if (moreTime) body.room.more_time_seconds = Number(moreTime.value);
    }
    try {
      const room = await api("POST", "/api/rooms", body);
      history.pushState({}, "", room.url);
      route();
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  return form;
}

export async function joinPage(code) {
  show("join");
  let info;
  try {
    info = await api("GET", `/api/rooms/${code}`);
  } catch (err) {
    $("join").replaceChildren(el("p", { class: "error" }, errorText(err)));
    return;
  }
  game.code = info.code;
  const error = el("div", { class: "error", id: "join-error", role: "alert" });
  const take = async (player) => {
    const name = nameOrAsk(error);
    if (!name) return;
    try {
      const r = await api("POST", `/api/rooms/${code}/join`, await joinBody(name, player));
      localStorage.setItem(tokenKey(r.code), r.token);
      enterTable(r.code, r.token);
    } catch (err) {
      error.textContent = errorText(err);
    }
  };
  const seats = el("ul", { class: "seat-list" }, info.players.map((p) => el("li", {},
    avatarNode(avatarOf(info, p.player), "small"),
    el("span", { class: "seat-name" }, p.free ? t("Seat {number}: free", { number: p.player + 1 })
      : p.absent ? t("Seat {number}: {name} (away)", { number: p.player + 1, name: playerName(info, p.player) })
        : playerName(info, p.player)),
    p.free ? el("button", { type: "button", class: "secondary",
      dataset: { player: String(p.player) }, onclick: () => take(p.player) }, t("Take this seat")) : null,
    p.absent ? el("button", { type: "button", class: "secondary",
      dataset: { askBack: String(p.player) }, onclick: () => askBack(p.player) }, t("Ask for my seat back")) : null)));
  const anyFree = info.players.some((p) => p.free);
  // A seat whose person's connection is gone (P-581): its person asks the host for it back and
  // watches meanwhile; the host's one tap gives it (a new token here, the old one revoked).
  const askBack = (player) => {
    const name = nameOrAsk(error);
    if (!name) return;
    game.pendingAsk = { player, name };
    enterTable(info.code, null);
  };
  const anyAway = info.players.some((p) => p.absent);
  const rejoinCode = el("input", { type: "text", id: "rejoin-code", maxlength: 12, autocomplete: "off", placeholder: "ABCD-1234" });
  const rejoinForm = el("form", { id: "rejoin-form", class: "inline" },
    el("label", { for: "rejoin-code" }, t("Your seat's code from another device")), rejoinCode,
    el("button", { type: "submit", class: "secondary" }, t("Take my seat back")));
  rejoinForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const r = await api("POST", `/api/rooms/${code}/rejoin`, { code: rejoinCode.value.trim().toUpperCase() });
      localStorage.setItem(tokenKey(r.code || code), r.token);
      enterTable(r.code || code, r.token);
    } catch (err) {
      error.textContent = errorText(err);
    }
  });
  $("room-badge").hidden = false;
  $("room-badge").textContent = t("Room {code}", { code: info.code });
  $("join").replaceChildren(el("section", { class: "panel" },
    el("h1", {}, t("Room {code}", { code: info.code })), inviteNode(info.code),
    whoAmINode(), seats,
    anyAway ? el("p", { class: "muted", id: "ask-help" },
      t("Your seat is marked away? Your connection to it is gone: ask for it back and the host gives it to you with one tap.")) : null,
    anyFree ? el("button", { type: "button", id: "take-seat", class: "big", onclick: () => take(null) }, t("Take a seat")) : null, " ",
    el("button", { type: "button", class: "secondary", id: "watch", onclick: () => enterTable(info.code, null) }, t("Watch")),
    error),
  el("section", { class: "panel" }, rejoinForm));
}

provide({ levelWords, joinBody });
