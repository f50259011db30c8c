// The metrics panel: the run's figures from result.metrics, and in compare mode a second column
// with the differences. Each value cell carries its raw number in data-value for the tests.
import { h } from './state.js';

// The metrics catalog (the wasm's metrics(): key, label, unit, scale, decimals, better, part,
// chartable, help), set once at start: no label, unit or scale is written here.
/** @type {import('./types/answers').MetricInfo[]} */
let catalog = [];

/**
 * Sets the catalog every metrics view reads.
 * @param {import('./types/answers').MetricInfo[]} entries
 */
export function setMetricCatalog(entries) { catalog = entries; }

/** The catalog's entries, in the order the panel shows them. */
export function metricCatalog() { return catalog; }

/** A raw value of metric `m` in its shown unit (null stays null). */
export const shown = (m, raw) => (raw == null ? null : raw * m.scale);

/** A shown value with the metric's decimals, or a dash for none. */
export const formatShown = (m, v) => (v == null ? '—'
  : v.toLocaleString('en-US', { minimumFractionDigits: m.decimals, maximumFractionDigits: m.decimals }));

function valueCell(metrics, m, prefix) {
  const v = metrics ? shown(m, metrics[m.key]) : null;
  return h('td', { class: 'num', 'data-testid': `${prefix}${m.key}`, 'data-value': metrics ? String(metrics[m.key]) : '', title: m.help },
    v == null ? '—' : `${formatShown(m, v)}${m.unit ? ` ${m.unit}` : ''}`);
}

/**
 * Renders A's metrics (and B's with differences when given).
 * @param {HTMLElement} el
 * @param {import('./types/answers').Metrics} a
 * @param {import('./types/answers').Metrics | undefined} b
 */
export function renderMetrics(el, a, b, labels = ['A', 'B']) {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'metric'), h('th', { scope: 'col' }, b ? labels[0] : 'value'),
    b && h('th', { scope: 'col' }, labels[1]), b && h('th', { scope: 'col' }, `${labels[1]} − ${labels[0]}`));
  const rows = catalog.map((m) => {
    const cells = [h('th', { scope: 'row', class: m.part ? 'sub' : '', title: m.help }, m.label), valueCell(a, m, 'metric-')];
    if (b) {
      cells.push(valueCell(b, m, 'metric-b-'));
      const va = a ? shown(m, a[m.key]) : null, vb = shown(m, b[m.key]);
      let text = '—', cls = 'num';
      if (va != null && vb != null) {
        const d = vb - va;
        const ratio = va !== 0 ? d / Math.abs(va) : null;
        // Past +1000 % a ratio reads better (0.5 s -> 57 min is ×6826, not +682 500 %).
        const pct = ratio == null ? '' : ratio > 10 ? ` (×${Math.round(vb / va)})` : ` (${d >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %)`;
        // A difference of percentages is in percentage points.
        const dUnit = m.unit === '%' ? 'pp' : m.unit;
        text = d === 0 ? '=' : `${d > 0 ? '+' : ''}${formatShown(m, d)}${dUnit ? ` ${dUnit}` : ''}${pct}`;
        if (d !== 0 && m.better !== 'neither') cls += (d < 0) === (m.better === 'lower') ? ' better' : ' worse';
      }
      cells.push(h('td', { class: cls, 'data-testid': `metric-delta-${m.key}` }, text));
    }
    return h('tr', {}, cells);
  });
  el.replaceChildren(h('table', { class: 'metrics', 'data-testid': 'metrics-table' },
    h('thead', {}, head), h('tbody', {}, rows)));
}
