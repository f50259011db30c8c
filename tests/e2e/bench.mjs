// The page's responsiveness, in headless Chromium (a benchmark, not a timed test): from a policy
// edit to the redrawn result (at the page's first screen, then with the timeline scrolled into
// view) with the main thread's work per edit (Chromium's TaskDuration), and a timeline redraw
// after a zoom, on surf_week and on the teaching sample. Medians of several repetitions. Then a replay of
// surf_week at x1000 for 10 s from the middle of its week (www/src/replay.js): the drawing time
// of each frame of policy A's timeline (95th percentile and maximum; the target is 16 ms).
// Then the half-year scale: surf_week tiled 18 times in time (`policy-playground tile`, copy k
// shifted by k weeks: 113,310 tasks, 41.8 M fragments) loaded from its parquet files in the
// page, from the file input's change to the first drawn timeline of its run, and zooms on it.
// The tiling is written by the release CLI's `tile` into a temporary folder (HALF_YEAR_DIR names
// an existing one instead); without the subcommand the figure is left out, with a note.
// Usage: node tests/e2e/bench.mjs [repetitions]   (scripts/build-wasm, `node www/build.mjs` and
// `cargo build --release` first); BENCH_DEBUG=1 prints each edit's figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { serve, launch, open, runs, waitRun, ROOT, BIN, scrollToTop, showTimeline } from './lib.mjs';

const REPS = Number(process.argv[2] || 7);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);

/** Edits the policy in the page and resolves when the new result has been drawn. */
async function editToDraw(page, text) {
  return page.evaluate(async (t) => {
    const p = window.__playground;
    // The timeline draws in the animation frame after the result arrives; ours runs after it.
    const frames = () => new Promise((r) => requestAnimationFrame(r));
    const started = performance.now();
    const results = p.nextResults();
    // On a large trace the page draws the run's placements first (runPlacements): the edit ->
    // the frame that draws them.
    let placed = null;
    if (p.drawsPlacementsFirst()) p.nextPlacements().then(() => frames()).then(() => { placed = performance.now() - started; });
    p.setPolicy(t);
    await results;
    await frames();
    const status = document.querySelector('[data-testid=run-status]').dataset;
    return { total: performance.now() - started, run: Number(status.ms), wasm: Number(status.wasmMs),
      check: Number(status.checkMs), render: Number(status.renderMs), placed };
  }, text);
}

/** A zoom step and the frame that draws it: the draw's own time and the time to the frame. */
async function zoomRedraw(page, factor) {
  return page.evaluate(async (f) => {
    const p = window.__playground, tl = p.timelines[0];
    const frames = tl.frames;
    const started = performance.now();
    p.view.zoom(f, (p.view.t0 + p.view.t1) / 2);
    await new Promise((r) => requestAnimationFrame(r)); // the timeline's draw runs just before
    return { frame: performance.now() - started, draw: tl.frameMs, drawn: tl.frames > frames };
  }, factor);
}

/** Plays the replay at `speed` for `seconds` from `fromMs` and times every draw of policy A's
 * timeline (the draw itself) and the gaps between animation frames. */
async function replayFrames(page, speed, seconds, fromMs) {
  return page.evaluate(async ([speed, seconds, fromMs]) => {
    const p = window.__playground, tl = p.timelines[0], r = p.replay;
    await r.seek(fromMs);
    /** @type {HTMLSelectElement} */ (document.querySelector('[data-testid=replay-speed]')).value = String(speed);
    const draws = [], gaps = [];
    const draw = tl.draw;
    tl.draw = function () { const s = performance.now(); draw.call(this); draws.push(performance.now() - s); };
    let last = performance.now(), on = true;
    const frame = (now) => { gaps.push(now - last); last = now; if (on) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
    const t0 = r.state.t;
    await r.toggle();
    await new Promise((res) => setTimeout(res, seconds * 1000));
    await r.toggle();
    on = false;
    tl.draw = draw;
    const t1 = r.state.t;
    const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]; };
    return { frames: draws.length, p95: pct(draws, 0.95), median: pct(draws, 0.5), max: Math.max(...draws),
      gapP95: pct(gaps, 0.95), simMs: t1 - t0, mode: tl.canvas.dataset.laneMode };
  }, [speed, seconds, fromMs]);
}

