// The timeline as a figure for slides (issue "Exports for slides"): one SVG text made from the
// timelines' data (their models, the run overview's host groups), with a title, a legend, the
// carbon intensity, one panel per policy (A above B when comparing, each labelled) and a time
// axis in human units. The PNG is painted from that same SVG text (svgToPng), at 2x, so the
// two cannot differ. Durations and ticks come from format.js (the wasm's); the heat rows of a
// large cluster use the timeline's colour scale.
//
// Whole cluster: every lane of every host group over the whole run. Visible range: the time
// window and the lanes the timeline shows now. When the lanes would be thinner than MIN_ROW px,
// a panel draws, per host group, the overview's heat row (Rust's figures) and rows of a few
// hosts each coloured by their share of cores in use, as the timeline does for thin lanes.

import { duration, ticks } from './format.js';
import { COLORS, HEAT, KINDS, utcLabel } from './timeline.js';

const { WAIT, DEFER, PAUSE, RUN, TERM } = KINDS;
export const FIGURE_WIDTH = 1280;
const PAD = 24, GUT = 180, RIGHT = FIGURE_WIDTH - 28, PW = RIGHT - GUT;
const FONT = 'system-ui, sans-serif';
/** Heights, px: a panel's label line, a host group's heading, the overview row of a group and a
 * row of aggregated hosts, the carbon strip, the axis. */
const PANEL_HEAD = 26, GROUP_H = 18, OV_ROW = 12, BAND_H = 4, CARBON_H = 66, AXIS_H = 56;
/** Lane row heights of a detailed panel; thinner than MIN_ROW, a panel aggregates. */
const MIN_ROW = 3, MAX_ROW = 12;
/** The height the panels share at most (a 16:9 slide of FIGURE_WIDTH), and a panel's least. */
const PANELS_H = 470, PANEL_MIN = 235;
/** Columns of an aggregated row, px. */
const COL = 2;
const WAIT_GREY = '#6e6e6e', LOW = '#56B4E9';

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const f = (v) => String(Math.round(v * 100) / 100);
/** About how wide a text is, px (for the legend's flow and the gutter's labels). */
const textWidth = (s, size) => s.length * size * 0.56;
/** `s` cut to about `px` wide, with an ellipsis. */
const fit = (s, size, px) => {
  const max = Math.max(1, Math.floor(px / (size * 0.56)));
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
};

const rect = (x, y, w, h, fill, extra = '') => `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="${fill}"${extra}/>`;
function text(x, y, s, { size = 12, weight = '', fill = '#222', anchor = '' } = {}) {
  return `<text x="${f(x)}" y="${f(y)}" font-size="${size}"${weight ? ` font-weight="${weight}"` : ''} fill="${fill}"${anchor ? ` text-anchor="${anchor}"` : ''}>${esc(s)}</text>`;
}

/** The heat scale's colour of a share of cores in use, in steps of 5 % (any use is not none). */
const heat5 = (v) => HEAT[v > 0 ? Math.min(100, Math.max(1, Math.round(v * 20)) * 5) : 0];

/** The hatchings of the timeline (deferred, and crossed for terminated), as SVG patterns. */
const DEFS = `<defs>
<pattern id="hatch-defer" width="6" height="6" patternUnits="userSpaceOnUse"><rect x="0" y="0" width="6" height="6" fill="#ffffff"/><path d="M 0 6 L 6 0" stroke="${COLORS.green}" stroke-width="1.5" fill="none"/></pattern>
<pattern id="hatch-term" width="6" height="6" patternUnits="userSpaceOnUse"><rect x="0" y="0" width="6" height="6" fill="#ffffff"/><path d="M 0 6 L 6 0 M 0 0 L 6 6" stroke="${COLORS.vermillion}" stroke-width="1.5" fill="none"/></pattern>
</defs>`;

/**
 * A panel's data: which policy, its name and description, and a timeline's figureSource().
 * @typedef {{key: string, name: string, description?: string | null, model: any, bucketMs: number,
 *   groups: {key: string, cluster: string, name: string, info: string, ov: any, unplaced: boolean, lanes: number[]}[]}} Panel
 */

/** `timeline-teaching-Mem-vs-MemInv.svg`: the figure's file name. */
export function figureFileName(sample, names, ext, mode = 'whole') {
  const safe = (s) => String(s).replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'policy';
  return `timeline-${safe(sample)}-${names.map(safe).join('-vs-')}${mode === 'visible' ? '-visible' : ''}.${ext}`;
}

