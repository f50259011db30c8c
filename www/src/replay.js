// The replay of policy A's run (issue 20): play, pause, a speed (x1 to x10,000 of simulated
// time, or one decision at a time) and steps to the next or previous event. The events are
// Rust's (the wasm's `replayEvents`: every submission, placement, deferral, pause, finish and
// termination in the order the simulator took them, in pages of columns); this module only
// moves a time through them. At that time the timelines draw their bars up to it (TimeView's
// `replayMs`), the time cursor stands on it, the queue panel shows the wasm's `queueAt` there
// (the state just after that instant), the carbon intensity and regime are read from the run's
// series, and at each decision (a placement, deferral or pause) the inspector shows the wasm's
// `explain` of that task with the decision taken then marked. Keyboard: space plays and
// pauses, `.` and `,` step (not while the focus is in an editor or a field); the current event
// is announced in a live region (at most once a second while playing).
import { h } from './state.js';
import { utcLabel } from './timeline.js';
import { duration } from './format.js';

/** Events asked per call (the wasm's page holds at most 100,000). */
const PAGE = 50000;
/** The speeds offered: simulated ms per real ms, or one decision at a time. */
export const SPEEDS = [['1', '×1'], ['10', '×10'], ['100', '×100'], ['1000', '×1,000'], ['10000', '×10,000'], ['decision', 'one decision at a time']];
/** How long each decision stays on screen when playing one decision at a time, ms. */
const DECISION_MS = 1500;
/** The events that are decisions of the policy, which `explain` records. */
const DECISIONS = new Set(['placement', 'deferral', 'pause']);
/** Live-region updates, queue views and explanations while playing, at most one per this
 * many ms each (a step, a pause or a seek shows them at once): the main thread stays free to
 * draw, and nobody reads faster. */
const ANNOUNCE_MS = 1000, QUEUE_MS = 500, EXPLAIN_MS = 1000;
/** The longest step of one frame, ms of real time (after a hidden tab, no jump). */
const MAX_FRAME_MS = 100;

/**
 * @param {HTMLElement} el the replay's box
 * @param {{sim: import('./engine.js').Engine, view: import('./timeline.js').TimeView,
 *   timelines: import('./timeline.js').Timeline[], getRun: () => any,
 *   showQueue: (ms: number, open?: boolean) => Promise<void>,
 *   explainTask: (which: number, taskId: string) => Promise<any>}} deps
 */