/** The 18-copy tiling's folder: HALF_YEAR_DIR, or written by the CLI's `tile` (null without it). */
function tiling() {
  if (process.env.HALF_YEAR_DIR) return { dir: process.env.HALF_YEAR_DIR, temporary: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-half-year-'));
  const r = spawnSync(BIN, ['tile', '--workload', path.join(ROOT, 'www', 'samples', 'surf_week'), '--copies', '18', '--out', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`half-year scale: left out: \`${path.relative(ROOT, BIN)} tile\` failed (${(r.stderr || r.error?.message || '').trim().split('\n')[0]}); ` +
      'build the release CLI with the tile subcommand, or set HALF_YEAR_DIR to a folder of the tiling\'s tasks.parquet and fragments.parquet');
    return null;
  }
  return { dir, temporary: true };
}

/** Loads the tiling as the workload of surf_week's topology and times it to the first drawn
 * timeline of its run; then zooms on it. */
async function halfYear(browser, url) {
  const tiled = tiling();
  if (!tiled) return;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    await open(page, url);
    let n = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, n, 120000);
    await page.click('.loaders summary');
    await showTimeline(page); // the first drawn timeline is the one in view
    await page.evaluate(() => {
      const p = window.__playground, tl = p.timelines[0];
      const marks = /** @type {any} */ (window).__marks = { calls: [] };
      document.querySelector('[data-testid=load-workload]').addEventListener('change', () => { marks.change = performance.now(); }, { capture: true });
      const post = p.sim.post.bind(p.sim);
      p.sim.post = (fn, args, onProgress) => {
        const s = performance.now();
        return post(fn, args, onProgress).then((a) => { marks.calls.push({ fn, ms: performance.now() - s, wasmMs: a.wasmMs }); return a; });
      };
      const draw = tl.draw;
      tl.draw = function () {
        draw.call(this);
        if (!marks.drawn && this.model && (this.model.taskCount ?? this.model.tasks.length) > 100000) { marks.drawn = performance.now(); marks.drawMs = this.frameMs; }
      };
    });
    await page.evaluate(() => {
      const marks = /** @type {any} */ (window).__marks;
      window.__playground.nextResults().then(() => requestAnimationFrame(() => { marks.full = performance.now(); }));
    });
    n = await runs(page);
    await page.setInputFiles('[data-testid=load-workload]', [path.join(tiled.dir, 'tasks.parquet'), path.join(tiled.dir, 'fragments.parquet')]);
    await waitRun(page, n, 600000);
    await page.waitForFunction(() => /** @type {any} */ (window).__marks.drawn, null, { timeout: 60000 });
    const m = await page.evaluate(() => {
      const marks = /** @type {any} */ (window).__marks, p = window.__playground, st = document.querySelector('[data-testid=run-status]');
      return { ...marks, tasks: p.timelines[0].model.taskCount ?? p.timelines[0].model.tasks.length, bars: p.timelines[0].model.n, completed: p.state.comparison && p.state.results[0].result.metrics.tasksCompleted,
        runMs: Number(/** @type {HTMLElement} */ (st).dataset.ms), renderMs: Number(/** @type {HTMLElement} */ (st).dataset.renderMs),
        heap: /** @type {any} */ (performance).memory?.usedJSHeapSize };
    });
    const find = (fn) => m.calls.find((c) => c.fn === fn);
    const load = find('loadWorkloadParquet'), placed = find('runPlacements'), run = find('runBinaryWithProgress');
    const f = (x) => (x == null ? '?' : `${Math.round(x)} ms`);
    console.log(`half-year scale (${m.tasks.toLocaleString('en-US')} tasks, ${m.bars.toLocaleString('en-US')} bars, ${m.completed} completed): ` +
      `load -> first drawn timeline ${f(m.drawn - m.change)} (target <= 4 s): reading the files and decoding them in wasm ${f(load?.ms)} ` +
      `(in wasm ${f(load?.wasmMs)}), ${placed ? `the placements ${f(placed.ms)} (in wasm ${f(placed.wasmMs)}), ` : ''}` +
      `the first draw ${m.drawMs.toFixed(1)} ms; load -> the full result drawn ${f(m.full - m.change)}: the run ${f(run?.ms)} ` +
      `(in wasm ${f(run?.wasmMs)}), the metrics, task list and timeline model ${f(m.renderMs)}; JS heap ${(m.heap / 1e6).toFixed(0)} MB`);
    const zooms = [], draws = [];
    for (let i = 0; i < 16; i++) {
      const z = await zoomRedraw(page, i % 8 < 4 ? 0.5 : 2);
      if (z.drawn) { zooms.push(z.frame); draws.push(z.draw); }
    }
    console.log(`  zoom -> redrawn frame ${f(median(zooms))} (the draw itself ${median(draws).toFixed(1)} ms, max ${Math.max(...draws).toFixed(1)} ms)`);
  } finally {
    if (tiled.temporary) fs.rmSync(tiled.dir, { recursive: true, force: true });
  }
}