/** The figure's title: `teaching — A: Mem vs B: MemInv`, or `teaching — Mem` for one policy. */
export function figureTitle(sample, panels) {
  return `${sample} — ${panels.length > 1 ? panels.map((p) => `${p.key}: ${p.name}`).join(' vs ') : panels[0].name}`;
}

/**
 * The figure as SVG text.
 * @param {{sample: string, mode: 'whole' | 'visible', t0: number, t1: number, panels: Panel[]}} fig
 * @returns {{svg: string, width: number, height: number, title: string, modes: string[]}}
 */
export function slideSvg({ sample, mode, t0, t1, panels }) {
  const span = Math.max(1, t1 - t0);
  const x = (t) => GUT + ((t - t0) * PW) / span;
  const epoch = panels[0].model.startEpochMs;
  const title = figureTitle(sample, panels);
  const parts = [];
  let y = 0;

  // Title and what the figure covers.
  parts.push(`<g data-testid="slide-title">${text(PAD, 36, title, { size: 22, weight: 'bold', fill: '#111' })}</g>`);
  const range = `${utcLabel(epoch + t0, true, true)} → ${utcLabel(epoch + t1, true, true)} UTC (${duration(t1 - t0)})`;
  parts.push(text(PAD, 58, `${mode === 'whole' ? 'Whole cluster, whole run' : 'Visible range'}: ${range}`, { size: 13, fill: '#555' }));
  y = 72;

  // How each panel is drawn: lane rows of MIN_ROW px or more, else aggregated.
  const budget = Math.max(PANEL_MIN, PANELS_H / panels.length);
  const plans = panels.map((p) => {
    let rows = 0;
    for (const g of p.groups) for (const l of g.lanes) rows += p.model.laneRows[l];
    const rowH = Math.min(MAX_ROW, Math.floor((budget - PANEL_HEAD - p.groups.length * GROUP_H) / Math.max(1, rows)));
    return { aggregated: rowH < MIN_ROW, rowH };
  });
  // Stacked detailed panels share a lane height, so that their lanes compare.
  const shared = Math.min(...plans.filter((q) => !q.aggregated).map((q) => q.rowH));
  for (const q of plans) if (!q.aggregated) q.rowH = shared;
  const anyAggregated = plans.some((q) => q.aggregated);

  // The legend: what A and B are, then the colours the timeline uses.
  const ci = panels[0].model.series.carbonIntensity;
  const regimes = panels.flatMap((p) => p.model.series.regime);
  /** @type {[string, string, (ex: number, ey: number) => string][]} */
  const entries = [
    ['running', 'running', (ex, ey) => rect(ex, ey, 22, 11, COLORS.blue)],
    ['missed', 'running, deadline missed', (ex, ey) => rect(ex, ey, 22, 11, COLORS.purple)],
    ['queued', 'queued', (ex, ey) => rect(ex, ey + 5, 22, 1.5, WAIT_GREY)],
    ['deferred', 'deferred', (ex, ey) => rect(ex, ey, 22, 11, 'url(#hatch-defer)', ` stroke="${COLORS.green}" stroke-width="0.5"`)],
    ['paused', 'paused', (ex, ey) => rect(ex + 0.75, ey + 0.75, 20.5, 9.5, 'none', ` stroke="${COLORS.orange}" stroke-width="1.5"`)],
    ['terminated', 'terminated or never placed', (ex, ey) => rect(ex, ey, 22, 11, 'url(#hatch-term)', ` stroke="${COLORS.vermillion}" stroke-width="0.5"`)],
  ];
  if (ci.length) entries.push(['carbon', 'carbon intensity', (ex, ey) => `<path d="M ${f(ex)} ${f(ey + 8)} H ${f(ex + 9)} V ${f(ey + 3)} H ${f(ex + 22)}" stroke="${COLORS.black}" stroke-width="1.25" fill="none"/>`]);
  if (regimes.some((r) => r.longLow || r.shortLow)) entries.push(['low-carbon', 'low-carbon regime', (ex, ey) => rect(ex, ey, 22, 11, LOW, ' fill-opacity="0.3"')]);
  if (regimes.some((r) => r.stopperHigh)) entries.push(['stopper', 'task stopper: high', (ex, ey) => rect(ex, ey, 22, 3, COLORS.vermillion)]);
  const legend = [];
  for (const p of panels) {
    const line = `${p.key}: ${p.name}${p.description ? ` — ${p.description}` : ''}`;
    legend.push(`<g class="legend-entry" data-entry="policy-${esc(p.key)}">${text(PAD, y + 10, fit(line, 12, RIGHT - PAD), { size: 12, weight: 'bold', fill: '#222' })}</g>`);
    y += 18;
  }
  y += 4;
  let ex = PAD;
  for (const [key, label, swatch] of entries) {
    const w = 28 + textWidth(label, 12) + 16;
    if (ex + w > RIGHT) { ex = PAD; y += 18; }
    legend.push(`<g class="legend-entry" data-entry="${key}">${swatch(ex, y)}${text(ex + 28, y + 10, label, { size: 12, fill: '#333' })}</g>`);
    ex += w;
  }
  if (anyAggregated) {
    const label = 'share of cores in use (rows of several hosts)';
    const w = 28 + 20 * 4 + 8 + textWidth(`0 % ${label} 100 %`, 12);
    if (ex + w > RIGHT) { ex = PAD; y += 18; }
    let scale = text(ex, y + 10, '0 %', { size: 12, fill: '#333' });
    const sx = ex + 26;
    for (let i = 0; i < 20; i++) scale += rect(sx + i * 4, y, 4, 11, heat5((i + 1) / 20));
    scale += text(sx + 86, y + 10, `100 % ${label}`, { size: 12, fill: '#333' });
    legend.push(`<g class="legend-entry" data-entry="heat">${scale}</g>`);
  }
  parts.push(`<g data-testid="slide-legend" class="legend">${legend.join('')}</g>`);
  y += 26;

  // The carbon intensity, shared by the panels (it is an input of both runs).
  const gridTop = y;
  if (ci.length) {
    let lo = Infinity, hi = -Infinity;
    for (const [, v] of ci) { if (v < lo) lo = v; if (v > hi) hi = v; }
    const y0 = y + 4, h = CARBON_H - 16;
    const yy = (v) => y0 + h - ((v - lo) / Math.max(1e-9, hi - lo)) * h;
    let d = '';
    let i = 0;
    while (i + 1 < ci.length && ci[i + 1][0] <= t0) i++;
    for (; i < ci.length && ci[i][0] <= t1; i++) {
      const xa = Math.max(GUT, x(ci[i][0])), xb = Math.min(RIGHT, i + 1 < ci.length ? x(ci[i + 1][0]) : RIGHT);
      d += d ? ` V ${f(yy(ci[i][1]))} H ${f(xb)}` : `M ${f(xa)} ${f(yy(ci[i][1]))} H ${f(xb)}`;
    }
    parts.push(`<g data-testid="slide-carbon">${rect(GUT, y0, PW, h, '#fafafa')}`
      + text(PAD, y0 + h / 2 - 2, 'Carbon intensity', { size: 11, weight: 'bold' })
      + text(PAD, y0 + h / 2 + 12, 'gCO₂/kWh', { size: 10, fill: '#555' })
      + text(GUT - 8, y0 + 9, `${Math.round(hi)}`, { size: 10, fill: '#333', anchor: 'end' })
      + text(GUT - 8, y0 + h, `${Math.round(lo)}`, { size: 10, fill: '#333', anchor: 'end' })
      + (d ? `<path d="${d}" stroke="${COLORS.black}" stroke-width="1.25" fill="none"/>` : '') + '</g>');
    y += CARBON_H;
  }

  // The panels.
  for (const [i, p] of panels.entries()) {
    const out = panel(p, plans[i], y, budget, t0, t1, x, panels.length > 1);
    parts.push(out.svg);
    y += out.height + 8;
  }

  // The time axis: since the first submission, in the largest unit with a few steps.
  const axisY = y + 2;
  const unit = [86400000, 3600000, 60000, 1000].find((u) => span / u >= 2) ?? 1000;
  const tickMs = ticks(t0 / unit, t1 / unit, 8).map((v) => v * unit).filter((t) => t >= Math.max(0, t0) && t <= t1);
  const axis = [`<path d="M ${GUT} ${f(axisY)} H ${RIGHT}" stroke="#444" stroke-width="1" fill="none"/>`];
  for (const t of tickMs) {
    const tx = Math.round(x(t)) + 0.5;
    axis.push(`<path d="M ${f(tx)} ${f(gridTop)} V ${f(axisY)}" stroke="#888" stroke-opacity="0.35" stroke-width="1" fill="none"/>`
      + `<path d="M ${f(tx)} ${f(axisY)} V ${f(axisY + 5)}" stroke="#444" stroke-width="1" fill="none"/>`
      + `<g class="tick" data-ms="${t}">${text(tx, axisY + 19, duration(t), { size: 12, fill: '#222', anchor: 'middle' })}</g>`);
  }
  axis.push(text(GUT + PW / 2, axisY + 42, `time since the first submission (${utcLabel(epoch, true, true)} UTC)`, { size: 13, fill: '#333', anchor: 'middle' }));
  parts.push(`<g data-testid="slide-axis" class="axis">${axis.join('')}</g>`);
  const height = Math.ceil(axisY + AXIS_H);

  const what = panels.length > 1
    ? `The timelines of policies ${panels.map((p) => `${p.key} (${p.name})`).join(' and ')}, stacked`
    : `The timeline of policy ${panels[0].name}`;
  const desc = `${what}, on ${sample}, ${mode === 'whole' ? 'whole cluster over the whole run' : 'the visible range'}, ${range}. `
    + panels.map((p, k) => `${p.key}: ${plans[k].aggregated ? 'rows of hosts coloured by their share of cores in use, under each host group\'s overview row' : 'one lane per host with a bar per task, coloured by its state'}.`).join(' ')
    + ' The axis shows the time since the first submission.';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FIGURE_WIDTH}" height="${height}" viewBox="0 0 ${FIGURE_WIDTH} ${height}" role="img" aria-labelledby="slide-title slide-desc" font-family="${FONT}" data-mode="${mode}">`
    + `<title id="slide-title">${esc(title)}</title><desc id="slide-desc">${esc(desc)}</desc>${DEFS}`
    + rect(0, 0, FIGURE_WIDTH, height, '#ffffff') + parts.join('\n') + '</svg>';
  return { svg, width: FIGURE_WIDTH, height, title, modes: plans.map((q) => (q.aggregated ? 'aggregated' : 'detailed')) };
}

