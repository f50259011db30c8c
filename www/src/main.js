// The page: wires the views to the two workers (one simulates, one checks policies so that the
// editor stays responsive during long runs) and runs the live loop: every edit is checked
// at once and, when the policy has no errors, simulated again; while it has errors
// the last good result stays on screen, marked stale.
import { Engine } from './engine.js';
import { state, on, onOnce, emit, h, runOptions, freshOptions, diagText } from './state.js';
import { createPolicyPanel } from './editor.js';
import { createScenarioPanel, SAMPLES } from './scenario.js';
import { Timeline, TimeView, buildModel, utcLabel } from './timeline.js';
import { renderExplanation, createTaskList } from './explain.js';
import { renderComparison, setMetricCatalog } from './metrics.js';
import { loadFormat } from './format.js';
// Rust's rule for drawing a run's placements first, from the main thread's instance (format.js).
import { placementsFirst } from '../pkg/policy_playground.js';
import { createCompare } from './compare.js';
import { createGallery } from './gallery.js';
import { createLessons } from './lesson.js';
import { createSweepPanel } from './sweep.js';
import { createPortfolio } from './portfolio.js';
import { createMirror } from './mirror.js';
import { createStrips } from './strips.js';
import { createReplay } from './replay.js';
import { encodeShare, decodeShare, saveLocal, loadLocal } from './share.js';
import { zip, opendc3Zip } from './zip.js';

/** The page's element with this id (any: the page's own markup, not the typed contract). */
const $ = (id) => /** @type {any} */ (document.getElementById(id));
const WORKER = new URL('./worker.js', import.meta.url);
const pretty = (v) => JSON.stringify(v, null, 2);

/** One message above the page; `action` ({label, run}) adds a button, e.g. to undo. */
const notice = (text, kind = 'info', action = null) => {
  const el = $('notice');
  el.textContent = text;
  el.className = `notice ${kind}`;
  el.hidden = !text;
  if (action) {
    el.append(' ', h('button', { type: 'button', 'data-testid': 'notice-action', onclick: () => { notice(''); action.run(); } }, action.label));
  }
};

/** Brings `el` into view in its scroll container (the page, or a column of the workbench) when
 * any part of it is hidden: what a click produced is never left below the fold. */
function reveal(el) {
  if (!el || el.hidden) return;
  const r = el.getBoundingClientRect();
  const top = document.querySelector('header').getBoundingClientRect().bottom;
  if (r.top < top || r.bottom > window.innerHeight) el.scrollIntoView({ block: r.height > window.innerHeight - top ? 'start' : 'nearest' });
}

// ---- the inspector: the queue at the time cursor and the explanation of a task, in a side
// panel over the editors (wide screens) or over the page (narrow ones), never below the fold.
let opener = null; // what had the focus when the inspector took it
function openInspector(part, focus) {
  const box = $('inspector');
  const section = part === 'queue' ? $('queue-section') : $('explain-panel');
  const wasOpen = !box.hidden;
  box.hidden = false;
  section.hidden = false;
  document.body.classList.add('inspecting');
  if (focus) {
    if (!wasOpen || !box.contains(document.activeElement)) opener = document.activeElement;
    (part === 'queue' ? box : $('explain-title')).focus({ preventScroll: true });
  }
  section.scrollIntoView({ block: 'nearest' });
}
function closeInspector() {
  const box = $('inspector');
  const had = box.contains(document.activeElement);
  box.hidden = true;
  $('queue-section').hidden = true;
  $('explain-panel').hidden = true;
  document.body.classList.remove('inspecting');
  state.selected = null;
  for (const t of timelines) t.select(-1);
  if (had) (opener && opener.isConnected ? opener : timelines[0].canvas).focus({ preventScroll: true });
  opener = null;
}

/** Puts a policy (and policy B) in the editors; work that it replaces can be restored. */
function replacePolicies(policy, policyB, why) {
  const before = { policy: state.policy, policyB: state.policyB };
  panelA.setText(policy);
  state.policy = policy;
  compare.set(policyB != null, policyB);
  const lost = (before.policy && before.policy !== policy) || (before.policyB != null && before.policyB !== policyB);
  if (lost && !suspendedStart) {
    notice(`${why} replaced your policy.`, 'info', {
      label: 'Restore my policy',
      run: () => { lessons?.close(); panelA.setText(before.policy); state.policy = before.policy; compare.set(before.policyB != null, before.policyB); edited(); },
    });
  }
}
let suspendedStart = true; // the first state of the page replaces nothing of the user's

/** Sets the run status: its text for people, and in data-state one word for tests (README, "The
 * page": idle, running, done, stale, cancelled, failed), so the two never disagree. */
