// The task table: a small workload (Rust's workloadTable: at most 1000 tasks) as rows to edit.
// Every change (a cell, a removed row, an added one) sends the rows to Rust (editWorkload),
// which checks them with the workload reader's rules and answers the edited workload as JSON;
// that is loaded as the workload in use (so it runs, exports and reloads like a file). A row
// Rust refuses keeps the workload as it was, with the message beside the table and the cell
// marked.
import { state, h, diagText } from './state.js';

/** The columns shown, their header and input type (`fragments` and `from` are not edited).
 * @type {[string, string, string, number][]} */
const COLUMNS = [
  ['id', 'id', 'text', 4],
  ['name', 'name', 'text', 10],
  ['submission', 'submission (UTC)', 'text', 19],
  ['durationMinutes', 'duration (min)', 'number', 6],
  ['cpuCount', 'cores', 'number', 3],
  ['cpuCapacityMhz', 'capacity (MHz)', 'number', 6],
  ['memoryMib', 'memory (MiB)', 'number', 6],
  ['deferrable', 'deferrable', 'checkbox', 0],
  ['deadline', 'deadline (UTC, empty: none)', 'text', 19],
];

/**
 * @param {HTMLElement} el
 * @param {{engine: any, setWorkload: (ref: any, summary: any, source: string) => void}} deps
 */
export function createTaskTable(el, { engine, setWorkload }) {
  const msg = h('p', { class: 'loader-msg', 'data-testid': 'tasks-msg', 'aria-live': 'polite' });
  const body = h('div', { class: 'task-table-wrap' });
  const details = h('details', { class: 'task-table', 'data-testid': 'task-table' },
    h('summary', {}, 'Edit the tasks (small workloads)'),
    h('p', { class: 'note' }, 'Change a cell, remove a row or add one; the workload is checked and run again. A task keeps its CPU-usage fragments, cut or lengthened to a new duration; a new task uses its whole capacity.'),
    body, msg);
  el.append(details);
  /** @type {any[] | null} */
  let rows = null;
  let template = null;
  let shownFor = null; // the workload ref the table shows

  async function refresh() {
    if (!details.open) return;
    const ref = state.inputs.workload;
    if (ref === shownFor && rows) return;
    shownFor = ref;
    rows = null;
    if (!ref) { body.replaceChildren(); return; }
    const answer = await engine.call('workloadTable', ref.handle);
    if (ref !== state.inputs.workload) return; // replaced meanwhile
    if (answer.type !== 'success') {
      body.replaceChildren(h('p', { class: 'note', 'data-testid': 'tasks-too-many' }, answer.errors.map((e) => e.message).join('; ')));
      return;
    }
    rows = answer.value.rows;
    template = answer.value.template;
    render();
  }

  function cell(r, i, [key, title, type, size]) {
    const id = `task-${i}-${key}`;
    const attrs = { id, 'data-testid': id, 'aria-label': `row ${i + 1}: ${title}` };
    let input;
    if (type === 'checkbox') {
      input = h('input', { type: 'checkbox', ...attrs });
      input.checked = !!r[key];
    } else {
      input = h('input', { type, step: 'any', size, style: null, class: `w${size}`, ...attrs });
      input.value = r[key] == null ? '' : String(r[key]);
    }
    input.addEventListener('change', () => {
      const copy = rows.map((x) => ({ ...x }));
      copy[i][key] = type === 'checkbox' ? input.checked
        : type === 'number' ? (input.value.trim() === '' ? null : Number(input.value))
          : key === 'deadline' && input.value.trim() === '' ? null : input.value;
      send(copy, `row ${i + 1} changed`);
    });
    return h('td', {}, input);
  }

  function render() {
    const head = h('tr', {}, h('th', { scope: 'col' }, '#'), ...COLUMNS.map(([, t]) => h('th', { scope: 'col' }, t)),
      h('th', { scope: 'col' }, 'fragments'), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'remove')));
    const lines = rows.map((r, i) => h('tr', { 'data-row': String(i) },
      h('th', { scope: 'row' }, String(i + 1)),
      ...COLUMNS.map((c) => cell(r, i, c)),
      h('td', { 'data-testid': `task-${i}-fragments` }, String(r.fragments)),
      h('td', {}, h('button', { type: 'button', 'data-testid': `task-${i}-remove`, 'aria-label': `remove row ${i + 1}`,
        onclick: () => send(rows.filter((_, k) => k !== i), `row ${i + 1} removed`) }, '−'))));
    const add = h('button', { type: 'button', 'data-testid': 'task-add', onclick: () => send([...rows, template], 'a task added') }, 'Add a task');
    body.replaceChildren(h('table', { class: 'tasks', 'data-testid': 'task-rows' }, h('thead', {}, head), h('tbody', {}, ...lines)), add);
  }

  async function send(edited, what) {
    const ref = shownFor;
    for (const x of body.querySelectorAll('input.error')) x.classList.remove('error');
    msg.textContent = 'checking…';
    msg.classList.remove('error');
    const answer = await engine.call('editWorkload', ref.handle, JSON.stringify(edited));
    if (answer.type !== 'success') {
      msg.textContent = `not applied: ${answer.errors.map(diagText).join('; ')}`;
      msg.classList.add('error');
      for (const e of answer.errors) {
        const m = /^rows\[(\d+)\]\.(\w+)/.exec(e.path || '');
        if (m) body.querySelector(`#task-${m[1]}-${m[2]}`)?.classList.add('error');
      }
      return;
    }
    const loaded = await engine.load('loadWorkload', answer.value, 'json');
    if (loaded.type !== 'success') {
      msg.textContent = `not applied: ${loaded.errors.map(diagText).join('; ')}`;
      msg.classList.add('error');
      return;
    }
    msg.textContent = `${what}: ${loaded.value.summary.tasks} tasks`;
    setWorkload(loaded.ref, loaded.value.summary, 'edited');
  }

  details.addEventListener('toggle', refresh);
  return { refresh };
}