/** One policy's panel at `top`: its label, then its host groups, detailed or aggregated. */
function panel(p, plan, top, budget, t0, t1, x, labelled) {
  const m = p.model;
  const out = [];
  let y = top;
  out.push(text(PAD, y + 17, labelled ? `${p.key}: ${p.name}` : p.name, { size: 15, weight: 'bold', fill: '#111' }));
  if (plan.aggregated) out.push(text(GUT, y + 17, 'lanes too thin to draw: each row is a few hosts\' share of cores in use', { size: 11, fill: '#555' }));
  y += PANEL_HEAD;
  const plotTop = y;
  const body = [];
  const bars = plan.aggregated ? null : new Map(); // task index -> its bars' SVG
  const rowH = plan.rowH;
  const hostLanes = p.groups.filter((g) => !g.unplaced).reduce((n, g) => n + g.lanes.length, 0);
  const fixed = PANEL_HEAD + p.groups.length * (GROUP_H + OV_ROW + 3) + (p.groups.some((g) => g.unplaced) ? 12 : 0);
  const bandPx = Math.max(BAND_H, budget - fixed);
  for (const g of p.groups) {
    // The group's heading.
    body.push(text(PAD, y + 13, fit(g.unplaced ? 'never placed' : `${g.cluster}/${g.name}`, 11, GUT - PAD - 8), { size: 11, weight: 'bold' }));
    if (!g.unplaced && g.info) body.push(text(GUT, y + 13, g.info, { size: 11, fill: '#555' }));
    y += GROUP_H;
    if (plan.aggregated) {
      if (!g.unplaced) {
        // The overview's row of the group (Rust's figures), then rows of a few hosts.
        body.push(text(GUT - 8, y + 9, 'group', { size: 10, fill: '#555', anchor: 'end' }));
        body.push(rect(GUT, y, PW, OV_ROW - 1, HEAT[0]));
        if (g.ov && p.bucketMs > 0) body.push(heatRow(g.ov.utilization.map((v, i) => [i * p.bucketMs, (i + 1) * p.bucketMs, v]), y, OV_ROW - 1, t0, t1, x));
        y += OV_ROW + 3;
        if (g.lanes.length) y = bands(m, g.lanes, Math.max(1, Math.floor((bandPx * g.lanes.length) / Math.max(1, hostLanes) / BAND_H)), y, t0, t1, body);
      } else {
        for (const l of g.lanes) laneBars(m, l, y, 8, t0, t1, x, null, body, true);
        y += 10;
      }
      continue;
    }
    for (const [k, l] of g.lanes.entries()) {
      const lh = m.laneRows[l] * rowH;
      if (k % 2 === 1) body.push(rect(GUT, y, PW, lh, '#f3f3f3'));
      if (lh >= 9) body.push(text(PAD + 12, y + Math.min(lh, Math.max(rowH, 12)) / 2 + 4, fit(m.laneName[l], 10, GUT - PAD - 20), { size: 10, fill: '#333' }));
      laneBars(m, l, y, rowH, t0, t1, x, bars, body, false);
      y += lh + (rowH >= 6 ? 1 : 0);
    }
  }
  // The low-carbon regime and the task stopper's high periods, under the lanes.
  const regime = [];
  const reg = m.series.regime;
  for (let i = 0; i < reg.length; i++) {
    const from = reg[i].timeMs, to = i + 1 < reg.length ? reg[i + 1].timeMs : Math.max(m.endMs, t1);
    if (to < t0 || from > t1) continue;
    const xa = Math.max(GUT, x(from)), xb = Math.min(RIGHT, x(to));
    if (xb <= xa) continue;
    if (reg[i].longLow) regime.push(rect(xa, plotTop, xb - xa, y - plotTop, LOW, ' fill-opacity="0.2"'));
    if (reg[i].shortLow) regime.push(rect(xa, plotTop, xb - xa, y - plotTop, LOW, ' fill-opacity="0.22"'));
    if (reg[i].stopperHigh) regime.push(rect(xa, plotTop, xb - xa, 3, COLORS.vermillion));
  }
  const tasks = [];
  if (bars) {
    for (const [ti, svg] of bars) {
      tasks.push(`<g class="task${m.data.runs(ti) ? '' : ' unplaced'}" data-task="${esc(m.data.taskId(ti))}">${svg}</g>`);
    }
  }
  const svg = `<g data-policy="${esc(p.key)}" data-testid="slide-timeline-${esc(p.key)}" data-lanes="${plan.aggregated ? 'aggregated' : 'detailed'}">`
    + out.join('') + (bars ? body.join('') + `<g class="regime">${regime.join('')}</g><g class="tasks">${tasks.join('')}</g>`
      : `<g class="regime">${regime.join('')}</g>${body.join('')}`)
    + rect(GUT, plotTop, PW, y - plotTop, 'none', ' stroke="#999" stroke-width="1"') + '</g>';
  return { svg, height: y - top };
}

