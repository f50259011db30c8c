// Charts of numbers Rust computed (the portfolio's scatter and distributions, the run's series
// strips, the per-host utilisation): one drawing routine into any 2D context, so that the
// canvas on screen, its SVG export (svgcanvas) and its PNG export are the same picture. Every
// chart is a <figure> with a title, labelled axes with units, a legend, a canvas that takes
// the keyboard focus (arrow keys step through its points and say each one aloud), a table of
// the same numbers (the text alternative) and SVG / PNG downloads. Nothing here computes a
// figure: points arrive in the result's units and are only scaled to the axis' unit.
import { Context as SvgContext } from 'svgcanvas';
import { h } from './state.js';
import { ticks } from './format.js';
import { drawWhenShown } from './onscreen.js';

/** Okabe–Ito colours (safe for the common colour-vision deficiencies), then the same with a
 * dash pattern: enough distinct series for a portfolio of 32 policies. */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C6D00'];
const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
/** Marker shapes, one per round of the palette, so that a point is told apart without its
 * colour too. */
export const SHAPES = ['circle', 'square', 'triangle', 'diamond'];
const GLYPHS = { circle: '●', square: '■', triangle: '▲', diamond: '◆' };
/** The colour, dash and marker shape of series `i`. */
export const styleOf = (i) => {
  const round = Math.floor(i / PALETTE.length);
  return { color: PALETTE[i % PALETTE.length], dash: DASHES[round % DASHES.length], shape: SHAPES[round % SHAPES.length] };
};

/** A marker of `shape` at (x, y), filled with the current fill style. */
function marker(g, shape, x, y, r = 5) {
  g.beginPath();
  if (shape === 'square') g.rect(x - r, y - r, 2 * r, 2 * r);
  else if (shape === 'triangle') { g.moveTo(x, y - r - 1); g.lineTo(x + r + 1, y + r); g.lineTo(x - r - 1, y + r); g.closePath(); }
  else if (shape === 'diamond') { g.moveTo(x, y - r - 1); g.lineTo(x + r + 1, y); g.lineTo(x, y + r + 1); g.lineTo(x - r - 1, y); g.closePath(); }
  else g.arc(x, y, r, 0, 2 * Math.PI);
  g.fill();
}

const FONT = '12px system-ui, sans-serif';
const PAD = { left: 70, right: 16, top: 14, bottom: 42 };

/** The unit an axis of a catalog metric reads in: durations (raw ms) in s, min, h or d by
 * their size, the rest in the catalog's own unit and scale. */
export function axisUnit(metric, maxRaw) {
  if (metric.rawUnit === 'ms') {
    const m = Math.abs(maxRaw || 0);
    if (m >= 2 * 86400000) return { unit: 'd', scale: 1 / 86400000 };
    if (m >= 2 * 3600000) return { unit: 'h', scale: 1 / 3600000 };
    if (m >= 2 * 60000) return { unit: 'min', scale: 1 / 60000 };
    return { unit: 's', scale: 1e-3 };
  }
  return { unit: metric.unit, scale: metric.scale };
}

/** An axis title: the label with its unit. */
export const titled = (label, unit) => (unit ? `${label} (${unit})` : label);

/** A tick's text: round numbers as people write them (one formatter for every tick: making
 * one per call, as toLocaleString does, cost about a millisecond per redraw of the strips). */
const TICK_FORMAT = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });
const tickText = (v) => TICK_FORMAT.format(v);

/**
 * Draws a chart into `g` (a canvas 2D context or an svgcanvas Context) of `w` x `h` px.
 * spec: {x: {title, lo?, hi?, ticks?: [[value, text]]}, y: {title, lo?, hi?}, zeroY?: boolean,
 *   series: [{name, color, dash, points: [[x, y]], step?: boolean, line?: boolean,
 *   marker?: boolean, bars?: boolean, err?: [[x, y, xlo, xhi, ylo, yhi]]}],
 *   front?: {points: [[x, y]], name}, focus?: number (an index into `focusables`)}
 * Values are in the axes' units. Returns the mapping, for the focus ring.
 */
