// A second engine (its own worker) holding copies of some of the main engine's inputs, so that
// work Rust splits in two (the runs of a portfolio or a sweep: the wasm's portfolioSplit,
// sweepSplit, sweepGridSplit) runs on two cores (`runShared`).
// The copies are loaded from the same calls as the originals and kept while the same inputs
// are asked for; other inputs replace them (the worker is replaced, so nothing is held twice
// for long).
import { Engine } from './engine.js';

/** @typedef {import('./types/answers').Answers} Answers */

const KINDS = ['topology', 'workload', 'carbon'];

/**
 * @param {Engine} main the engine whose inputs are copied
 * @param {string | URL} url the worker module
 */
export function createMirror(main, url) {
  /** @type {Engine | null} */
  let engine = null;
  /** main's input ref -> the copy's ref */
  let copies = new Map();

  function drop() {
    engine?.worker.terminate();
    engine = null;
    copies = new Map();
  }

  /** Loads the copy of main's input `ref` (and of the other parts of its bundle). */
  async function copy(ref) {
    const item = main.itemOf(ref);
    if (!item || !engine) return null;
    if (item.parts) {
      const a = await engine.loadBundle(item.fn, ...item.args);
      if (a.type !== 'success') return null;
      for (const k of KINDS) if (item.parts[k]) copies.set(item.parts[k], a.refs[k]);
    } else {
      const a = await engine.load(item.fn, ...item.args);
      if (a.type !== 'success') return null;
      copies.set(ref, a.ref);
    }
    return copies.get(ref) ?? null;
  }

  return {
    /** The second engine and its copies of `inputs` (main's refs), or null when a copy cannot
     * be made (the caller then works in main alone). */
    async inputs(inputs) {
      const wanted = KINDS.map((k) => inputs[k]).filter(Boolean);
      if ([...copies.keys()].some((r) => !wanted.includes(r))) drop();
      engine ??= new Engine(url);
      // After a Stop the worker is loading its copies again: wait for them (false: stopped
      // again meanwhile, so this work runs in main alone).
      if (!(await engine.settled())) return null;
      const out = { topology: null, workload: null, carbon: null };
      for (const k of KINDS) {
        if (!inputs[k]) continue;
        out[k] = copies.get(inputs[k]) ?? (await copy(inputs[k]));
        if (!out[k]) { drop(); return null; }
      }
      return { engine, inputs: out };
    },
    /** Stops what the second engine runs (it restarts with its copies loaded again). */
    cancel() { engine?.cancel(); },
  };
}

/** The wasm's calls for each kind of shared work. */
const CALLS = /** @type {const} */ ({
  portfolio: { split: 'portfolioSplit', part: 'portfolioPartWithProgress', assemble: 'portfolioAssemble', whole: 'portfolioWithProgress' },
  sweep: { split: 'sweepSplit', part: 'sweepPartWithProgress', assemble: 'sweepAssemble', whole: 'sweepWithProgress' },
  sweepGrid: { split: 'sweepGridSplit', part: 'sweepGridPartWithProgress', assemble: 'sweepGridAssemble', whole: 'sweepGridWithProgress' },
});

/**
 * Runs a portfolio or a sweep (`kind`) on `inputs` (refs of `main`): when Rust splits its runs
 * in two and the mirror can hold copies of the inputs, `main` and the mirror each make their
 * part side by side and `main` assembles the report (the same answer as one worker's);
 * otherwise `main` runs it alone. `rest` are the call's arguments after the handles; `onProgress`
 * gets the fraction of all runs done. Resolves to {answer, workers}, the answer typed as the
 * one-worker call's.
 * @template {keyof typeof CALLS} K
 * @param {Engine} main
 * @param {ReturnType<typeof createMirror> | null | undefined} mirror
 * @param {K} kind
 * @param {unknown[]} rest
 * @param {(fraction: number) => void} onProgress
 * @returns {Promise<{answer: Answers[(typeof CALLS)[K]['whole']] & {cancelled?: boolean}, workers: number}>}
 */
export async function runShared(main, mirror, kind, inputs, rest, onProgress) {
  /** @type {any} the answer of whichever call, typed by the signature */
  const answer = await shareRuns(main, mirror, CALLS[kind], inputs, rest, onProgress);
  return { answer, workers: answer.workers };
}

/** See runShared: the answer, with `workers` the number of workers that ran. */
async function shareRuns(main, mirror, calls, inputs, rest, onProgress) {
  if (!(await main.settled())) return { type: 'failure', errors: [], cancelled: true, workers: 1 };
  const handles = main.handlesJson(inputs);
  const split = await main.post(calls.split, [handles, ...rest]);
  const parts = split.type === 'success' ? split.value.parts : [];
  const second = parts.length === 2 && mirror ? await mirror.inputs(inputs) : null;
  if (!second) return { ...(await main.post(calls.whole, [handles, ...rest], onProgress)), workers: 1 };
  const [[a0, a1], [b0, b1]] = parts;
  const done = [0, 0];
  const progress = (i, runs) => (f) => { done[i] = f * runs; onProgress((done[0] + done[1]) / b1); };
  const [a, b] = await Promise.all([
    main.post(calls.part, [handles, ...rest, a0, a1], progress(0, a1 - a0)),
    second.engine.post(calls.part, [second.engine.handlesJson(second.inputs), ...rest, b0, b1], progress(1, b1 - b0)),
  ]);
  if (a.cancelled || b.cancelled) return { ...a, cancelled: true, workers: 2 };
  if (a.type !== 'success') return { ...a, workers: 2 };
  if (b.type !== 'success') return { ...b, workers: 2 };
  return { ...(await main.post(calls.assemble, [handles, ...rest, JSON.stringify([a.value, b.value])])), workers: 2 };
}
