// The table's sounds, synthesised with the Web Audio API (nothing is downloaded).
//
//   Sound.play(name)      name: "play", "draw", "uno", "turn", "catch", "tick"
//   Sound.muted()         whether sound is off (remembered in localStorage["muted"])
//   Sound.setMuted(bool)
//
// The audio context is made on the first sound after a user gesture (browsers refuse sound
// before one); until then, and where Web Audio is missing, play() does nothing.

const KEY = "muted";
let context = null;
let unlocked = false;

function storedMuted() {
  try {
    return window.localStorage.getItem(KEY) === "1";
  } catch (_) {
    return false;
  }
}

let isMuted = storedMuted();

function audio() {
  if (context) return context;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !unlocked) return null;
  try {
    context = new Ctx();
  } catch (_) {
    context = null;
  }
  return context;
}

// A short tone: frequency from f0 to f1 over `length` seconds, starting `at` seconds from now.
function tone(ctx, { f0, f1 = f0, at = 0, length = 0.12, type = "sine", gain = 0.18 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, start);
  osc.frequency.exponentialRampToValueAtTime(Math.max(f1, 1), start + length);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.012);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

// A burst of filtered noise: a card sliding on the felt.
function swish(ctx, { at = 0, length = 0.14, from = 2400, to = 700, gain = 0.22 }) {
  const start = ctx.currentTime + at;
  const frames = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames);
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = 0.9;
  filter.frequency.setValueAtTime(from, start);
  filter.frequency.exponentialRampToValueAtTime(to, start + length);
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(start);
}

const SOUNDS = {
  play(ctx) {
    swish(ctx, { length: 0.12, from: 3000, to: 900 });
    tone(ctx, { f0: 180, f1: 120, at: 0.09, length: 0.06, type: "triangle", gain: 0.2 });
  },
  draw(ctx) {
    swish(ctx, { length: 0.18, from: 900, to: 2600, gain: 0.16 });
  },
  uno(ctx) {
    tone(ctx, { f0: 523, at: 0, length: 0.14, type: "square", gain: 0.09 });
    tone(ctx, { f0: 784, at: 0.12, length: 0.22, type: "square", gain: 0.09 });
    tone(ctx, { f0: 1047, at: 0.12, length: 0.26, type: "sine", gain: 0.12 });
  },
  turn(ctx) {
    tone(ctx, { f0: 880, at: 0, length: 0.25, gain: 0.12 });
    tone(ctx, { f0: 1320, at: 0.08, length: 0.3, gain: 0.07 });
  },
  catch(ctx) {
    tone(ctx, { f0: 440, f1: 220, at: 0, length: 0.3, type: "sawtooth", gain: 0.08 });
    tone(ctx, { f0: 330, f1: 160, at: 0.15, length: 0.3, type: "sawtooth", gain: 0.08 });
  },
  tick(ctx) {
    tone(ctx, { f0: 1600, at: 0, length: 0.05, type: "square", gain: 0.05 });
  },
};

function play(name) {
  if (isMuted || !SOUNDS[name]) return;
  const ctx = audio();
  if (!ctx) return;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  try {
    SOUNDS[name](ctx);
  } catch (_) {
    // A sound is never worth an error on the page.
  }
}

function setMuted(value) {
  isMuted = Boolean(value);
  try {
    window.localStorage.setItem(KEY, isMuted ? "1" : "0");
  } catch (_) {
    // Private windows may refuse storage: the choice then lasts for this page only.
  }
}

function unlock() {
  unlocked = true;
}
for (const type of ["pointerdown", "keydown", "touchstart"]) {
  window.addEventListener(type, unlock, { once: true, capture: true, passive: true });
}

export const Sound = Object.freeze({ play, muted: () => isMuted, setMuted, names: Object.freeze(Object.keys(SOUNDS)) });