export function drawChart(g, spec, w, height, focusables = []) {
  g.save();
  g.clearRect(0, 0, w, height);
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, w, height);
  g.font = FONT;
  const all = spec.series.flatMap((s) => [...s.points, ...(s.err || []).flatMap((e) => [[e[2], e[4]], [e[3], e[5]]])]);
  const xs = all.map((p) => p[0]).filter(Number.isFinite), ys = all.map((p) => p[1]).filter(Number.isFinite);
  const span = (vals, lo, hi, zero) => {
    let a = lo ?? Math.min(...vals), b = hi ?? Math.max(...vals);
    if (zero) { a = Math.min(0, a); b = Math.max(0, b); }
    if (!Number.isFinite(a) || !Number.isFinite(b)) { a = 0; b = 1; }
    if (a === b && a === 0) b = 1; // nothing but zeros: a count that never rose
    else if (a === b) { a -= Math.abs(a) * 0.1 || 1; b += Math.abs(b) * 0.1 || 1; }
    return ticks(a, b, 5);
  };
  const xt = spec.x.ticks ? null : span(xs, spec.x.lo, spec.x.hi, spec.zeroX);
  const yt = span(ys, spec.y.lo, spec.y.hi, spec.zeroY);
  const [x0, x1] = xt ? [xt[0], xt[xt.length - 1]] : [spec.x.lo, spec.x.hi];
  const [y0, y1] = [yt[0], yt[yt.length - 1]];
  const P = { ...PAD, ...(spec.pad || {}) };
  const L = P.left, R = w - P.right, T = P.top, B = height - P.bottom;
  const X = (v) => L + ((v - x0) * (R - L)) / (x1 - x0 || 1);
  const Y = (v) => B - ((v - y0) * (B - T)) / (y1 - y0 || 1);
  // Grid, ticks and the axes' titles.
  g.strokeStyle = '#dddddd'; g.lineWidth = 1; g.fillStyle = '#1b1b1b';
  g.textAlign = 'right'; g.textBaseline = 'middle';
  for (const v of yt) { g.beginPath(); g.moveTo(L, Y(v)); g.lineTo(R, Y(v)); g.stroke(); g.fillText(tickText(v), L - 6, Y(v)); }
  g.textAlign = 'center'; g.textBaseline = 'top';
  const xticks = spec.x.ticks || xt.map((v) => [v, tickText(v)]);
  for (const [v, text] of xticks) { g.beginPath(); g.moveTo(X(v), T); g.lineTo(X(v), B); g.stroke(); g.fillText(text, X(v), B + 4); }
  g.strokeStyle = '#555555';
  g.beginPath(); g.moveTo(L, T); g.lineTo(L, B); g.lineTo(R, B); g.stroke();
  if (spec.x.title) g.fillText(spec.x.title, (L + R) / 2, height - 18);
  g.save(); g.translate(14, (T + B) / 2); g.rotate(-Math.PI / 2); g.textBaseline = 'middle'; g.fillText(spec.y.title, 0, 0); g.restore();
  // The Pareto front, under the points: a thick grey line joining them.
  if (spec.front && spec.front.points.length) {
    g.strokeStyle = '#9a9a9a'; g.lineWidth = 6; g.setLineDash([]);
    g.beginPath();
    spec.front.points.forEach(([x, y], i) => (i ? g.lineTo(X(x), Y(y)) : g.moveTo(X(x), Y(y))));
    g.stroke();
    g.lineWidth = 2;
    for (const [x, y] of spec.front.points) { g.beginPath(); g.arc(X(x), Y(y), 10, 0, 2 * Math.PI); g.stroke(); }
  }
  // The series.
  for (const s of spec.series) {
    g.strokeStyle = s.color; g.fillStyle = s.color; g.lineWidth = 2; g.setLineDash(s.dash || []);
    if (s.bars) {
      const bw = Math.max(1, ((R - L) / Math.max(1, s.points.length)) * 0.8);
      for (const [x, y] of s.points) g.fillRect(X(x) - bw / 2, Y(Math.max(0, y)), bw, Math.abs(Y(y) - Y(0)));
    } else if (s.line !== false && s.points.length > 1) {
      g.beginPath();
      s.points.forEach(([x, y], i) => {
        if (!i) g.moveTo(X(x), Y(y));
        else { if (s.step) g.lineTo(X(x), Y(s.points[i - 1][1])); g.lineTo(X(x), Y(y)); }
      });
      if (s.step && s.extendTo != null) g.lineTo(X(s.extendTo), Y(s.points[s.points.length - 1][1]));
      g.stroke();
    }
    g.setLineDash([]); g.lineWidth = 1.5;
    for (const [x, y, xlo, xhi, ylo, yhi] of s.err || []) {
      g.beginPath();
      if (ylo !== yhi) { g.moveTo(X(x), Y(ylo)); g.lineTo(X(x), Y(yhi)); g.moveTo(X(x) - 4, Y(ylo)); g.lineTo(X(x) + 4, Y(ylo)); g.moveTo(X(x) - 4, Y(yhi)); g.lineTo(X(x) + 4, Y(yhi)); }
      if (xlo !== xhi) { g.moveTo(X(xlo), Y(y)); g.lineTo(X(xhi), Y(y)); g.moveTo(X(xlo), Y(y) - 4); g.lineTo(X(xlo), Y(y) + 4); g.moveTo(X(xhi), Y(y) - 4); g.lineTo(X(xhi), Y(y) + 4); }
      g.stroke();
    }
    if (s.marker) for (const [x, y] of s.points) marker(g, s.shape, X(x), Y(y));
  }
  // The point that has the keyboard focus: a ring and its text beside it.
  const f = focusables[spec.focus ?? -1];
  if (f) {
    g.strokeStyle = '#000000'; g.lineWidth = 2; g.setLineDash([]);
    g.beginPath(); g.arc(X(f.x), Y(f.y), 9, 0, 2 * Math.PI); g.stroke();
    g.fillStyle = '#000000'; g.textAlign = X(f.x) > (L + R) / 2 ? 'right' : 'left'; g.textBaseline = 'bottom';
    g.fillText(f.text, X(f.x) + (X(f.x) > (L + R) / 2 ? -12 : 12), Y(f.y) - 6);
  }
  g.restore();
  return { X, Y };
}