/** The main thread's busy time so far, ms (Chromium's TaskDuration: every task it ran). */
async function mainThreadMs(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return 1000 * metrics.find((m) => m.name === 'TaskDuration').value;
}

/** `REPS` edits alternating two prefabs: their medians, and the main thread's work per edit. */
async function edits(page, cdp) {
  const out = { edits: [], runs: [], wasm: [], checks: [], renders: [], placed: [] };
  const policies = ['MemInv', 'Mem'];
  await editToDraw(page, prefab('MemInv')); // warm-up
  await editToDraw(page, prefab('Mem'));
  const busy = await mainThreadMs(cdp);
  for (let i = 0; i < REPS; i++) {
    const r = await editToDraw(page, prefab(policies[i % 2]));
    out.edits.push(r.total); out.runs.push(r.run); out.wasm.push(r.wasm); out.checks.push(r.check); out.renders.push(r.render);
    if (r.placed != null) out.placed.push(r.placed);
    if (process.env.BENCH_DEBUG && r.placed != null) console.log(`    placed ${r.placed.toFixed(1)} total ${r.total.toFixed(1)}`);
  }
  out.busy = ((await mainThreadMs(cdp)) - busy) / REPS;
  return out;
}

async function measure(page, cdp, label) {
  const zooms = [], draws = [];
  // The edits at the page's first screen (the editor and the figures; the timeline below draws
  // when it scrolls into view: www/src/onscreen.js), then with the timeline in view; the zooms
  // with the timeline in view.
  await scrollToTop(page);
  const { edits: times, runs, wasm, checks, renders, placed, busy } = await edits(page, cdp);
  await showTimeline(page);
  const shown = await edits(page, cdp);
  for (let i = 0; i < REPS * 4; i++) {
    const z = await zoomRedraw(page, i % 8 < 4 ? 0.7 : 1 / 0.7);
    if (z.drawn) { zooms.push(z.frame); draws.push(z.draw); }
  }
  const fmt = (x) => `${Math.round(x)} ms`;
  const share = times.map((e, i) => e - wasm[i]);
  console.log(`${label}:\n  policy edit -> redrawn result ${fmt(median(times))}: the check ${fmt(median(checks))}, the run ${fmt(median(runs))} ` +
    `(in wasm ${fmt(median(wasm))}, the rest is the columns' transfer), the metrics, task list and timeline model ` +
    `${fmt(median(renders))}, then the next animation frame; the page's share (all but the run in wasm: ` +
    `transfer, the table of figures, model, draw) ${fmt(median(share))}; the main thread's work per edit ${fmt(busy)}\n` +
    (placed.length ? `  policy edit -> redrawn placements (timeline and task list; the figures follow with the result above) ` +
      `${fmt(median(placed))} (${placed.length} of ${times.length} edits drew them first)\n` : '') +
    `  with the timeline in view: policy edit -> redrawn result ${fmt(median(shown.edits))}` +
    (shown.placed.length ? `, placements ${fmt(median(shown.placed))}` : '') + `; the main thread's work per edit ${fmt(shown.busy)}\n` +
    `  zoom -> redrawn frame ${fmt(median(zooms))} (the draw itself ${median(draws).toFixed(1)} ms, max ${Math.max(...draws).toFixed(1)} ms)`);
}

const server = await serve();
const browser = await launch();
const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
await open(page, server.url);
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
await measure(page, cdp, 'teaching (200 tasks, 7 hosts)');
const before = await page.$eval('[data-testid=run-status]', (e) => Number(e.dataset.runs));
await page.selectOption('[data-testid=sample-picker]', 'surf_week');
await page.waitForFunction((n) => Number(document.querySelector('[data-testid=run-status]').dataset.runs) > n, before, { timeout: 120000 });
await measure(page, cdp, 'surf_week (6295 tasks, 277 hosts)');
await showTimeline(page);
const rp = await replayFrames(page, 1000, 10, 3.5 * 86400000);
console.log(`surf_week replay at x1000 for 10 s from day 3.5 (lanes ${rp.mode}): ${rp.frames} frames drawn, ` +
  `drawing time per frame p95 ${rp.p95.toFixed(1)} ms (median ${rp.median.toFixed(1)}, max ${rp.max.toFixed(1)}; target <= 16 ms), ` +
  `frame interval p95 ${rp.gapP95.toFixed(1)} ms, ${Math.round(rp.simMs / 1000)} s of simulated time`);
await halfYear(browser, server.url);
await browser.close();
server.stop();
