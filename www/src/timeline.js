// The timeline: a canvas with one lane per host (grouped by cluster), one bar per run span,
// queued waits as thin lines, deferrals hatched, pauses outlined, terminated tasks in their own
// lane, and the carbon intensity with the low-carbon regime on the same time axis. The bars
// come from Rust as typed arrays sorted by (lane, start); a frame draws only the visible lanes
// and the bars of the visible time range (binary search), without allocating per bar, and
// merges the bars of a row that fall in one pixel column when zoomed out.
//
// Large clusters: above the lanes, a cluster overview strip, one heat-map row per host group of
// the share of its cores in use over time (the run answer's `overview`, and for its table the
// wasm's `overview` in a few buckets: Rust computes every figure, this file draws them), with its
// colour scale and the same figures as a
// table; lanes grouped by host group, each group collapsible to one summary row; a vertical zoom
// (the height of a lane row, `[`/`]` or ctrl+wheel) with host labels when lanes are tall enough
// and, when rows are thinner than 2 px, each pixel row drawn as its hosts' share of cores in use.

import { Context as SvgContext } from 'svgcanvas';
import { duration } from './format.js';
import { drawWhenShown } from './onscreen.js';

export const COLORS = {
  // Okabe–Ito, safe for the common colour-vision deficiencies.
  black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73',
  yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7',
};
const WAIT = 0, DEFER = 1, PAUSE = 2, RUN = 3, TERM = 4;
/** The kinds of bar in a model's `kind` array (the slide figure draws them too). */
export const KINDS = { WAIT, DEFER, PAUSE, RUN, TERM };
export const KIND_NAMES = ['queued', 'deferred', 'paused', 'running', 'terminated'];
const AXIS_H = 22, CARBON_H = 54, GUTTER = 104, CLUSTER_GAP = 14;
/** The overview strip: its header line (title and colour scale) and the most a row takes. */
const OV_HEAD = 16, OV_ROW_MAX = 16, OV_GAP = 6;
/** A collapsed group's summary row. */
const SUMMARY_H = 16;
/** Buckets asked of the wasm's overview for the table. */
const TABLE_BUCKETS = 12;
/** Lane row heights of the vertical zoom, px; below AGGREGATE_BELOW rows are drawn per pixel. */
export const ROW_HEIGHTS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 6, 8, 10, 12, 14, 18, 24];
const AGGREGATE_BELOW = 2;

/** The heat map's colour scale, share of cores in use 0..1: a light-to-dark blue ramp ending
 * in the lanes' run colour's family, 101 steps. */
