// The table's sounds, synthesised with the Web Audio API (nothing is downloaded, no sample).
//
//   Sound.play(name)      one of Sound.names: the table's ("play", "draw", "uno", "turn",
//                         "catch", "tick") and one per action card (cardSound below)
//   Sound.muted()         whether sound is off (remembered in localStorage["muted"])
//   Sound.setMuted(bool)
//   Sound.volume()        0 to 1 (remembered in localStorage["volume"]; 0.8 at first)
//   Sound.setVolume(v)
//   Sound.live()          whether the audio context exists (made after a gesture only)
//   Sound.render(name)    the sound drawn into an OfflineAudioContext: its samples (tests)
//   cardSound(code)       the sound of a played card: its action's, or null for a number
//
// "uno" is a voice calling "UNO!": a glottal buzz (a sawtooth with a rising then falling pitch
// and a little vibrato) through three formant filters that glide from the vowel [u] through the
// nasal [n] to [o], as a speech synthesiser of the 1970s does it (formant synthesis).
//
// The audio context is made on the first sound after a user gesture (browsers refuse sound
// before one); until then, and where Web Audio is missing, play() does nothing.

const KEY = "muted";
const VOLUME_KEY = "volume";
let context = null;
let master = null;
let unlocked = false;

function stored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (_) {
    return null;
  }
}

function store(key, value) {
  try {
    window.localStorage.setItem(key, value);
  } catch (_) {
    // Private windows may refuse storage: the choice then lasts for this page only.
  }
}

let isMuted = stored(KEY) === "1";
let level = (() => {
  const v = Number(stored(VOLUME_KEY));
  return stored(VOLUME_KEY) !== null && Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0.8;
})();

function audio() {
  if (context) return context;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !unlocked) return null;
  try {
    context = new Ctx();
    master = context.createGain();
    master.gain.value = level;
    master.connect(context.destination);
  } catch (_) {
    context = null;
  }
  return context;
}

