// The metrics panel: the wasm's compare answer drawn as a table. Rust writes every figure, every
// difference and its verdict; this module only lays them out. Each value cell carries its raw
// number in data-value for the tests. When the runs end at different times, energy and carbon
// are shown over their common window by default, with a switch to each run's own figures.
import { h } from './state.js';

// The metrics catalog (the wasm's metrics(): key, label, unit, scale, decimals, better, part,
// chartable, window, help), set once at start: no label, unit or scale is written here.
/** @type {import('./types/answers').MetricInfo[]} */
let catalog = [];

/**
 * Sets the catalog every metrics view reads.
 * @param {import('./types/answers').MetricInfo[]} entries
 */
export function setMetricCatalog(entries) { catalog = entries; }

/** The catalog's entries, in the order the panel shows them. */
export function metricCatalog() { return catalog; }

/** Which figures a windowed comparison shows: 'window' (the default) or 'perRun'. */
let view = 'window';

/** The cell id prefix of column `i`: A's cells are `metric-KEY`, B's `metric-b-KEY`, later
 * columns `metric-c3-KEY`. */
const prefix = (i) => (i === 0 ? 'metric-' : i === 1 ? 'metric-b-' : `metric-c${i + 1}-`);

/**
 * Renders a comparison (one run, or several against the baseline).
 * @param {HTMLElement} el
 * @param {import('./types/answers').Comparison} c
 */
export function renderComparison(el, c) {
  const many = c.labels.length > 1;
  const head = h('tr', {}, h('th', { scope: 'col' }, 'metric'),
    ...c.labels.map((l) => h('th', { scope: 'col' }, many ? l : 'value')),
    ...c.labels.flatMap((l, i) => (i === c.baseline || !many ? [] : [h('th', { scope: 'col' }, `${l} − ${c.labels[c.baseline]}`)])));
  const shownIn = (row) => row.view === 'both' || row.view === (view === 'window' ? 'window' : 'perRun');
  const rows = c.rows.map((row) => {
    const cells = [h('th', { scope: 'row', class: row.part ? 'sub' : '', title: row.help }, row.label)];
    row.cells.forEach((cell, i) => cells.push(h('td', {
      class: 'num', 'data-testid': `${prefix(i)}${row.key}`, 'data-value': String(cell.value), title: row.help,
    }, cell.text)));
    row.cells.forEach((cell, i) => {
      if (i === c.baseline || !many) return;
      const d = cell.difference;
      const cls = `num${d && (d.verdict === 'better' || d.verdict === 'worse') ? ` ${d.verdict}` : ''}`;
      const id = i === 1 ? `metric-delta-${row.key}` : `metric-delta-c${i + 1}-${row.key}`;
      cells.push(h('td', { class: cls, 'data-testid': id }, d ? d.text : '—'));
    });
    return h('tr', { 'data-view': row.view, hidden: !shownIn(row) }, cells);
  });
  const parts = [headline(c, c.rows.filter((r) => r.headline && shownIn(r)))];
  if (c.windowed) {
    const pick = (value, text) => h('label', {},
      h('input', { type: 'radio', name: 'metrics-view', value, checked: view === value, 'data-testid': `metrics-view-${value}` }), ` ${text}`);
    const fieldset = h('fieldset', { class: 'metrics-view' },
      h('legend', {}, 'Energy and carbon:'),
      pick('window', 'over the common window'), pick('perRun', 'each run to its own end'));
    fieldset.addEventListener('change', (e) => {
      view = /** @type {HTMLInputElement} */ (e.target).value;
      renderComparison(el, c);
    });
    parts.push(fieldset, h('p', { class: 'hint window-note', 'data-testid': 'window-note' }, c.windowNote));
  }
  parts.push(h('table', { class: 'metrics', 'data-testid': 'metrics-table', 'data-view': c.windowed ? view : 'both' },
    h('thead', {}, head), h('tbody', {}, rows)));
  el.replaceChildren(...parts);
}

/** The headline figures as cards: each run's value, and the difference from the baseline. The
 * same numbers are in the table below (screen readers get them there). */
function headline(c, rows) {
  const many = c.labels.length > 1;
  return h('div', { class: 'headline', 'aria-hidden': 'true' }, rows.map((row) => h('div', { class: 'card', 'data-testid': `headline-${row.key}` },
    h('div', { class: 'card-label' }, row.label),
    h('div', { class: 'card-values' }, row.cells.map((cell, i) => h('span', { class: 'card-value' },
      many ? h('span', { class: 'card-run' }, `${c.labels[i]} `) : null, cell.text))),
    ...row.cells.map((cell) => cell.difference).filter(Boolean).map((d) => h('div', {
      class: `card-difference${d.verdict === 'better' || d.verdict === 'worse' ? ` ${d.verdict}` : ''}`,
    }, d.text)))));
}