/** The bars of lane `l` in [t0, t1] at `y`, by task into `bars` (or straight into `body`). */
function laneBars(m, l, y, rowH, t0, t1, x, bars, body, oneRow) {
  for (let j = m.laneStart[l]; j < m.laneStart[l + 1]; j++) {
    const from = m.from[j], to = m.to[j];
    if (from > t1 || to < t0) continue;
    let x0 = x(from), x1 = x(to);
    if (x1 - x0 < 1) x1 = x0 + 1;
    x0 = Math.max(GUT, x0); x1 = Math.min(RIGHT, x1);
    if (x1 <= x0) continue;
    const yy = y + (oneRow ? 0 : m.row[j] * rowH), k = m.kind[j], bh = Math.max(1, rowH - 1);
    let s;
    if (k === RUN) s = rect(x0, yy + 0.5, x1 - x0, bh, m.missed[m.task[j]] ? COLORS.purple : COLORS.blue);
    else if (k === WAIT) s = rect(x0, yy + rowH / 2 - 0.5, x1 - x0, 1, WAIT_GREY);
    else if (k === DEFER) s = rect(x0, yy + 0.5, x1 - x0, bh, 'url(#hatch-defer)');
    else if (k === PAUSE) s = rect(x0 + 0.75, yy + 1, Math.max(0.5, x1 - x0 - 1.5), Math.max(0.5, rowH - 2), 'none', ` stroke="${COLORS.orange}" stroke-width="1.5"`);
    else if (k === TERM) s = rect(x0, yy + 0.5, Math.max(3, x1 - x0), bh, 'url(#hatch-term)');
    else continue;
    if (!bars) { body.push(s); continue; }
    const ti = m.task[j];
    bars.set(ti, (bars.get(ti) || '') + s);
  }
}

