// The portfolio view: any number of policies on the current inputs and options, each under the
// same seeds (the wasm's portfolioWithProgress in the simulating worker, or, when Rust splits
// the runs (portfolioSplit), portfolioPartWithProgress in it and in a second worker holding
// copies of the inputs (mirror.js), then portfolioAssemble; with progress and Stop). Policies
// come from the prefabs, the editors (A and B), a sweep's points and every policy of an opened
// experiment. Rust computes everything shown: each policy's means with
// their range over the seeds, the table (differences from the baseline, the best of each row),
// the Pareto front of the trade-off (again through `pareto` when the axes change), the
// distributions of wait, turnaround and bounded slowdown, and the CSV. This module lays them
// out: a table, a scatter and three CDFs (charts.js). Any two policies open in the stacked A/B
// timeline, whose comparison is the two-policy case of the same table.
import { state, h, on, diagText } from './state.js';
import { metricCatalog } from './metrics.js';
import { createChart, styleOf, axisUnit, titled } from './charts.js';
import { duration } from './format.js';
import { opendc3Zip } from './zip.js';
import { runShared } from './mirror.js';

/** @typedef {import('./types/answers').PortfolioReport} PortfolioReport */
/** @typedef {{label: string, policy: string, semantics: 'classic' | 'current', id: number}} Entry */

/** The distributions drawn, each read in the unit of its catalog metric. */
const DISTRIBUTIONS = [
  { key: 'wait', metric: 'meanWaitMs', title: 'Wait of each completed task' },
  { key: 'turnaround', metric: 'meanTurnaroundMs', title: 'Turnaround of each completed task' },
  { key: 'boundedSlowdown', metric: 'meanBoundedSlowdown', title: 'Bounded slowdown of each completed task (max(1, turnaround / max(duration, 10 s)))' },
];

