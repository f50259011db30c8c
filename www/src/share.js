// The share URL: the policy (and the compare policy), the sample, seed, quantum and host counts
// as deflated JSON in base64url in the hash (`#s2=...`; `#s=` links of format 1, plain base64url
// JSON, still open), and the edited policy in localStorage. Compression is the browser's own
// CompressionStream ('deflate-raw'), so a long policy still makes a link a chat window accepts.
export const STORAGE_KEY = 'policy-playground.v1';

const bytesToBase64url = (bytes) => {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const base64urlToBytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const utf8 = (bytes) => new TextDecoder('utf-8', { fatal: true }).decode(bytes);

async function through(bytes, transform) {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
const deflate = (text) => through(new TextEncoder().encode(text), new CompressionStream('deflate-raw'));
const inflate = async (bytes) => utf8(await through(bytes, new DecompressionStream('deflate-raw')));

/** The hash for a shareable state (only embedded samples can be shared). */
export async function encodeShare({ sample, policy, policyB, options }) {
  const o = { v: 2, sample, policy, seed: options.seed, quantumMs: options.quantumMs };
  if (Object.keys(options.hostCounts).length) o.hostCounts = options.hostCounts;
  if (policyB != null) o.policyB = policyB;
  if (options.semantics === 'current') o.semantics = 'current';
  return `#s2=${bytesToBase64url(await deflate(JSON.stringify(o)))}`;
}

/** Reads a hash: null when there is none, {error} when it does not decode, else the state. */
export async function decodeShare(hash, samples) {
  if (!hash || hash === '#') return null;
  const m = /^#s(2?)=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return { error: 'the link does not hold a playground state (expected #s2=…)' };
  const version = m[1] ? 2 : 1;
  let o;
  try {
    const bytes = base64urlToBytes(m[2]);
    o = JSON.parse(version === 2 ? await inflate(bytes) : utf8(bytes));
  } catch {
    return { error: 'the link is damaged: its state does not decode' };
  }
  const isInt = (v) => Number.isSafeInteger(v) && v >= 0;
  if (!o || o.v !== version || typeof o.policy !== 'string' || !samples[o.sample] || !isInt(o.seed) || !isInt(o.quantumMs)
    || (o.policyB != null && typeof o.policyB !== 'string')
    || (o.semantics != null && o.semantics !== 'current')
    || (o.hostCounts != null && (typeof o.hostCounts !== 'object' || !Object.values(o.hostCounts).every(isInt)))) {
    return { error: 'the link is damaged: its state is incomplete or from another version' };
  }
  return { sample: o.sample, policy: o.policy, policyB: o.policyB ?? null, options: { seed: o.seed, quantumMs: o.quantumMs, hostCounts: o.hostCounts || {}, semantics: o.semantics || 'classic' } };
}

export function saveLocal(data) {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(data)); } catch { /* storage full or disabled */ }
}

export function loadLocal() {
  try { return JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null'); } catch { return null; }
}