/** Rows of `lanes` split into about `count` rows of hosts, each pixel column coloured by the
 * hosts' mean share of cores in use (cores of the running tasks over the hosts' cores). */
function bands(m, lanes, count, y, t0, t1, body) {
  const per = Math.max(1, Math.ceil(lanes.length / count));
  const cols = Math.ceil(PW / COL), msPerCol = (t1 - t0) / cols;
  const acc = new Float64Array(cols + 1), diff = new Float64Array(cols + 2);
  const labelEvery = Math.max(1, Math.ceil(22 / BAND_H));
  for (let b = 0, k = 0; b < lanes.length; b += per, k++) {
    acc.fill(0); diff.fill(0);
    const band = lanes.slice(b, b + per);
    for (const l of band) {
      const cores = l < m.hostCount ? m.hostCores[l] : 0;
      if (!cores) continue;
      for (let j = m.laneStart[l]; j < m.laneStart[l + 1]; j++) {
        if (m.kind[j] !== RUN || m.to[j] < t0 || m.from[j] > t1) continue;
        const share = m.cpuCount[m.task[j]] / cores;
        const a = Math.max(0, (m.from[j] - t0) / msPerCol), e = Math.min(cols, (m.to[j] - t0) / msPerCol);
        if (e <= a) continue;
        const ia = Math.floor(a), ib = Math.floor(e);
        if (ia === ib) { acc[ia] += share * (e - a); continue; }
        acc[ia] += share * (ia + 1 - a);
        acc[ib] += share * (e - ib);
        diff[ia + 1] += share; diff[ib] -= share;
      }
    }
    body.push(`<g class="host-row" data-hosts="${band.length}">`, rect(GUT, y, PW, BAND_H, HEAT[0]));
    let run = 0, start = 0, color = null;
    for (let i = 0; i <= cols; i++) {
      run += diff[i];
      const c = i < cols ? heat5(Math.min(1, (acc[i] + run) / band.length)) : null;
      if (c !== color) {
        if (color && color !== HEAT[0]) body.push(rect(GUT + start * COL, y, Math.min(PW, (i - start) * COL), BAND_H, color));
        color = c; start = i;
      }
    }
    body.push('</g>');
    if (k % labelEvery === 0) {
      const name = band.length > 1 ? `${m.laneName[band[0]]} … ${m.laneName[band[band.length - 1]]}` : m.laneName[band[0]];
      body.push(rect(GUT - 5, y + BAND_H / 2 - 0.5, 4, 1, '#555'));
      body.push(text(GUT - 8, y + BAND_H / 2 + 3.5, fit(name, 9, GUT - PAD - 20), { size: 9, fill: '#555', anchor: 'end' }));
    }
    y += BAND_H;
  }
  return y + 2;
}

