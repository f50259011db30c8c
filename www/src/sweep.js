// The sweep view: one setting of policy A over several values, each run under several seeds, on
// the current inputs and options (the wasm's sweepWithProgress: metrics only, no run kept), then
// a chart of one metric (the mean over the seeds, with its range) and a table. The settings come
// from the wasm's sweepSettings (JSON Pointers into the policy's explicit form); a value the
// policy language refuses comes back as an error naming it. A sweep runs only when asked.
import { h, diagText, emit } from './state.js';
import { metricCatalog } from './metrics.js';
import { ticks } from './format.js';
import { createGridSweep } from './heatmap.js';
import { runShared } from './mirror.js';

// The metrics a sweep can chart: the catalog's chartable ones (labels, units, scales from Rust).
const chartable = () => metricCatalog().filter((m) => m.chartable);
const titled = (m) => (m.unit ? `${m.label} (${m.unit})` : m.label);

/** Values to start from for a setting now at `v`: both booleans, or a spread around a number. */
export function suggestValues(v) {
  if (typeof v === 'boolean') return 'false, true';
  if (typeof v !== 'number') return '';
  if (Number.isInteger(v)) return [...new Set([v, v + 1, v + 2, v * 2, v * 4].filter((x) => x >= 0))].join(', ');
  if (v === 0) return '0, 0.5, 1, 2';
  return [v / 2, v, v * 1.5, v * 2].map((x) => +x.toPrecision(4)).join(', ');
}

/** Reads "1, 2.5, true" as JSON values; an item that is not one is an error naming it. */
export function parseValues(text) {
  const items = text.split(',').map((s) => s.trim()).filter(Boolean);
  const values = [];
  for (const item of items) {
    let v;
    try { v = JSON.parse(item); } catch { v = undefined; }
    if (typeof v !== 'number' && typeof v !== 'boolean') return { error: `\`${item}\` is not a number, true or false` };
    values.push(v);
  }
  if (!values.length) return { error: 'give at least one value, separated by commas' };
  return { values };
}

