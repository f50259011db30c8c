// A second engine (its own worker) holding copies of some of the main engine's inputs, so that
// work Rust splits in two (a portfolio's runs: the wasm's portfolioSplit) runs on two cores.
// The copies are loaded from the same calls as the originals and kept while the same inputs
// are asked for; other inputs replace them (the worker is replaced, so nothing is held twice
// for long).
import { Engine } from './engine.js';

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