function setStatus(text, stateWord) {
  const el = $('run-status');
  el.textContent = text;
  el.dataset.state = stateWord;
}

const sim = new Engine(WORKER, {
  onRestart: (message) => notice(message === 'cancelled'
    ? 'Cancelled; the engine restarted and your inputs were loaded again.'
    : `The engine hit an internal error and was restarted; your inputs were loaded again. ${message || ''}`, message === 'cancelled' ? 'info' : 'error'),
});
const lint = new Engine(WORKER);
const view = new TimeView();
let panelA, compare, scenario, timelines, taskList;
/** @type {ReturnType<typeof createLessons>} */
let lessons;
let suspended = true;
let checking = false; // a check is in flight
let recheck = false; // an edit came during it

// ---- the live loop ---------------------------------------------------------------------------

// No debounce: an edit is checked at once, and edits that come while a check (or a run) is in
// flight are coalesced into one more check (or run) when it ends. A fast scenario re-runs on
// every keystroke; a slow one runs back to back with the latest text, never queueing.
function edited() {
  saveLocal({ policy: state.policy, policyB: state.policyB });
  if (checking) { recheck = true; return; }
  checking = true;
  (async () => {
    try {
      do { recheck = false; await checkAndRun(); } while (recheck);
    } finally { checking = false; }
  })();
}

async function checkAndRun() {
  if (suspended) return;
  const texts = [state.policy, state.policyB];
  const started = performance.now();
  const checked = Promise.all(texts.map((t) => (t == null ? null : lint.call('check', t))));
  // The run starts beside the check (two workers, two cores); its result is shown only if the
  // check finds no error. A policy with errors fails fast in the run too.
  const runnable = (a) => a == null || (a.type === 'success' && a.value.ok && a.value.document !== 'experiment');
  const clean = checked.then((answers) => answers.every(runnable));
  requestRun(clean);
  const answers = await checked;
  $('run-status').dataset.checkMs = (performance.now() - started).toFixed(1);
  // Where OpenDC behaves differently with these policies, under the chosen semantics.
  const semantics = state.options.semantics || 'classic';
  const differences = await Promise.all(texts.map(async (t) => {
    const d = t == null ? null : await lint.call('opendcDifferences', t, semantics);
    return d?.type === 'success' ? d.value : [];
  }));
  if (texts[0] !== state.policy || texts[1] !== state.policyB) return; // edited meanwhile
  const okA = panelA.showCheck(answers[0], differences[0]);
  const okB = answers[1] ? compare.panel().showCheck(answers[1], differences[1]) : true;
  setStale(!(okA && okB), 'the policy has errors; showing the last good result');
}

function setStale(stale, why) {
  state.stale = stale;
  // While a run's placements are shown, the figures stay marked as not yet updated.
  $('results').classList.toggle('stale', stale || state.placementsOnly);
  $('stale-badge').hidden = !stale;
  $('stale-badge').textContent = stale ? `stale: ${why}` : '';
  for (const t of timelines) t.setStale(stale);
}

let running = false, again = null;
/** @type {string | null} what a click asked for that the next result shows (B's column of figures) */
let revealAfterRun = null;
/** Runs the current policies, or once more after the run in flight. `clean` resolves to
 * whether they passed their check (by default: the page is not showing a policy error). */
async function requestRun(clean = null) {
  if (suspended || !state.inputs.topology || !state.inputs.workload) return;
  if (!clean) {
    if (state.stale) return;
    clean = Promise.resolve(true);
  }
  if (running) { again = clean; return; }
  running = true;
  try {
    for (let next = clean; next; next = again) { again = null; await doRun(next); }
  } finally { running = false; }
}

