// The share URL: the policy (and the compare policy), the sample, seed, quantum, host counts and
// carbon what-ifs, the lesson open (its whole text) and the visible time range, as deflated JSON in base64url in
// the hash (`#s2=...`; `#s=` links of format 1, plain base64url JSON, still open); a lesson link
// (`#l1=...`) holds a lesson file alone. The edited policy is kept in localStorage. Compression
// is the browser's own CompressionStream ('deflate-raw'), so a long policy still makes a link a
// chat window accepts.
//
// A link is untrusted input: deflate expands up to about a thousandfold and a URL holds about
// 2 MB, so a crafted link could ask the tab for gigabytes. A link is inflated a kilobyte of input
// at a time and refused as soon as its output passes the bound (the wasm's lessonLimits), and
// the page keeps the current work.
import { WHAT_IF_KEYS } from './state.js';

export const STORAGE_KEY = 'policy-playground.v1';

/** Compressed bytes fed to the inflater at a time: at most ~1 MB of output each (deflate's
 * ~1032:1 ceiling), so the output is checked at least every megabyte. */
const INFLATE_STEP = 1024;

const bytesToBase64url = (bytes) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const base64urlToBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const utf8 = (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);
const mib = (n) => `${Math.round(n / 2 ** 20)} MiB`;

async function through(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
const deflate = (text) => through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));

/** Thrown when a link inflates past its bound. */
class TooLarge extends Error {}

/** Inflates `bytes` (deflate-raw), stopping as soon as the output passes `max` bytes. */
export async function inflateBounded(bytes, max) {
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const chunks = [];
  let total = 0, over = false;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.length;
      if (total > max) { over = true; await reader.cancel(); return; }
      chunks.push(value);
    }
  })();
  const writing = (async () => {
    for (let i = 0; i < bytes.length && !over; i += INFLATE_STEP) await writer.write(bytes.subarray(i, i + INFLATE_STEP));
    if (!over) await writer.close();
  })();
  // Cancelling the output errors the input side: that rejection is the bound, not damage.
  const [w, r] = await Promise.allSettled([writing, reading]);
  if (over) throw new TooLarge();
  if (w.status === 'rejected') throw w.reason;
  if (r.status === 'rejected') throw r.reason;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** The hash for a shareable state: an embedded sample, or a lesson (which holds its inputs). */
export async function encodeShare({ sample, policy, policyB, options, lesson = null, range = null }) {
  const o = { v: 2, sample, policy, seed: options.seed, quantumMs: options.quantumMs };
  if (Object.keys(options.hostCounts).length) o.hostCounts = options.hostCounts;
  if (policyB != null) o.policyB = policyB;
  if (options.semantics === 'current') o.semantics = 'current';
  for (const k of WHAT_IF_KEYS) if (options[k] != null) o[k] = options[k];
  if (lesson != null) o.lesson = lesson;
  if (range) o.view = range;
  return `#s2=${bytesToBase64url(await deflate(JSON.stringify(o)))}`;
}

/** The hash of a lesson link: the lesson file's text, deflated. */
export async function encodeLesson(text) {
  return `#l1=${bytesToBase64url(await deflate(text))}`;
}

/** Reads a hash: null when there is none, {error} when it does not decode or is too large
 * (past `maxBytes` inflated), {lesson} for a lesson link, else the state. */
export async function decodeShare(hash, samples, maxBytes) {
  if (!hash || hash === '#') return null;
  const m = /^#(s|s2|l1)=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return { error: 'the link does not hold a playground state (expected #s2=… or #l1=…)' };
  const tooLarge = { error: `the link is too large: it holds more than ${mib(maxBytes)} of state`, tooLarge: true };
  // Base64 holds 3 bytes in 4 characters; a plain (format 1) state is its own output.
  if (m[2].length > Math.ceil((maxBytes * 4) / 3)) return tooLarge;
  let text;
  try {
    const bytes = base64urlToBytes(m[2]);
    text = m[1] === 's' ? utf8(bytes) : utf8(await inflateBounded(bytes, maxBytes));
  } catch (e) {
    if (e instanceof TooLarge) return tooLarge;
    return { error: 'the link is damaged: its state does not decode' };
  }
  if (m[1] === 'l1') return { lesson: text };
  let o;
  try { o = JSON.parse(text); } catch { return { error: 'the link is damaged: its state does not decode' }; }
  const version = m[1] === 's2' ? 2 : 1;
  const isInt = (v) => Number.isSafeInteger(v) && v >= 0;
  const lesson = o && typeof o.lesson === 'string' ? o.lesson : null;
  const range = o && Array.isArray(o.view) && o.view.length === 2 && o.view.every(Number.isFinite) && o.view[0] < o.view[1] ? o.view : null;
  if (!o || o.v !== version || typeof o.policy !== 'string' || !(samples[o.sample] || (lesson != null && o.sample == null))
    || !isInt(o.seed) || !isInt(o.quantumMs)
    || (o.policyB != null && typeof o.policyB !== 'string')
    || (o.semantics != null && o.semantics !== 'current')
    || (o.lesson != null && lesson == null) || (o.view != null && !range)
    || (o.hostCounts != null && (typeof o.hostCounts !== 'object' || !Object.values(o.hostCounts).every(isInt)))
    || WHAT_IF_KEYS.some((k) => o[k] != null && !Number.isFinite(o[k]))) {
    return { error: 'the link is damaged: its state is incomplete or from another version' };
  }
  // The what-ifs' ranges are Rust's to check: a run with one out of range fails and says which.
  const options = { seed: o.seed, quantumMs: o.quantumMs, hostCounts: o.hostCounts || {}, semantics: o.semantics || 'classic' };
  for (const k of WHAT_IF_KEYS) if (o[k] != null) options[k] = o[k];
  return { sample: o.sample ?? null, policy: o.policy, policyB: o.policyB ?? null, lesson, range, options };
}

export function saveLocal(data) {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(data)); } catch { /* storage full or disabled */ }
}

export function loadLocal() {
  try { return JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null'); } catch { return null; }
}
