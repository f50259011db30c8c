// The main thread's side of the worker: requests with ids and promises, and the trap guard.
// Inputs are loaded through `load`, which keeps their text or bytes here; when a call traps
// (or the page cancels), the worker is terminated, a fresh one started and every input loaded
// again under new handles, so a trap never loses work. Callers hold input and run *refs*
// ({id, handle}), never raw handles, and refs follow the reload.
//
// A run crosses as columns (the wasm's runBinaryWithProgress; www/src/columns.js reads them):
// its value gains `data`, and `result.tasks` / `result.hosts` are built from the columns when
// first read. The JSON result (exportResult) stays for downloads.
//
// Answers are typed by www/src/types/answers.d.ts, generated from the Rust types: `call('run',
// ...)` resolves to `Answers['run']`, so that a misspelt field fails the type check.

import { RunData, withData } from './columns.js';

/** @typedef {import('./types/answers').Answers} Answers */
/** @typedef {import('./types/answers').Diagnostic} Diagnostic */

/** A failure answer of one error without a place, as Rust writes them. */
const failure = (message, extra = {}) => ({
  type: /** @type {const} */ ('failure'),
  errors: [/** @type {Diagnostic} */ ({ severity: 'error', message, path: '', line: null, column: null })],
  ...extra,
});
const parse = (text) => {
  try { return JSON.parse(text); } catch (e) {
    return failure(`unreadable answer: ${e.message}`);
  }
};

export class Engine {
  /**
   * @param {string | URL} url the worker module
   * @param {{onRestart?: (message: string | null) => void}} [hooks]
   */
  constructor(url, { onRestart } = {}) {
    this.url = url;
    this.onRestart = onRestart;
    this.nextId = 1;
    this.pending = new Map();
    this.inputs = new Map(); // ref id -> {fn, args, ref}
    this.runs = new Map(); // ref id -> {args, ref}
    this.generation = 0;
    this.exports = [];
    this.restarts = 0;
    this.cancels = 0;
    this.start();
  }

  start() {
    this.generation += 1;
    const worker = new Worker(this.url, { type: 'module' });
    this.worker = worker;
    this.ready = new Promise((resolve) => {
      worker.onmessage = ({ data }) => {
        if ('ready' in data) {
          if (data.ready) this.exports = data.exports;
          else console.warn('wasm failed to start:', data.error);
          resolve(data.ready);
          return;
        }
        this.onMessage(data);
      };
    });
    worker.onerror = (e) => {
      e.preventDefault();
      this.restart(`internal error: the worker failed (${e.message || 'no message'})`);
    };
  }

  has(fn) { return this.exports.includes(fn); }

  onMessage({ id, answer, progress, trapped, ms }) {
    const p = this.pending.get(id);
    if (!p) return;
    if (progress !== undefined) { p.onProgress?.(progress); return; }
    this.pending.delete(id);
    // Most exports answer JSON text; those with bytes answer an object holding Uint8Arrays.
    const parsed = typeof answer === 'string' ? parse(answer) : answer;
    if (trapped) parsed.trapped = true;
    Object.defineProperty(parsed, 'wasmMs', { value: ms });
    p.resolve(parsed);
    if (trapped && !this.reloading) this.restart(null);
  }