/** A heat row of [from, to, share] cells over [t0, t1], same colours merged. */
function heatRow(cells, y, h, t0, t1, x) {
  let out = '', start = null, color = null, end = 0;
  const flush = () => { if (color && color !== HEAT[0] && start != null) out += rect(start, y, Math.max(1, end - start), h, color); };
  for (const [from, to, v] of cells) {
    if (to < t0 || from > t1) continue;
    const xa = Math.max(GUT, x(from)), xb = Math.min(RIGHT, x(to));
    const c = heat5(v);
    if (c !== color) { flush(); color = c; start = xa; }
    end = xb;
  }
  flush();
  return out;
}

// ---- the PNG, painted from the SVG text ---------------------------------------------------------
// The page's Content-Security-Policy (default-src 'self') refuses images from blob: and data:
// URLs, so the SVG cannot be drawn into a canvas through an Image. Instead the SVG text is
// parsed and its elements painted: the subset slideSvg writes (rect, path of M/L/H/V/Z, text,
// groups, patterns of those), attribute for attribute.

/** The PNG of an SVG text made by slideSvg, `scale` device pixels per unit of its viewBox. */
export async function svgToPng(svgText, scale = 2) {
  const canvas = svgToCanvas(svgText, scale);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the PNG could not be made'))), 'image/png'));
}