// A short tone: frequency from f0 to f1 over `length` seconds, starting `at` seconds from now.
function tone(ctx, out, { f0, f1 = f0, at = 0, length = 0.12, type = "sine", gain = 0.18 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, start);
  osc.frequency.exponentialRampToValueAtTime(Math.max(f1, 1), start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(out);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// A burst of filtered noise: a card sliding on the felt, a shuffle, a whoosh.
function swish(ctx, out, { at = 0, length = 0.14, from = 2400, to = 700, gain = 0.22, q = 0.9 }) {
  const start = ctx.currentTime + at;
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, start);
  filter.frequency.exponentialRampToValueAtTime(to, start + length);
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  source.connect(filter).connect(amp).connect(out);
  source.start(start);
}

// Notes in a row: [frequency, length] each, `step` seconds apart.
function notes(ctx, out, list, { step = 0.09, type = "triangle", gain = 0.12, at = 0 } = {}) {
  list.forEach(([f, length], i) => tone(ctx, out, { f0: f, at: at + i * step, length: length || 0.12, type, gain }));
}

// The formants of each sound of "UNO" (Hz; F1, F2, F3, with the bandwidth of each), and when the
// voice reaches it (seconds from the start).
const VOICE = [
  { at: 0.0, f: [330, 870, 2240], amp: 0.0 },
  { at: 0.04, f: [320, 850, 2240], amp: 1.0 }, // [u]
  { at: 0.15, f: [300, 900, 2200], amp: 0.95 },
  { at: 0.2, f: [260, 1500, 2500], amp: 0.3 }, // [n]: a nasal murmur, quieter
  { at: 0.25, f: [270, 1400, 2450], amp: 0.35 },
  { at: 0.3, f: [480, 880, 2500], amp: 1.0 }, // [o]
  { at: 0.46, f: [450, 820, 2450], amp: 0.9 },
  { at: 0.58, f: [380, 780, 2400], amp: 0.0 }, // ... fading to [ʊ]
];
const VOICE_Q = [4, 6, 9];
const VOICE_GAIN = [1.0, 0.7, 0.5];

function voice(ctx, out, { at = 0, pitch = 1, gain = 0.3 } = {}) {
  const start = ctx.currentTime + at;
  const end = start + VOICE[VOICE.length - 1].at;
  // The glottis: a sawtooth, its pitch rising on "U" and falling on "NO!" (a call, not a word read).
  const glottis = ctx.createOscillator();
  glottis.type = "sawtooth";
  glottis.frequency.setValueAtTime(170 * pitch, start);
  glottis.frequency.linearRampToValueAtTime(230 * pitch, start + 0.16);
  glottis.frequency.linearRampToValueAtTime(250 * pitch, start + 0.3);
  glottis.frequency.linearRampToValueAtTime(160 * pitch, end);
  const vibrato = ctx.createOscillator();
  const depth = ctx.createGain();
  vibrato.frequency.value = 5.5;
  depth.gain.value = 4 * pitch;
  vibrato.connect(depth).connect(glottis.frequency);
  // The glottal pulse's spectrum falls with frequency: a low-pass takes the sawtooth's buzz off.
  const tilt = ctx.createBiquadFilter();
  tilt.type = "lowpass";
  tilt.frequency.value = 900;
  tilt.Q.value = 0.5;
  glottis.connect(tilt);
  // The mouth: three resonances in parallel (two band-pass filters in a row each, for a sharper
  // peak), gliding from formant to formant.
  const envelope = ctx.createGain();
  envelope.gain.setValueAtTime(0.0001, start);
  for (const point of VOICE) envelope.gain.linearRampToValueAtTime(Math.max(point.amp * gain, 0.0001), start + point.at);
  envelope.connect(out);
  VOICE_Q.forEach((q, i) => {
    let node = tilt;
    for (let k = 0; k < 2; k += 1) {
      const band = ctx.createBiquadFilter();
      band.type = "bandpass";
      band.Q.value = q;
      band.frequency.setValueAtTime(VOICE[0].f[i], start);
      for (const point of VOICE) band.frequency.linearRampToValueAtTime(point.f[i], start + point.at);
      node = node.connect(band);
    }
    const weight = ctx.createGain();
    weight.gain.value = VOICE_GAIN[i] * 6;
    node.connect(weight).connect(envelope);
  });
  // A breath at the start of the call.
  swish(ctx, out, { at, length: 0.06, from: 1800, to: 1200, gain: 0.05 * gain, q: 1.5 });
  glottis.start(start);
  vibrato.start(start);
  glottis.stop(end + 0.02);
  vibrato.stop(end + 0.02);
}

const SOUNDS = {
  play(ctx, out) {
    swish(ctx, out, { length: 0.12, from: 3000, to: 900 });
    tone(ctx, out, { f0: 180, f1: 120, at: 0.09, length: 0.06, type: "triangle", gain: 0.2 });
  },
  draw(ctx, out) {
    swish(ctx, out, { length: 0.18, from: 900, to: 2600, gain: 0.16 });
  },
  uno(ctx, out) {
    voice(ctx, out, {});
  },
  turn(ctx, out) {
    tone(ctx, out, { f0: 880, at: 0, length: 0.25, gain: 0.12 });
    tone(ctx, out, { f0: 1320, at: 0.08, length: 0.3, gain: 0.07 });
  },
  catch(ctx, out) {
    tone(ctx, out, { f0: 440, f1: 220, at: 0, length: 0.3, type: "sawtooth", gain: 0.08 });
    tone(ctx, out, { f0: 330, f1: 160, at: 0.15, length: 0.3, type: "sawtooth", gain: 0.08 });
  },
  tick(ctx, out) {
    tone(ctx, out, { f0: 1600, at: 0, length: 0.05, type: "square", gain: 0.05 });
  },
  // ---- the action cards: each short (under half a second) and its own.
  skip(ctx, out) { // a door shut: a low thud and a falling blip
    tone(ctx, out, { f0: 140, f1: 70, length: 0.12, type: "sine", gain: 0.3 });
    tone(ctx, out, { f0: 660, f1: 330, at: 0.05, length: 0.12, type: "square", gain: 0.05 });
  },
  skip2(ctx, out) { // two doors
    SOUNDS.skip(ctx, out);
    tone(ctx, out, { f0: 140, f1: 70, at: 0.16, length: 0.12, type: "sine", gain: 0.3 });
    tone(ctx, out, { f0: 660, f1: 330, at: 0.21, length: 0.12, type: "square", gain: 0.05 });
  },
  reverse(ctx, out) { // up then down: the table turns round
    tone(ctx, out, { f0: 400, f1: 800, length: 0.14, type: "triangle", gain: 0.14 });
    tone(ctx, out, { f0: 800, f1: 400, at: 0.14, length: 0.14, type: "triangle", gain: 0.14 });
  },
  flip(ctx, out) { // UNO Flip: everything turned over, a sweep up and back, then the cards land
    swish(ctx, out, { length: 0.12, from: 900, to: 3200, gain: 0.18 });
    swish(ctx, out, { at: 0.12, length: 0.12, from: 3200, to: 900, gain: 0.18 });
    tone(ctx, out, { f0: 180, f1: 120, at: 0.24, length: 0.09, type: "sine", gain: 0.25 });
  },
  draw2(ctx, out) { // two cards dealt at someone
    swish(ctx, out, { length: 0.07, from: 2600, to: 1400, gain: 0.2 });
    swish(ctx, out, { at: 0.1, length: 0.07, from: 2600, to: 1400, gain: 0.2 });
    tone(ctx, out, { f0: 300, f1: 200, at: 0.17, length: 0.1, type: "square", gain: 0.06 });
  },
  draw3(ctx, out) {
    SOUNDS.draw2(ctx, out);
    swish(ctx, out, { at: 0.2, length: 0.07, from: 2600, to: 1400, gain: 0.2 });
  },
  wild(ctx, out) { // a rising arpeggio through four notes: any colour
    notes(ctx, out, [[523], [659], [784], [1047, 0.2]], { step: 0.07, type: "sine", gain: 0.1 });
  },
  wild4(ctx, out) { // the wild's notes, then a heavy fall
    notes(ctx, out, [[523], [659], [784]], { step: 0.06, type: "sine", gain: 0.1 });
    tone(ctx, out, { f0: 220, f1: 55, at: 0.2, length: 0.28, type: "sawtooth", gain: 0.12 });
  },
  howler(ctx, out) { // Harry Potter's shouting letter: a wailing square wave
    tone(ctx, out, { f0: 300, f1: 900, length: 0.18, type: "square", gain: 0.07 });
    tone(ctx, out, { f0: 900, f1: 250, at: 0.18, length: 0.22, type: "square", gain: 0.07 });
  },
  invisibility(ctx, out) { // the cloak: a shimmer that fades away
    notes(ctx, out, [[1568, 0.3], [1976, 0.3], [2349, 0.3]], { step: 0.04, type: "sine", gain: 0.05 });
    swish(ctx, out, { length: 0.35, from: 6000, to: 3000, gain: 0.06, q: 3 });
  },
  mater(ctx, out) { // Cars 2's tow truck: two honks of a horn
    tone(ctx, out, { f0: 350, length: 0.12, type: "sawtooth", gain: 0.08 });
    tone(ctx, out, { f0: 440, length: 0.12, type: "sawtooth", gain: 0.05 });
    tone(ctx, out, { f0: 350, at: 0.18, length: 0.18, type: "sawtooth", gain: 0.08 });
    tone(ctx, out, { f0: 440, at: 0.18, length: 0.18, type: "sawtooth", gain: 0.05 });
  },
  shuffle(ctx, out) { // every hand riffled: a run of short swishes
    for (let i = 0; i < 6; i += 1) swish(ctx, out, { at: i * 0.05, length: 0.05, from: 3500, to: 2000, gain: 0.15 });
  },
  custom(ctx, out) { // a card the table wrote itself: a pen's scratch and a chime
    swish(ctx, out, { length: 0.15, from: 4500, to: 5500, gain: 0.08, q: 4 });
    tone(ctx, out, { f0: 988, at: 0.14, length: 0.22, type: "sine", gain: 0.1 });
  },
  targeted(ctx, out) { // All Wild's Targeted Draw Two: a dart's whoosh and its hit
    swish(ctx, out, { length: 0.16, from: 800, to: 4000, gain: 0.12, q: 2 });
    tone(ctx, out, { f0: 200, f1: 90, at: 0.16, length: 0.1, type: "sine", gain: 0.3 });
  },
  swap(ctx, out) { // All Wild's Forced Swap: two hands crossing
    swish(ctx, out, { length: 0.18, from: 900, to: 3000, gain: 0.12 });
    swish(ctx, out, { at: 0.06, length: 0.18, from: 3000, to: 900, gain: 0.12 });
  },
};

// The sound of each action card by its notation code (docs/notation.md), a coloured one by its
// value; a number card makes only the card's sound ("play").
const WILD_SOUNDS = {
  W: "wild", "W+4": "wild4", HOWLER: "howler", INVIS: "invisibility", MATER: "mater", SHUFFLE: "shuffle",
  CUSTOM: "custom", AW: "wild", AWREV: "reverse", AWSKIP: "skip", AWSKIP2: "skip2", "AW+2": "draw2", "AW+4": "wild4",
  "AWT+2": "targeted", AWSWAP: "swap", LW: "wild", "LW+2": "wild4", DW: "wild", "DW+C": "wild4",
};
// UNO Flip's Draw One sounds as one card dealt, its Draw Five as the Draw Three, Skip Everyone as
// Skip Two (No Mercy's too), and its Flip has a sound of its own.
const VALUE_SOUNDS = { S: "skip", R: "reverse", "+2": "draw2", "+3": "draw3", "+1": "draw", "+5": "draw3", SE: "skip2",
  F: "flip" };

export function cardSound(code) {
  if (!code) return null;
  if (WILD_SOUNDS[code]) return WILD_SOUNDS[code];
  return VALUE_SOUNDS[String(code).slice(1)] || null;
}

function play(name) {
  if (isMuted || level === 0 || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  try {
    SOUNDS[name](ctx, master);
  } catch (_) {
    // A sound is never worth an error on the page.
  }
}

// The sound drawn offline (no speaker, no gesture needed): its samples, for the tests.
async function render(name, seconds = 0.8) {
  const Offline = window.OfflineAudioContext || window.webkitOfflineAudioContext;
  if (!Offline || !SOUNDS[name]) return null;
  const ctx = new Offline(1, Math.ceil(44100 * seconds), 44100);
  SOUNDS[name](ctx, ctx.destination);
  const buffer = await ctx.startRendering();
  return buffer.getChannelData(0);
}

function setMuted(value) {
  isMuted = Boolean(value);
  store(KEY, isMuted ? "1" : "0");
}

function setVolume(value) {
  const v = Number(value);
  level = Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : level;
  store(VOLUME_KEY, String(level));
  if (master) master.gain.value = level;
}

function unlock() {
  unlocked = true;
}
for (const type of ["pointerdown", "keydown", "touchstart"]) {
  window.addEventListener(type, unlock, { once: true, capture: true, passive: true });
}

export const Sound = Object.freeze({
  play, render, live: () => context !== null, muted: () => isMuted, setMuted, volume: () => level, setVolume, cardSound,
  names: Object.freeze(Object.keys(SOUNDS)),
});
