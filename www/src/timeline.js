// The timeline: a canvas with one lane per host (grouped by cluster), one bar per run span,
// queued waits as thin lines, deferrals hatched, pauses outlined, terminated tasks in their own
// lane, and the carbon intensity with the low-carbon regime on the same time axis. Built once
// per result into typed arrays sorted by (lane, start); a frame draws only the visible lanes and
// the bars of the visible time range (binary search), without allocating per bar.

import { Context as SvgContext } from 'svgcanvas';

export const COLORS = {
  // Okabe–Ito, safe for the common colour-vision deficiencies.
  black: '#000000', orange: '#E69F00', sky: '#56B4E9', green: '#009E73',
  yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', purple: '#CC79A7',
};
const WAIT = 0, DEFER = 1, PAUSE = 2, RUN = 3, TERM = 4;
const KIND_NAMES = ['queued', 'deferred', 'paused', 'running', 'terminated'];
const AXIS_H = 22, CARBON_H = 54, GUTTER = 104, CLUSTER_GAP = 14;

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
 * Turns a result into sorted, typed bar arrays and a lane layout.
 * @param {import('./types/answers').SimResult} result
 */
export function buildModel(result) {
  const hosts = result.hosts;
  const tasks = result.tasks;
  const laneOf = new Map(hosts.map((h, i) => [h.name, i]));
  const unplaced = hosts.length;
  const bars = { from: [], to: [], lane: [], kind: [], task: [] };
  const push = (kind, lane, from, to, task) => {
    bars.from.push(from); bars.to.push(Math.max(to, from)); bars.lane.push(lane); bars.kind.push(kind); bars.task.push(task);
  };
  let anyUnplaced = false;
  const missed = new Uint8Array(tasks.length);
  for (let ti = 0; ti < tasks.length; ti++) {
    const t = tasks[ti];
    if (t.state === 'completed' && t.deadlineMs != null && t.finishMs > t.deadlineMs) missed[ti] = 1;
    if (!t.runs.length) {
      anyUnplaced = true;
      push(TERM, unplaced, t.submitMs, t.finishMs, ti);
      continue;
    }
    // Everything before a run (queueing, deferral, a pause) is drawn in that run's lane.
    const laneBefore = (ms) => {
      for (const r of t.runs) if (r.fromMs >= ms) return laneOf.get(r.host) ?? unplaced;
      return laneOf.get(t.runs[t.runs.length - 1].host) ?? unplaced;
    };
    let pre = t.submitMs;
    for (const r of t.runs) {
      const lane = laneOf.get(r.host) ?? unplaced;
      if (pre < r.fromMs) push(WAIT, lane, pre, r.fromMs, ti);
      push(RUN, lane, r.fromMs, r.toMs, ti);
      pre = r.toMs;
    }
    for (const d of t.deferrals) push(DEFER, laneBefore(d.toMs), d.fromMs, d.toMs, ti);
    for (const p of t.pauses) push(PAUSE, laneBefore(p.toMs), p.fromMs, p.toMs, ti);
    if (t.state === 'terminated') push(TERM, laneOf.get(t.runs[t.runs.length - 1].host) ?? unplaced, t.finishMs, t.finishMs, ti);
  }
  const lanes = hosts.length + (anyUnplaced ? 1 : 0);
  const n = bars.from.length;

  // Rows within a lane: a task's extent on a lane gets the first row free at its start.
  const extent = new Map(); // task * lanes + lane -> [from, to]
  for (let i = 0; i < n; i++) {
    const key = bars.task[i] * lanes + bars.lane[i];
    const e = extent.get(key);
    if (!e) extent.set(key, [bars.from[i], bars.to[i]]);
    else { if (bars.from[i] < e[0]) e[0] = bars.from[i]; if (bars.to[i] > e[1]) e[1] = bars.to[i]; }
  }
  const items = [...extent].map(([key, [from, to]]) => ({ key, lane: key % lanes, from, to }));
  items.sort((a, b) => a.lane - b.lane || a.from - b.from);
  const rowOf = new Map();
  const laneRows = new Int32Array(lanes).fill(1);
  let ends = [], currentLane = -1;
  for (const it of items) {
    if (it.lane !== currentLane) { ends = []; currentLane = it.lane; }
    let r = 0;
    while (r < ends.length && ends[r] > it.from) r++;
    ends[r] = it.to;
    rowOf.set(it.key, r);
    if (r + 1 > laneRows[it.lane]) laneRows[it.lane] = r + 1;
  }

  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => bars.lane[a] - bars.lane[b] || bars.from[a] - bars.from[b] || bars.kind[a] - bars.kind[b]);
  const m = {
    n, lanes, laneRows, tasks, missed, hosts,
    from: new Float64Array(n), to: new Float64Array(n), lane: new Int32Array(n),
    row: new Int32Array(n), kind: new Uint8Array(n), task: new Int32Array(n),
    laneStart: new Int32Array(lanes + 1), laneMaxDur: new Float64Array(lanes),
    taskBarStart: new Int32Array(tasks.length + 1), taskBars: new Int32Array(n),
    laneName: [...hosts.map((h) => h.name), ...(anyUnplaced ? ['never placed'] : [])],
    laneCluster: [...hosts.map((h) => h.cluster), ...(anyUnplaced ? [''] : [])],
  };
  for (let j = 0; j < n; j++) {
    const i = order[j];
    m.from[j] = bars.from[i]; m.to[j] = bars.to[i]; m.lane[j] = bars.lane[i]; m.kind[j] = bars.kind[i];
    m.task[j] = bars.task[i]; m.row[j] = rowOf.get(bars.task[i] * lanes + bars.lane[i]) || 0;
    const d = m.to[j] - m.from[j];
    if (d > m.laneMaxDur[m.lane[j]]) m.laneMaxDur[m.lane[j]] = d;
  }
  for (let j = 0, l = 0; l <= lanes; l++) { while (j < n && m.lane[j] < l) j++; m.laneStart[l] = j; }
  for (let j = 0; j < n; j++) m.taskBarStart[m.task[j] + 1]++;
  for (let t = 0; t < tasks.length; t++) m.taskBarStart[t + 1] += m.taskBarStart[t];
  const fill = m.taskBarStart.slice(0, tasks.length);
  for (let j = 0; j < n; j++) m.taskBars[fill[m.task[j]]++] = j;
  m.endMs = Math.max(result.metrics.makespanMs, 1);
  m.series = result.series;
  m.startEpochMs = result.startEpochMs;
  const ci = result.series.carbonIntensity;
  m.ciMin = Infinity; m.ciMax = -Infinity;
  for (const [, v] of ci) { if (v < m.ciMin) m.ciMin = v; if (v > m.ciMax) m.ciMax = v; }
  m.taskIndex = new Map(tasks.map((t, i) => [t.id, i]));
  return m;
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