/** @type {[number, number[]][]} */
const HEAT_STOPS = [[0, [244, 246, 248]], [0.01, [222, 235, 247]], [0.25, [158, 202, 225]], [0.5, [66, 146, 198]], [0.75, [8, 102, 176]], [1, [8, 48, 107]]];
export const HEAT = Array.from({ length: 101 }, (_, i) => {
  const v = i / 100;
  let k = 1;
  while (k < HEAT_STOPS.length - 1 && HEAT_STOPS[k][0] < v) k++;
  const [a, ca] = HEAT_STOPS[k - 1], [b, cb] = HEAT_STOPS[k];
  const f = b > a ? Math.min(1, Math.max(0, (v - a) / (b - a))) : 1;
  const c = ca.map((x, j) => Math.round(x + (cb[j] - x) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
});
/** The colour of a share of cores in use; any use at all is told apart from none. */
const heat = (v) => HEAT[v > 0 ? Math.max(1, Math.min(100, Math.round(v * 100))) : 0];
/** `43 %`: a share as the heat map's tooltip and table show it. */
const pct = (v) => `${v > 0 && v < 0.005 ? '<1' : Math.round(v * 100)} %`;

/** The hatching of deferrals (and, crossed, of terminated tasks) on a 6 px tile. */
function paintHatch(g, color, cross) {
  g.fillStyle = '#ffffff'; g.fillRect(0, 0, 6, 6);
  g.strokeStyle = color; g.lineWidth = 1.5;
  g.beginPath(); g.moveTo(0, 6); g.lineTo(6, 0);
  if (cross) { g.moveTo(0, 0); g.lineTo(6, 6); }
  g.stroke();
}

/** The visible time window, shared by stacked timelines (compare mode). */
export class TimeView {
  constructor() {
    this.t0 = 0; this.t1 = 1; this.min = 0; this.max = 1; this.listeners = new Set(); this.cursorMs = null;
    /** A replay's time (replay.js): bars are drawn only up to it, growing as it moves; null: all. */
    this.replayMs = null;
    /** Set when new inputs arrive: the next result resets the zoom rather than keeping it. */
    this.needsReset = false;
  }
  reset(min, max) {
    const pad = Math.max(1, (max - min) * 0.01);
    this.min = min - pad; this.max = max + pad; this.t0 = this.min; this.t1 = this.max; this.changed();
  }
  /** Keeps the zoom, widening the limits when a new result runs longer. */
  extend(min, max) {
    const full = this.t0 <= this.min && this.t1 >= this.max;
    const pad = Math.max(1, (max - min) * 0.01);
    this.min = Math.min(this.min, min - pad); this.max = Math.max(this.max, max + pad);
    if (full) { this.t0 = this.min; this.t1 = this.max; }
    this.changed();
  }
  set(t0, t1) {
    const span = Math.max(1000, Math.min(t1 - t0, (this.max - this.min) * 4));
    this.t0 = t0; this.t1 = t0 + span; this.changed();
  }
  zoom(factor, atMs) {
    const t0 = atMs - (atMs - this.t0) * factor;
    this.set(t0, t0 + (this.t1 - this.t0) * factor);
  }
  pan(dMs) { this.set(this.t0 + dMs, this.t1 + dMs); }
  changed() { for (const fn of this.listeners) fn(); }
}

/**
 * The timeline's model of a run: the bars Rust laid out, sorted by (lane, start, kind) with a
 * row each (crate/src/output/bars.rs), and the run's columns (www/src/columns.js), read where
 * they lie: nothing here walks the tasks.
 * @param {{result: import('./types/answers').ResultHead, data: import('./columns.js').RunData,
 *   bars: import('./types/answers').TimelineBars}} run
 */
/** The timeline's model of a run value, or of a placements answer's value (whose `result`
 * has `makespanMs` instead of `metrics`). */
export function buildModel({ result, data, bars: b }) {
  const hosts = data.hostCount;
  const laneName = [], laneCluster = [];
  for (let j = 0; j < hosts; j++) { laneName.push(data.hostName(j)); laneCluster.push(data.hostCluster(j)); }
  if (b.lanes > hosts) { laneName.push('never placed'); laneCluster.push(''); }
  const ci = result.series.carbonIntensity;
  let ciMin = Infinity, ciMax = -Infinity;
  for (const [, v] of ci) { if (v < ciMin) ciMin = v; if (v > ciMax) ciMax = v; }
  return {
    n: b.from.length, lanes: b.lanes, laneRows: b.laneRows, missed: b.missed,
    from: b.from, to: b.to, lane: b.lane, row: b.row, kind: b.kind, task: b.task,
    laneStart: b.laneStart, laneMaxDur: b.laneMaxDur, taskBarStart: b.taskBarStart, taskBars: b.taskBars,
    laneName, laneCluster, data, taskCount: data.n, hostCount: hosts,
    /** Cores of each host (a lane past the hosts has none). */
    hostCores: data.c.hostCores, cpuCount: data.c.cpuCount,
    /** Every task's record, built when first read (the slide figure, the tests). */
    get tasks() { return data.tasks; },
    get hosts() { return data.hosts; },
    /** The index of a task by its id. */
    taskIndex: { get: (id) => data.indexOf(id) },
    endMs: Math.max(result.metrics ? result.metrics.makespanMs : result.makespanMs, 1), series: result.series, startEpochMs: result.startEpochMs, ciMin, ciMax,
  };
}

function lowerBound(arr, lo, hi, value) {
  while (lo < hi) { const mid = (lo + hi) >> 1; if (arr[mid] < value) lo = mid + 1; else hi = mid; }
  return lo;
}

const pad2 = (n) => (n < 10 ? '0' : '') + n;
/** `MM-DD HH:MM` in UTC, without a Date object. */
export function utcLabel(epochMs, withDate, withTime) {
  const days = Math.floor(epochMs / 86400000);
  const msOfDay = epochMs - days * 86400000;
  // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
  const z = days + 719468, era = Math.floor(z / 146097), doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1, mo = mp < 10 ? mp + 3 : mp - 9;
  const hh = Math.floor(msOfDay / 3600000), mm = Math.floor((msOfDay % 3600000) / 60000);
  const date = `${pad2(mo)}-${pad2(d)}`, time = `${pad2(hh)}:${pad2(mm)}`;
  return withDate && withTime ? `${date} ${time}` : withDate ? date : time;
}

const STEPS = [1e3, 5e3, 15e3, 6e4, 3e5, 9e5, 18e5, 36e5, 108e5, 216e5, 432e5, 864e5, 1728e5, 6048e5];

export class Timeline {
  constructor(container, view, { label, testid, onSelect, onCursor }) {
    this.view = view;
    this.onSelect = onSelect;
    this.onCursor = onCursor;
    this.model = null;
    this.scrollY = 0;
    this.selected = -1;
    this.cursorMode = false;
    this.stale = false;
    this.canvas = document.createElement('canvas');
    this.canvas.tabIndex = 0;
    this.canvas.className = 'timeline-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', `${label}: drag or arrow keys to pan, wheel or +/- to zoom, shift+wheel or up/down to scroll hosts, ctrl+wheel or [ and ] for thinner or taller lanes, click a host group's name to collapse it, click a bar to explain it, click the time axis to set the cursor`);
    this.canvas.dataset.testid = testid;
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'tooltip';
    this.tooltip.hidden = true;
    this.tooltip.setAttribute('role', 'tooltip');
    /** The run's overview (the wasm's answer value) and the handle it is for. */
    this.overview = null;
    this.run = null;
    this.engine = null;
    /** Collapsed host groups, by key; a lane row height chosen by the user (null: fit). */
    this.collapsed = new Set();
    this.rowHUser = null;
    this.rowH = 3;
    this.groups = [];
    this.controls = this.makeControls();
    container.append(this.canvas, this.tooltip, this.controls.root);
    this.ctx = this.canvas.getContext('2d');
    this.hatch = this.pattern(COLORS.green, false);
    this.crossHatch = this.pattern(COLORS.vermillion, true);
    this.width = 0; this.height = 0; this.dpr = 1;
    this.frames = 0;
    this.frameMs = 0;
    this.pending = false;
    // Drawn only while on screen (onscreen.js): out of view, a draw waits until it scrolls in.
    this.onscreen = drawWhenShown(this.canvas, () => this.draw());
    this.drawNow = () => { if (this.pending) { this.pending = false; this.onscreen.draw(); } };
    view.listeners.add(() => this.invalidate());
    new ResizeObserver(() => this.resize()).observe(this.canvas);
    this.bind();
  }

  pattern(color, cross) {
    const c = document.createElement('canvas');
    c.width = c.height = 6;
    paintHatch(c.getContext('2d'), color, cross);
    return this.ctx.createPattern(c, 'repeat');
  }

  /** The frame on screen as SVG text (for slides): the same drawing code, into svgcanvas. */
  toSvg() {
    const svg = new SvgContext({ width: this.width, height: this.height });
    const tile = (color, cross) => {
      const t = new SvgContext({ width: 6, height: 6 });
      paintHatch(t, color, cross);
      return svg.createPattern(t, 'repeat');
    };
    /** @type {any[]} */
    const saved = [this.ctx, this.hatch, this.crossHatch, this.dpr, this.frames, this.frameMs];
    this.ctx = svg;
    this.hatch = tile(COLORS.green, false);
    this.crossHatch = tile(COLORS.vermillion, true);
    this.dpr = 1;
    try {
      this.draw();
    } finally {
      [this.ctx, this.hatch, this.crossHatch, this.dpr, this.frames, this.frameMs] = saved;
    }
    return svg.getSerializedSvg();
  }

  /**
   * What a slide figure (slide.js) draws of this timeline: its model, the overview's bucket
   * length, and its host groups with their lanes. `whole`: every lane of every group (collapsed
   * ones too); else what the plot shows now: the lanes in view, and a collapsed group whose
   * summary row is in view with no lane (its heat row only).
   * @param {'whole' | 'visible'} mode
   */
  figureSource(mode) {
    const m = this.model;
    if (!m) return null;
    const o = this.ov();
    const top = this.scrollY, bottom = this.scrollY + this.height - this.plotTop;
    const groups = [];
    for (const g of this.groups) {
      const lanes = [];
      if (mode === 'whole') {
        for (let l = g.first; l < g.first + g.count; l++) lanes.push(l);
      } else if (g.collapsed) {
        if (!(g.y + SUMMARY_H > top && g.y - CLUSTER_GAP < bottom)) continue;
      } else {
        for (let l = g.first; l < g.first + g.count; l++) {
          if (this.laneH[l] && this.laneY[l] + this.laneH[l] > top && this.laneY[l] < bottom) lanes.push(l);
        }
        if (!lanes.length) continue;
      }
      groups.push({ key: g.key, cluster: g.cluster, name: g.name, info: g.info, ov: g.ov, unplaced: !!g.unplaced, lanes });
    }
    return { model: m, bucketMs: o ? o.bucketMs : 0, groups };
  }

  setModel(model, stale = false) {
    this.model = model;
    this.stale = stale;
    if (model && this.selected >= model.taskCount) this.selected = -1;
    this.layout();
    this.invalidate();
  }

  setStale(stale) { if (stale !== this.stale) { this.stale = stale; this.invalidate(); } }

  /**
   * The run the model is of (an engine run ref, or null) and its overview (the run answer's:
   * Rust makes it from the result, so drawing it costs no second run).
   * @param {import('./engine.js').Engine} engine
   * @param {{handle: number} | null} run
   * @param {import('./types/answers').Overview | null} overview
   */
  setRun(engine, run, overview) {
    this.engine = engine;
    this.run = run;
    this.tableFor = null;
    /** The run the overview on screen is of (the tests wait for it). */
    this.overviewRun = run;
    this.setOverview(run ? overview : null);
    if (run && this.controls.details.open) this.fillTable();
  }

  /** @param {import('./types/answers').Overview | null} overview */
  setOverview(overview) {
    this.overview = overview;
    this.layout();
    this.updateControls();
    this.invalidate();
  }

  /** The overview when it is of the model shown (the same hosts), else null. */
  ov() {
    const o = this.overview, m = this.model;
    if (!o || !m) return null;
    const hosts = o.groups.reduce((n, g) => n + g.hosts, 0);
    return hosts === m.hostCount ? o : null;
  }

  /** Host groups of the lanes, in host order: the overview's (it comes with the run answer, so
   * with the model); without one, all hosts as one group. */
  laneGroups() {
    const m = this.model, o = this.ov();
    const groups = [];
    const group = (cluster, name, first, count, cores, ov) =>
      ({ key: `${cluster}/${name}`, cluster, name, first, count, info: `${count} × ${cores} cores`, ov, y: 0, collapsed: false });
    if (o) {
      for (const g of o.groups) if (g.hosts > 0) groups.push(group(g.cluster, g.name, g.firstHost, g.hosts, g.coresPerHost, g));
    } else if (m.hostCount) {
      groups.push({ ...group('', 'hosts', 0, m.hostCount, '', null), info: `${m.hostCount} hosts` });
    }
    if (m.lanes > m.hostCount) groups.push({ key: 'never placed', cluster: '', name: '', first: m.hostCount, count: 1, info: '', ov: null, y: 0, collapsed: false, unplaced: true });
    return groups;
  }

  /** The groups of the overview strip and the toggles: every group of hosts. */
  hostGroups() { return this.groups.filter((g) => !g.unplaced); }

  /** Lane row height one step taller (+1) or thinner (-1) than now. */
  zoomLanes(dir) {
    const now = this.rowH;
    const next = dir > 0 ? ROW_HEIGHTS.find((h) => h > now + 1e-9) : [...ROW_HEIGHTS].reverse().find((h) => h < now - 1e-9);
    if (next == null) return;
    // Keep the lane at the middle of the view where it is.
    const m = this.model, plotH = this.height - this.plotTop;
    let anchor = -1;
    if (m) anchor = Math.max(0, lowerBound(this.laneY, 0, m.lanes, this.scrollY + plotH / 2) - 1);
    const before = anchor >= 0 ? this.laneY[anchor] - this.scrollY : 0;
    this.rowHUser = next;
    this.layout();
    if (anchor >= 0) { this.scrollY = this.laneY[anchor] - before; this.clampScroll(); }
    this.updateControls();
    this.invalidate();
  }

  toggleGroup(key) {
    if (this.collapsed.has(key)) this.collapsed.delete(key); else this.collapsed.add(key);
    this.layout();
    this.updateControls();
    this.invalidate();
  }

  /** The controls under the canvas: a toggle per host group, the lane height, and the overview
   * as a table (for screen readers and for reading the figures). */
  makeControls() {
    const el = (tag, props = {}, ...kids) => {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(props)) {
        if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
      }
      e.append(...kids);
      return e;
    };
    const groups = el('span', { class: 'row', role: 'group', 'aria-label': 'Host groups', 'data-testid': 'group-toggles' });
    const thinner = el('button', { type: 'button', 'aria-label': 'Thinner lanes', 'data-testid': 'lanes-thinner', text: '−' });
    const taller = el('button', { type: 'button', 'aria-label': 'Taller lanes', 'data-testid': 'lanes-taller', text: '+' });
    const height = el('output', { 'data-testid': 'lane-height', 'aria-live': 'polite' });
    thinner.addEventListener('click', () => this.zoomLanes(-1));
    taller.addEventListener('click', () => this.zoomLanes(1));
    const lanes = el('span', { class: 'row' }, el('span', { text: 'Lane height' }), thinner, height, taller);
    const table = el('table', { 'data-testid': 'overview-table' });
    const details = el('details', { 'data-testid': 'overview-details' }, el('summary', { text: 'Cluster overview as a table' }), table);
    details.addEventListener('toggle', () => { if (details.open) this.fillTable(); });
    const root = el('div', { class: 'timeline-controls' }, el('div', { class: 'row hint' }, groups, lanes), details);
    return { root, groups, height, table, details, el };
  }

  /** The group toggles and the lane height, as the state is now. */
  updateControls() {
    const { groups, height, el } = this.controls;
    const keys = this.hostGroups().map((g) => g.key).join('\n');
    if (groups.dataset.keys !== keys) {
      groups.dataset.keys = keys;
      const buttons = this.hostGroups().map((g) => {
        const b = el('button', { type: 'button', 'data-testid': 'group-toggle', 'data-group': g.key });
        b.addEventListener('click', () => this.toggleGroup(g.key));
        return b;
      });
      groups.replaceChildren(...(buttons.length ? [el('span', { text: 'Host groups' }), ...buttons] : []));
    }
    for (const b of groups.querySelectorAll('button')) {
      const key = b.dataset.group, open = !this.collapsed.has(key);
      const g = this.groups.find((x) => x.key === key);
      b.setAttribute('aria-expanded', String(open));
      b.textContent = `${open ? '▾' : '▸'} ${key} (${g ? g.count : 0} hosts)`;
    }
    height.textContent = `${+this.rowH.toFixed(2)} px${this.aggregated ? ' (drawn per pixel)' : ''}`;
    this.canvas.dataset.laneHeight = String(this.rowH);
    this.canvas.dataset.laneMode = this.aggregated ? 'aggregated' : 'detailed';
    this.canvas.dataset.collapsed = [...this.collapsed].join('\n');
    this.canvas.dataset.overviewRows = this.ov() ? JSON.stringify(this.hostGroups().map((g) => g.key)) : '';
  }

  /** The overview's figures as a table: per group its summary and its use in a few buckets. */
  async fillTable() {
    const { table, el } = this.controls;
    const run = this.run;
    if (!run || !this.engine || this.tableFor === run) return;
    const handle = await this.engine.runHandle(run);
    if (handle == null || this.run !== run) return;
    const answer = await this.engine.post('overview', [handle, TABLE_BUCKETS]);
    if (this.run !== run || answer.type !== 'success') return;
    this.tableFor = run;
    const o = answer.value, epoch = this.model ? this.model.startEpochMs : 0;
    const when = (i) => utcLabel(epoch + Math.round(i * o.bucketMs), true, true);
    const head = el('tr', {}, el('th', { scope: 'col', text: 'host group' }), el('th', { scope: 'col', text: 'hosts × cores' }), el('th', { scope: 'col', text: 'figures' }),
      ...o.groups[0]?.utilization.map((_, i) => el('th', { scope: 'col', text: `${when(i)} to ${when(i + 1)}` })) ?? []);
    const rows = o.groups.map((g) => el('tr', { 'data-group': g.key }, el('th', { scope: 'row', text: g.key }),
      el('td', { text: `${g.hosts} × ${g.coresPerHost}` }), el('td', { text: g.summary }),
      ...g.utilization.map((v) => el('td', { text: pct(v) }))));
    table.replaceChildren(
      el('caption', { text: `${o.measure}, per ${o.bucketText} (UTC), for each host group` }),
      el('thead', {}, head), el('tbody', {}, ...rows));
  }

  select(taskIndex) { this.selected = taskIndex; this.invalidate(); }

  resize() {
    const r = this.canvas.getBoundingClientRect();
    this.dpr = window.devicePixelRatio || 1;
    this.width = Math.max(200, r.width);
    this.height = Math.max(120, r.height);
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    this.layout();
    this.onscreen.resized();
  }

  get plotTop() { return this.overviewTop + this.overviewH() + 4; }
  get overviewTop() { return AXIS_H + (this.hasCarbon() ? CARBON_H : 0); }
  hasCarbon() { return !!(this.model && this.model.series.carbonIntensity.length); }

  /** The height of one overview row: the strip takes at most a third of the canvas. */
  ovRowH() {
    const n = this.model ? this.hostGroups().length : 0;
    if (!n) return 0;
    return Math.max(3, Math.min(OV_ROW_MAX, Math.floor((this.height / 3 - OV_HEAD - OV_GAP) / n)));
  }

  overviewH() {
    const n = this.model ? this.hostGroups().length : 0;
    return n ? OV_HEAD + n * this.ovRowH() + OV_GAP : 0;
  }

  layout() {
    const m = this.model;
    if (!m) return;
    this.groups = this.laneGroups();
    let rows = 0;
    for (let l = 0; l < m.lanes; l++) rows += m.laneRows[l];
    const avail = this.height - this.plotTop - 4 - this.groups.length * CLUSTER_GAP;
    if (this.rowHUser != null) this.rowH = this.rowHUser;
    else if (avail / Math.max(1, rows) >= 3 || m.lanes * 3 <= avail) this.rowH = Math.max(3, Math.min(14, Math.floor(avail / Math.max(1, rows))));
    // Many hosts: one thin row per host, all of them in view.
    else this.rowH = Math.max(ROW_HEIGHTS[0], Math.min(1.75, avail / m.lanes));
    this.aggregated = this.rowH < AGGREGATE_BELOW;
    const rowH = this.rowH;
    this.laneY = new Float64Array(m.lanes + 1);
    this.laneH = new Float64Array(m.lanes);
    let y = 0;
    for (const g of this.groups) {
      y += CLUSTER_GAP;
      g.y = y;
      g.collapsed = this.collapsed.has(g.key);
      if (g.collapsed) {
        for (let l = g.first; l < g.first + g.count; l++) this.laneY[l] = y;
        y += SUMMARY_H;
        continue;
      }
      for (let l = g.first; l < g.first + g.count; l++) {
        this.laneY[l] = y;
        this.laneH[l] = this.aggregated ? rowH : m.laneRows[l] * rowH;
        y += this.laneH[l] + (!this.aggregated && rowH >= 6 ? 1 : 0);
      }
    }
    this.laneY[m.lanes] = y;
    this.totalH = y;
    this.clampScroll();
    this.updateControls();
  }

  clampScroll() {
    const max = Math.max(0, (this.totalH || 0) - (this.height - this.plotTop - 2));
    this.scrollY = Math.max(0, Math.min(max, this.scrollY));
  }

  invalidate() {
    if (!this.pending) { this.pending = true; requestAnimationFrame(this.drawNow); }
  }

  /** Draws now if a draw is pending or owed while out of view (before the canvas is read). */
  flush() {
    this.drawNow(); // the frame's call then finds nothing pending
    this.onscreen.flush();
  }

  x(t) { return GUTTER + ((t - this.view.t0) * (this.width - GUTTER - 8)) / (this.view.t1 - this.view.t0); }
  t(x) { return this.view.t0 + ((x - GUTTER) * (this.view.t1 - this.view.t0)) / (this.width - GUTTER - 8); }

  draw() {
    const started = performance.now();
    const { ctx, width: W, height: H, model: m, view } = this;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, W, H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    if (!m) {
      ctx.fillStyle = '#555';
      ctx.fillText('no result yet', GUTTER, H / 2);
      return;
    }
    const top = this.plotTop;
    this.drawRegime(top, H);
    this.drawLanes(top, H);
    this.drawAxis();
    if (this.hasCarbon()) this.drawCarbon();
    this.drawOverview();
    if (view.replayMs != null && this.overviewH()) { // a replay: the overview's future, veiled
      const x = Math.max(GUTTER, this.x(view.replayMs));
      ctx.fillStyle = 'rgba(255,255,255,0.75)'; ctx.fillRect(x, this.overviewTop + OV_HEAD, W - x, this.overviewH() - OV_HEAD);
    }
    if (view.cursorMs != null) {
      const x = this.x(view.cursorMs);
      if (x >= GUTTER && x <= W) {
        ctx.strokeStyle = COLORS.black; ctx.lineWidth = 1; ctx.setLineDash([4, 3]);
        ctx.beginPath(); ctx.moveTo(x + 0.5, 0); ctx.lineTo(x + 0.5, H); ctx.stroke();
        ctx.setLineDash([]);
      }
    }
    if (this.stale) {
      ctx.fillStyle = 'rgba(255,255,255,0.55)';
      ctx.fillRect(GUTTER, top, W - GUTTER, H - top);
      ctx.fillStyle = COLORS.vermillion;
      ctx.font = 'bold 12px system-ui, sans-serif';
      ctx.fillText('stale: the policy has errors', GUTTER + 8, top + 12);
    }
    this.frames += 1;
    this.frameMs = performance.now() - started;
  }

  drawRegime(top, H) {
    const { ctx, model: m, view } = this;
    const reg = m.series.regime;
    if (!reg.length) return;
    const i0 = Math.max(0, lowerBoundRegime(reg, view.t0) - 1);
    for (let i = i0; i < reg.length; i++) {
      const from = reg[i].timeMs;
      if (from > view.t1) break;
      const to = i + 1 < reg.length ? reg[i + 1].timeMs : Math.max(m.endMs, view.t1);
      const x0 = Math.max(GUTTER, this.x(from)), x1 = Math.min(this.width, this.x(to));
      if (x1 <= x0) continue;
      if (reg[i].longLow) { ctx.fillStyle = 'rgba(86,180,233,0.20)'; ctx.fillRect(x0, AXIS_H, x1 - x0, H - AXIS_H); }
      if (reg[i].shortLow) { ctx.fillStyle = 'rgba(86,180,233,0.22)'; ctx.fillRect(x0, AXIS_H, x1 - x0, H - AXIS_H); }
      if (reg[i].stopperHigh) { ctx.fillStyle = COLORS.vermillion; ctx.fillRect(x0, AXIS_H, x1 - x0, 3); }
    }
  }

  drawLanes(top, H) {
    const { ctx, model: m } = this;
    const rowH = this.rowH, laneY = this.laneY, laneH = this.laneH;
    const yOff = top - this.scrollY;
    ctx.save();
    ctx.beginPath(); ctx.rect(0, top, this.width, H - top); ctx.clip();
    this.drawGroupHeads(yOff, top, H);
    if (this.aggregated) this.drawAggregated(yOff, top, H);
    else this.drawDetailed(yOff, top, H);
    if (this.selected >= 0) {
      ctx.strokeStyle = COLORS.black; ctx.lineWidth = 2;
      const h = this.aggregated ? 3 : rowH;
      for (let b = m.taskBarStart[this.selected]; b < m.taskBarStart[this.selected + 1]; b++) {
        const j = m.taskBars[b];
        if (!laneH[m.lane[j]] || m.from[j] > (this.view.replayMs ?? Infinity)) continue;
        const y = laneY[m.lane[j]] + yOff + this.rowOffset(j) - (this.aggregated ? 1 : 0);
        const x0 = Math.max(GUTTER, this.x(m.from[j])), x1 = Math.max(x0 + 2, this.x(Math.min(m.to[j], this.view.replayMs ?? Infinity)));
        if (m.kind[j] === RUN) { ctx.fillStyle = COLORS.yellow; ctx.fillRect(x0, y, x1 - x0, h); }
        ctx.strokeRect(x0, y, x1 - x0, h);
      }
    }
    ctx.restore();
    ctx.fillStyle = '#ffffff';
  }

  /** Each host group's heading (its name, hosts and cores, or a collapsed group's figures),
   * and a collapsed group's summary row: its share of cores in use over time. */
  drawGroupHeads(yOff, top, H) {
    const { ctx } = this;
    for (const [i, g] of this.groups.entries()) {
      const y = g.y + yOff;
      const bottom = y + (g.collapsed ? SUMMARY_H : this.laneY[g.first + g.count] - g.y);
      if (bottom < top - CLUSTER_GAP || y - CLUSTER_GAP > H) continue;
      if (i > 0) { ctx.fillStyle = '#999'; ctx.fillRect(0, y - CLUSTER_GAP, this.width, 1); }
      ctx.fillStyle = '#222'; ctx.font = 'bold 11px system-ui, sans-serif';
      // The cluster's name as its own text (an SVG export keeps it searchable), then the group's.
      const parts = g.unplaced ? [g.key] : [g.collapsed ? '▸' : '▾', g.cluster, `/${g.name}`];
      let after = 4;
      for (const [k, part] of parts.entries()) {
        ctx.fillText(part, after, y - CLUSTER_GAP / 2);
        after += ctx.measureText(part).width + (k === 0 && !g.unplaced ? 4 : 0);
      }
      after += 8;
      ctx.font = '11px system-ui, sans-serif'; ctx.fillStyle = '#555';
      const info = g.collapsed && g.ov ? `${g.info} · ${g.ov.summary}` : g.info;
      if (info) ctx.fillText(info, Math.max(after, GUTTER), y - CLUSTER_GAP / 2);
      if (g.collapsed) {
        if (g.ov) this.drawHeatRow(g.ov.utilization, y + 1, SUMMARY_H - 3);
        else { ctx.fillStyle = '#eee'; ctx.fillRect(GUTTER, y + 1, this.width - GUTTER, SUMMARY_H - 3); }
        ctx.fillStyle = '#555';
        ctx.fillText(`${g.count} hosts`, 14, y + SUMMARY_H / 2 - 1, GUTTER - 18);
      }
    }
  }

  /** Lanes with a row per concurrent task: every bar, host names when a lane is tall enough.
   * Zoomed out, the run bars (and the queued lines) of a row that meet within a pixel are drawn
   * as one rectangle of their colour, so a frame costs about one rectangle per pixel column and
   * row, however many tasks a lane holds. */
  drawDetailed(yOff, top, H) {
    const { ctx, model: m, view } = this;
    const rowH = this.rowH, laneY = this.laneY, laneH = this.laneH;
    let l = Math.max(0, lowerBound(laneY, 0, m.lanes, this.scrollY) - 1);
    let style = null;
    const setFill = (s) => { if (s !== style) { ctx.fillStyle = s; style = s; } };
    const replay = view.replayMs ?? Infinity;
    // Per row of the lane and kind (run or queued): the rectangle being merged, [x0, x1), colour.
    const rows = this.mergeRows(m);
    const px0 = rows.x0, px1 = rows.x1, pc = rows.color;
    const flush = (ly, slot) => {
      const c = pc[slot];
      if (!c) return;
      const y = ly + (slot >> 1) * rowH;
      setFill(c);
      if (slot & 1) ctx.fillRect(px0[slot], y + rowH / 2 - 0.5, px1[slot] - px0[slot], 1);
      else ctx.fillRect(px0[slot], y + 0.5, px1[slot] - px0[slot], Math.max(1, rowH - 1));
      pc[slot] = null;
    };
    const merge = (ly, slot, x0, x1, color) => {
      if (pc[slot] === color && x0 <= px1[slot] + 0.5) { if (x1 > px1[slot]) px1[slot] = x1; return; }
      flush(ly, slot);
      px0[slot] = x0; px1[slot] = x1; pc[slot] = color;
    };
    ctx.font = '11px system-ui, sans-serif';
    for (; l < m.lanes; l++) {
      const ly = laneY[l] + yOff;
      if (ly > H) break;
      const lh = laneH[l];
      if (!lh || ly + lh < top) continue;
      if (l % 2 === 1) { setFill('#f3f3f3'); ctx.fillRect(GUTTER, ly, this.width - GUTTER, lh); }
      if (lh >= 9) { setFill('#333'); ctx.fillText(m.laneName[l], 14, ly + Math.min(lh, Math.max(rowH, 12)) / 2, GUTTER - 18); }
      const lo = m.laneStart[l], hi = m.laneStart[l + 1];
      let j = lowerBound(m.from, lo, hi, view.t0 - m.laneMaxDur[l]);
      for (; j < hi; j++) {
        const from = m.from[j];
        if (from > view.t1 || from > replay) break; // bars of a lane are in order of their start
        const to = Math.min(m.to[j], replay);
        if (to < view.t0) continue;
        let x0 = this.x(from), x1 = this.x(to);
        if (x1 - x0 < 1) x1 = x0 + 1;
        if (x0 < GUTTER) x0 = GUTTER;
        if (x1 <= x0) continue;
        const y = ly + m.row[j] * rowH;
        const k = m.kind[j];
        if (k === RUN) {
          merge(ly, m.row[j] * 2, x0, x1, m.missed[m.task[j]] ? COLORS.purple : COLORS.blue);
        } else if (k === WAIT) {
          merge(ly, m.row[j] * 2 + 1, x0, x1, '#6e6e6e');
        } else if (k === DEFER) {
          ctx.fillStyle = this.hatch; style = null;
          ctx.fillRect(x0, y + 0.5, x1 - x0, Math.max(1, rowH - 1));
        } else if (k === PAUSE) {
          ctx.strokeStyle = COLORS.orange; ctx.lineWidth = 1.5;
          ctx.strokeRect(x0 + 0.75, y + 1, Math.max(0.5, x1 - x0 - 1.5), Math.max(0.5, rowH - 2));
        } else {
          ctx.fillStyle = this.crossHatch; style = null;
          ctx.fillRect(x0, y + 0.5, Math.max(3, x1 - x0), Math.max(1, rowH - 1));
        }
      }
      for (let slot = 0; slot < 2 * m.laneRows[l]; slot++) flush(ly, slot);
    }
  }

  /** The merge state of drawDetailed: two slots per row of the model's tallest lane. */
  mergeRows(m) {
    if (this.merging?.model !== m) {
      let most = 1;
      for (let l = 0; l < m.lanes; l++) if (m.laneRows[l] > most) most = m.laneRows[l];
      this.merging = { model: m, x0: new Float64Array(2 * most), x1: new Float64Array(2 * most), color: new Array(2 * most).fill(null) };
    }
    return this.merging;
  }

  /**
   * Lanes thinner than AGGREGATE_BELOW px: the hosts whose lanes start in one pixel row are
   * drawn together, each pixel column coloured by their mean share of cores in use there (the
   * overview's scale), from the run spans (cores x covered part of the pixel, per host).
   */
  drawAggregated(yOff, top, H) {
    const { ctx, model: m, view } = this;
    const laneY = this.laneY, laneH = this.laneH;
    const x0p = GUTTER, w = Math.max(1, Math.ceil(this.width - 8 - GUTTER));
    const acc = new Float64Array(w + 1), diff = new Float64Array(w + 2);
    const msPerPx = (view.t1 - view.t0) / (this.width - GUTTER - 8);
    const replay = view.replayMs ?? Infinity;
    let l = Math.max(0, lowerBound(laneY, 0, m.lanes, this.scrollY) - 1);
    let labelBelow = -Infinity;
    ctx.font = '10px system-ui, sans-serif';
    while (l < m.lanes) {
      if (!laneH[l]) { l++; continue; }
      const y = laneY[l] + yOff;
      if (y > H) break;
      // The lanes that start in this pixel row.
      const row = Math.floor(y);
      let end = l, hosts = 0;
      acc.fill(0); diff.fill(0);
      for (; end < m.lanes && laneH[end] && Math.floor(laneY[end] + yOff) === row; end++) {
        hosts++;
        const cores = end < m.hostCount ? m.hostCores[end] : 0;
        if (!cores) continue;
        const lo = m.laneStart[end], hi = m.laneStart[end + 1];
        for (let j = lowerBound(m.from, lo, hi, view.t0 - m.laneMaxDur[end]); j < hi && m.from[j] <= view.t1 && m.from[j] <= replay; j++) {
          if (m.kind[j] !== RUN || m.to[j] < view.t0) continue;
          const share = m.cpuCount[m.task[j]] / cores;
          const a = Math.max(0, (m.from[j] - view.t0) / msPerPx), b = Math.min(w, (Math.min(m.to[j], replay) - view.t0) / msPerPx);
          if (b <= a) continue;
          const ia = Math.floor(a), ib = Math.floor(b);
          if (ia === ib) { acc[ia] += share * (b - a); continue; }
          acc[ia] += share * (ia + 1 - a);
          acc[ib] += share * (b - ib);
          diff[ia + 1] += share; diff[ib] -= share;
        }
      }
      const bottom = Math.max(row + 1, laneY[end - 1] + yOff + laneH[end - 1]);
      if (bottom >= top && hosts) {
        let run = 0, start = 0, color = null;
        for (let i = 0; i <= w; i++) {
          run += diff[i];
          const c = i < w ? heat(Math.min(1, (acc[i] + run) / hosts)) : null;
          if (c !== color) {
            if (color && color !== HEAT[0]) { ctx.fillStyle = color; ctx.fillRect(x0p + start, row, i - start, bottom - row); }
            color = c; start = i;
          }
        }
        // A host's name now and then, so that the rows can be told apart.
        if (row >= labelBelow && row >= top) {
          ctx.fillStyle = '#555';
          ctx.fillRect(GUTTER - 4, row, 3, 1);
          ctx.fillText(m.laneName[l], 14, row + 5, GUTTER - 20);
          labelBelow = row + 28;
        }
      }
      l = end;
    }
  }

  /** One heat-map row of a group's buckets, each pixel column the mean of its buckets. */
  drawHeatRow(values, y, h) {
    const { ctx, view } = this;
    const o = this.ov();
    if (!o || !values.length || o.bucketMs <= 0) return;
    const n = values.length;
    const i0 = Math.max(0, Math.floor(view.t0 / o.bucketMs)), i1 = Math.min(n - 1, Math.floor(view.t1 / o.bucketMs));
    let px = -1, sum = 0, count = 0;
    const flush = () => {
      if (count) {
        const from = Math.max(GUTTER, px), to = Math.min(this.width - 8, this.x(Math.min(o.makespanMs, (i0b + 1) * o.bucketMs)));
        ctx.fillStyle = heat(sum / count);
        ctx.fillRect(from, y, Math.max(1, to - from), h);
      }
    };
    let i0b = i0;
    for (let i = i0; i <= i1; i++) {
      const x = Math.floor(this.x(i * o.bucketMs));
      if (x !== px) { flush(); px = x; sum = 0; count = 0; }
      sum += values[i]; count++; i0b = i;
    }
    flush();
  }

  /** The overview strip: its title and colour scale, then a labelled heat-map row per host
   * group. */
  drawOverview() {
    const { ctx } = this;
    const o = this.ov(), groups = this.hostGroups();
    if (!groups.length) return;
    const top = this.overviewTop, rh = this.ovRowH();
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, top, this.width, this.overviewH());
    ctx.fillStyle = '#222'; ctx.font = 'bold 11px system-ui, sans-serif';
    ctx.fillText('Cores in use', 4, top + OV_HEAD / 2);
    // The colour scale, at the right of the title line.
    const scaleW = 120, sx = this.width - 8 - scaleW - 34, sy = top + 4;
    for (let i = 0; i < scaleW; i++) { ctx.fillStyle = heat(i / (scaleW - 1)); ctx.fillRect(sx + i, sy, 1, 8); }
    ctx.strokeStyle = '#999'; ctx.lineWidth = 1; ctx.strokeRect(sx - 0.5, sy - 0.5, scaleW + 1, 9);
    ctx.font = '11px system-ui, sans-serif'; ctx.fillStyle = '#333';
    ctx.fillText('0 %', sx - 26, top + OV_HEAD / 2);
    ctx.fillText('100 %', sx + scaleW + 4, top + OV_HEAD / 2);
    ctx.fillStyle = '#555';
    ctx.fillText(o ? `each host group's share of cores held by running tasks, per ${o.bucketText}` : 'each host group\'s share of cores held by running tasks…',
      GUTTER, top + OV_HEAD / 2, Math.max(40, sx - 34 - GUTTER));
    ctx.save();
    ctx.beginPath(); ctx.rect(0, top + OV_HEAD, this.width, groups.length * rh); ctx.clip();
    for (const [i, g] of groups.entries()) {
      const y = top + OV_HEAD + i * rh;
      ctx.fillStyle = HEAT[0]; ctx.fillRect(GUTTER, y, this.width - 8 - GUTTER, rh - 1);
      if (g.ov) this.drawHeatRow(g.ov.utilization, y, rh - 1);
      if (rh >= 9) {
        ctx.fillStyle = '#222'; ctx.font = '11px system-ui, sans-serif';
        ctx.fillText(`${this.collapsed.has(g.key) ? '▸' : '▾'} ${g.key}`, 4, y + rh / 2, GUTTER - 8);
      }
    }
    ctx.restore();
    ctx.fillStyle = '#ccc'; ctx.fillRect(GUTTER, top + this.overviewH() - OV_GAP / 2, this.width - GUTTER, 1);
  }

  drawAxis() {
    const { ctx, view, model: m } = this;
    ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, this.width, AXIS_H);
    ctx.fillStyle = '#f0f0f0'; ctx.fillRect(GUTTER, 0, this.width - GUTTER, AXIS_H);
    const span = view.t1 - view.t0;
    const pxPerMs = (this.width - GUTTER - 8) / span;
    let step = STEPS[STEPS.length - 1];
    for (const s of STEPS) if (s * pxPerMs >= 80) { step = s; break; }
    // Ticks on absolute UTC boundaries.
    const epoch = m.startEpochMs;
    let t = Math.ceil((view.t0 + epoch) / step) * step - epoch;
    ctx.fillStyle = '#333'; ctx.strokeStyle = '#bbb'; ctx.lineWidth = 1;
    for (; t <= view.t1; t += step) {
      const x = Math.round(this.x(t)) + 0.5;
      if (x < GUTTER) continue;
      ctx.beginPath(); ctx.moveTo(x, AXIS_H - 5); ctx.lineTo(x, this.height); ctx.globalAlpha = 0.35; ctx.stroke(); ctx.globalAlpha = 1;
      const abs = t + epoch;
      const midnight = abs % 86400000 === 0;
      ctx.fillText(utcLabel(abs, step >= 86400000 || midnight, step < 86400000), x + 3, 10);
    }
    ctx.fillStyle = '#555';
    ctx.fillText('UTC', 4, 10);
  }

  drawCarbon() {
    const { ctx, model: m, view } = this;
    const ci = m.series.carbonIntensity;
    const y0 = AXIS_H + 2, h = CARBON_H - 8;
    const range = Math.max(1e-9, m.ciMax - m.ciMin);
    const y = (v) => y0 + h - ((v - m.ciMin) / range) * h;
    ctx.fillStyle = '#333';
    ctx.fillText(`${Math.round(m.ciMax)}`, 4, y0 + 4);
    ctx.fillText(`${Math.round(m.ciMin)} gCO₂/kWh`, 4, y0 + h - 2);
    ctx.save();
    ctx.beginPath(); ctx.rect(GUTTER, AXIS_H, this.width - GUTTER, CARBON_H); ctx.clip();
    ctx.strokeStyle = COLORS.black; ctx.lineWidth = 1.25;
    ctx.beginPath();
    let i = 0;
    while (i + 1 < ci.length && ci[i + 1][0] <= view.t0) i++;
    let x = GUTTER, started = false;
    for (; i < ci.length; i++) {
      const x0 = Math.max(GUTTER, this.x(ci[i][0]));
      const x1 = i + 1 < ci.length ? this.x(ci[i + 1][0]) : this.width;
      const yy = y(ci[i][1]);
      if (!started) { ctx.moveTo(x0, yy); started = true; } else ctx.lineTo(x0, yy);
      ctx.lineTo(Math.min(x1, this.width), yy);
      x = x1;
      if (x > this.width) break;
    }
    ctx.stroke();
    ctx.restore();
    ctx.fillStyle = '#ccc'; ctx.fillRect(GUTTER, AXIS_H + CARBON_H - 1, this.width - GUTTER, 1);
  }

  /** The bar under a point, preferring a run span; -1 when none. */
  hit(px, py) {
    const m = this.model;
    if (!m || py < this.plotTop || px < GUTTER || this.aggregated) return -1;
    const yy = py - this.plotTop + this.scrollY;
    const l = lowerBound(this.laneY, 0, m.lanes + 1, yy + 0.001) - 1;
    if (l < 0 || l >= m.lanes || !this.laneH[l] || yy >= this.laneY[l] + this.laneH[l]) return -1;
    const row = Math.floor((yy - this.laneY[l]) / this.rowH);
    if (row < 0 || row >= m.laneRows[l]) return -1;
    const t = this.t(px), slack = (3 * (this.view.t1 - this.view.t0)) / this.width;
    const lo = m.laneStart[l], hi = m.laneStart[l + 1];
    let best = -1;
    for (let j = lowerBound(m.from, lo, hi, t - m.laneMaxDur[l] - slack); j < hi && m.from[j] <= t + slack; j++) {
      if (m.row[j] !== row || m.to[j] + slack < t) continue;
      if (best < 0 || (m.kind[j] === RUN && m.kind[best] !== RUN)) best = j;
    }
    return best;
  }

  /** The overview row under a point (its group), or null. */
  overviewAt(py) {
    const groups = this.hostGroups(), rh = this.ovRowH();
    if (!rh) return null;
    const i = Math.floor((py - this.overviewTop - OV_HEAD) / rh);
    return i >= 0 && i < groups.length ? groups[i] : null;
  }

  /** The lane group whose heading (or collapsed summary row) is under a point, or null. */
  groupHeadAt(py) {
    if (py < this.plotTop) return null;
    const yy = py - this.plotTop + this.scrollY;
    for (const g of this.groups) {
      if (yy >= g.y - CLUSTER_GAP && (yy < g.y || (g.collapsed && yy < g.y + SUMMARY_H))) return g;
    }
    return null;
  }

  /** The lane under a point in the per-pixel drawing, or -1. */
  laneAt(py) {
    const m = this.model;
    if (!m || py < this.plotTop) return -1;
    const yy = py - this.plotTop + this.scrollY;
    const l = lowerBound(this.laneY, 0, m.lanes + 1, yy + 0.001) - 1;
    return l >= 0 && l < m.lanes && this.laneH[l] && yy < this.laneY[l] + Math.max(1, this.laneH[l]) ? l : -1;
  }

  /** A tooltip of lines, or none. */
  tip(lines, px, py) {
    if (!lines) { this.tooltip.hidden = true; return; }
    this.tooltip.replaceChildren(...lines.map((s) => { const d = document.createElement('div'); d.textContent = s; return d; }));
    this.tooltip.hidden = false;
    this.tooltip.style.left = `${Math.max(0, Math.min(px + 14, this.width - 300))}px`;
    this.tooltip.style.top = `${py + 16}px`;
  }

  /** What is under the pointer outside the bars: an overview cell, a group heading, a thin lane. */
  hoverLines(px, py) {
    const m = this.model, o = this.ov();
    if (!m) return null;
    const row = py >= this.overviewTop && py < this.plotTop - 4 ? this.overviewAt(py) : null;
    const g = row && row.ov;
    if (g && o) {
      const folded = this.collapsed.has(g.key);
      if (px < GUTTER) return [`${g.key}: ${g.hosts} hosts × ${g.coresPerHost} cores`, g.summary, `click to ${folded ? 'show' : 'collapse'} its lanes`];
      const i = Math.floor(this.t(px) / o.bucketMs);
      if (i < 0 || i >= g.utilization.length) return null;
      const at = (k) => utcLabel(m.startEpochMs + Math.round(k * o.bucketMs), true, true);
      return [`${g.key}: ${pct(g.utilization[i])} of ${g.cores} cores in use`, `${at(i)} → ${at(i + 1)} UTC`];
    }
    const head = this.groupHeadAt(py);
    if (head && head.ov) return [`${head.key}: ${head.info}`, head.ov.summary, `click to ${head.collapsed ? 'show' : 'collapse'} its lanes`];
    if (this.aggregated && px >= GUTTER) {
      const l = this.laneAt(py);
      if (l >= 0) return [`${m.laneName[l]}${l < m.hostCount ? ` (${m.hostCores[l]} cores)` : ''}`, 'lanes thinner than 2 px show the share of cores in use; ] or ctrl+wheel up for taller lanes and their tasks'];
    }
    return null;
  }

  showTooltip(j, px, py) {
    if (j < 0) { this.tip(this.hoverLines(px, py), px, py); return; }
    const m = this.model, t = m.data.task(m.task[j]);
    const lines = [
      `${t.name} (id ${t.id})`,
      `${KIND_NAMES[m.kind[j]]} ${duration(m.to[j] - m.from[j])}${m.kind[j] === RUN || m.kind[j] === PAUSE ? ` on ${m.laneName[m.lane[j]]}` : ''}`,
      `${utcLabel(m.from[j] + m.startEpochMs, true, true)} → ${utcLabel(m.to[j] + m.startEpochMs, true, true)}`,
      `${t.state}; waited ${duration(t.waitMs)}; ${t.cpuCount} cores, ${t.memoryMib} MiB`,
    ];
    if (t.deadlineMs != null) lines.push(`deadline ${utcLabel(t.deadlineMs + m.startEpochMs, true, true)}${m.missed[m.task[j]] ? ' (missed)' : ''}`);
    if (t.reason) lines.push(t.reason);
    this.tooltip.replaceChildren(...lines.map((s) => { const d = document.createElement('div'); d.textContent = s; return d; }));
    this.tooltip.hidden = false;
    const left = Math.min(px + 14, this.width - 300);
    this.tooltip.style.left = `${Math.max(0, left)}px`;
    this.tooltip.style.top = `${py + 16}px`;
  }

  bind() {
    const c = this.canvas;
    let drag = null;
    const pos = (e) => { const r = c.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };
    c.addEventListener('pointerdown', (e) => {
      const [x, y] = pos(e);
      drag = { x, y, t0: this.view.t0, scrollY: this.scrollY, moved: false };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointermove', (e) => {
      const [x, y] = pos(e);
      if (drag) {
        if (Math.abs(x - drag.x) + Math.abs(y - drag.y) > 4) drag.moved = true;
        if (drag.moved) {
          this.tooltip.hidden = true;
          const msPerPx = (this.view.t1 - this.view.t0) / (this.width - GUTTER - 8);
          this.view.pan(drag.t0 - msPerPx * (x - drag.x) - this.view.t0);
          this.scrollY = drag.scrollY - (y - drag.y);
          this.clampScroll();
          this.invalidate();
        }
        return;
      }
      this.showTooltip(this.hit(x, y), x, y);
    });
    c.addEventListener('pointerleave', () => { this.tooltip.hidden = true; });
    c.addEventListener('pointerup', (e) => {
      const d = drag; drag = null;
      if (!d || d.moved || !this.model) return;
      const [x, y] = pos(e);
      // A host group's name (in the overview or over its lanes) collapses or shows its lanes.
      const key = y < this.plotTop ? (x < GUTTER && y >= this.overviewTop ? this.overviewAt(y)?.key : null) : this.groupHeadAt(y)?.key;
      if (key && this.hostGroups().some((g) => g.key === key)) { this.toggleGroup(key); return; }
      if (x < GUTTER) return;
      if (y < this.plotTop || this.cursorMode) { this.setCursor(this.t(x)); return; }
      const j = this.hit(x, y);
      if (j >= 0) this.onSelect?.(this.model.data.taskId(this.model.task[j]));
    });
    c.addEventListener('wheel', (e) => {
      if (!this.model) return;
      e.preventDefault();
      const [x] = pos(e);
      if (e.ctrlKey || e.metaKey) {
        // Lane height, one step per notch (a trackpad's pinch comes as ctrl+wheel too).
        this.wheelLanes = (this.wheelLanes || 0) + e.deltaY;
        if (Math.abs(this.wheelLanes) >= 40) { this.zoomLanes(this.wheelLanes < 0 ? 1 : -1); this.wheelLanes = 0; }
      } else if (e.shiftKey) { this.scrollY += e.deltaY; this.clampScroll(); this.invalidate(); }
      else if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) this.view.pan((e.deltaX * (this.view.t1 - this.view.t0)) / this.width);
      else this.view.zoom(Math.exp(e.deltaY * 0.0015), this.t(Math.max(GUTTER, x)));
    }, { passive: false });
    c.addEventListener('keydown', (e) => {
      if (!this.model) return;
      const span = this.view.t1 - this.view.t0, mid = (this.view.t0 + this.view.t1) / 2;
      const keys = {
        '+': () => this.view.zoom(0.8, mid), '=': () => this.view.zoom(0.8, mid), '-': () => this.view.zoom(1.25, mid),
        ArrowLeft: () => this.view.pan(-span * 0.1), ArrowRight: () => this.view.pan(span * 0.1),
        ArrowUp: () => { this.scrollY -= 40; this.clampScroll(); this.invalidate(); },
        ArrowDown: () => { this.scrollY += 40; this.clampScroll(); this.invalidate(); },
        0: () => this.view.set(this.view.min, this.view.max), Home: () => this.view.set(this.view.min, this.view.max),
        c: () => this.setCursor(this.view.cursorMs ?? mid),
        ']': () => this.zoomLanes(1), '[': () => this.zoomLanes(-1),
      };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
  }

  /** Scrolls a task's first run into view; returns its centre in canvas pixels (or null). */
  reveal(taskId) {
    const m = this.model;
    const ti = m ? m.taskIndex.get(taskId) : undefined;
    if (ti == null) return null;
    let j = -1;
    for (let b = m.taskBarStart[ti]; b < m.taskBarStart[ti + 1]; b++) if (j < 0 || m.kind[m.taskBars[b]] === RUN) { j = m.taskBars[b]; if (m.kind[j] === RUN) break; }
    if (j < 0) return null;
    const group = this.groups.find((g) => m.lane[j] >= g.first && m.lane[j] < g.first + g.count);
    if (group && group.collapsed) this.toggleGroup(group.key);
    const span = this.view.t1 - this.view.t0;
    if (m.from[j] < this.view.t0 || m.to[j] > this.view.t1) {
      const len = Math.max(span, (m.to[j] - m.from[j]) * 1.5);
      this.view.set((m.from[j] + m.to[j]) / 2 - len / 2, (m.from[j] + m.to[j]) / 2 + len / 2);
    }
    const y = this.laneY[m.lane[j]] + this.rowOffset(j);
    const plotH = this.height - this.plotTop;
    if (y < this.scrollY || y + this.rowH > this.scrollY + plotH) { this.scrollY = y - plotH / 3; this.clampScroll(); }
    this.invalidate();
    const x0 = Math.max(GUTTER, this.x(m.from[j])), x1 = Math.min(this.width - 8, this.x(m.to[j]));
    return { x: (x0 + x1) / 2, y: this.plotTop + y - this.scrollY + this.rowH / 2 };
  }

  /** Where bar j's row starts in its lane (one row per lane when drawn per pixel). */
  rowOffset(j) { return this.aggregated ? 0 : this.model.row[j] * this.rowH; }

  /** The tasks whose run bars a replay draws growing at its time (started, not ended): the
   * ids, in bar order (tests compare them with the wasm's queueAt). */
  replayRunning() {
    const m = this.model, t = this.view.replayMs;
    const ids = [];
    if (!m || t == null) return ids;
    for (let j = 0; j < m.n; j++) if (m.kind[j] === RUN && m.from[j] <= t && m.to[j] > t) ids.push(m.data.taskId(m.task[j]));
    return ids;
  }

  setCursor(ms) {
    this.view.cursorMs = Math.max(0, Math.round(ms));
    this.view.changed();
    this.onCursor?.(this.view.cursorMs);
  }
}

function lowerBoundRegime(reg, t) {
  let lo = 0, hi = reg.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (reg[mid].timeMs < t) lo = mid + 1; else hi = mid; }
  return lo;
}