const LEGEND_ROW = 18, LEGEND_ITEM = 210;
/** The height of a legend of `items` laid out in rows across `w` px. */
function legendHeight(items, w) {
  const perRow = Math.max(1, Math.floor((w - 16) / LEGEND_ITEM));
  return items.length ? Math.ceil(items.length / perRow) * LEGEND_ROW + 8 : 0;
}

/** The legend drawn under a chart (for the downloads): a line of each series' colour and
 * dash, then its name. */
function drawLegend(g, items, top, w) {
  const perRow = Math.max(1, Math.floor((w - 16) / LEGEND_ITEM));
  g.font = FONT; g.textAlign = 'left'; g.textBaseline = 'middle';
  items.forEach((it, i) => {
    const x = 8 + (i % perRow) * LEGEND_ITEM, y = top + 8 + Math.floor(i / perRow) * LEGEND_ROW + LEGEND_ROW / 2;
    if (it.shape) { g.fillStyle = it.color; marker(g, it.shape, x + 11, y); } else {
      g.strokeStyle = it.color; g.lineWidth = 3; g.setLineDash(it.dash || []);
      g.beginPath(); g.moveTo(x, y); g.lineTo(x + 22, y); g.stroke(); g.setLineDash([]);
    }
    g.fillStyle = '#1b1b1b';
    g.fillText(it.name.length > 30 ? `${it.name.slice(0, 29)}…` : it.name, x + 28, y);
  });
}

/**
 * A chart figure: title, canvas (focusable; arrow keys move between `focusables`), legend,
 * the table of its numbers and its downloads. `update({spec, legend, table, focusables,
 * summary})` draws it: legend [{name, color, dash}], table {columns, rows} (text), summary
 * the canvas' accessible name.
 */
