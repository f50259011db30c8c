// Under the timeline, on its time axis (the same TimeView, the same left gutter): strips of the
// run's step series as Rust reported them (the binary run's `steps`, crate/src/output/steps.rs:
// total power, running, queued and deferred tasks at their change points, each a column of
// times beside a column of values), for A and, when comparing, B; and a chart of each host's
// mean utilisation (`result.hosts[].meanUtilization`). Each is a chart of charts.js: legend,
// keyboard focus, a table of the same numbers, SVG and PNG.
import { h } from './state.js';
import { createChart, PALETTE, titled } from './charts.js';
import { duration, ticks } from './format.js';

/** The series drawn, each with its columns in `steps`, title and unit. */
const STRIPS = [
  { key: 'powerW', at: 'powerAtMs', title: 'Power of all hosts', unit: 'kW', scale: 1e-3 },
  { key: 'runningTasks', at: 'runningAtMs', title: 'Running tasks', unit: '', scale: 1 },
  { key: 'queuedTasks', at: 'queuedAtMs', title: 'Queued tasks', unit: '', scale: 1 },
  { key: 'deferredTasks', at: 'deferredAtMs', title: 'Deferred tasks', unit: '', scale: 1 },
];
/** The timeline's left gutter and right margin, px (timeline.js), so that times line up. */
const GUTTER = 104, RIGHT = 8;
/** A value as the tables and the focus texts write it: four significant digits, grouped. */
const NUMBER = new Intl.NumberFormat('en-US');
const valueText = (v) => NUMBER.format(+v.toPrecision(4));
/** Columns a strip's series is thinned to (about a chart's width in pixels). */
const COLUMNS = 1000;

/** @typedef {{t: Float64Array, v: Float64Array}} Steps a step series: change k is (t[k], v[k]) */

/** Each series scaled to its unit, once per result (keyed by the result's own column). */
const scaled = new WeakMap();
/** @returns {Steps} */
function scaledSteps(steps, strip) {
  const raw = steps[strip.key];
  let v = scaled.get(raw);
  if (!v) { v = strip.scale === 1 ? raw : raw.map((x) => x * strip.scale); scaled.set(raw, v); }
  return { t: steps[strip.at], v };
}

/** The value of a step series in force at `t` (of the last change at or before it; null
 * before the first). */
function at({ t: ts, v }, t) {
  let lo = 0, hi = ts.length - 1, out = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] <= t) { out = v[mid]; lo = mid + 1; } else hi = mid - 1;
  }
  return out;
}

/** The first index of a step series whose time is after `t` (`strict`), or at or after it. */
function after({ t: ts }, t, strict = true) {
  let lo = 0, hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] < t || (strict && ts[mid] === t)) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/** Change points `[from, to)` of a step series as `[t, v]` points, at most four per one of
 * `columns` equal columns of `[t0, t1]`: in each, its first, lowest, highest and last point in
 * time order. A step line through them covers the same pixels as through all of them (one
 * column is about a pixel), so a half-year series of hundreds of thousands of changes draws in
 * a few thousand. */
function thin({ t: ts, v }, from, to, t0, t1, columns) {
  const out = [];
  if (to - from <= 4 * columns) {
    for (let k = from; k < to; k++) out.push([ts[k], v[k]]);
    return out;
  }
  const per = (t1 - t0) / columns;
  let col = -1, first = 0, lo = 0, hi = 0, last = 0;
  const flush = () => {
    if (col < 0) return;
    for (const k of [...new Set([first, lo, hi, last])].sort((a, b) => a - b)) out.push([ts[k], v[k]]);
  };
  for (let k = from; k < to; k++) {
    const c = Math.floor((ts[k] - t0) / per);
    if (c !== col) { flush(); col = c; first = lo = hi = last = k; continue; }
    if (v[k] < v[lo]) lo = k;
    if (v[k] > v[hi]) hi = k;
    last = k;
  }
  flush();
  return out;
}