  /**
   * Posts a call of export `fn` to the worker.
   * @template {keyof Answers} K
   * @param {K} fn
   * @param {unknown[]} args
   * @param {(fraction: number) => void} [onProgress]
   * @returns {Promise<Answers[K] & {trapped?: boolean, cancelled?: boolean, wasmMs?: number}>}
   */
  post(fn, args, onProgress) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onProgress });
      this.worker.postMessage({ id, fn, args });
    });
  }

  /**
   * Calls a wasm export; resolves to its parsed answer {type, value | errors}.
   * @template {keyof Answers} K
   * @param {K} fn
   * @param {...unknown} args
   */
  async call(fn, ...args) {
    await this.ready;
    return this.post(fn, args);
  }

  /** Terminates the worker and starts a fresh one with every input loaded again. */
  restart(message, extra = {}) {
    this.worker.terminate();
    for (const p of this.pending.values()) p.resolve(failure(message || 'internal error: the worker was restarted', extra));
    this.pending.clear();
    this.restarts += 1;
    this.start();
    const started = this.ready;
    const generation = this.generation;
    this.ready = started.then(async () => {
      this.reloading = true;
      for (const [id, item] of [...this.inputs]) {
        if (this.generation !== generation) return this.ready; // restarted again meanwhile
        const answer = await this.post(item.fn, item.args);
        if (this.generation !== generation) return this.ready;
        item.ref.handle = answer.type === 'success' ? handleOf(answer.value) : null;
        if (answer.trapped) {
          // This input traps the module even on its own: forget it and start clean once more.
          this.inputs.delete(id);
          this.reloading = false;
          return this.restart(answer.errors[0].message);
        }
      }
      this.reloading = false;
      return true;
    });
    this.onRestart?.(message);
    return this.ready;
  }

  /** Cancels whatever runs now (terminate and restart), and any run about to start. */
  cancel() {
    this.cancels += 1;
    return this.restart('cancelled', { cancelled: true });
  }

  /** Waits until the worker is ready with every input loaded again, however many restarts come
   * meanwhile; false when the page cancelled during the wait (a run asked for just before a
   * Cancel must not start after it, on inputs the new worker has not loaded yet). */
  async settled() {
    const cancels = this.cancels;
    let generation;
    do {
      generation = this.generation;
      await this.ready;
    } while (generation !== this.generation);
    return this.cancels === cancels;
  }

  /**
   * Loads an input once; the answer's value gains `ref` (kept for reloads) on success.
   * @template {'loadTopology' | 'loadWorkload' | 'loadWorkloadParquet' | 'loadCarbon' | 'generateWorkload' | 'loadWorkloadSelected' | 'loadWorkloadParquetSelected'} K
   * @param {K} fn
   * @param {...unknown} args
   */
  async load(fn, ...args) {
    const answer = await this.call(fn, ...args);
    if (answer.type !== 'success') return answer;
    const ref = { id: this.nextId++, handle: handleOf(answer.value) };
    this.inputs.set(ref.id, { fn, args, ref });
    return { ...answer, ref };
  }

  /** Loads a scenario file: refs for its topology, workload and carbon, reloaded together. */
  loadScenario(text) { return this.loadBundle('loadScenario', text); }

  /**
   * Opens an experiment among dropped files ({path, bytes}) and loads run `run`'s inputs: refs
   * for its topology, workload and carbon, reloaded together.
   */
  loadExperiment(files, path, run, strict) {
    const sizes = files.map((f) => f.bytes.length);
    const all = new Uint8Array(sizes.reduce((a, b) => a + b, 0));
    let at = 0;
    for (const f of files) { all.set(f.bytes, at); at += f.bytes.length; }
    return this.loadBundle('loadExperiment', files.map((f) => f.path), sizes, all, path, run, strict);
  }

  /** Calls a loader whose answer holds a topology, a workload and maybe a carbon trace. */
  async loadBundle(fn, ...args) {
    const answer = await this.call(fn, ...args);
    if (answer.type !== 'success') return answer;
    const v = answer.value;
    const part = (p) => (p ? { id: this.nextId++, handle: p.handle } : null);
    const refs = { topology: part(v.topology), workload: part(v.workload), carbon: part(v.carbon) };
    const ref = {
      id: this.nextId++,
      set handle(h) {
        for (const k of Object.keys(refs)) if (refs[k]) refs[k].handle = h ? h[k] : null;
      },
    };
    this.inputs.set(ref.id, { fn, args, ref, parts: refs });
    return { ...answer, refs };
  }

  /** The load behind an input ref, a bundle's part included: {fn, args, parts?}, or null. */
  itemOf(ref) {
    for (const item of this.inputs.values()) {
      if (item.ref === ref || (item.parts && Object.values(item.parts).includes(ref))) return item;
    }
    return null;
  }

  release(ref) {
    if (!ref) return;
    this.inputs.delete(ref.id);
    this.runs.delete(ref.id);
    // A run made before a restart has no handle in this worker (its number may be another's).
    const stale = ref.generation !== undefined && ref.generation !== this.generation;
    if (ref.handle != null && !stale) this.call('release', ref.handle);
  }

  handlesJson(inputs) {
    return JSON.stringify({
      topology: inputs.topology.handle,
      workload: inputs.workload.handle,
      carbon: inputs.carbon ? inputs.carbon.handle : null,
    });
  }

  /** Runs inputs (refs) under a policy; resolves to the answer, its value {run: ref, result,
   * data, bars} (the run's columns: www/src/columns.js). */
  async run(inputs, policyText, options, onProgress) {
    if (!(await this.settled())) return { ...failure('cancelled'), cancelled: true };
    const args = [this.handlesJson(inputs), policyText, JSON.stringify(options)];
    const started = performance.now();
    const answer = await this.post('runBinaryWithProgress', args, onProgress);
    if (answer.type !== 'success') return answer;
    const ref = { id: this.nextId++, handle: answer.value.run, generation: this.generation };
    this.runs.set(ref.id, { inputs, policyText, options, ref });
    const value = withData(answer.value);
    return { ...answer, value: { ...value, run: ref, ms: performance.now() - started, wasmMs: answer.wasmMs } };
  }

  /** The placements of the run `run` would make (the wasm's runPlacements: tasks and timeline
   * bars, not kept), for a first draw while that run goes on; resolves to the answer, its value
   * {result: {makespanMs, startEpochMs, series}, columns, bars, data}. */
  async placements(inputs, policyText, options) {
    if (!(await this.settled())) return { ...failure('cancelled'), cancelled: true };
    const answer = await this.post('runPlacements', [this.handlesJson(inputs), policyText, JSON.stringify(options)]);
    if (answer.type !== 'success') return answer;
    return { ...answer, value: { ...answer.value, data: new RunData(answer.value.columns) } };
  }

  /** A run's handle in this worker, running it again after a restart. */
  async runHandle(ref) {
    await this.ready;
    if (ref.generation === this.generation) return ref.handle;
    const item = this.runs.get(ref.id);
    if (!item) return null;
    const answer = await this.post('runBinaryWithProgress', [this.handlesJson(item.inputs), item.policyText, JSON.stringify(item.options)]);
    if (answer.type !== 'success') return null;
    ref.handle = answer.value.run;
    ref.generation = this.generation;
    return ref.handle;
  }

  async explain(ref, taskId) {
    const handle = await this.runHandle(ref);
    if (handle == null) return failure('the run is no longer available; edit or re-run to explain');
    return this.post('explain', [handle, taskId]);
  }

  /** A finished run's result as the JSON text the CLI prints (the wasm's exportResult). */
  async resultJson(ref) {
    const handle = await this.runHandle(ref);
    if (handle == null) return failure('the run is no longer available');
    return this.post('exportResult', [handle]);
  }

  /** A finished run's tasks as CSV text (the wasm's exportTasksCsv). */
  async tasksCsv(ref) {
    const handle = await this.runHandle(ref);
    if (handle == null) return failure('the run is no longer available');
    return this.post('exportTasksCsv', [handle]);
  }

  /** Finished runs (refs) side by side: the wasm's compare, a table with every figure as text,
   * the differences from `baseline` and the energy and carbon over the runs' common window. */
  async compare(refs, labels, baseline = 0) {
    const runs = [];
    for (const ref of refs) {
      const handle = await this.runHandle(ref);
      if (handle == null) return failure('the run is no longer available');
      runs.push(handle);
    }
    return this.post('compare', [JSON.stringify({ runs, labels, baseline })]);
  }

  async queueAt(ref, timeMs) {
    const handle = await this.runHandle(ref);
    if (handle == null) return failure('the run is no longer available');
    return this.post('queueAt', [handle, timeMs]);
  }
}

function handleOf(value) {
  if (value && typeof value.handle === 'number') return value.handle;
  if (value && value.topology) {
    return { topology: value.topology?.handle, workload: value.workload?.handle, carbon: value.carbon?.handle ?? null };
  }
  return null;
}
