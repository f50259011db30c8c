// Durations as the engine writes them, on the main thread. The rule lives in Rust
// (crate/src/format.rs, unit-tested there); this module instantiates the same wasm module the
// worker runs, once, so that an axis tick, a task list entry and an explanation format a
// duration synchronously and exactly as the engine's own texts do. Nothing here decides how a
// figure looks.
import init, { axisTicks, formatDuration, formatDurationDifference } from '../pkg/policy_playground.js';

/** @type {Promise<unknown> | null} */
let loading = null;

/** Instantiates the formatter (call once at start, before anything is drawn). */
export function loadFormat() {
  loading ??= init({ module_or_path: new URL('policy_playground_bg.wasm', import.meta.url) });
  return loading;
}

/** A duration in ms as people read it (`2 h 14 min`); a dash for none. */
export const duration = (ms) => (ms == null ? '—' : formatDuration(ms));

/** A signed difference of durations (`+41 s`, `−2 h`). */
export const durationDifference = (ms) => (ms == null ? '—' : formatDurationDifference(ms));

/** Round axis ticks covering [lo, hi], about `count` steps (1, 2 or 5 times a power of ten). */
export const ticks = (lo, hi, count = 5) => /** @type {number[]} */ (JSON.parse(axisTicks(lo, hi, count)));