async function doRun(clean) {
  const inputs = { ...state.inputs };
  const policies = [state.policy, state.policyB];
  const options = runOptions();
  const status = $('run-status');
  setStatus('running…', 'running');
  $('cancel').disabled = false;
  const bar = $('progress');
  const show = setTimeout(() => { bar.hidden = false; }, 200);
  const progress = (part) => (f) => { bar.value = (part + f) / (policies[1] == null ? 1 : 2); };
  const started = performance.now();
  const runNo = ++runsAsked;
  // Asked before the run is posted (the worker answers in order), synchronously: a Cancel
  // clicked from here on stops both.
  if (placementsFirst(state.summaries.workload?.fragments ?? 0)) drawPlacements(runNo, inputs, policies, options, clean, started);
  const a = await sim.run(inputs, policies[0], options, progress(0));
  const b = policies[1] != null && a.type === 'success' ? await sim.run(inputs, policies[1], options, progress(1)) : null;
  clearTimeout(show);
  bar.hidden = true; bar.value = 0;
  $('cancel').disabled = true;
  runsEnded = runNo;
  if (!(await clean)) { // the check found errors: the page shows them and the last good result
    for (const r of [a, b]) if (r?.type === 'success') sim.release(r.value.run);
    setStatus('not run: the policy has errors', 'stale');
    return;
  }
  if (a.cancelled || b?.cancelled) {
    undoPlacements();
    setStatus('cancelled', 'cancelled');
    return;
  }
  if (a.type === 'failure' || b?.type === 'failure') {
    const errors = a.type === 'failure' ? a.errors : b.type === 'failure' ? b.errors : [];
    $('run-errors').replaceChildren(...errors.map((e) => h('li', {}, diagText(e))));
    undoPlacements();
    setStatus('the run failed', 'failed');
    $('results').classList.add('stale');
    return;
  }
  // The table of figures (and of differences, when comparing) is Rust's: a run answers with its
  // own; two are compared as kept runs.
  const table = b ? await sim.compare([a.value.run, b.value.run], ['A', 'B'])
    : { type: /** @type {const} */ ('success'), value: a.value.comparison };
  if (table.type === 'failure') {
    $('run-errors').replaceChildren(...table.errors.map((e) => h('li', {}, diagText(e))));
    undoPlacements();
    setStatus('the run failed', 'failed');
    return;
  }
  $('run-errors').replaceChildren();
  for (const old of state.results) if (old) sim.release(old.run);
  const wall = performance.now() - started;
  state.results = [a.value, b && b.value];
  state.comparison = table.value;
  const shown = performance.now();
  showResults();
  status.dataset.renderMs = (performance.now() - shown).toFixed(1);
  const ms = Math.round(wall);
  setStatus(`done in ${ms} ms${b ? ' (both policies)' : ''}`, 'done');
  if (revealAfterRun) { reveal(document.querySelector(revealAfterRun) || $('results')); revealAfterRun = null; }
  status.dataset.ms = String(ms);
  status.dataset.wasmMs = String(Math.round(a.value.wasmMs + (b ? b.value.wasmMs : 0)));
  status.dataset.runs = String(Number(status.dataset.runs || 0) + 1);
  emit('results');
}

/** Runs asked for, and the last whose full runs have ended (drawn or not). */
let runsAsked = 0, runsEnded = 0;

/** The placements of run `runNo`'s policies (the wasm's runPlacements, asked before the full
 * runs, so the worker answers them first), drawn in the timelines and the task list as soon as
 * they come, unless the full runs have ended by then or the check finds errors: on the large
 * traces Rust's `placementsFirst` names, the timeline follows an edit within a frame or two and
 * the figures when the full runs end. */
async function drawPlacements(runNo, inputs, policies, options, clean, started) {
  const answers = await Promise.all(policies.map((p) => (p == null ? null : sim.placements(inputs, p, options))));
  if (!(await clean) || runsEnded >= runNo) return;
  if (answers.some((x) => x && x.type !== 'success')) return; // the full run reports the error
  const [a, b] = answers.map((x) => x && x.value);
  drawTasks(a, b, false);
  state.placementsOnly = true;
  $('results').classList.add('stale');
  $('run-status').dataset.placementsMs = (performance.now() - started).toFixed(1);
  setStatus('placements drawn; working out power, energy and carbon…', 'running');
  emit('placements');
}

/** After a run that ends without a result (cancelled, failed), the timelines and the task list
 * show the last result again instead of the placements drawn for it. */
function undoPlacements() {
  if (!state.placementsOnly) return;
  state.placementsOnly = false;
  if (state.results[0]) showResults();
  else drawTasks(null, null, false); // the first run on these inputs: nothing to put back
}

// ---- results ---------------------------------------------------------------------------------

/** The timelines (extending the view to their end) and the task list of `a` and `b`, run values
 * or placements (null: none); returns the timelines' models. */
function drawTasks(a, b, stale) {
  const models = [a ? buildModel(a) : null, b ? buildModel(b) : null];
  const ends = models.filter(Boolean).map((m) => m.endMs);
  if (ends.length) {
    const end = Math.max(...ends);
    if (view.needsReset) { view.needsReset = false; view.reset(0, end); } else view.extend(0, end);
  }
  timelines[0].setModel(models[0], stale);
  timelines[1].setModel(models[1], stale);
  $('timeline-b-wrap').hidden = !b;
  $('timeline-a-label').hidden = !b;
  taskList.setTasks(a ? a.data : null, b ? b.data : null);
  return models;
}

