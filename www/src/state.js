// The page's state: one object, and a tiny event bus. Views read `state` and listen to events;
// only main.js and the view that owns a field write it.
//   inputs:   {topology, workload, carbon} refs from engine.load*, with their summaries
//   sources:  what each input came from (a sample name or file names), for the share URL
//   policy / policyB: editor texts (policyB is null unless compare mode is on)
//   defaults: the run options with every default written out (the wasm's defaultOptions())
//   options:  {seed, quantumMs, hostCounts, semantics}, from the defaults on, and the carbon
//             what-ifs (carbonShiftMs, carbonScale, forecastError: whatif.js) when set
//   results:  [{result, run, text, ms}] for A and B; stale: the policy has errors
//   comparison: the wasm's compare answer for the results shown (the metrics table)
/** @typedef {import('./types/answers').SimResult} SimResult */
/** @typedef {import('./types/answers').RunOptions} RunOptions */
/** @typedef {{id: number, handle: number | null, generation?: number}} Ref */
/**
 * A finished run as the page keeps it: the binary run answer's value with the page's ref and
 * timings, `data` reading its columns and `result` the JSON result's fields (tasks and hosts
 * built from the columns when first read: www/src/columns.js).
 * @typedef {Omit<import('./types/answers').BinaryRun, 'run' | 'result'> & {run: Ref, ms: number, wasmMs: number,
 *   data: import('./columns.js').RunData,
 *   result: import('./types/answers').ResultHead & {tasks: import('./types/answers').TaskRecord[], hosts: import('./types/answers').HostRecord[]}}} RunValue
 */
/**
 * @type {{sample: string | null, inputs: {topology: Ref | null, workload: Ref | null, carbon: Ref | null},
 *   summaries: Record<string, any>, sources: Record<string, any>, policy: string,
 *   policyB: string | null, defaults: RunOptions | null,
 *   options: {seed: number, quantumMs: number, hostCounts: Record<string, number>, semantics?: 'classic' | 'current',
 *     carbonShiftMs?: number, carbonScale?: number, forecastError?: number} | null,
 *   results: (RunValue | null)[], stale: boolean, placementsOnly: boolean,
 *   comparison: import('./types/answers').Comparison | null,
 *   selected: {which: number, taskId: string} | null, cursorMs: number | null}}
 */
export const state = {
  sample: 'teaching',
  inputs: { topology: null, workload: null, carbon: null },
  summaries: { topology: null, workload: null, carbon: null },
  sources: { topology: null, workload: null, carbon: null },
  policy: '',
  policyB: null,
  defaults: null,
  options: null,
  results: [null, null],
  comparison: null,
  stale: false,
  placementsOnly: false, // the timelines and task list show a run's placements, its figures to come
  selected: null, // the explained task: which result (0: A, 1: B) and its id
  cursorMs: null,
};

const listeners = new Map();

export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(fn);
}

/** Listens once; returns a function that stops listening. */
export function onOnce(event, fn) {
  const wrapped = (d) => { off(); fn(d); };
  const off = () => { const l = listeners.get(event) || []; const i = l.indexOf(wrapped); if (i >= 0) l.splice(i, 1); };
  on(event, wrapped);
  return off;
}

export function emit(event, detail) {
  for (const fn of [...(listeners.get(event) || [])]) fn(detail);
}

/** Fresh run options: the defaults, with `hostCounts` (a lesson's edit) if given.
 * @returns {{seed: number, quantumMs: number, hostCounts: Record<string, number>, semantics: 'classic' | 'current'}} */
export function freshOptions(hostCounts = {}) {
  return { seed: state.defaults.seed, quantumMs: state.defaults.quantumMs, hostCounts: { ...hostCounts }, semantics: 'classic' };
}

/** The carbon what-ifs among the run options (beyond OpenDC; whatif.js), each set or absent. */
export const WHAT_IF_KEYS = /** @type {const} */ (['carbonShiftMs', 'carbonScale', 'forecastError']);

/** Run options as the wasm `run` takes them (host counts only where they differ). */
export function runOptions() {
  const o = state.options;
  const out = { seed: o.seed, quantumMs: o.quantumMs, hostCounts: { ...o.hostCounts } };
  if (o.semantics === 'current') out.semantics = 'current';
  // The carbon what-ifs (beyond OpenDC), only when set: without them a run is OpenDC's.
  for (const k of WHAT_IF_KEYS) if (o[k] != null) out[k] = o[k];
  return out;
}

/** Element helper: h('div', {class: 'x', 'data-testid': 'y'}, child, 'text'); text is textContent. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v == null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Formats a diagnostic as one line of text. */
export function diagText(d) {
  const where = [d.file, d.line != null ? `${d.line}:${d.column}` : null, d.path || null]
    .filter(Boolean).join(' ');
  return `${d.severity || 'error'}: ${d.message}${where ? ` (${where})` : ''}`;
}
