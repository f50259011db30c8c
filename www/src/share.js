// The share URL: the policy (and the compare policy), the sample, seed, quantum and host counts
// as base64url JSON in the hash (`#s=...`), and the edited policy in localStorage.
export const STORAGE_KEY = 'policy-playground.v1';

const toBase64url = (text) => {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
const fromBase64url = (s) => {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
};

/** The hash for a shareable state (only embedded samples can be shared). */
export function encodeShare({ sample, policy, policyB, options }) {
  const o = { v: 1, sample, policy, seed: options.seed, quantumMs: options.quantumMs };
  if (Object.keys(options.hostCounts).length) o.hostCounts = options.hostCounts;
  if (policyB != null) o.policyB = policyB;
  return `#s=${toBase64url(JSON.stringify(o))}`;
}

/** Reads a hash: null when there is none, {error} when it does not decode, else the state. */
export function decodeShare(hash, samples) {
  if (!hash || hash === '#') return null;
  const m = /^#s=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return { error: 'the link does not hold a playground state (expected #s=…)' };
  let o;
  try { o = JSON.parse(fromBase64url(m[1])); } catch {
    return { error: 'the link is damaged: its state does not decode' };
  }
  const isInt = (v) => Number.isSafeInteger(v) && v >= 0;
  if (!o || o.v !== 1 || typeof o.policy !== 'string' || !samples[o.sample] || !isInt(o.seed) || !isInt(o.quantumMs)
    || (o.policyB != null && typeof o.policyB !== 'string')
    || (o.hostCounts != null && (typeof o.hostCounts !== 'object' || !Object.values(o.hostCounts).every(isInt)))) {
    return { error: 'the link is damaged: its state is incomplete or from another version' };
  }
  return { sample: o.sample, policy: o.policy, policyB: o.policyB ?? null, options: { seed: o.seed, quantumMs: o.quantumMs, hostCounts: o.hostCounts || {} } };
}

export function saveLocal(data) {
  try { localStorage.setItem(STORAGE_KEY, JSON.stringify(data)); } catch { /* storage full or disabled */ }
}

export function loadLocal() {
  try { return JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null'); } catch { return null; }
}