export function createReplay(el, { sim, view, timelines, getRun, showQueue, explainTask }) {
  const button = (testid, label, text, onclick) => h('button', { type: 'button', 'data-testid': testid, 'aria-label': label, title: label, onclick }, text);
  const prev = button('replay-prev', 'Previous event (,)', '‹ Previous', () => step(-1));
  const play = button('replay-play', 'Play (space)', '▶ Play', () => toggle());
  const next = button('replay-next', 'Next event (.)', 'Next ›', () => step(1));
  const speed = h('select', { id: 'replay-speed', 'data-testid': 'replay-speed' },
    SPEEDS.map(([value, label]) => h('option', { value, selected: value === '1000' }, label)));
  const stop = button('replay-stop', 'End the replay and show the whole run', 'Show the whole run', () => end());
  const time = h('span', { class: 'replay-time', 'data-testid': 'replay-time' });
  const carbon = h('p', { class: 'replay-carbon', 'data-testid': 'replay-carbon' });
  // The current event on screen, and for screen readers a live region that says it at most
  // once a second while playing (every step is said).
  const said = h('p', { class: 'replay-event', 'data-testid': 'replay-event' });
  const live = h('p', { class: 'visually-hidden', 'data-testid': 'replay-live', role: 'status', 'aria-live': 'polite' });
  el.append(
    h('h3', { id: 'replay-title' }, 'Replay'),
    h('div', { class: 'row replay-controls', role: 'group', 'aria-labelledby': 'replay-title' },
      prev, play, next, h('label', { for: 'replay-speed' }, 'Speed '), speed, stop, time),
    carbon, said, live);
  el.setAttribute('aria-label', 'Replay the run: space plays and pauses, . and , step to the next or previous event');

  /** The run replayed (policy A's run value), its events as typed columns, how many loaded. */
  let run = null, ev = null;
  /** Events applied (0 to total), the replay's time (ms; -1 before the first event). */
  let pos = 0, t = -1;
  let playing = false, last = 0, held = 0, lastSaid = 0, lastQueue = 0, lastExplain = 0;
  /** While playing: the last decision passed that is not explained yet (-1: none). */
  let unexplained = -1;
  /** The decision whose explanation was asked for last. */
  let asked = -1;
  /** The time cursor the replay set last: one set otherwise (a click on the time axis) moves
   * the replay there. */
  let cursor = null;
  /** Queue and explanation requests: one in flight each, the latest waiting. */
  const queue = { busy: false, want: null }, explain = { busy: false, want: null };

  /** Loads policy A's events (the first page at once, the rest behind it). */
  async function begin() {
    const r = getRun();
    if (!r) return false;
    if (run === r && ev) return true;
    run = r; ev = null; pos = 0; t = -1; unexplained = -1; asked = -1;
    said.textContent = live.textContent = 'loading the run’s events…';
    const handle = await sim.runHandle(r.run);
    const first = handle == null ? null : await sim.call('replayEvents', handle, 0, PAGE);
    if (run !== r) return false;
    if (!first || first.type !== 'success') {
      said.textContent = live.textContent = `the replay could not start: ${first && first.type === 'failure' ? first.errors.map((e) => e.message).join('; ') : 'the run is no longer available'}`;
      run = null;
      return false;
    }
    const n = first.value.total;
    ev = { total: n, loaded: 0, kinds: first.value.kinds, time: new Float64Array(n), kind: new Uint8Array(n), task: new Int32Array(n), host: new Int32Array(n) };
    store(first.value);
    loadRest(r, handle);
    apply(true);
    return true;
  }

  /** Puts a page of columns in place. */
  function store(p) {
    for (let i = 0; i < p.timeMs.length; i++) {
      const k = p.from + i;
      ev.time[k] = p.timeMs[i]; ev.kind[k] = p.kind[i]; ev.task[k] = p.task[i]; ev.host[k] = p.host[i] ?? -1;
    }
    ev.loaded = Math.max(ev.loaded, p.from + p.timeMs.length);
    el.dataset.total = String(ev.total);
    el.dataset.loaded = String(ev.loaded);
  }

  async function loadRest(r, handle) {
    while (run === r && ev && ev.loaded < ev.total) {
      const p = await sim.call('replayEvents', handle, ev.loaded, PAGE);
      if (run !== r || p.type !== 'success' || !p.value.timeMs.length) return;
      store(p.value);
    }
  }

  const kindOf = (i) => ev.kinds[ev.kind[i]];
  const taskOf = (i) => run.data.task(ev.task[i]);
  const hostOf = (i) => (ev.host[i] >= 0 ? run.data.hostName(ev.host[i]) : null);
  const at = (ms) => (ms < 0 ? 'before the first event' : `${utcLabel(ms + run.result.startEpochMs, true, true)} UTC (t = ${duration(ms)})`);

  /** One event in words. */
  function describe(i) {
    const task = taskOf(i), host = hostOf(i), who = `${task.name} (id ${task.id})`;
    const what = {
      submission: `${who} submitted`, placement: `${who} placed on ${host}`, deferral: `${who} deferred`,
      pause: `${who} paused on ${host} by the task stopper`, finish: `${who} finished on ${host}`,
      termination: `${who} terminated${task.reason ? `: ${task.reason}` : ''}`,
    }[kindOf(i)];
    return `event ${i + 1} of ${ev.total}, ${at(ev.time[i])}: ${what}`;
  }

  /** The carbon intensity and the time-shifting regime at the replay's time, from the run's
   * series (the timeline shades the same regime). */
  function carbonText() {
    const s = run.result.series;
    const lastAt = (list, key) => { let k = -1; for (let i = 0; i < list.length && key(list[i]) <= t; i++) k = i; return k >= 0 ? list[k] : null; };
    const ci = lastAt(s.carbonIntensity, (p) => p[0]);
    if (!s.carbonIntensity.length) return { text: 'no carbon trace', regime: '' };
    const r = lastAt(s.regime, (p) => p.timeMs);
    const regime = !r ? '' : r.shortLow && r.longLow ? 'low for short and long tasks' : r.longLow ? 'low for long tasks' : r.shortLow ? 'low for short tasks' : 'high';
    const parts = [ci ? `carbon intensity ${ci[1].toFixed(1)} gCO₂/kWh` : 'carbon intensity: before the trace'];
    if (r) parts.push(`time-shifting regime: ${regime}`, ...(r.stopperHigh ? ['task stopper: high'] : []));
    return { text: parts.join(' · '), regime };
  }

  /** Shows the state at the replay's time: the timelines, the cursor, the labels, and asks for
   * the queue and (at a decision) the explanation. `announce`: say the current event now. */
  function apply(announce, decision = lastDecision(pos)) {
    view.replayMs = t;
    view.cursorMs = cursor = Math.max(0, Math.round(t));
    const span = view.t1 - view.t0;
    if (t > view.t1 - span * 0.02 || t < view.t0) view.set(Math.max(view.min, t - span * 0.1), Math.max(view.min, t - span * 0.1) + span);
    else view.changed();
    el.dataset.active = 'true';
    el.dataset.pos = String(pos);
    el.dataset.timeMs = String(t);
    time.textContent = at(t);
    const c = carbonText();
    carbon.textContent = c.text;
    carbon.dataset.regime = c.regime;
    const now = performance.now();
    const text = pos ? describe(pos - 1) : `${ev.total} events; ${at(-1)}`;
    if (said.textContent !== text) said.textContent = text;
    if (announce || now - lastSaid >= ANNOUNCE_MS) {
      if (live.textContent !== text) live.textContent = text;
      lastSaid = now;
    }
    if (announce || now - lastQueue >= QUEUE_MS) { request(queue, Math.round(t)); lastQueue = now; }
    if (decision >= 0 && decision !== asked) unexplained = decision;
    if (unexplained >= 0 && (announce || now - lastExplain >= EXPLAIN_MS)) {
      request(explain, unexplained);
      asked = unexplained; unexplained = -1; lastExplain = now;
    }
  }

  /** The last decision among the first `p` events (-1: none), looked for among the 100,000
   * before. */
  function lastDecision(p) {
    for (let i = p - 1; i >= 0 && i >= p - 100000; i--) if (DECISIONS.has(kindOf(i))) return i;
    return -1;
  }

  /** Asks for the queue at a time or the explanation of an event, one at a time per kind:
   * while one is in flight only the latest asked waits (a fast replay skips the rest). */
  function request(slot, what) {
    slot.want = what;
    if (slot.busy) return;
    slot.busy = true;
    (async () => {
      try {
        while (slot.want != null) {
          const w = slot.want;
          slot.want = null;
          if (slot === queue) {
            // The inspector is opened (and scrolled to) only when the queue is not on screen.
            await showQueue(w, document.getElementById('queue-section')?.hidden !== false);
            el.dataset.queueMs = String(w);
          } else await showDecision(w);
        }
      } finally { slot.busy = false; }
    })();
  }

  /** The explanation of event i's task, with the decision taken at its time marked. */
  async function showDecision(i) {
    if (!run || !ev) return;
    const task = taskOf(i), kind = kindOf(i), ms = ev.time[i];
    const answer = await explainTask(0, task.id);
    if (!answer || answer.type !== 'success') return;
    const when = (d) => (d.kind === 'deferral' ? d.nowMs : d.timeMs);
    const match = (d) => when(d) === ms && d.kind === kind
      && (kind !== 'placement' || d.placement.chosen != null) && (kind !== 'deferral' || d.deferred);
    let k = -1;
    answer.value.decisions.forEach((d, i) => { if (match(d)) k = i; });
    const box = document.getElementById('explanation');
    const items = box ? box.querySelectorAll(':scope > .decision') : [];
    for (const node of items) node.classList.remove('replay-now');
    const node = /** @type {HTMLElement | undefined} */ (items[k]);
    box.dataset.replayTask = task.id;
    box.dataset.replayDecision = String(k);
    if (!node) return;
    node.classList.add('replay-now');
    if (node instanceof HTMLDetailsElement) node.open = true;
    if (!playing) node.scrollIntoView({ block: 'nearest' }); // no forced layout mid-play
  }

  /** Moves the replay to time `ms`: the events up to it applied, the last decision among them
   * explained. */
  function seek(ms) {
    let lo = 0, hi = ev.loaded;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (ev.time[mid] <= ms) lo = mid + 1; else hi = mid; }
    pos = lo;
    t = ms;
    apply(true);
  }
  view.listeners.add(() => {
    if (ev && run && view.replayMs != null && view.cursorMs != null && view.cursorMs !== cursor) seek(view.cursorMs);
  });

  /** Moves to `p` events applied and their time. */
  function setPos(p, announce) {
    pos = Math.max(0, Math.min(ev.loaded, p));
    t = pos ? ev.time[pos - 1] : -1;
    apply(announce);
  }

  async function step(dir) {
    pause();
    if (!(await begin())) return;
    // Back from between events (while playing): to the last event passed.
    setPos(dir < 0 && pos && t > ev.time[pos - 1] ? pos : pos + dir, true);
  }

  async function toggle() {
    if (playing) { pause(); return; }
    if (!(await begin())) return;
    if (pos >= ev.total) setPos(0, true); // from the start again
    playing = true;
    last = performance.now();
    held = 0;
    play.textContent = 'Pause';
    play.setAttribute('aria-label', 'Pause (space)');
    play.title = 'Pause (space)';
    el.dataset.playing = 'true';
    requestAnimationFrame(tick);
  }

  function pause() {
    if (!playing) return;
    playing = false;
    play.textContent = '▶ Play';
    play.setAttribute('aria-label', 'Play (space)');
    play.title = 'Play (space)';
    el.dataset.playing = 'false';
    if (ev) apply(true);
  }

  /** One animation frame of playing: the time moves on by the speed, and the events it passed
   * are applied (the last decision among them explained). */
  function tick(now) {
    if (!playing || !ev) return;
    const dt = Math.min(MAX_FRAME_MS, now - last);
    last = now;
    const started = pos;
    if (speed.value === 'decision') {
      held += dt;
      if (held < DECISION_MS && pos) { requestAnimationFrame(tick); return; }
      held = 0;
      let p = pos;
      while (p < ev.loaded && !DECISIONS.has(kindOf(p))) p++;
      setPos(p + 1, true);
    } else {
      const end = ev.loaded < ev.total ? ev.time[ev.loaded - 1] : Math.max(run.result.metrics.makespanMs, ev.total ? ev.time[ev.total - 1] : 0);
      t = Math.min(end, Math.max(t, 0) + dt * Number(speed.value));
      while (pos < ev.loaded && ev.time[pos] <= t) pos++;
      let decision = -1;
      for (let i = pos - 1; i >= started; i--) if (DECISIONS.has(kindOf(i))) { decision = i; break; }
      apply(false, decision);
    }
    if (pos >= ev.total && (speed.value === 'decision' || t >= run.result.metrics.makespanMs)) pause();
    else requestAnimationFrame(tick);
  }

  /** Ends the replay: the whole run is drawn again. */
  function end() {
    playing = false;
    play.textContent = '▶ Play';
    play.setAttribute('aria-label', 'Play (space)');
    el.dataset.playing = 'false';
    el.dataset.active = 'false';
    run = null; ev = null; pos = 0; t = -1; unexplained = -1; asked = -1;
    view.replayMs = null;
    time.textContent = '';
    carbon.textContent = '';
    said.textContent = '';
    live.textContent = '';
    view.changed();
  }

  // Space plays and pauses, `.` and `,` step: anywhere but in an editor or a field (and space
  // not on a control, which it presses).
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !getRun()) return;
    const target = /** @type {Element} */ (e.target);
    if (target.closest?.('.cm-editor, input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return;
    if (e.key === ' ' && !target.closest?.('button, a, summary, [role=button], [role=listbox]')) { e.preventDefault(); toggle(); }
    else if (e.key === '.') { e.preventDefault(); step(1); }
    else if (e.key === ',') { e.preventDefault(); step(-1); }
  });

  return {
    /** A new result: the replay of the old run ends. */
    reset() { if (run && run !== getRun()) end(); },
    /** For tests: where the replay stands. */
    get state() {
      const settled = !queue.busy && !explain.busy && queue.want == null && explain.want == null;
      return { pos, t, playing, settled, total: ev ? ev.total : 0, loaded: ev ? ev.loaded : 0 };
    },
    /** For tests: event i as the replay holds it. */
    event(i) { return ev && i < ev.loaded ? { timeMs: ev.time[i], kind: kindOf(i), task: taskOf(i).id, host: hostOf(i) } : null; },
    toggle, step, end,
    /** Moves the replay to a time, ms (starting it if needed). */
    async seek(ms) { if (await begin()) seek(ms); },
  };
}