/** A canvas with the SVG text painted at `scale`. */
export function svgToCanvas(svgText, scale = 2) {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = doc.documentElement;
  if (root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) throw new Error('not an SVG document');
  const [, , w, h] = root.getAttribute('viewBox').trim().split(/[\s,]+/).map(Number);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(w * scale);
  canvas.height = Math.round(h * scale);
  const ctx = canvas.getContext('2d');
  const patterns = new Map();
  for (const p of root.getElementsByTagName('pattern')) {
    const pw = Number(p.getAttribute('width')), ph = Number(p.getAttribute('height'));
    const tile = document.createElement('canvas');
    tile.width = Math.round(pw * scale); tile.height = Math.round(ph * scale);
    const tc = tile.getContext('2d');
    tc.scale(scale, scale);
    paintChildren(tc, p, patterns);
    const pattern = ctx.createPattern(tile, 'repeat');
    pattern.setTransform(new DOMMatrix().scale(1 / scale));
    patterns.set(p.getAttribute('id'), pattern);
  }
  ctx.scale(scale, scale);
  paintChildren(ctx, root, patterns);
  return canvas;
}

/** An attribute of `el` or of its nearest ancestor that has it (SVG's inherited properties). */
function inherited(el, name) {
  for (let e = el; e && e.nodeType === 1; e = e.parentNode) if (e.hasAttribute(name)) return e.getAttribute(name);
  return null;
}

function paintChildren(ctx, parent, patterns) {
  for (const el of parent.children) {
    const tag = el.localName;
    if (tag === 'g') paintChildren(ctx, el, patterns);
    else if (tag === 'rect' || tag === 'path' || tag === 'text') paint(ctx, el, tag, patterns);
  }
}

function paint(ctx, el, tag, patterns) {
  const num = (a, d = 0) => (el.hasAttribute(a) ? Number(el.getAttribute(a)) : d);
  const paintOf = (v) => (v && v.startsWith('url(#') ? patterns.get(v.slice(5, -1)) : v);
  const fill = inherited(el, 'fill') ?? '#000000', stroke = inherited(el, 'stroke');
  const fillOpacity = Number(inherited(el, 'fill-opacity') ?? 1), strokeOpacity = Number(inherited(el, 'stroke-opacity') ?? 1);
  ctx.save();
  if (tag === 'text') {
    const size = inherited(el, 'font-size') ?? '16';
    ctx.font = `${inherited(el, 'font-weight') ?? 'normal'} ${size}px ${inherited(el, 'font-family') ?? 'sans-serif'}`;
    const anchor = inherited(el, 'text-anchor');
    ctx.textAlign = anchor === 'middle' ? 'center' : anchor === 'end' ? 'end' : 'start';
    ctx.textBaseline = 'alphabetic';
    if (fill !== 'none') { ctx.fillStyle = paintOf(fill); ctx.globalAlpha = fillOpacity; ctx.fillText(el.textContent, num('x'), num('y')); }
    ctx.restore();
    return;
  }
  const path = new Path2D();
  if (tag === 'rect') path.rect(num('x'), num('y'), num('width'), num('height'));
  else {
    const tokens = (el.getAttribute('d') || '').match(/[MLHVZmlhvz]|-?\d*\.?\d+(?:e[-+]?\d+)?/g) || [];
    let cmd = 'M', cx = 0, cy = 0;
    for (let i = 0; i < tokens.length;) {
      if (/[A-Za-z]/.test(tokens[i])) { cmd = tokens[i++]; if (cmd === 'Z' || cmd === 'z') { path.closePath(); continue; } }
      if (cmd === 'M' || cmd === 'L') {
        cx = Number(tokens[i++]); cy = Number(tokens[i++]);
        if (cmd === 'M') { path.moveTo(cx, cy); cmd = 'L'; } else path.lineTo(cx, cy);
      } else if (cmd === 'H') { cx = Number(tokens[i++]); path.lineTo(cx, cy); }
      else if (cmd === 'V') { cy = Number(tokens[i++]); path.lineTo(cx, cy); }
      else throw new Error(`path command ${cmd} is not painted`);
    }
  }
  if (fill !== 'none') { ctx.fillStyle = paintOf(fill); ctx.globalAlpha = fillOpacity; ctx.fill(path); }
  if (stroke && stroke !== 'none') {
    ctx.strokeStyle = paintOf(stroke);
    ctx.globalAlpha = strokeOpacity;
    ctx.lineWidth = Number(inherited(el, 'stroke-width') ?? 1);
    ctx.stroke(path);
  }
  ctx.restore();
}
