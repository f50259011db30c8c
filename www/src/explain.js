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
    p.other ? h('p', { class: 'note', 'data-testid': 'placement-other' }, p.other.text) : null,
    p.refusal ? h('p', { class: 'note', 'data-testid': 'placement-refusal' }, p.refusal) : null,
    p.current ? currentRecord(p.current) : h('p', {}, `${p.scheduler} scheduler; ${p.candidates} candidates; ${draw}`),
    p.current ? null : h('div', { class: 'table-scroll' }, h('table', { class: 'host-table', 'data-testid': 'host-table' }, h('thead', {}, head), h('tbody', {}, rows))));
}

/** OpenDC 3's decision (SPEC 11.12, C20): the candidates in C's order with their origin, the
 * weights W before and after each weigher, and every update of maxIdx and maxW. */
function currentRecord(c) {
  const n = (v) => (typeof v === 'string' ? v : num(v));
  const head = h('tr', {}, h('th', { scope: 'col' }, 'candidate'), h('th', { scope: 'col' }, 'origin'),
    ...c.weighers.map((w) => h('th', { scope: 'col', title: `lo ${n(w.lo)}, hi ${n(w.hi)}, range ${n(w.range)}, factor ${w.factor == null ? 'skipped' : n(w.factor)}` },
      `${w.weigher} × ${w.multiplier}`, h('br'), h('small', {}, 'raw: W before → after'))));
  const rows = c.candidates.map((cand, i) => h('tr', { class: i === c.maxIdx ? 'chosen' : '' },
    h('th', { scope: 'row' }, cand.host, i === c.maxIdx ? ' ✔ chosen' : ''),
    h('td', {}, cand.origin),
    ...c.weighers.map((w) => h('td', { class: 'num' }, `${n(w.raw[i])}: ${n(w.wBefore[i])} → ${n(w.wAfter[i])}`))));
  const updates = c.maxUpdates.length
    ? c.maxUpdates.map((u) => `${u.host} (position ${u.index + 1}): W ${n(u.w)} > maxW, so maxW = ${n(u.maxW)}`).join('; ')
    : 'no W exceeded maxW: the first candidate is chosen';
  const failed = c.failedHeads.map((f) => `type ${f.type}: ${f.host} fails ${f.filter} (${f.reason})`).join('; ');
  return h('div', { class: 'current-record', 'data-testid': 'current-record' },
    h('p', {}, `OpenDC 3's filter scheduler (Current): ${c.candidates.length} candidates, used hosts first, then the first empty host of each type; weights persist by position.`),
    failed ? h('p', {}, `Empty hosts that offered no candidate: ${failed}.`) : null,
    h('div', { class: 'table-scroll' }, h('table', { class: 'host-table', 'data-testid': 'current-table' }, h('thead', {}, head), h('tbody', {}, rows))),
    h('p', {}, updates));
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

/** The height of a row of the task list, px (the list is virtualised: rows are placed by it). */
const ROW_H = 22;
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 8;

/** The searchable list of tasks of the results shown (A's, and B's when comparing);
 * `onPick(which, taskId)` with which 0 for A, 1 for B. Every match is in the list, however many:
 * it is virtualised (rows of a fixed height, only those in view and the focused one in the
 * DOM), so surf_week's thousands of tasks of A and B scroll as one list. It is one Tab stop
 * (a roving tabindex): the arrow keys, Page Up/Down, Home and End move inside it, scrolling the
 * focused task into view; each item carries its place in the whole list (aria-posinset of
 * aria-setsize) for screen readers. */
export function createTaskList(el, onPick) {
  const input = h('input', { type: 'search', id: 'task-search', placeholder: 'id or name', 'data-testid': 'task-search', 'aria-label': 'Search tasks by id or name' });
  const list = h('ul', { class: 'task-list virtual', 'data-testid': 'task-list', 'aria-label': 'Tasks (arrow keys, Page Up/Down, Home and End move in the list)' });
  const scroller = h('div', { class: 'task-scroll', 'data-testid': 'task-scroll' }, list);
  const note = h('p', { class: 'note', 'data-testid': 'task-count', 'aria-live': 'polite' });
  el.append(h('label', { for: 'task-search' }, 'Find a task '), input, note, scroller);
  /** @type {(import('./columns.js').RunData | null)[]} the tasks of A and of B */
  let results = [null, null];
  /** The matches, A's then B's: task index * 2 + which (0 for A, 1 for B). */
  let found = new Int32Array(0);
  /** The results `found` was made from (a new result keeps the task in focus by its id). */
  let foundFrom = [null, null];
  let both = false;
  /** The match that is the list's Tab stop. */
  let active = 0;
  /** The rows in the DOM, by match index, in index order. */
  const shown = new Map();
  const which = (i) => found[i] & 1, index = (i) => found[i] >> 1;

  const label = (i) => {
    const d = results[which(i)], k = index(i), state = d.state(k), wait = d.waitMs(k);
    return `${both ? `${which(i) ? 'B' : 'A'} · ` : ''}${d.taskName(k)} (${d.taskId(k)})${state === 'completed' ? '' : ` — ${state}`}${wait ? `, waited ${duration(wait)}` : ''}${d.deferrals(k) ? ', deferred' : ''}`;
  };
  const row = (i) => {
    const w = which(i), id = results[w].taskId(index(i));
    const li = h('li', { 'aria-setsize': found.length, 'aria-posinset': i + 1, 'data-index': i },
      h('button', {
        type: 'button', 'data-testid': 'task-list-item', 'data-task': id, 'data-policy': w ? 'B' : 'A',
        tabindex: i === active ? '0' : '-1', onclick: () => onPick(w, id),
      }, label(i)));
    li.style.top = `${i * ROW_H}px`;
    li.style.height = `${ROW_H}px`;
    return li;
  };
  /** Rows per page: those that fit in the scroll box. */
  // The scroll box's height and offset as last seen (by its ResizeObserver and scroll events, and
  // as set here): reading them while painting would lay the page out again after each new
  // result's DOM changes.
  let viewH = 0, scrollTop = 0;
  // (The browser clamps an offset past the end, and its scroll event then brings the one here.)
  const setScroll = (y) => { scroller.scrollTop = y; scrollTop = Math.max(0, y); };
  const page = () => Math.max(1, Math.floor((viewH || ROW_H * 8) / ROW_H));

  /** Puts the rows in view (and the active one) in the DOM, keeping those already there (the
   * focused one is never taken out, so it keeps the focus). */
  const paint = () => {
    const top = scrollTop;
    const first = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
    const last = Math.min(found.length - 1, Math.ceil((top + (viewH || ROW_H * 8)) / ROW_H) + OVERSCAN);
    const wanted = [];
    for (let i = first; i <= last; i++) wanted.push(i);
    if (active < found.length && (active < first || active > last)) {
      wanted.push(active);
      wanted.sort((a, b) => a - b);
    }
    const keep = new Set(wanted);
    for (const [i, li] of shown) if (!keep.has(i)) { li.remove(); shown.delete(i); }
    // Merge: the rows kept are in index order, and so are the wanted ones.
    let at = list.firstElementChild;
    for (const i of wanted) {
      const li = shown.get(i);
      if (li) { at = li.nextElementSibling; continue; }
      const fresh = row(i);
      list.insertBefore(fresh, at);
      shown.set(i, fresh);
    }
  };

  /** Makes match `i` the Tab stop; `focus`: scroll it into view and focus it. */
  const setActive = (i, focus) => {
    if (!found.length) return;
    i = Math.max(0, Math.min(found.length - 1, i));
    const before = shown.get(active)?.firstElementChild;
    if (before) before.tabIndex = -1;
    active = i;
    if (focus) {
      const y = i * ROW_H, view = viewH || ROW_H * 8;
      if (y < scrollTop) setScroll(y);
      else if (y + ROW_H > scrollTop + view) setScroll(y + ROW_H - view);
    }
    paint();
    const button = /** @type {HTMLButtonElement} */ (shown.get(i).firstElementChild);
    button.tabIndex = 0;
    if (focus) button.focus();
  };

  /** Matches the search anew; `keep`: stay on the same task when it still matches. */
  const render = (keep) => {
    const q = input.value.trim().toLowerCase();
    const was = keep && active < found.length ? { w: which(active), id: foundFrom[which(active)]?.taskId(index(active)) } : null;
    const hadFocus = list.contains(document.activeElement);
    both = !!results[1] && results[1].n > 0;
    const total = (results[0]?.n ?? 0) + (results[1]?.n ?? 0);
    const all = new Int32Array(total);
    let count = 0;
    for (const [w, d] of results.entries()) {
      if (!d) continue;
      for (let k = 0; k < d.n; k++) {
        if (!q || d.taskId(k).toLowerCase().includes(q) || d.taskName(k).toLowerCase().includes(q)) all[count++] = k * 2 + w;
      }
    }
    found = all.subarray(0, count);
    foundFrom = [...results];
    active = 0;
    if (was && results[was.w]) {
      const k = results[was.w].indexOf(was.id);
      if (k != null) active = Math.max(0, found.indexOf(k * 2 + was.w));
    }
    for (const li of shown.values()) li.remove();
    shown.clear();
    list.style.height = `${found.length * ROW_H}px`;
    if (!keep) setScroll(0);
    let inB = 0;
    for (let i = 0; i < found.length; i++) inB += found[i] & 1;
    const counts = both ? ` (A ${found.length - inB}, B ${inB})` : '';
    note.textContent = `${found.length} match${found.length === 1 ? '' : 'es'}${counts}`;
    list.dataset.matches = String(found.length);
    paint();
    if (hadFocus && found.length) setActive(active, true);
  };

  scroller.addEventListener('scroll', () => { scrollTop = scroller.scrollTop; paint(); });
  new ResizeObserver(() => { viewH = scroller.clientHeight; paint(); }).observe(scroller);
  // A click or a Tab into the list makes that task the Tab stop.
  list.addEventListener('focusin', (e) => {
    const li = /** @type {HTMLElement} */ (e.target).closest?.('li');
    if (li && Number(li.dataset.index) !== active) setActive(Number(li.dataset.index), false);
  });
  list.addEventListener('keydown', (e) => {
    const li = /** @type {HTMLElement} */ (document.activeElement)?.closest?.('li');
    if (!li || !list.contains(li)) return;
    const at = Number(li.dataset.index);
    const to = {
      ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: found.length - 1,
      PageDown: at + Math.max(1, page() - 1), PageUp: at - Math.max(1, page() - 1),
    }[e.key];
    if (to == null) return;
    e.preventDefault();
    setActive(to, true);
  });
  input.addEventListener('input', () => render(false));
  return {
    /** The tasks of A's run and of B's (or null), as www/src/columns.js reads them. */
    setTasks(a, b = null) { results = [a, b]; render(true); },
  };
}