function showResults() {
  state.placementsOnly = false;
  const [a, b] = state.results;
  $('results').classList.toggle('stale', state.stale);
  renderComparison($('metrics'), state.comparison);
  addMetricHooks($('metrics'));
  // What a policy feature could not do on these inputs (Rust's notes), for A and B.
  const notes = [...a.notes.map((n) => ({ p: '', n })), ...(b ? b.notes.map((n) => ({ p: 'B: ', n })) : [])];
  $('run-notes').replaceChildren(...notes.map(({ p, n }) => h('li', { 'data-feature': n.feature }, p + n.message)));
  const warnings = [...a.result.warnings.map((w) => ({ p: '', w })), ...(b ? b.result.warnings.map((w) => ({ p: 'B: ', w })) : [])];
  $('warnings').replaceChildren(...warnings.map(({ p, w }) => h('li', { class: w.severity }, p + diagText(w))));
  const models = drawTasks(a, b, state.stale);
  // The cluster overview of each run shown, from its run answer.
  timelines[0].setRun(sim, a.run, a.overview);
  timelines[1].setRun(sim, b ? b.run : null, b ? b.overview : null);
  const sel = state.selected;
  if (sel && !$('explain-panel').hidden) {
    const r = state.results[sel.which];
    const idx = r ? models[sel.which].taskIndex.get(sel.taskId) : undefined;
    timelines[sel.which].select(idx ?? -1);
    if (idx != null && (a.ms || 0) < 400) explainTask(sel.which, sel.taskId);
    else $('explain-note').textContent = 'the explanation below is from an earlier run; click the task again to refresh it';
  }
  if (view.cursorMs != null && !$('queue-section').hidden) showQueue(view.cursorMs, false);
}

// Six metrics of policy A also carry the page's stable hooks (README, "The page"). metrics.js
// names each value cell after the catalog key (metric-tasksCompleted); the hook wraps the figure
// inside that cell, with the same raw number in data-value, so nothing visible changes.
const METRIC_HOOKS = {
  tasksCompleted: 'metric-tasks-completed', tasksTerminated: 'metric-tasks-terminated', makespanMs: 'metric-makespan',
  energyJ: 'metric-energy', carbonG: 'metric-carbon', deferredTasks: 'metric-deferred',
};

function addMetricHooks(el) {
  for (const [key, testid] of Object.entries(METRIC_HOOKS)) {
    const cell = el.querySelector(`[data-testid="metric-${key}"]`);
    if (cell) cell.replaceChildren(h('span', { 'data-testid': testid, 'data-value': cell.dataset.value }, ...cell.childNodes));
  }
}

/** Explains a task in the inspector; `focus` (a user's click) moves the focus there. */
async function explainTask(which, taskId, focus = false) {
  const r = state.results[which];
  if (!r) return;
  if (state.placementsOnly) { // the timeline shows a run still being made: explained when it is in
    state.selected = { which, taskId };
    openInspector('explain', focus);
    $('explain-note').textContent = `task ${taskId}: explained once the run is in…`;
    return;
  }
  const m = timelines[which].model;
  const idx = m.taskIndex.get(taskId);
  if (idx == null) return;
  state.selected = { which, taskId };
  openInspector('explain', focus);
  timelines[which].select(idx);
  timelines[1 - which].select(-1);
  const el = $('explanation');
  $('explain-note').textContent = `explaining ${which ? 'B' : 'A'}: task ${taskId}…`;
  el.setAttribute('aria-busy', 'true');
  const answer = await sim.explain(r.run, taskId);
  if (state.selected?.taskId !== taskId) return;
  el.removeAttribute('aria-busy');
  $('explain-note').textContent = state.results[1] ? `policy ${which ? 'B' : 'A'}` : '';
  renderExplanation(el, r.data.task(idx), answer, r.result.startEpochMs);
  return answer;
}