export function createChart(parent, { id, title, height = 260, download }) {
  const canvas = h('canvas', { class: 'chart-canvas', tabindex: '0', role: 'img', 'data-testid': `${id}-canvas`, 'aria-describedby': `${id}-live` });
  const live = h('p', { class: 'chart-live visually-hidden', id: `${id}-live`, 'aria-live': 'polite' });
  const legend = h('ul', { class: 'chart-legend', 'aria-label': `Legend of ${title}`, 'data-testid': `${id}-legend` });
  const table = h('div', { class: 'chart-table', 'data-testid': `${id}-table` });
  const details = h('details', { class: 'chart-details' }, h('summary', {}, 'Table of the numbers'), table);
  const name = id.replace(/^chart-/, '');
  const svgButton = h('button', { type: 'button', 'data-testid': `${id}-svg` }, 'SVG');
  const pngButton = h('button', { type: 'button', 'data-testid': `${id}-png` }, 'PNG');
  const caption = h('figcaption', {}, h('span', { class: 'chart-title' }, title), ' ', h('span', { class: 'chart-exports' }, svgButton, pngButton));
  const figure = h('figure', { class: 'chart', 'data-testid': id }, caption, canvas, legend, details, live);
  parent.append(figure);
  let state = null;
  let legendKey = '';
  // The figure's width as its ResizeObserver last saw it (read there, after layout): reading
  // clientWidth while drawing would lay the page out again after every chart's DOM update.
  let seen = 0;
  const width = () => Math.max(320, Math.min(900, seen || figure.clientWidth || parent.clientWidth || 640));

  // Painted only while on screen (onscreen.js); its size, the legend and the table follow
  // every update, so that nothing moves when it scrolls in.
  const onscreen = drawWhenShown(canvas, () => paintNow());
  const paint = () => onscreen.draw();
  /** Gives the canvas the figure's size; returns whether it changed (which blanks it). A canvas
   * given its own size again still drops and reallocates its pixels: only a change resizes it. */
  function size() {
    const w = width(), dpr = window.devicePixelRatio || 1;
    const cw = Math.round(w * dpr), ch = Math.round(height * dpr);
    if (canvas.width === cw && canvas.height === ch) return false;
    canvas.width = cw; canvas.height = ch;
    canvas.style.width = `${w}px`; canvas.style.height = `${height}px`;
    return true;
  }
  function paintNow() {
    if (!state) return;
    const dpr = window.devicePixelRatio || 1;
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawChart(g, state.spec, width(), height, state.focusables);
  }
  /** Sizes the canvas (at every update and resize, so the paint itself never does), then
   * paints it as shown. */
  function sizeAndPaint() {
    if (!state) return;
    if (size()) onscreen.resized(); else paint();
  }

  function update({ spec, legend: items = [], table: rows, focusables = [], summary = title }) {
    state = { spec: { ...spec, focus: -1 }, focusables, items, title };
    canvas.setAttribute('aria-label', summary);
    // The legend is rebuilt only when its items change (a new result of the same policies
    // keeps it).
    const key = JSON.stringify(items);
    if (key !== legendKey) {
      legendKey = key;
      legend.replaceChildren(...items.map((it) => h('li', {}, it.shape
        ? h('span', { class: 'chart-glyph', 'data-color': it.color, 'aria-hidden': 'true' }, GLYPHS[it.shape] || '●')
        : h('span', { class: `chart-swatch${it.dash && it.dash.length ? ' dashed' : ''}`, 'data-color': it.color }), it.name)));
      // The swatches' colours come from data attributes, set through the CSSOM (no inline style).
      legend.querySelectorAll('.chart-swatch').forEach((el) => { /** @type {HTMLElement} */ (el).style.borderColor = el.getAttribute('data-color'); });
      legend.querySelectorAll('.chart-glyph').forEach((el) => { /** @type {HTMLElement} */ (el).style.color = el.getAttribute('data-color'); });
    }
    if (rows) {
      table.replaceChildren(h('table', {}, h('thead', {}, h('tr', {}, rows.columns.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, rows.rows.map((r) => h('tr', {}, r.map((c, i) => (i ? h('td', { class: 'num' }, c) : h('th', { scope: 'row' }, c))))))));
    }
    sizeAndPaint();
  }

  canvas.addEventListener('keydown', (e) => {
    if (!state || !state.focusables.length) return;
    const n = state.focusables.length;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (e.key === 'Home' || e.key === 'End' || step) {
      e.preventDefault();
      const at = state.spec.focus;
      state.spec.focus = e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : ((at < 0 ? (step > 0 ? -1 : 0) : at) + step + n) % n;
      live.textContent = state.focusables[state.spec.focus].text;
      paint();
    } else if (e.key === 'Escape') { state.spec.focus = -1; live.textContent = ''; paint(); }
  });
  canvas.addEventListener('blur', () => { if (state) { state.spec.focus = -1; paint(); } });
  new ResizeObserver(() => { seen = figure.clientWidth; sizeAndPaint(); }).observe(figure);

  // The downloads stand alone: the title above the chart and the legend under it.
  const exportHeight = () => height + 24 + legendHeight(state.items, width());
  const paintExport = (g, w) => {
    g.fillStyle = '#ffffff'; g.fillRect(0, 0, w, exportHeight());
    g.font = 'bold 13px system-ui, sans-serif'; g.fillStyle = '#1b1b1b'; g.textAlign = 'left'; g.textBaseline = 'top';
    g.fillText(state.title, 8, 6);
    g.save(); g.translate(0, 24);
    drawChart(g, { ...state.spec, focus: -1 }, w, height, []);
    g.restore();
    drawLegend(g, state.items, 24 + height, w);
  };
  const svgText = () => {
    const w = width();
    const svg = new SvgContext({ width: w, height: exportHeight() });
    paintExport(svg, w);
    return svg.getSerializedSvg();
  };
  svgButton.addEventListener('click', () => state && download(`${name}.svg`, svgText(), 'image/svg+xml'));
  pngButton.addEventListener('click', () => {
    if (!state) return;
    const w = width(), c = document.createElement('canvas');
    c.width = w * 2; c.height = exportHeight() * 2;
    const g = c.getContext('2d');
    g.setTransform(2, 0, 0, 2, 0, 0);
    paintExport(g, w);
    c.toBlob((b) => b && download(`${name}.png`, b, 'image/png'), 'image/png');
  });
  return { figure, canvas, update, svgText, hide: (on) => { figure.hidden = on; } };
}