export function createSweepPanel(el, { engine, second, lint, getPolicy, getInputs, getOptions, lastRunMs, download }) {
  const setting = h('select', { id: 'sweep-parameter', 'data-testid': 'sweep-parameter' });
  const values = h('input', { id: 'sweep-values', 'data-testid': 'sweep-values', size: 28 });
  const seeds = h('input', { id: 'sweep-seeds', 'data-testid': 'sweep-seeds', type: 'number', min: '1', max: '100', step: '1', value: '5' });
  const metric = h('select', { id: 'sweep-metric', 'data-testid': 'sweep-metric' },
    ...chartable().map((m) => h('option', { value: m.key }, titled(m))));
  metric.value = 'energyJ'; // the chart a sweep opens on
  const runButton = h('button', { type: 'button', 'data-testid': 'sweep-run' }, 'Run the sweep');
  const stop = h('button', { type: 'button', 'data-testid': 'sweep-stop', disabled: true }, 'Stop');
  const bar = h('progress', { max: '1', value: '0', 'data-testid': 'sweep-progress', 'aria-label': 'sweep progress', hidden: true });
  const status = h('p', { class: 'note', 'data-testid': 'sweep-status', 'aria-live': 'polite' });
  const csv = h('button', { type: 'button', 'data-testid': 'sweep-csv', disabled: true }, 'Download (CSV)');
  const canvas = h('canvas', { class: 'sweep-chart', 'data-testid': 'sweep-chart', role: 'img', 'aria-label': 'sweep chart', width: 640, height: 240 });
  const table = h('div', { class: 'sweep-table', 'data-testid': 'sweep-table' });
  let report = null, sweptPolicy = null, settings = [];

  el.append(
    h('h2', { id: 'sweep-title' }, 'Sweep a setting'),
    h('p', { class: 'note' }, 'Runs policy A with one setting at several values, each under several seeds (from the scenario’s seed on), on the inputs above: how sensitive a figure is, and how much of a difference is only the seed.'),
    h('div', { class: 'row' }, h('label', { for: 'sweep-parameter' }, 'Setting '), setting),
    h('div', { class: 'row' }, h('label', { for: 'sweep-values' }, 'Values '), values,
      h('label', { for: 'sweep-seeds' }, ' seeds '), seeds),
    h('div', { class: 'row' }, runButton, stop, bar),
    status,
    h('div', { class: 'row' }, h('label', { for: 'sweep-metric' }, 'Chart '), metric, csv),
    canvas, table);
  // Two settings at once (heatmap.js), from the same settings.
  const grid = createGridSweep(el, { engine, second, lint, getPolicy, getInputs, getOptions, download, settings: () => settings, parseValues, suggestValues });

  /** Fills the setting picker from policy A's current text (kept when the setting remains). */
  async function refresh() {
    const answer = await lint.call('sweepSettings', getPolicy());
    if (answer.type !== 'success') return; // the editor shows the policy's errors
    const before = setting.value;
    settings = answer.value;
    setting.replaceChildren(h('option', { value: '' }, '(none: the seeds alone)'),
      ...settings.map((s) => h('option', { value: s.pointer, title: s.pointer }, `${s.label} (now ${JSON.stringify(s.value)})`)));
    if (settings.some((s) => s.pointer === before)) setting.value = before;
    grid.refresh();
    markStale();
  }
  setting.addEventListener('change', () => {
    const s = settings.find((x) => x.pointer === setting.value);
    values.value = s ? suggestValues(s.value) : '';
    values.disabled = !s;
  });

  function markStale() {
    el.classList.toggle('stale', report != null && sweptPolicy !== getPolicy());
  }

  async function run() {
    const parameter = setting.value;
    let list = [];
    if (parameter) {
      const parsed = parseValues(values.value);
      if (parsed.error) { status.textContent = parsed.error; status.classList.add('error'); return; }
      list = parsed.values;
    }
    const n = Number(seeds.value);
    if (!Number.isSafeInteger(n) || n < 1) { status.textContent = 'seeds: a whole number, 1 or more'; status.classList.add('error'); return; }
    const inputs = getInputs();
    if (!inputs.topology || !inputs.workload) { status.textContent = 'load a topology and a workload first'; status.classList.add('error'); return; }
    const policy = getPolicy();
    status.classList.remove('error');
    // Runs share the worker with the live runs, which wait meanwhile: say how long it may take
    // (at most: when Rust shares the runs with the second worker, about half).
    const count = Math.max(1, list.length) * n;
    const each = lastRunMs();
    const about = each ? ` (up to about ${each * count < 60000 ? `${Math.ceil((each * count) / 1000)} s` : `${Math.ceil((each * count) / 60000)} min`}; edits run after it)` : '';
    status.textContent = `running ${count} runs${about}…`;
    runButton.disabled = true; stop.disabled = false; bar.hidden = false; bar.value = 0;
    const started = performance.now();
    const shared = await runShared(engine, second, 'sweep', inputs, [policy, JSON.stringify(getOptions()), JSON.stringify({ parameter, values: list, seeds: n })], (f) => { bar.value = f; });
    const answer = shared.answer;
    status.dataset.workers = String(shared.workers);
    runButton.disabled = false; stop.disabled = true; bar.hidden = true;
    if (answer.cancelled) { status.textContent = 'stopped; the engine restarted and your inputs were loaded again'; return; }
    if (answer.type !== 'success') {
      status.textContent = answer.errors.map(diagText).join('; ');
      status.classList.add('error');
      return;
    }
    report = answer.value;
    sweptPolicy = policy;
    csv.disabled = false;
    markStale();
    const runs = report.points.length * report.seeds.length;
    status.textContent = `${runs} runs in ${Math.round(performance.now() - started)} ms, seeds ${report.seeds[0]}–${report.seeds[report.seeds.length - 1]}`;
    status.dataset.runs = String(runs);
    draw();
  }
  runButton.addEventListener('click', run);
  // Every run as CSV, written by Rust (the bytes of `sweep --csv`).
  csv.addEventListener('click', async () => {
    if (!report) return;
    const a = await lint.call('sweepCsv', JSON.stringify(report));
    if (a.type === 'success') download('sweep.csv', a.value, 'text/csv');
    else { status.textContent = a.errors.map(diagText).join('; '); status.classList.add('error'); }
  });
  stop.addEventListener('click', () => { engine.cancel(); second?.cancel(); });
  metric.addEventListener('change', () => draw());

  function draw() {
    if (!report) return;
    const charted = chartable().find((m) => m.key === metric.value) || chartable()[0];
    const { key, scale } = charted;
    const label = charted.label, unit = charted.unit;
    const stats = report.points.map((p) => p.summary[key]);
    const fmt = (x) => (x == null ? '—' : (+(x * scale).toPrecision(5)).toLocaleString('en-US'));
    const valueLabel = (p) => (p.value === null ? 'as given' : JSON.stringify(p.value));
    // The table: every chartable metric, mean [min, max] over the seeds.
    const rows = chartable();
    table.replaceChildren(h('table', {},
      h('thead', {}, h('tr', {}, h('th', {}, report.parameter || 'policy'), ...rows.map((m) => h('th', { title: m.help }, titled(m))))),
      h('tbody', {}, ...report.points.map((p, i) => h('tr', { 'data-testid': `sweep-row-${i}` }, h('th', {}, valueLabel(p), ' ',
        // The point's policy (its explicit form) joins the portfolio (portfolio.js).
        h('button', { type: 'button', class: 'small', 'data-testid': `sweep-to-portfolio-${i}`, 'aria-label': `Add ${report.parameter || 'policy'} = ${valueLabel(p)} to the portfolio`,
          onclick: () => emit('portfolio-add', { label: report.parameter ? `${report.parameter.split('/').pop()} = ${valueLabel(p)}` : 'swept policy', policy: JSON.stringify(p.policy, null, 2) }) }, '+ portfolio')),
        ...rows.map((m) => {
          const k = m.key;
          const s = p.summary[k];
          const f = (x) => (x == null ? '—' : (+(x * m.scale).toPrecision(5)).toLocaleString('en-US'));
          return h('td', { class: 'num', 'data-key': k, 'data-value': s ? String(s.mean) : '' },
            !s ? '—' : s.min === s.max ? f(s.mean) : `${f(s.mean)} [${f(s.min)}, ${f(s.max)}]`);
        }))))));
    // The chart: the mean at each value, joined, with the range over the seeds as a whisker.
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(320, canvas.parentElement?.clientWidth || 640);
    const height = 240;
    canvas.width = width * dpr; canvas.height = height * dpr;
    canvas.style.width = `${width}px`; canvas.style.height = `${height}px`;
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, width, height);
    g.font = '12px system-ui, sans-serif';
    g.fillStyle = '#1b1b1b';
    const present = stats.filter(Boolean);
    if (!present.length) { g.fillText(`no ${label} in these runs`, 12, 24); return; }
    // The value axis starts at zero (a 1 % difference looks like one), with round ticks (Rust's).
    const lo0 = Math.min(0, ...present.map((s) => s.min * scale)), hi0 = Math.max(0, ...present.map((s) => s.max * scale));
    const yTicks = ticks(lo0, hi0, 5);
    const lo = yTicks[0], hi = yTicks[yTicks.length - 1];
    const left = 64, right = 16, top = 16, bottom = 40, inset = 28; // inset: room for the end markers
    const span = width - left - right - 2 * inset;
    // Numeric values sit in proportion to their size (1, 2, 8 is not evenly spaced); others evenly.
    const numeric = report.points.every((p) => typeof p.value === 'number') && report.points.length > 1;
    const values = report.points.map((p) => Number(p.value));
    const vmin = Math.min(...values), vmax = Math.max(...values);
    const x = (i) => left + inset + (stats.length === 1 ? span / 2
      : numeric && vmax > vmin ? ((values[i] - vmin) * span) / (vmax - vmin) : (i * span) / (stats.length - 1));
    const y = (v) => top + ((hi - v) * (height - top - bottom)) / (hi - lo);
    canvas.dataset.yTicks = JSON.stringify(yTicks);
    canvas.dataset.x = JSON.stringify(report.points.map((_, i) => Math.round(x(i))));
    g.strokeStyle = '#d0d0d0';
    g.textAlign = 'right'; g.textBaseline = 'middle';
    for (const v of yTicks) {
      g.beginPath(); g.moveTo(left, y(v)); g.lineTo(width - right, y(v)); g.stroke();
      g.fillText(v.toLocaleString('en-US', { maximumSignificantDigits: 12 }), left - 6, y(v));
    }
    g.textAlign = 'center'; g.textBaseline = 'top';
    report.points.forEach((p, i) => g.fillText(valueLabel(p), x(i), height - bottom + 6));
    g.fillText(report.parameter || 'policy', left + (width - left - right) / 2, height - 16);
    g.save(); g.translate(12, top + (height - top - bottom) / 2); g.rotate(-Math.PI / 2);
    g.fillText(titled(charted), 0, -6); g.restore();
    g.strokeStyle = '#0072B2'; g.fillStyle = '#0072B2'; g.lineWidth = 2;
    g.beginPath();
    stats.forEach((s, i) => { if (s) (i && stats[i - 1] ? g.lineTo : g.moveTo).call(g, x(i), y(s.mean * scale)); });
    g.stroke();
    g.lineWidth = 1.5;
    stats.forEach((s, i) => {
      if (!s) return;
      if (s.min !== s.max) {
        g.beginPath(); g.moveTo(x(i), y(s.min * scale)); g.lineTo(x(i), y(s.max * scale));
        g.moveTo(x(i) - 5, y(s.min * scale)); g.lineTo(x(i) + 5, y(s.min * scale));
        g.moveTo(x(i) - 5, y(s.max * scale)); g.lineTo(x(i) + 5, y(s.max * scale));
        g.stroke();
      }
      g.beginPath(); g.arc(x(i), y(s.mean * scale), 4, 0, 2 * Math.PI); g.fill();
    });
    canvas.setAttribute('aria-label', `${label} by ${report.parameter || 'policy'}: ${report.points.map((p, i) => `${valueLabel(p)}: ${fmt(stats[i]?.mean)}`).join(', ')}`);
  }

  return { refresh, markStale };
}