/** The queue at the time cursor, from the wasm's queueAt. */
async function showQueue(ms, open = true) {
  const el = $('queue');
  if (open) openInspector('queue', false);
  if (state.placementsOnly) { // the queue is asked of a kept run: shown when the run is in
    el.replaceChildren(h('p', {}, 'the queue at the cursor is shown once the run is in…'));
    return;
  }
  const parts = [];
  for (const [i, r] of state.results.entries()) {
    if (!r) continue;
    const data = r.data;
    const name = (id) => { const k = data.indexOf(id); return k != null ? `${data.taskName(k)} (${id})` : id; };
    const a = await sim.queueAt(r.run, ms);
    if (a.type !== 'success') { parts.push(h('p', { class: 'error' }, a.errors.map(diagText).join('; '))); continue; }
    const q = a.value;
    const waiting = q.queue.filter((e) => e.state !== 'deferred').length;
    const deferred = q.queue.length - waiting;
    const more = [q.pending != null ? `${q.pending} not yet submitted` : null, q.completed != null ? `${q.completed} completed` : null,
      q.terminated ? `${q.terminated} terminated` : null].filter(Boolean).join(', ');
    const label = state.results[1] ? `${i ? 'B' : 'A'}: ` : '';
    parts.push(h('div', { class: 'queue-block', 'data-testid': `queue-${i ? 'b' : 'a'}` },
      h('h4', {}, `${label}${utcLabel(q.timeMs + r.result.startEpochMs, true, true)} UTC: ${q.running.length} running, ${waiting} waiting, ${deferred} deferred${more ? `; ${more}` : ''}`),
      q.queue.length ? h('ol', { class: 'queue-list', 'data-testid': 'queue-list' }, q.queue.slice(0, 50).map((e, k) => h('li', { class: e.state },
        h('button', { type: 'button', onclick: () => explainTask(i, e.taskId, true) }, name(e.taskId)),
        ` ${k === 0 ? 'head of the queue' : `#${k + 1}`}, ${e.state}${e.reason ? `: ${e.reason}` : ''}`))) : h('p', {}, 'the queue is empty'),
      q.queue.length > 50 ? h('p', {}, `and ${q.queue.length - 50} more`) : null,
      q.running.length ? h('details', {}, h('summary', {}, `${q.running.length} running`),
        h('ul', {}, q.running.slice(0, 200).map((e) => h('li', {}, `${name(e.taskId)} on ${e.host}`)))) : null));
  }
  el.replaceChildren(...parts);
}

// ---- share, lessons, exports -----------------------------------------------------------------

/** Puts a state in place (a link's, or a lesson's: `lesson` is its view) and runs it: the
 * inputs (a sample, or a lesson's embedded scenario text), the policies, the options, and the
 * link's visible time range once the run is shown. False when the inputs do not load. */
async function applyState(s, lesson = null) {
  suspended = true;
  try {
    replacePolicies(s.policy, s.policyB, lesson ? `The lesson “${lesson.title}”` : 'The link');
    if (s.scenario != null) {
      view.needsReset = true;
      if (!(await useScenarioText(s.scenario, lesson?.title))) return false;
    } else if (state.sample !== s.sample || !state.inputs.workload) {
      view.needsReset = true;
      if (!(await scenario.loadSample(s.sample))) return false;
    }
    scenario.setOptions(s.options);
  } finally {
    suspended = false;
  }
  saveLocal({ policy: state.policy, policyB: state.policyB });
  if (s.range) onOnce('results', () => view.set(s.range[0], s.range[1]));
  await checkAndRun();
  return true;
}

/** Puts a lesson's embedded scenario in use: the scenario text Rust made of it, loaded as a
 * scenario file (its policy is the lesson's A, which the editors already hold). */
async function useScenarioText(text, title) {
  const a = await sim.loadScenario(text);
  if (a.type !== 'success') {
    notice(`The lesson's scenario did not load: ${a.errors.map(diagText).join('; ')}`, 'error');
    return false;
  }
  for (const k of ['topology', 'workload', 'carbon']) {
    const old = state.inputs[k];
    if (old && !Object.values(a.refs).includes(old)) sim.release(old);
    state.inputs[k] = a.refs[k];
    state.summaries[k] = a.value[k] ? a.value[k].summary : null;
    state.sources[k] = 'lesson';
  }
  state.sample = null;
  $('sample-select').value = '';
  document.querySelector('[data-testid=scenario-status]').textContent = `the scenario of the lesson “${title}”`;
  scenario.showSummaries();
  emit('inputs', { kind: 'lesson' });
  return true;
}

/** A lesson's state: its inputs, policies and options, or a share link's policies, options and
 * range over the lesson's inputs (`override`). */
function lessonState(v, override = null) {
  return {
    sample: v.inputs.sample, scenario: v.inputs.scenario,
    policy: override ? override.policy : v.policies[0].text,
    policyB: override ? override.policyB : (v.policies[1]?.text ?? null),
    options: override ? override.options : { ...v.options },
    range: override?.range ?? null,
  };
}

/** Resolves once no check or run is in flight or queued. */
async function settled() {
  while (checking || running || again) await new Promise((r) => setTimeout(r, 50));
}

/** Opens what a link holds: a lesson (a lesson link, or a share link with one) or a state. */
async function openLink(s) {
  if (s.lesson != null) return lessons.open(s.lesson, 'of the link', s.policy != null ? s : null);
  lessons.close();
  return applyState(s);
}

async function share() {
  const out = $('share-url');
  const lessonText = lessons.text();
  if (!state.sample && lessonText == null) {
    out.value = '';
    notice('A link can hold the embedded samples only; for your own files, download the scenario (Export) and share that.', 'info');
    return;
  }
  const hash = await encodeShare({ sample: state.sample, policy: state.policy, policyB: state.policyB, options: state.options,
    lesson: lessonText, range: [view.t0, view.t1] });
  history.replaceState(null, '', hash);
  out.value = location.href;
  out.hidden = false;
  out.select();
  navigator.clipboard?.writeText(location.href).then(() => notice('Link copied.', 'info'), () => {});
}

function download(name, data, type = 'application/json') {
  const url = URL.createObjectURL(data instanceof Blob ? data : new Blob([data], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}


function createExports(el) {
  const button = (label, testid, fn) => h('button', { type: 'button', 'data-testid': testid, onclick: fn }, label);
  const args = (policy) => [sim.handlesJson(state.inputs), policy, JSON.stringify(runOptions())];
  const fail = (a) => notice(`Export failed: ${a.errors.map(diagText).join('; ')}`, 'error');
  /** A download of one text file per shown result (A, and B in compare mode), from its run. */
  const perResult = (names, type, fetch) => async () => {
    for (const [i, r] of state.results.entries()) {
      if (!r) continue;
      const a = await fetch(r.run);
      if (a.type !== 'success') return fail(a);
      download(names[i], a.value, type);
    }
  };
  // The timeline figure for slides (slide.js): the results shown, A above B, over the whole
  // cluster and run or over the visible range; the PNG is painted from the same SVG text.
  const figureRange = h('select', { 'data-testid': 'figure-range', 'aria-label': 'What the figure shows' },
    h('option', { value: 'whole' }, 'whole cluster'), h('option', { value: 'visible' }, 'visible range'));
  /** A policy's name for the figure: a prefab's, the document's `name`, or its type. */
  const policyName = (text) => {
    try {
      const p = JSON.parse(text);
      return p.type === 'prefab' && p.policyName ? String(p.policyName) : String(p.name || `custom ${p.type || 'policy'}`);
    } catch { return 'policy'; }
  };
  /** The inputs' name: the sample's, else the workload file's (OpenDC's generic `tasks`
   * parquet names nothing, then the topology file's). */
  const inputName = () => {
    const base = (src) => String(src || '').replace(/^file:/, '').split(/[,\s]+/)[0].replace(/\.[^.]*$/, '');
    const workload = base(state.sources.workload), topology = base(state.sources.topology);
    return state.sample || (workload && workload !== 'tasks' ? workload : topology && topology !== 'topology' ? topology : 'own inputs');
  };
  const figure = async () => {
    const slide = await import('./slide.js');
    const mode = /** @type {'whole' | 'visible'} */ (figureRange.value);
    const texts = [state.policy, state.policyB];
    const panels = [];
    for (const [i, r] of state.results.entries()) {
      const src = r && timelines[i].figureSource(mode);
      if (!src) continue;
      const checked = texts[i] == null ? null : await lint.call('check', texts[i]);
      const description = checked?.type === 'success' ? checked.value.descriptions[0] : null;
      panels.push({ key: i ? 'B' : 'A', name: policyName(texts[i] ?? ''), description, ...src });
    }
    if (!panels.length) return null;
    const [t0, t1] = mode === 'whole' ? [0, Math.max(...panels.map((p) => p.model.endMs))] : [view.t0, view.t1];
    const sample = inputName();
    const fig = slide.slideSvg({ sample, mode, t0, t1, panels });
    return { ...fig, slide, name: (ext) => slide.figureFileName(sample, panels.map((p) => p.name), ext, mode) };
  };
  el.append(...[
    button('Result (JSON)', 'export-result',
      perResult(['result.json', 'result-B.json'], 'application/json', (run) => sim.resultJson(run))),
    button('Tasks (CSV)', 'export-tasks-csv',
      perResult(['tasks.csv', 'tasks-B.csv'], 'text/csv', (run) => sim.tasksCsv(run))),
    h('span', { class: 'figure-export', role: 'group', 'aria-label': 'Timeline figure for slides', 'data-testid': 'figure-export' },
      h('span', {}, 'Figure for slides:'), figureRange,
      button('Figure (SVG)', 'export-figure-svg', async () => {
        const fig = await figure();
        if (fig) download(fig.name('svg'), fig.svg, 'image/svg+xml');
      }),
      button('Figure (PNG, 2×)', 'export-figure-png', async () => {
        const fig = await figure();
        if (fig) download(fig.name('png'), await fig.slide.svgToPng(fig.svg, 2));
      })),
    button('Timeline view (PNG)', 'export-png', () => {
      for (const [i, t] of timelines.entries()) {
        if (!state.results[i]) continue;
        t.flush(); // a timeline out of view owes its last draw
        t.canvas.toBlob((blob) => blob && download(i ? 'timeline-B.png' : 'timeline.png', blob));
      }
    }),
    button('Timeline view (SVG)', 'export-svg', () => {
      for (const [i, t] of timelines.entries()) {
        if (state.results[i]) download(i ? 'timeline-B.svg' : 'timeline.svg', t.toSvg(), 'image/svg+xml');
      }
    }),
    button('Scenario file', 'export-scenario', async () => {
      const a = await sim.call('exportScenario', ...args(state.policy));
      if (a.type === 'success') download('scenario.json', a.value); else fail(a);
    }),
    button('OpenDC 3 experiment (.zip)', 'export-opendc3', async () => {
      const a = await sim.call('exportOpenDc3Experiment', ...args(state.policy));
      if (a.type !== 'success') return fail(a);
      download('opendc3-experiment.zip', opendc3Zip(a.value));
    }),
    button('OpenDC 2 experiment (.zip, legacy)', 'export-opendc', async () => {
      const a = await sim.call('exportOpenDcExperiment', ...args(state.policy));
      if (a.type !== 'success') return fail(a);
      const notes = ['# Continuing this study in OpenDC', '', ...a.value.notes.map((n) => `- ${n}`), ''].join('\n');
      /** @type {[string, string | Uint8Array][]} */
      const files = [['experiment.json', pretty(a.value.experiment)], ['topology.json', pretty(a.value.topology)], ['NOTES.md', notes]];
      const w = await sim.call('exportWorkloadParquet', state.inputs.workload.handle);
      if (w.type !== 'success') return fail(w);
      files.push(['workload/tasks.parquet', w.value.tasks], ['workload/fragments.parquet', w.value.fragments]);
      if (state.inputs.carbon) {
        const c = await sim.call('exportCarbonParquet', state.inputs.carbon.handle);
        if (c.type !== 'success') return fail(c);
        files.push(['carbon.parquet', c.value]);
      }
      download('opendc-experiment.zip', zip(files));
    }),
  ]);
}

// ---- start -----------------------------------------------------------------------------------

async function start() {
  await Promise.all([sim.ready, lint.ready, loadFormat()]);
  const [schema, prefabs, def, defaults, catalog, lessonLimits] = await Promise.all([lint.call('policySchema'), lint.call('prefabs'),
    lint.call('defaultPolicy'), lint.call('defaultOptions'), lint.call('metrics'), lint.call('lessonLimits')]);
  if (schema.type !== 'success' || prefabs.type !== 'success' || def.type !== 'success'
    || defaults.type !== 'success' || catalog.type !== 'success' || lessonLimits.type !== 'success') {
    notice('The policy engine did not start; reload the page.', 'error');
    setStatus('not started', 'failed');
    return;
  }
  state.defaults = defaults.value;
  state.options = freshOptions();
  setMetricCatalog(catalog.value);
  const saved = loadLocal();
  /** @type {{sample: string, policy: string, policyB: string | null, options: object}} */
  let initial = {
    sample: 'teaching',
    policy: typeof saved?.policy === 'string' ? saved.policy : pretty(def.value),
    policyB: typeof saved?.policyB === 'string' ? saved.policyB : null,
    options: freshOptions(),
  };
  const limits = lessonLimits.value;
  const shared = await decodeShare(location.hash, SAMPLES, limits.maxLinkBytes);
  if (shared?.error) notice(`${shared.error}; kept your current work.`, 'error');
  else if (shared?.lesson == null && shared) initial = /** @type {typeof initial} */ (shared);
  state.policy = initial.policy;

  panelA = createPolicyPanel($('policy-a'), {
    id: 'A', title: 'Policy', schema: schema.value, prefabs: prefabs.value, lint, doc: initial.policy,
    onChange: (t) => { state.policy = t; edited(); },
  });
  compare = createCompare($('compare-toggle'), $('policy-b'), {
    schema: schema.value, prefabs: prefabs.value, lint, onChange: () => edited(),
  });
  on('compare', (on) => {
    $('timeline-b-wrap').hidden = !on || !state.results[1];
    document.body.classList.toggle('comparing', on);
    if (on && !suspended) { reveal($('policy-b')); revealAfterRun = '[data-testid=metric-b-tasksCompleted]'; }
  });
  scenario = createScenarioPanel($('scenario'), { engine: sim, onPolicy: (t) => { replacePolicies(t, state.policyB, 'The scenario file'); edited(); } });
  await scenario.init();
  on('inputs', () => { view.needsReset = true; requestRun(); });
  // Options change the run, and the semantics what differs from OpenDC: check and run again.
  on('options', () => edited());

  const onCursor = (ms) => showQueue(ms);
  timelines = [
    new Timeline($('timeline-a'), view, { label: 'Timeline of policy A', testid: 'timeline', onSelect: (id) => explainTask(0, id, true), onCursor }),
    new Timeline($('timeline-b'), view, { label: 'Timeline of policy B', testid: 'timeline-b', onSelect: (id) => explainTask(1, id, true), onCursor }),
  ];
  $('cursor-mode').addEventListener('change', (e) => { for (const t of timelines) t.cursorMode = /** @type {HTMLInputElement} */ (e.target).checked; });
  $('zoom-reset').addEventListener('click', () => view.set(view.min, view.max));
  taskList = createTaskList($('task-finder'), (which, id) => { timelines[which].reveal(id); explainTask(which, id, true); });
  createGallery($('gallery'), { lint, onLesson: (text, source) => lessons.open(text, source), maxBytes: () => limits.maxLessonBytes });
  lessons = createLessons($('gallery'), $('lesson-caption'), {
    lint, sim, settled, show: reveal,
    apply: (v, override) => { if (!$('inspector').hidden) closeInspector(); return applyState(lessonState(v, override), v); },
    runs: () => state.results.filter(Boolean).map((r) => r.run),
  });
  on('results', () => lessons.onResults());
  createExports($('exports'));
  // The second simulating worker, holding copies of the inputs, for portfolios and sweeps that
  // Rust splits in two (mirror.js).
  const mirror = createMirror(sim, WORKER);
  const sweep = createSweepPanel($('sweep-panel'), {
    engine: sim, second: mirror, lint, getPolicy: () => state.policy, getInputs: () => state.inputs, getOptions: runOptions,
    lastRunMs: () => state.results[0]?.wasmMs, download,
  });
  on('results', () => sweep.refresh());
  // The portfolio (portfolio.js): many policies side by side; any two open here as A and B.
  const portfolio = createPortfolio($('portfolio-panel'), {
    engine: sim, second: mirror, lint, prefabs: prefabs.value, getInputs: () => state.inputs, getOptions: runOptions, download,
    onOpen: (a, b) => { replacePolicies(a.policy, b ? b.policy : null, 'The portfolio'); edited(); reveal($('timeline-panel')); },
  });
  for (const event of ['results', 'compare', 'inputs']) on(event, () => portfolio.refresh());
  // The run's series under the timeline, on its time axis (strips.js).
  const strips = createStrips($('strips'), view, { download });
  on('results', () => strips.set(state.results.filter(Boolean).map((r, i) => ({ label: state.results[1] ? (i ? 'B' : 'A') : 'A', result: r.result, steps: r.steps }))));
  // The replay of policy A's run (replay.js), over the same queue and inspector views.
  const replay = createReplay($('replay'), { sim, view, timelines, getRun: () => state.results[0], showQueue, explainTask });
  on('results', () => replay.reset());
  $('cancel').addEventListener('click', () => sim.cancel());
  $('inspector-close').addEventListener('click', closeInspector);
  document.addEventListener('keydown', (e) => {
    // Escape closes the inspector, unless an editor (CodeMirror uses Escape) or a menu has it.
    if (e.key !== 'Escape' || e.defaultPrevented || $('inspector').hidden) return;
    if (/** @type {Element} */ (e.target).closest?.('.cm-editor, select, input')) return;
    closeInspector();
  });
  // The sticky header's height, for scroll margins (narrow screens scroll the page under it).
  new ResizeObserver(() => document.documentElement.style.setProperty('--header-h', `${document.querySelector('header').offsetHeight}px`))
    .observe(document.querySelector('header'));
  $('share').addEventListener('click', share);
  window.addEventListener('hashchange', async () => {
    const s = await decodeShare(location.hash, SAMPLES, limits.maxLinkBytes);
    if (s?.error) notice(`${s.error}; kept your current work.`, 'error');
    else if (s) openLink(s);
  });

  // A lesson link opens its lesson (the default state when it cannot).
  if (!(shared?.lesson != null && await openLink(shared))) await applyState(initial);
  suspendedStart = false;
  // For the tests and the benchmark (tests/e2e): the engines, the state, and a way to edit.
  /** @type {any} */ (window).__playground = {
    sim, lint, state, view, timelines, replay, lessons, portfolio, ready: true,
    setPolicy: (text) => panelA.setText(text),
    /** No edit waits for its check and no run is in flight or queued. */
    idle: () => !checking && !running && !again,
    nextResults: () => new Promise((resolve) => onOnce('results', resolve)),
    /** Resolves when the placements of a run on a large trace are drawn (before its figures). */
    nextPlacements: () => new Promise((resolve) => onOnce('placements', resolve)),
    /** Whether runs on the loaded workload draw their placements first (Rust's placementsFirst). */
    drawsPlacementsFirst: () => placementsFirst(state.summaries.workload?.fragments ?? 0),
  };
  document.body.dataset.ready = 'true';
}

start().catch((e) => {
  console.error(e);
  notice(`The page failed to start: ${e.message}`, 'error');
  setStatus('not started', 'failed');
});
