// The 2-D sweep (the wasm's sweepGridWithProgress): two settings of policy A, every value of
// one against every value of the other, each cell under the same seeds; drawn as a heat map of
// one metric (an HTML table whose cells are shaded by their value, so that the picture and its
// text alternative are one thing, and every cell is reached by keyboard), with the Pareto
// front of that metric and a second one over the cells (Rust's `pareto`) marked ◆. Every run
// downloads as CSV (`sweepGridCsv`, the bytes of `sweep --csv` with two settings).
import { h, diagText, emit } from './state.js';
import { metricCatalog } from './metrics.js';
import { titled } from './charts.js';
import { runShared } from './mirror.js';

/** The shading: a sequential light-to-dark blue scale with readable text on every step. */
const SHADES = 7; // the steps of the shading (style.css: .shade-0 to .shade-6, light to dark blue)

export function createGridSweep(el, { engine, second, lint, getPolicy, getInputs, getOptions, download, settings, parseValues, suggestValues }) {
  const x = h('select', { id: 'grid-x', 'data-testid': 'grid-x' });
  const y = h('select', { id: 'grid-y', 'data-testid': 'grid-y' });
  const xValues = h('input', { id: 'grid-x-values', 'data-testid': 'grid-x-values', size: 20 });
  const yValues = h('input', { id: 'grid-y-values', 'data-testid': 'grid-y-values', size: 20 });
  const seeds = h('input', { id: 'grid-seeds', 'data-testid': 'grid-seeds', type: 'number', min: '1', max: '100', value: '1' });
  const directed = () => metricCatalog().filter((m) => m.chartable);
  const metricSelect = (id, value) => {
    const s = h('select', { id, 'data-testid': id }, directed().map((m) => h('option', { value: m.key }, titled(m.label, m.unit))));
    s.value = value;
    s.addEventListener('change', () => draw());
    return s;
  };
  const metric = metricSelect('grid-metric', 'energyJ');
  const against = metricSelect('grid-front-y', 'meanWaitMs');
  const runButton = h('button', { type: 'button', 'data-testid': 'grid-run' }, 'Run the 2-D sweep');
  const stop = h('button', { type: 'button', 'data-testid': 'grid-stop', disabled: true }, 'Stop');
  const csv = h('button', { type: 'button', 'data-testid': 'grid-csv', disabled: true }, 'Download (CSV)');
  const bar = h('progress', { max: '1', value: '0', 'aria-label': '2-D sweep progress', hidden: true });
  const status = h('p', { class: 'note', 'data-testid': 'grid-status', 'aria-live': 'polite' });
  const map = h('div', { class: 'heatmap', 'data-testid': 'grid-heatmap' });
  const front = h('p', { class: 'note', 'data-testid': 'grid-front' });
  let report = null;

  el.append(h('details', { class: 'grid-sweep' },
    h('summary', {}, 'Two settings at once (a 2-D sweep, drawn as a heat map)'),
    h('div', { class: 'row' }, h('label', { for: 'grid-x' }, 'Across '), x, h('label', { for: 'grid-x-values' }, ' values '), xValues),
    h('div', { class: 'row' }, h('label', { for: 'grid-y' }, 'Down '), y, h('label', { for: 'grid-y-values' }, ' values '), yValues),
    h('div', { class: 'row' }, h('label', { for: 'grid-seeds' }, 'Seeds '), seeds, runButton, stop, bar),
    status,
    h('div', { class: 'row' }, h('label', { for: 'grid-metric' }, 'Shade by '), metric,
      h('label', { for: 'grid-front-y' }, ' front of it against '), against, csv),
    map, front));

  function refresh() {
    for (const [select, values] of [[x, xValues], [y, yValues]]) {
      const before = select.value;
      select.replaceChildren(h('option', { value: '' }, '(choose a setting)'),
        ...settings().map((s) => h('option', { value: s.pointer, title: s.pointer }, `${s.label} (now ${JSON.stringify(s.value)})`)));
      if (settings().some((s) => s.pointer === before)) select.value = before;
      select.onchange = () => { const s = settings().find((v) => v.pointer === select.value); values.value = s ? suggestValues(s.value) : ''; };
    }
  }

  const fail = (text) => { status.textContent = text; status.classList.add('error'); };

  async function run() {
    if (!x.value || !y.value) return fail('choose two settings');
    const xs = parseValues(xValues.value), ys = parseValues(yValues.value);
    if (xs.error || ys.error) return fail(xs.error || ys.error);
    const inputs = getInputs();
    if (!inputs.topology || !inputs.workload) return fail('load a topology and a workload first');
    status.classList.remove('error');
    const spec = { x: { parameter: x.value, values: xs.values }, y: { parameter: y.value, values: ys.values }, seeds: Number(seeds.value) || 1 };
    status.textContent = `running ${xs.values.length * ys.values.length * spec.seeds} runs…`;
    runButton.disabled = true; stop.disabled = false; bar.hidden = false; bar.value = 0;
    const shared = await runShared(engine, second, 'sweepGrid', inputs, [getPolicy(), JSON.stringify(getOptions()), JSON.stringify(spec)], (f) => { bar.value = f; });
    const answer = shared.answer;
    status.dataset.workers = String(shared.workers);
    runButton.disabled = false; stop.disabled = true; bar.hidden = true;
    if (answer.cancelled) { status.textContent = 'stopped; the engine restarted and your inputs were loaded again'; return; }
    if (answer.type !== 'success') return fail(answer.errors.map(diagText).join('; '));
    report = answer.value;
    csv.disabled = false;
    status.textContent = `${report.cells.length * report.seeds.length} runs, seeds ${report.seeds[0]}–${report.seeds[report.seeds.length - 1]}`;
    status.dataset.runs = String(report.cells.length * report.seeds.length);
    await draw();
  }
  runButton.addEventListener('click', run);
  stop.addEventListener('click', () => { engine.cancel(); second?.cancel(); });
  csv.addEventListener('click', async () => {
    if (!report) return;
    const a = await lint.call('sweepGridCsv', JSON.stringify(report));
    if (a.type === 'success') download('sweep-2d.csv', a.value, 'text/csv');
    else fail(a.errors.map(diagText).join('; '));
  });

  async function draw() {
    if (!report) return;
    const m = metricCatalog().find((k) => k.key === metric.value);
    const o = metricCatalog().find((k) => k.key === against.value);
    const mean = (cell, key) => cell.summary[key]?.mean ?? null;
    const values = report.cells.map((c) => mean(c, m.key));
    const present = values.filter((v) => v != null);
    const lo = Math.min(...present), hi = Math.max(...present);
    // The front of the two metrics over the cells, from Rust (a metric without a direction has none).
    let onFront = new Set();
    const a = await lint.call('pareto', JSON.stringify({ x: m.key, y: o.key, points: report.cells.map((c) => ({ x: mean(c, m.key), y: mean(c, o.key) })) }));
    if (a.type === 'success') {
      onFront = new Set(a.value.front);
      front.textContent = `◆ Pareto front of ${m.label} and ${o.label} over the cells: ${a.value.front.map((i) => report.cells[i].value.map((v) => JSON.stringify(v)).join(', ')).map((t) => `(${t})`).join('; ') || 'none'}`;
    } else front.textContent = a.errors.map(diagText).join('; ');
    front.dataset.front = JSON.stringify([...onFront]);
    const text = (v) => (v == null ? '—' : `${(+(v * m.scale).toPrecision(4)).toLocaleString('en-US')}${m.unit ? ` ${m.unit}` : ''}`);
    const nx = report.x.values.length;
    map.replaceChildren(h('table', { class: 'heatmap-table', tabindex: '0', 'aria-label': `${m.label} by ${report.x.parameter} (across) and ${report.y.parameter} (down); darker is larger` },
      h('caption', {}, `${titled(m.label, m.unit)}: mean over the seeds; darker is larger (${m.better === 'lower' ? 'lower is better' : m.better === 'higher' ? 'higher is better' : 'no better direction'})`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, `${report.y.parameter} \\ ${report.x.parameter}`), report.x.values.map((v) => h('th', { scope: 'col' }, JSON.stringify(v))))),
      h('tbody', {}, report.y.values.map((vy, r) => h('tr', {}, h('th', { scope: 'row' }, JSON.stringify(vy)),
        report.x.values.map((vx, c) => {
          const i = r * nx + c, v = values[i];
          const step = v == null || hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (SHADES - 1));
          const cell = h('td', { class: `num shade-${step}${onFront.has(i) ? ' on-front' : ''}`, 'data-testid': `grid-cell-${r}-${c}`, 'data-value': String(v) },
            onFront.has(i) ? h('span', { 'aria-label': 'on the front: ' }, '◆ ') : null, text(v), ' ',
            h('button', { type: 'button', class: 'small', 'aria-label': `Add ${report.x.parameter} = ${JSON.stringify(vx)}, ${report.y.parameter} = ${JSON.stringify(vy)} to the portfolio`,
              onclick: () => emit('portfolio-add', { label: `${JSON.stringify(vx)} × ${JSON.stringify(vy)}`, policy: JSON.stringify(report.cells[i].policy, null, 2) }) }, '+'));
          return cell;
        }))))));
  }
  return { refresh };
}
