// The Web Worker that owns the wasm module. Protocol: the page posts {id, fn, args}; the worker
// answers {id, answer} (the export's JSON text, or for a byte export or a binary run an object
// holding typed arrays, whose buffers are transferred, not copied), {id, progress} while an export named
// *WithProgress (runWithProgress, sweepWithProgress) runs, and
// {id, answer, trapped: true} when the call trapped (a Rust panic aborts the instance): the
// answer is then a failure carrying lastPanic(), and the page replaces this worker.
import init, * as wasm from '../pkg/policy_playground.js';

const failure = (message) =>
  JSON.stringify({ type: 'failure', errors: [{ severity: 'error', message, path: '' }] });

const ready = init({ module_or_path: new URL('policy_playground_bg.wasm', import.meta.url) }).then(
  () => {
    const exports = Object.keys(wasm).filter(
      (k) => typeof wasm[k] === 'function' && !['default', 'initSync', 'start'].includes(k));
    postMessage({ ready: true, exports });
  },
  (e) => postMessage({ ready: false, error: String(e && e.message || e) }),
);

let trapped = false;

/** The buffers of the typed arrays in an answer's value (each its own: the wasm copies every
 * column out of its memory), to transfer with the answer. */
function transferables(answer) {
  const buffers = new Set();
  const visit = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 3) return;
    if (ArrayBuffer.isView(v)) { buffers.add(v.buffer); return; }
    if (Array.isArray(v)) return;
    for (const k of Object.keys(v)) visit(v[k], depth + 1);
  };
  if (answer && typeof answer === 'object') visit(answer.value, 0);
  return [...buffers];
}

self.onmessage = async ({ data: { id, fn, args } }) => {
  await ready;
  if (trapped) {
    postMessage({ id, trapped: true, answer: failure('internal error: the module trapped earlier') });
    return;
  }
  // `__trap` stands in for a Rust panic so that the tests can exercise the trap guard.
  const f = fn === '__trap' ? () => { throw new WebAssembly.RuntimeError('unreachable (a test trap)'); } : wasm[fn];
  if (typeof f !== 'function' || fn === 'default' || fn.startsWith('init')) {
    postMessage({ id, answer: failure(`this build has no function \`${fn}\``) });
    return;
  }
  try {
    const started = performance.now();
    const answer = fn.endsWith('WithProgress')
      ? f(...args, (fraction) => postMessage({ id, progress: fraction }))
      : f(...args);
    postMessage({ id, answer, ms: performance.now() - started }, { transfer: transferables(answer) });
  } catch (e) {
    trapped = true;
    let panic = '';
    try { panic = wasm.lastPanic(); } catch { /* the instance may be unusable */ }
    postMessage({ id, trapped: true, answer: failure(`internal error: ${panic || String(e && e.message || e)}`) });
  }
};