export function createStrips(el, view, { download }) {
  const box = h('details', { class: 'strips', 'data-testid': 'strips', open: true },
    h('summary', {}, 'Power, running, queued and deferred tasks over time; utilisation per host'));
  el.append(box);
  const charts = STRIPS.map((s) => ({ ...s, chart: createChart(box, { id: `chart-strip-${s.key}`, title: titled(s.title, s.unit), height: 110, download }) }));
  const hosts = createChart(box, { id: 'chart-host-utilisation', title: 'Mean utilisation of each host (%)', height: 180, download });
  let shown = [];

  /** Draws the strips of the results shown ([{label, result, steps}]) over the view's time
   * range. */
  function draw() {
    if (!shown.length) return;
    const t0 = Math.max(0, view.t0), t1 = view.t1;
    const xt = ticks(t0, t1, 6).filter((v) => v >= t0 && v <= t1);
    charts.forEach((c, k) => {
      const series = shown.map(({ label, result, steps }, i) => {
        const pts = scaledSteps(steps, c);
        // Clip to the view: the value in force at t0, the change points inside (thinned to a
        // few per pixel column), held to t1.
        const inside = thin(pts, after(pts, t0), after(pts, t1, false), t0, t1, COLUMNS);
        const first = at(pts, t0);
        const points = [...(first == null ? [] : [[t0, first]]), ...inside];
        return { name: label, color: PALETTE[i === 0 ? 0 : 1], dash: i ? [6, 3] : [], step: true, points, extendTo: Math.min(t1, result.metrics.makespanMs), all: pts };
      });
      const focusables = [], rows = [];
      for (const t of xt) {
        const values = series.map((s) => at(s.all, t));
        const texts = values.map((v) => (v == null ? '—' : valueText(v)));
        rows.push([duration(t), ...texts]);
        series.forEach((s, i) => { if (values[i] != null) focusables.push({ x: t, y: values[i], text: `${s.name} at ${duration(t)}: ${texts[i]} ${c.unit}`.trim() }); });
      }
      c.chart.update({
        spec: {
          x: { title: k === charts.length - 1 ? 'time since the first submission' : '', lo: t0, hi: t1, ticks: xt.map((t) => [t, duration(t)]) },
          y: { title: c.unit || 'tasks' }, zeroY: true, series, pad: { left: GUTTER, right: RIGHT, bottom: k === charts.length - 1 ? 40 : 20, top: 8 },
        },
        legend: series.map((s) => ({ name: s.name, color: s.color, dash: s.dash })),
        table: { columns: ['time', ...series.map((s) => s.name)], rows },
        focusables,
        summary: `${c.title} over time for ${series.map((s) => s.name).join(' and ')}; the table gives it at each tick of the axis`,
      });
    });
    const names = shown[0].result.hosts.map((x) => x.name);
    const hostSeries = shown.map(({ label, result }, i) => ({
      name: label, color: PALETTE[i === 0 ? 0 : 1], bars: i === 0, marker: i > 0, line: false,
      points: result.hosts.map((x, j) => [j, x.meanUtilization * 100]),
    }));
    hosts.update({
      spec: { x: { title: `hosts, in topology order (${names.length})`, lo: -0.5, hi: names.length - 0.5, ticks: [] }, y: { title: '%' }, zeroY: true, series: hostSeries, pad: { left: GUTTER, right: RIGHT } },
      legend: hostSeries.map((s) => ({ name: s.name, color: s.color })),
      table: { columns: ['host', ...shown.map((s) => `${s.label} (%)`)], rows: names.map((n, j) => [n, ...shown.map(({ result }) => (result.hosts[j] ? (result.hosts[j].meanUtilization * 100).toFixed(2) : '—'))]) },
      focusables: names.map((n, j) => ({ x: j, y: hostSeries[0].points[j][1], text: `${n}: ${shown.map(({ label, result }) => `${label} ${(result.hosts[j]?.meanUtilization * 100).toFixed(2)} %`).join(', ')}` })),
      summary: `Mean utilisation of each of ${names.length} hosts`,
    });
  }
  // One draw per animation frame, whatever asked for it (a new result also moves the view).
  let queued = false;
  const invalidate = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; draw(); });
  };
  view.listeners.add(invalidate);
  return {
    /** The results shown: [{label, result, steps}] (A, and B when comparing; `steps` the binary
     * run's step series), drawn in the next frame. */
    set(results) { shown = results; invalidate(); },
  };
}