/** `3 h 12 min`, `45 s`: a duration for people. */
export function duration(ms) {
  if (ms == null) return '—';
  const s = Math.abs(ms) / 1000, sign = ms < 0 ? '-' : '';
  if (s < 1) return `${sign}${Math.round(Math.abs(ms))} ms`;
  if (s < 60) return `${sign}${+s.toFixed(1)} s`;
  if (s < 3600) return `${sign}${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  if (s < 86400 * 2) return `${sign}${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
  return `${sign}${(s / 86400).toFixed(1)} d`;
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
    this.canvas.setAttribute('aria-label', `${label}: drag or arrow keys to pan, wheel or +/- to zoom, shift+wheel or up/down to scroll hosts, click a bar to explain it, click the time axis to set the cursor`);
    this.canvas.dataset.testid = testid;
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'tooltip';
    this.tooltip.hidden = true;
    this.tooltip.setAttribute('role', 'tooltip');
    container.append(this.canvas, this.tooltip);
    this.ctx = this.canvas.getContext('2d');
    this.hatch = this.pattern(COLORS.green, false);
    this.crossHatch = this.pattern(COLORS.vermillion, true);
    this.width = 0; this.height = 0; this.dpr = 1;
    this.frames = 0;
    this.frameMs = 0;
    this.pending = false;
    this.drawNow = () => { this.pending = false; this.draw(); };
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

  setModel(model, stale = false) {
    this.model = model;
    this.stale = stale;
    if (model && this.selected >= model.tasks.length) this.selected = -1;
    this.layout();
    this.invalidate();
  }

  setStale(stale) { this.stale = stale; this.invalidate(); }

  select(taskIndex) { this.selected = taskIndex; this.invalidate(); }

  resize() {
    const r = this.canvas.getBoundingClientRect();
    this.dpr = window.devicePixelRatio || 1;
    this.width = Math.max(200, r.width);
    this.height = Math.max(120, r.height);
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    this.layout();
    this.draw();
  }

  get plotTop() { return AXIS_H + (this.hasCarbon() ? CARBON_H : 0) + 4; }
  hasCarbon() { return !!(this.model && this.model.series.carbonIntensity.length); }

  layout() {
    const m = this.model;
    if (!m) return;
    let rows = 0;
    for (let l = 0; l < m.lanes; l++) rows += m.laneRows[l];
    const avail = this.height - this.plotTop - 4;
    this.rowH = Math.max(3, Math.min(14, Math.floor(avail / Math.max(1, rows))));
    this.laneY = new Float64Array(m.lanes + 1);
    let y = 0;
    for (let l = 0; l < m.lanes; l++) {
      if (l === 0 || m.laneCluster[l] !== m.laneCluster[l - 1]) y += CLUSTER_GAP;
      this.laneY[l] = y;
      y += m.laneRows[l] * this.rowH + (this.rowH >= 6 ? 1 : 0);
    }
    this.laneY[m.lanes] = y;
    this.totalH = y;
    this.clampScroll();
  }

  clampScroll() {
    const max = Math.max(0, (this.totalH || 0) - (this.height - this.plotTop - 2));
    this.scrollY = Math.max(0, Math.min(max, this.scrollY));
  }

  invalidate() {
    if (!this.pending) { this.pending = true; requestAnimationFrame(this.drawNow); }
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
    const { ctx, model: m, view } = this;
    const rowH = this.rowH, laneY = this.laneY;
    const yOff = top - this.scrollY;
    ctx.save();
    ctx.beginPath(); ctx.rect(0, top, this.width, H - top); ctx.clip();
    // First visible lane by binary search on the lane offsets.
    let l = Math.max(0, lowerBound(laneY, 0, m.lanes, this.scrollY) - 1);
    const showNames = rowH * 1 >= 9;
    let style = null;
    const setFill = (s) => { if (s !== style) { ctx.fillStyle = s; style = s; } };
    for (; l < m.lanes; l++) {
      const ly = laneY[l] + yOff;
      if (ly > H) break;
      const lh = m.laneRows[l] * rowH;
      if (ly + lh < top) continue;
      if (l % 2 === 1) { setFill('#f3f3f3'); ctx.fillRect(GUTTER, ly, this.width - GUTTER, lh); }
      if (l === 0 || m.laneCluster[l] !== m.laneCluster[l - 1]) {
        setFill('#222'); ctx.font = 'bold 11px system-ui, sans-serif';
        ctx.fillText(m.laneCluster[l] || '', 4, ly - CLUSTER_GAP / 2);
        ctx.fillStyle = '#999'; style = '#999';
        if (l > 0) ctx.fillRect(0, ly - CLUSTER_GAP, this.width, 1);
        ctx.font = '11px system-ui, sans-serif';
      }
      if (showNames) { setFill('#333'); ctx.fillText(m.laneName[l], 14, ly + Math.min(lh, rowH) / 2, GUTTER - 18); }
      const lo = m.laneStart[l], hi = m.laneStart[l + 1];
      let j = lowerBound(m.from, lo, hi, view.t0 - m.laneMaxDur[l]);
      for (; j < hi; j++) {
        const from = m.from[j];
        if (from > view.t1) break;
        const to = m.to[j];
        if (to < view.t0) continue;
        let x0 = this.x(from), x1 = this.x(to);
        if (x1 - x0 < 1) x1 = x0 + 1;
        if (x0 < GUTTER) x0 = GUTTER;
        if (x1 <= x0) continue;
        const y = ly + m.row[j] * rowH;
        const k = m.kind[j];
        if (k === RUN) {
          setFill(m.missed[m.task[j]] ? COLORS.purple : COLORS.blue);
          ctx.fillRect(x0, y + 0.5, x1 - x0, rowH - 1);
        } else if (k === WAIT) {
          setFill('#6e6e6e');
          ctx.fillRect(x0, y + rowH / 2 - 0.5, x1 - x0, 1);
        } else if (k === DEFER) {
          ctx.fillStyle = this.hatch; style = null;
          ctx.fillRect(x0, y + 0.5, x1 - x0, rowH - 1);
        } else if (k === PAUSE) {
          ctx.strokeStyle = COLORS.orange; ctx.lineWidth = 1.5;
          ctx.strokeRect(x0 + 0.75, y + 1, Math.max(0.5, x1 - x0 - 1.5), rowH - 2);
        } else {
          ctx.fillStyle = this.crossHatch; style = null;
          ctx.fillRect(x0, y + 0.5, Math.max(3, x1 - x0), rowH - 1);
        }
      }
    }
    if (this.selected >= 0) {
      ctx.strokeStyle = COLORS.black; ctx.lineWidth = 2;
      for (let b = m.taskBarStart[this.selected]; b < m.taskBarStart[this.selected + 1]; b++) {
        const j = m.taskBars[b];
        const y = laneY[m.lane[j]] + yOff + m.row[j] * rowH;
        const x0 = Math.max(GUTTER, this.x(m.from[j])), x1 = Math.max(x0 + 2, this.x(m.to[j]));
        if (m.kind[j] === RUN) { ctx.fillStyle = COLORS.yellow; ctx.fillRect(x0, y, x1 - x0, rowH); }
        ctx.strokeRect(x0, y, x1 - x0, rowH);
      }
    }
    ctx.restore();
    setFill('#ffffff');
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
    if (!m || py < this.plotTop || px < GUTTER) return -1;
    const yy = py - this.plotTop + this.scrollY;
    const l = lowerBound(this.laneY, 0, m.lanes + 1, yy + 0.001) - 1;
    if (l < 0 || l >= m.lanes) return -1;
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

  showTooltip(j, px, py) {
    if (j < 0) { this.tooltip.hidden = true; return; }
    const m = this.model, t = m.tasks[m.task[j]];
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
      if (x < GUTTER) return;
      if (y < this.plotTop || this.cursorMode) { this.setCursor(this.t(x)); return; }
      const j = this.hit(x, y);
      if (j >= 0) this.onSelect?.(this.model.tasks[this.model.task[j]].id);
    });
    c.addEventListener('wheel', (e) => {
      if (!this.model) return;
      e.preventDefault();
      const [x] = pos(e);
      if (e.shiftKey) { this.scrollY += e.deltaY; this.clampScroll(); this.invalidate(); }
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
    const span = this.view.t1 - this.view.t0;
    if (m.from[j] < this.view.t0 || m.to[j] > this.view.t1) {
      const len = Math.max(span, (m.to[j] - m.from[j]) * 1.5);
      this.view.set((m.from[j] + m.to[j]) / 2 - len / 2, (m.from[j] + m.to[j]) / 2 + len / 2);
    }
    const y = this.laneY[m.lane[j]] + m.row[j] * this.rowH;
    const plotH = this.height - this.plotTop;
    if (y < this.scrollY || y + this.rowH > this.scrollY + plotH) { this.scrollY = y - plotH / 3; this.clampScroll(); }
    this.invalidate();
    const x0 = Math.max(GUTTER, this.x(m.from[j])), x1 = Math.min(this.width - 8, this.x(m.to[j]));
    return { x: (x0 + x1) / 2, y: this.plotTop + y - this.scrollY + this.rowH / 2 };
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
