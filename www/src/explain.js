// The explanation of one task: every decision the Rust `explain` recorded (deferral tests with
// regime, reference intensity and slack; placements with the host table of filters and weighers,
// ranks, the random draw and the aggregate sentence; pauses; a rejection), shown as given. Also
// the searchable task list. All text goes in through textContent (h()).
import { h } from './state.js';
import { utcLabel } from './timeline.js';
import { duration } from './format.js';

const num = (v, digits = 3) => (v == null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(digits));
const at = (ms, epoch) => `${utcLabel(ms + epoch, true, true)} (t = ${duration(ms)})`;
/** @param {import('./types/answers').Decision} d the decision's time, simulation ms */
const timeOf = (d) => (d.kind === 'deferral' ? d.nowMs : d.timeMs);

function deferral(d, epoch) {
  return h('div', { class: `decision deferral ${d.deferred ? 'deferred' : 'runs'}`, 'data-testid': 'decision-deferral' },
    h('h4', {}, `${at(d.nowMs, epoch)}: ${d.deferred ? 'deferred' : 'not deferred'}`),
    h('p', {}, d.reason),
    h('dl', {},
      h('dt', {}, 'regime'), h('dd', {}, `${d.regime} for ${d.taskLength} tasks`),
      h('dt', {}, 'intensity'), h('dd', {}, `${num(d.currentIntensity, 2)} gCO₂/kWh now, reference ${num(d.referenceIntensity, 2)}`),
      h('dt', {}, 'basis'), h('dd', {}, d.basis ? `${d.basis.kind === 'forecast' ? 'forecast of' : 'mean of the last'} ${d.basis.samples} samples` : '—'),
      h('dt', {}, 'slack'), h('dd', {}, `${duration(d.slackMs)} (remaining ${duration(d.remainingMs)}, deadline ${d.deadlineMs == null ? 'none' : utcLabel(d.deadlineMs + epoch, true, true)})`),
    ));
}

function placement(d, epoch, open) {
  const p = d.placement;
  const weighers = p.weighers || [];
  const head = h('tr', {}, h('th', { scope: 'col' }, 'host'), h('th', { scope: 'col' }, 'filters'),
    ...weighers.map((w) => h('th', { scope: 'col', title: `multiplier ${w.multiplier}; range ${num(w.min)}..${num(w.max)}${w.active ? '' : ' (adds nothing)'}` },
      `${w.weigher}${w.active ? '' : ' (inactive)'}`, h('br'), h('small', {}, 'raw / norm × mult = contrib'))),
    h('th', { scope: 'col' }, 'total'), h('th', { scope: 'col' }, p.scheduler === 'memorizing' ? 'bucket' : 'rank'));
  const rows = p.hosts.map((r) => h('tr', { class: [r.passed ? 'pass' : 'fail', r.name === p.chosen ? 'chosen' : ''].join(' ') },
    h('th', { scope: 'row' }, r.name, r.name === p.chosen ? ' ✔ chosen' : ''),
    h('td', {}, r.passed ? 'pass' : `${r.rejectedBy}: ${r.reason || 'rejected'}`),
    ...weighers.map((w, i) => {
      const s = r.scores.find((x) => x.weigher === w.weigher) || r.scores[i];
      return h('td', { class: 'num' }, s ? `${num(s.raw)} / ${num(s.normalized)} × ${num(s.multiplier)} = ${num(s.contribution)}` : '');
    }),
    h('td', { class: 'num' }, num(r.total)),
    h('td', { class: 'num' }, p.scheduler === 'memorizing' ? num(r.bucket) : num(r.rank))));
  const draw = p.draw
    ? `random draw: index ${p.draw.index} among the best ${p.draw.among} (generator output${p.draw.values.length > 1 ? 's' : ''} ${p.draw.values.join(', ')})`
    : `no random draw (subset ${p.subset} of ${p.candidates} candidates)`;
  return h('details', { class: 'decision placement', open, 'data-testid': 'decision-placement' },
    h('summary', {}, `${at(timeOf(d), epoch)}: `, h('strong', { 'data-testid': 'placement-summary' }, p.summary)),
    h('p', {}, `${p.scheduler} scheduler; ${p.candidates} candidates; ${draw}`),
    h('div', { class: 'table-scroll' }, h('table', { class: 'host-table', 'data-testid': 'host-table' }, h('thead', {}, head), h('tbody', {}, rows))));
}

/** Renders the explanation of `task` into `el`. */
/**
 * @param {HTMLElement} el
 * @param {import('./types/answers').TaskRecord} task
 * @param {import('./types/answers').Answers['explain']} answer
 * @param {number} epoch the run's start, ms since the Unix epoch
 */
