// The table's sounds, made here with the Web Audio API (no sound file): a click for a tile laid,
// a softer brush for a draw, two knocks on the table for a pass, a small fanfare when a hand is
// won by going out (a bigger one when a bonus came with it), a tick in the clock's last seconds.
// The browser lets a page make sound only after a gesture: nothing is started before the
// first tap, click or key on the page.  The mute button's choice is remembered.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

const KEY = "bonepile:muted";
/** @type {AudioContext | null} */
let ctx = null;        // the AudioContext, made at the first gesture (never before)
let gestured = false;  // a person tapped, clicked or pressed a key on this page

export function muted() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

/** @param {boolean} on */
function remember(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode: this page only */ }
}

/** The audio context, made (or woken) inside a gesture; null before one or when muted. */
function audio() {
  if (!gestured || muted()) return null;
  if (!ctx) {
    const AC = window.AudioContext || /** @type {{webkitAudioContext?: typeof AudioContext}} */ (window).webkitAudioContext;
    if (!AC) return null;
    try { ctx = new AC(); } catch { return null; }
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function onGesture() {
  gestured = true;
  audio();
}
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, onGesture, { capture: true });

/** A tone: an oscillator from f0 to f1 Hz under an envelope that rises fast and dies away.
 * @param {AudioContext} a
 * @param {{at?: number, f0: number, f1?: number, dur: number, type?: OscillatorType, gain?: number}} opts */
function tone(a, { at = 0, f0, f1 = f0, dur, type = "sine", gain = 0.2 }) {
  const t0 = a.currentTime + at;
  const osc = a.createOscillator();
  const env = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, t0);
  if (f1 !== f0) osc.frequency.exponentialRampToValueAtTime(f1, t0 + dur);
  env.gain.setValueAtTime(0.0001, t0);
  env.gain.exponentialRampToValueAtTime(gain, t0 + Math.min(0.008, dur / 4));
  env.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(env).connect(a.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/** A burst of filtered noise: the sound of a tile touching the table or sliding over it.
 * @param {AudioContext} a
 * @param {{at?: number, dur: number, freq: number, q?: number, gain?: number, filter?: BiquadFilterType}} opts */
function noise(a, { at = 0, dur, freq, q = 1, gain = 0.3, filter = "bandpass" }) {
  const t0 = a.currentTime + at;
  const len = Math.max(1, Math.floor(a.sampleRate * dur));
  const buf = a.createBuffer(1, len, a.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / len) ** 2;
  const src = a.createBufferSource();
  src.buffer = buf;
  const f = a.createBiquadFilter();
  f.type = filter;
  f.frequency.value = freq;
  f.Q.value = q;
  const env = a.createGain();
  env.gain.value = gain;
  src.connect(f).connect(env).connect(a.destination);
  src.start(t0);
}

/** @type {Record<string, (a: AudioContext) => void>} */
const SOUNDS = {
  // a tile laid: a sharp tap with a short wooden ring
  play: (a) => { noise(a, { dur: 0.045, freq: 2600, q: 2.5, gain: 0.55 });
                 tone(a, { f0: 1250, f1: 700, dur: 0.07, type: "triangle", gain: 0.12 }); },
  // a tile drawn: softer, a brush of the tile over the felt
  draw: (a) => { noise(a, { dur: 0.12, freq: 1400, q: 0.7, gain: 0.18 }); },
  // a pass: two knuckle knocks on the table
  pass: (a) => { for (const at of [0, 0.14]) {
    tone(a, { at, f0: 190, f1: 85, dur: 0.11, gain: 0.45 });
    noise(a, { at, dur: 0.03, freq: 500, q: 1.2, gain: 0.3 });
  } },
  // going out: a rising arpeggio
  domino: (a) => { [523.25, 659.25, 783.99, 1046.5].forEach((f, i) =>
    tone(a, { at: i * 0.09, f0: f, dur: 0.22, type: "triangle", gain: 0.16 })); },
  // going out with a bonus on top: the arpeggio, then a held chord
  bonus: (a) => {
    SOUNDS.domino(a);
    for (const f of [523.25, 659.25, 783.99, 1046.5]) tone(a, { at: 0.4, f0: f, dur: 0.7, type: "triangle", gain: 0.09 });
  },
  // the clock's last seconds
  tick: (a) => { tone(a, { f0: 1500, dur: 0.035, type: "square", gain: 0.05 }); },
};

/** Make a sound by name (play, draw, pass, domino, bonus, tick); silent when muted or before
 * the page had a gesture.  Returns whether a sound was made.
 * @param {string} name */
export function sound(name) {
  const a = audio();
  const make = SOUNDS[name];
  if (!a || !make) return false;
  try { make(a); } catch { return false; }
  return true;
}

const ICON_NS = "http://www.w3.org/2000/svg";
/** A speaker, with waves (sound on) or a cross (muted). */
/** @param {boolean} off */
function icon(off) {
  const s = document.createElementNS(ICON_NS, "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("class", "icon");
  const path = (/** @type {string} */ d) => {
    const p = document.createElementNS(ICON_NS, "path");
    p.setAttribute("d", d);
    s.appendChild(p);
  };
  path("M3 9h4l5-4v14l-5-4H3z");
  if (off) path("M16 9l5 6M21 9l-5 6");
  else path("M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12");
  return s;
}

/** The mute button (in the table's header): pressed when the sounds are off. */
/** @param {Element} parent @param {Node | null} [before] */
export function mountMute(parent, before = null) {
  const b = el("button", { type: "button", id: "mute", class: "icon-btn mute",
    "aria-label": t("feel.mute"), title: t("feel.mute") });
  const show = () => {
    const off = muted();
    b.setAttribute("aria-pressed", off ? "true" : "false");
    b.replaceChildren(icon(off));
  };
  b.addEventListener("click", () => {
    remember(!muted());
    show();
    if (!muted()) sound("play");  // a sample of what you will hear
  });
  show();
  parent.insertBefore(b, before);
  return b;
}