export function createPortfolio(el, { engine, second, lint, prefabs, getInputs, getOptions, onOpen, download }) {
  /** @type {Entry[]} */
  let entries = [];
  let nextId = 1;
  /** @type {PortfolioReport | null} */
  let report = null;
  let reportEntries = [];
  let view = 'window';
  const pick = { a: null, b: null };

  // ---- adding policies ----------------------------------------------------------------------
  const prefabSelect = h('select', { id: 'portfolio-prefab', 'data-testid': 'portfolio-prefab' },
    prefabs.map((p) => h('option', { value: p.name, title: p.doc }, p.name)));
  const button = (label, testid, fn, extra = {}) => h('button', { type: 'button', 'data-testid': testid, onclick: fn, ...extra }, label);
  const fromExperiment = button('Every policy of the opened experiment', 'portfolio-add-experiment', () => addExperiment(), { disabled: true });
  const addB = button('Policy B', 'portfolio-add-b', () => state.policyB != null && add('B', state.policyB), { disabled: true });
  const adders = h('div', { class: 'row portfolio-add', role: 'group', 'aria-label': 'Add policies to the portfolio' },
    h('span', {}, 'Add: '),
    h('label', { for: 'portfolio-prefab', class: 'visually-hidden' }, 'Prefab'), prefabSelect,
    button('Add', 'portfolio-add-prefab', () => add(prefabSelect.value, prefabText(prefabSelect.value))),
    button(`Every prefab (${prefabs.length})`, 'portfolio-add-prefabs', () => { for (const p of prefabs) add(p.name, prefabText(p.name)); }),
    button('Policy A (the editor)', 'portfolio-add-a', () => add('A', state.policy)),
    addB, fromExperiment,
    button('Clear', 'portfolio-clear', () => { entries = []; renderEntries(); }));
  const list = h('ol', { class: 'portfolio-entries', 'data-testid': 'portfolio-entries', 'aria-label': 'Policies of the portfolio' });

  // ---- running ------------------------------------------------------------------------------
  const seeds = h('input', { id: 'portfolio-seeds', 'data-testid': 'portfolio-seeds', type: 'number', min: '1', max: '100', step: '1', value: '1' });
  const baseline = h('select', { id: 'portfolio-baseline', 'data-testid': 'portfolio-baseline' });
  const runButton = button('Run the portfolio', 'portfolio-run', () => run());
  const stop = button('Stop', 'portfolio-stop', () => { engine.cancel(); second?.cancel(); }, { disabled: true });
  const bar = h('progress', { max: '1', value: '0', 'data-testid': 'portfolio-progress', 'aria-label': 'portfolio progress', hidden: true });
  const status = h('p', { class: 'note', 'data-testid': 'portfolio-status', 'aria-live': 'polite' });
  const openButton = button('Open the two marked A and B in the timeline', 'portfolio-open', () => openPair());

  // ---- results ------------------------------------------------------------------------------
  const results = h('div', { class: 'portfolio-results', 'data-testid': 'portfolio-results', hidden: true });
  const tableBox = h('div', { class: 'portfolio-table-box' });
  const csv = button('Table (CSV)', 'portfolio-csv', async () => {
    if (!report) return;
    const a = await lint.call('portfolioCsv', JSON.stringify(report));
    if (a.type === 'success') download('portfolio.csv', a.value, 'text/csv');
    else say(a.errors.map(diagText).join('; '), true);
  });
  // Every policy of the portfolio as one OpenDC 3 experiment (one allocationPolicies entry
  // each, in order), under the options' semantics and seed.
  const opendc3 = button('The portfolio as an OpenDC 3 experiment (.zip)', 'portfolio-opendc3', async () => {
    if (!reportEntries.length) return;
    const a = await engine.call('exportOpenDc3Portfolio', engine.handlesJson(getInputs()),
      JSON.stringify(reportEntries.map((e) => e.policy)), JSON.stringify(getOptions()));
    if (a.type === 'success') download('opendc3-portfolio.zip', opendc3Zip(a.value));
    else say(a.errors.map(diagText).join('; '), true);
  });
  const directed = () => metricCatalog().filter((m) => m.chartable && m.better !== 'neither');
  const axisSelect = (id, value) => {
    const s = h('select', { id, 'data-testid': id }, directed().map((m) => h('option', { value: m.key }, titled(m.label, m.unit))));
    s.value = value;
    s.addEventListener('change', () => drawTradeOff());
    return s;
  };
  const xSelect = axisSelect('portfolio-x', 'dynamicCarbonG');
  const ySelect = axisSelect('portfolio-y', 'meanWaitMs');
  const frontText = h('p', { class: 'note', 'data-testid': 'portfolio-front', 'aria-live': 'polite' });
  const tradeOff = h('div', { class: 'portfolio-charts' });
  const charts = h('div', { class: 'portfolio-charts' });
  results.append(
    h('h3', {}, 'Every metric per policy'),
    h('div', { class: 'row' }, csv, opendc3),
    tableBox,
    h('h3', {}, 'Trade-off'),
    h('div', { class: 'row' }, h('label', { for: 'portfolio-x' }, 'Across '), xSelect, h('label', { for: 'portfolio-y' }, ' up '), ySelect),
    tradeOff, frontText,
    h('h3', {}, 'Distributions'),
    charts);
  const scatter = createChart(tradeOff, { id: 'chart-tradeoff', title: 'Trade-off: one point per policy (bars: the range over the seeds); the Pareto front ringed and joined in grey', height: 340, download });
  const cdfs = DISTRIBUTIONS.map((d) => ({ ...d, chart: createChart(charts, { id: `chart-cdf-${d.key}`, title: `Distribution (CDF): ${d.title}`, height: 260, download }) }));

  el.append(
    h('h2', { id: 'portfolio-title' }, 'Portfolio: many policies side by side'),
    h('p', { class: 'note' }, 'Runs every policy below on the inputs and options above, each under the same seeds (from the scenario’s seed on): a table of every metric with the differences from a baseline and the best of each row, the trade-off of two metrics with its Pareto front, and the distributions of the tasks’ waits, turnarounds and slowdowns. Mark two policies A and B to open them in the timeline.'),
    adders, list,
    h('div', { class: 'row' }, h('label', { for: 'portfolio-seeds' }, 'Seeds per policy '), seeds,
      h('label', { for: 'portfolio-baseline' }, ' baseline '), baseline),
    h('div', { class: 'row' }, runButton, stop, bar, openButton),
    status, results);

  function say(text, error = false) { status.textContent = text; status.classList.toggle('error', error); }
  function prefabText(name) { return JSON.stringify({ type: 'prefab', policyName: name }, null, 2); }

  /** Adds a policy, its label made unique (`Mem (2)`). */
  function add(label, policy, semantics = state.options?.semantics || 'classic') {
    if (policy == null) return;
    let unique = label, k = 2;
    while (entries.some((e) => e.label === unique)) unique = `${label} (${k++})`;
    entries.push({ label: unique, policy, semantics, id: nextId++ });
    renderEntries();
  }

  /** Every policy of the experiment the scenario panel opened: read again from the same files
   * in the checking worker (its own session), whose inputs are then released. */
  async function addExperiment() {
    const item = [...engine.inputs.values()].find((i) => i.fn === 'loadExperiment');
    if (!item) { say('open an experiment file first (Scenario, experiment files)', true); return; }
    const a = await lint.call('loadExperiment', ...item.args);
    if (a.type !== 'success') { say(a.errors.map(diagText).join('; '), true); return; }
    for (const part of [a.value.topology, a.value.workload, a.value.carbon]) if (part) lint.call('release', part.handle);
    const semantics = a.value.format === 'sdk' ? 'current' : (state.options?.semantics || 'classic');
    a.value.policies.forEach((p, i) => {
      const name = p && typeof p === 'object' ? (p.policyName || p.name) : null;
      add(typeof name === 'string' ? name : `${a.value.name} policy ${i + 1}`, JSON.stringify(p, null, 2), semantics);
    });
  }

  function renderEntries() {
    if (pick.a != null && !entries.some((e) => e.id === pick.a)) pick.a = null;
    if (pick.b != null && !entries.some((e) => e.id === pick.b)) pick.b = null;
    list.replaceChildren(...entries.map((e, i) => {
      const label = h('input', { 'aria-label': `Label of policy ${i + 1}`, value: e.label, size: 18, 'data-testid': `portfolio-label-${i}` });
      label.addEventListener('change', () => { e.label = label.value.trim() || e.label; renderBaseline(); });
      const semantics = h('select', { 'aria-label': `Semantics of ${e.label}`, 'data-testid': `portfolio-semantics-${i}` },
        h('option', { value: 'classic' }, 'Classic'), h('option', { value: 'current' }, 'Current'));
      semantics.value = e.semantics;
      semantics.addEventListener('change', () => { e.semantics = /** @type {any} */ (semantics.value); });
      const mark = (which) => {
        const box = h('input', { type: 'radio', name: `portfolio-${which}`, 'aria-label': `Open ${e.label} as ${which.toUpperCase()}`, 'data-testid': `portfolio-${which}-${i}`, checked: pick[which] === e.id });
        box.addEventListener('change', () => { pick[which] = e.id; });
        return h('label', { class: 'ab' }, box, which.toUpperCase());
      };
      return h('li', { 'data-testid': `portfolio-entry-${i}` }, label, ' ', semantics, ' ', mark('a'), mark('b'), ' ',
        h('button', { type: 'button', 'aria-label': `Remove ${e.label}`, 'data-testid': `portfolio-remove-${i}`, onclick: () => { entries = entries.filter((x) => x !== e); renderEntries(); } }, 'Remove'));
    }));
    renderBaseline();
    status.dataset.entries = String(entries.length);
  }

  function renderBaseline() {
    const before = baseline.value;
    baseline.replaceChildren(...entries.map((e, i) => h('option', { value: String(i) }, e.label)));
    baseline.value = before !== '' && Number(before) < entries.length ? before : '0';
  }

  async function run() {
    if (!entries.length) { say('add policies first', true); return; }
    const n = Number(seeds.value);
    if (!Number.isSafeInteger(n) || n < 1) { say('seeds: a whole number, 1 or more', true); return; }
    const inputs = getInputs();
    if (!inputs.topology || !inputs.workload) { say('load a topology and a workload first', true); return; }
    const ran = entries.map((e) => ({ ...e }));
    const spec = {
      entries: ran.map((e) => ({ label: e.label, policy: e.policy, semantics: e.semantics })),
      seeds: n, baseline: Number(baseline.value) || 0, x: xSelect.value, y: ySelect.value,
    };
    say(`running ${ran.length} policies × ${n} seeds…`);
    el.dataset.state = 'running';
    runButton.disabled = true; stop.disabled = false; bar.hidden = false; bar.value = 0;
    const started = performance.now();
    const shared = await runShared(engine, second, 'portfolio', inputs, [JSON.stringify(getOptions()), JSON.stringify(spec)], (f) => { bar.value = f; });
    const answer = shared.answer;
    status.dataset.workers = String(shared.workers);
    runButton.disabled = false; stop.disabled = true; bar.hidden = true;
    if (answer.cancelled) { say('stopped; the engine restarted and your inputs were loaded again'); el.dataset.state = 'stopped'; return; }
    if (answer.type !== 'success') { say(answer.errors.map(diagText).join('; '), true); el.dataset.state = 'failed'; return; }
    report = answer.value;
    reportEntries = ran;
    const runs = report.policies.length * report.seeds.length;
    say(`${runs} runs in ${Math.round(performance.now() - started)} ms, seeds ${report.seeds[0]}–${report.seeds[report.seeds.length - 1]}`);
    status.dataset.runs = String(runs);
    results.hidden = false;
    drawTable();
    await drawTradeOff();
    drawDistributions();
    el.dataset.state = 'done';
  }

  /** Opens the policies marked A and B in the editors: the page runs them as its A/B compare. */
  function openPair() {
    const a = entries.find((e) => e.id === pick.a), b = entries.find((e) => e.id === pick.b);
    if (!a) { say('mark a policy A (and one B) first', true); return; }
    onOpen(a, b || null);
  }

  // ---- the table ----------------------------------------------------------------------------
  function drawTable() {
    const c = report;
    const shownIn = (row) => row.view === 'both' || row.view === (view === 'window' ? 'window' : 'perRun');
    const head = h('tr', {}, h('th', { scope: 'col' }, 'metric'),
      c.labels.map((l, i) => h('th', { scope: 'col', class: i === c.baseline ? 'baseline' : '' }, l, i === c.baseline ? h('span', { class: 'hint' }, ' (baseline)') : null)));
    const rows = c.rows.map((row) => h('tr', { 'data-view': row.view, hidden: !shownIn(row) },
      h('th', { scope: 'row', class: row.part ? 'sub' : '', title: row.help }, row.label),
      row.cells.map((cell, i) => {
        const d = cell.difference;
        const range = cell.range && cell.range.min !== cell.range.max ? cell.range.text : null;
        return h('td', { class: `num${cell.best ? ' best' : ''}`, 'data-testid': `pf-${i}-${row.key}`, 'data-value': String(cell.value), 'data-best': String(cell.best) },
          h('span', { class: 'pf-value' }, cell.best ? h('span', { class: 'best-mark', title: 'the best of the row', 'aria-label': 'best: ' }, '★ ') : null, cell.text),
          range ? h('span', { class: 'pf-range' }, `[${range}]`) : null,
          d ? h('span', { class: `pf-difference${d.verdict === 'better' || d.verdict === 'worse' ? ` ${d.verdict}` : ''}` }, d.text) : null);
      })));
    const parts = [];
    if (c.windowed) {
      const choice = (value, text) => h('label', {},
        h('input', { type: 'radio', name: 'portfolio-view', value, checked: view === value, 'data-testid': `portfolio-view-${value}` }), ` ${text}`);
      const fieldset = h('fieldset', { class: 'metrics-view' }, h('legend', {}, 'Energy and carbon:'),
        choice('window', 'over the common window'), choice('perRun', 'each run to its own end'));
      fieldset.addEventListener('change', (e) => { view = /** @type {HTMLInputElement} */ (e.target).value; drawTable(); });
      parts.push(fieldset, h('p', { class: 'hint' }, c.windowNote));
    }
    if (c.seeds.length > 1) parts.push(h('p', { class: 'hint' }, `Each cell: the mean over seeds ${c.seeds[0]}–${c.seeds[c.seeds.length - 1]} [its range], then the difference from the baseline.`));
    parts.push(h('div', { class: 'portfolio-scroll' }, h('table', { class: 'metrics portfolio-table', 'data-testid': 'portfolio-table' },
      h('caption', { class: 'visually-hidden' }, 'Every metric per policy; ★ marks the best of each row by the metric’s direction'),
      h('thead', {}, head), h('tbody', {}, rows))));
    tableBox.replaceChildren(...parts);
  }

  // ---- the trade-off ------------------------------------------------------------------------
  async function drawTradeOff() {
    if (!report) return;
    const cat = metricCatalog();
    const mx = cat.find((m) => m.key === xSelect.value), my = cat.find((m) => m.key === ySelect.value);
    const raw = (p, k, which = 'metrics') => { const v = p[which][k]; return typeof v === 'number' ? v : null; };
    const points = report.policies.map((p) => ({ x: raw(p, mx.key), y: raw(p, my.key) }));
    let front = report.pareto;
    if (front.x !== mx.key || front.y !== my.key) {
      const a = await lint.call('pareto', JSON.stringify({ x: mx.key, y: my.key, points }));
      if (a.type !== 'success') { frontText.textContent = a.errors.map(diagText).join('; '); return; }
      front = a.value;
    }
    const ux = axisUnit(mx, Math.max(...points.map((p) => Math.abs(p.x ?? 0))));
    const uy = axisUnit(my, Math.max(...points.map((p) => Math.abs(p.y ?? 0))));
    const series = [], focusables = [], rows = [];
    report.policies.forEach((p, i) => {
      const x = raw(p, mx.key), y = raw(p, my.key);
      const st = styleOf(i);
      const fmt = (v, u) => (v == null ? '—' : `${(+(v * u.scale).toPrecision(4)).toLocaleString('en-US')} ${u.unit}`.trim());
      rows.push([p.label, fmt(x, ux), `${fmt(raw(p, mx.key, 'min'), ux)} – ${fmt(raw(p, mx.key, 'max'), ux)}`, fmt(y, uy),
        `${fmt(raw(p, my.key, 'min'), uy)} – ${fmt(raw(p, my.key, 'max'), uy)}`, front.front.includes(i) ? 'yes' : 'no']);
      if (x == null || y == null) return;
      const X = x * ux.scale, Y = y * uy.scale;
      series.push({ name: p.label, color: st.color, dash: [], shape: st.shape, marker: true, line: false, points: [[X, Y]],
        err: [[X, Y, raw(p, mx.key, 'min') * ux.scale, raw(p, mx.key, 'max') * ux.scale, raw(p, my.key, 'min') * uy.scale, raw(p, my.key, 'max') * uy.scale]] });
      focusables.push({ x: X, y: Y, text: `${p.label}: ${mx.label} ${fmt(x, ux)}, ${my.label} ${fmt(y, uy)}${front.front.includes(i) ? ' (on the Pareto front)' : ''}` });
    });
    const frontPoints = front.front.map((i) => [points[i].x * ux.scale, points[i].y * uy.scale]);
    const names = front.front.map((i) => report.policies[i].label);
    scatter.update({
      spec: { x: { title: titled(mx.label, ux.unit) }, y: { title: titled(my.label, uy.unit) }, series, front: { points: frontPoints } },
      legend: [...series.map((s) => ({ name: s.name, color: s.color, shape: s.shape })), { name: 'Pareto front (ringed, joined)', color: '#9a9a9a' }],
      table: { columns: ['policy', titled(mx.label, ux.unit), 'range', titled(my.label, uy.unit), 'range', 'on the front'], rows },
      focusables,
      summary: `${my.label} against ${mx.label} for ${report.policies.length} policies; Pareto front: ${names.join(', ') || 'none'}`,
    });
    frontText.dataset.front = JSON.stringify(front.front);
    const better = (b) => (b === 'lower' ? 'lower is better' : 'higher is better');
    frontText.textContent = names.length
      ? `Pareto front (${mx.label}: ${better(front.xBetter)}; ${my.label}: ${better(front.yBetter)}): ${names.join(', ')}. No other policy is better in one without being worse in the other.`
      : `No policy has both ${mx.label} and ${my.label} (a run without a carbon trace has no carbon).`;
  }

  // ---- the distributions --------------------------------------------------------------------
  function drawDistributions() {
    const cat = metricCatalog();
    for (const d of cdfs) {
      const m = cat.find((x) => x.key === d.metric);
      const max = Math.max(0, ...report.policies.map((p) => p.distributions[d.key].quantiles.find((q) => q.percent === 100)?.value ?? 0));
      const u = axisUnit(m, max);
      const series = [], focusables = [], rows = [];
      const fmt = (v) => (m.rawUnit === 'ms' ? duration(v) : (+v.toPrecision(4)).toLocaleString('en-US'));
      report.policies.forEach((p, i) => {
        const c = p.distributions[d.key];
        const st = styleOf(i);
        rows.push([p.label, String(c.n), ...[50, 90, 95, 99, 100].map((q) => { const v = c.quantiles.find((x) => x.percent === q); return v ? fmt(v.value) : '—'; })]);
        if (!c.n) return;
        series.push({ name: p.label, color: st.color, dash: st.dash, step: true, points: [[c.points[0][0] * u.scale, 0], ...c.points.map(([v, f]) => [v * u.scale, f * 100])] });
        for (const q of c.quantiles) focusables.push({ x: q.value * u.scale, y: q.percent, text: `${p.label}: p${q.percent} ${fmt(q.value)}` });
      });
      d.chart.update({
        spec: { x: { title: titled(d.key === 'boundedSlowdown' ? 'bounded slowdown' : d.key, u.unit) }, y: { title: 'tasks at or below (%)', lo: 0, hi: 100 }, series },
        legend: series.map((s) => ({ name: s.name, color: s.color, dash: s.dash })),
        table: { columns: ['policy', 'completed tasks', 'p50', 'p90', 'p95', 'p99', 'max'], rows },
        focusables,
        summary: `CDF of ${d.key} for ${series.length} policies; the table lists each one's quantiles`,
      });
    }
  }

  // A sweep's point, added from the sweep view.
  on('portfolio-add', ({ label, policy }) => add(label, policy));
  /** Enables what the page's state allows (B in compare mode, an opened experiment). */
  function refresh() {
    addB.disabled = state.policyB == null;
    fromExperiment.disabled = ![...engine.inputs.values()].some((i) => i.fn === 'loadExperiment');
  }
  refresh();
  return { refresh, add, entries: () => entries, report: () => report, reportEntries: () => reportEntries };
}