export function renderExplanation(el, task, answer, epoch) {
  el.replaceChildren();
  const head = h('div', { class: 'explain-head' },
    h('h3', {}, `${task.name} `, h('small', {}, `id ${task.id}`)),
    h('p', {}, `${task.state}; submitted ${at(task.submitMs, epoch)}; ${task.startMs == null ? 'never started' : `started ${at(task.startMs, epoch)}`}; waited ${duration(task.waitMs)}; ${task.cpuCount} cores, ${task.memoryMib} MiB, runs ${duration(task.durationMs)}${task.reason ? `; ${task.reason}` : ''}`));
  el.append(head);
  if (answer.type !== 'success') {
    el.append(h('p', { class: 'error', 'data-testid': 'explain-error' }, answer.errors.map((e) => e.message).join('; ')));
    return;
  }
  const decisions = answer.value.decisions;
  let firstPlacement = true;
  const items = decisions.map((d) => {
    if (d.kind === 'deferral') return deferral(d, epoch);
    if (d.kind === 'placement') {
      const chosen = !!d.placement.chosen;
      const node = placement(d, epoch, chosen || (firstPlacement && decisions.length < 4));
      firstPlacement = false;
      return node;
    }
    if (d.kind === 'pause') {
      return h('div', { class: 'decision pause', 'data-testid': 'decision-pause' },
        h('h4', {}, `${at(timeOf(d), epoch)}: paused by the task stopper`),
        h('p', {}, `remaining work ${duration(d.remainingMs)}`));
    }
    if (d.kind === 'rejection') {
      return h('div', { class: 'decision rejection', 'data-testid': 'decision-rejection' },
        h('h4', {}, `${at(timeOf(d), epoch)}: rejected`), h('p', {}, d.reason));
    }
    return h('pre', {}, JSON.stringify(d, null, 2));
  });
  el.append(h('p', {}, `${decisions.length} decision${decisions.length === 1 ? '' : 's'}${answer.value.omitted ? ` (${answer.value.omitted} more not kept)` : ''}`), ...items);
}

/** The searchable list of tasks of the results shown (A's, and B's when comparing);
 * `onPick(which, taskId)` with which 0 for A, 1 for B. The list is one Tab stop: the arrow keys,
 * Home and End move inside it (a roving tabindex), so 100 tasks do not fill the Tab order. */
export function createTaskList(el, onPick) {
  const input = h('input', { type: 'search', id: 'task-search', placeholder: 'id or name', 'data-testid': 'task-search', 'aria-label': 'Search tasks by id or name' });
  const list = h('ul', { class: 'task-list', 'data-testid': 'task-list', 'aria-label': 'Tasks (arrow keys move in the list)' });
  const note = h('p', { class: 'note' });
  el.append(h('label', { for: 'task-search' }, 'Find a task '), input, note, list);
  /** @type {any[][]} the tasks of A and of B */
  let results = [[], []];
  const render = () => {
    const q = input.value.trim().toLowerCase();
    const both = results[1].length > 0;
    const found = [];
    for (const [which, tasks] of results.entries()) {
      for (const t of tasks) {
        if (found.length > 100) break;
        if (!q || t.id.toLowerCase().includes(q) || t.name.toLowerCase().includes(q)) found.push({ which, t });
      }
    }
    list.replaceChildren(...found.slice(0, 100).map(({ which, t }, i) => h('li', {},
      h('button', {
        type: 'button', 'data-testid': 'task-list-item', 'data-task': t.id, 'data-policy': which ? 'B' : 'A',
        tabindex: i === 0 ? '0' : '-1', onclick: () => onPick(which, t.id),
      }, `${both ? `${which ? 'B' : 'A'} · ` : ''}${t.name} (${t.id})${t.state === 'completed' ? '' : ` — ${t.state}`}${t.waitMs ? `, waited ${duration(t.waitMs)}` : ''}${t.deferrals.length ? ', deferred' : ''}`))));
    note.textContent = found.length > 100 ? 'showing the first 100 matches; type to narrow' : `${found.length} match${found.length === 1 ? '' : 'es'}`;
  };
  // The roving tabindex: the focused item is the list's one Tab stop.
  list.addEventListener('keydown', (e) => {
    const items = [...list.querySelectorAll('button')];
    const at = items.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (at < 0) return;
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[e.key];
    if (to == null) return;
    e.preventDefault();
    const next = items[Math.max(0, Math.min(items.length - 1, to))];
    for (const b of items) b.tabIndex = b === next ? 0 : -1;
    next.focus();
  });
  input.addEventListener('input', render);
  return { setTasks(a, b = []) { results = [a, b]; render(); } };
}
