// The metrics panel: the run's figures from result.metrics, and in compare mode a second column
// with the differences. Each value cell carries its raw number in data-value for the tests.
import { h } from './state.js';

const kWh = (j) => j / 3.6e6;
const kg = (g) => (g == null ? null : g / 1000);
const hours = (ms) => ms / 3.6e6;
const fixed = (digits) => (v) => (v == null ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));
const int = (v) => (v == null ? '—' : v.toLocaleString('en-US'));
const seconds = (ms) => (ms == null ? null : ms / 1000);

// [key, label, value of the metrics, format, unit, better when lower?]
export const ROWS = [
  ['tasksTotal', 'tasks in the run', (m) => m.tasksTotal, int, '', null],
  ['tasksCompleted', 'tasks completed', (m) => m.tasksCompleted, int, '', false],
  ['tasksTerminated', 'tasks terminated', (m) => m.tasksTerminated, int, '', true],
  ['tasksDropped', 'tasks dropped', (m) => m.tasksDropped, int, '', true],
  ['makespanMs', 'makespan', (m) => hours(m.makespanMs), fixed(2), 'h', true],
  ['meanWaitMs', 'mean wait', (m) => seconds(m.meanWaitMs), fixed(1), 's', true],
  ['p95WaitMs', 'p95 wait', (m) => seconds(m.p95WaitMs), fixed(1), 's', true],
  ['energyJ', 'energy', (m) => kWh(m.energyJ), fixed(3), 'kWh', true],
  ['idleEnergyJ', '  idle', (m) => kWh(m.idleEnergyJ), fixed(3), 'kWh', true],
  ['dynamicEnergyJ', '  dynamic', (m) => kWh(m.dynamicEnergyJ), fixed(3), 'kWh', true],
  ['carbonG', 'carbon', (m) => kg(m.carbonG), fixed(3), 'kg', true],
  ['idleCarbonG', '  idle', (m) => kg(m.idleCarbonG), fixed(3), 'kg', true],
  ['dynamicCarbonG', '  dynamic', (m) => kg(m.dynamicCarbonG), fixed(3), 'kg', true],
  ['deferredTasks', 'deferred tasks', (m) => m.deferredTasks, int, '', null],
  ['deferralMs', 'deferral', (m) => hours(m.deferralMs), fixed(2), 'h', null],
  ['pausedTasks', 'paused tasks', (m) => m.pausedTasks, int, '', null],
  ['deadlineMisses', 'deadline misses', (m) => m.deadlineMisses, int, '', true],
  ['meanUtilization', 'mean utilisation', (m) => m.meanUtilization * 100, fixed(2), '%', false],
];

function valueCell(metrics, key, get, format, unit, prefix) {
  const v = metrics ? get(metrics) : null;
  return h('td', { class: 'num', 'data-testid': `${prefix}${key}`, 'data-value': metrics ? String(metrics[key]) : '' },
    v == null ? '—' : `${format(v)}${unit ? ` ${unit}` : ''}`);
}

/** Renders A's metrics (and B's with differences when given). */
export function renderMetrics(el, a, b, labels = ['A', 'B']) {
  const head = h('tr', {}, h('th', { scope: 'col' }, 'metric'), h('th', { scope: 'col' }, b ? labels[0] : 'value'),
    b && h('th', { scope: 'col' }, labels[1]), b && h('th', { scope: 'col' }, `${labels[1]} − ${labels[0]}`));
  const rows = ROWS.map(([key, label, get, format, unit, lowerBetter]) => {
    const cells = [h('th', { scope: 'row', class: label.startsWith('  ') ? 'sub' : '' }, label.trim()), valueCell(a, key, get, format, unit, 'metric-')];
    if (b) {
      cells.push(valueCell(b, key, get, format, unit, 'metric-b-'));
      const va = a ? get(a) : null, vb = get(b);
      let text = '—', cls = 'num';
      if (va != null && vb != null) {
        const d = vb - va;
        const ratio = va !== 0 ? d / Math.abs(va) : null;
        // Past +1000 % a ratio reads better (0.5 s -> 57 min is ×6826, not +682 500 %).
        const pct = ratio == null ? '' : ratio > 10 ? ` (×${Math.round(vb / va)})` : ` (${d >= 0 ? '+' : ''}${(ratio * 100).toFixed(1)} %)`;
        // A difference of percentages is in percentage points.
        const dUnit = unit === '%' ? 'pp' : unit;
        text = d === 0 ? '=' : `${d > 0 ? '+' : ''}${format(d)}${dUnit ? ` ${dUnit}` : ''}${pct}`;
        if (d !== 0 && lowerBetter != null) cls += (d < 0) === lowerBetter ? ' better' : ' worse';
      }
      cells.push(h('td', { class: cls, 'data-testid': `metric-delta-${key}` }, text));
    }
    return h('tr', {}, cells);
  });
  el.replaceChildren(h('table', { class: 'metrics', 'data-testid': 'metrics-table' },
    h('thead', {}, head), h('tbody', {}, rows)));
}
