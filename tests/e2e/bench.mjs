// The page's responsiveness, in headless Chromium (a benchmark, not a timed test): from a policy
// edit to the redrawn result, and a timeline redraw after a zoom,
// on surf_week and on the teaching sample. Medians of several repetitions. Then a replay of
// surf_week at x1000 for 10 s from the middle of its week (www/src/replay.js): the drawing time
// of each frame of policy A's timeline (95th percentile and maximum; the target is 16 ms).
// Usage: node tests/e2e/bench.mjs [repetitions]   (scripts/build-wasm and `node www/build.mjs` first)
import { serve, launch, open } from './lib.mjs';

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
    p.setPolicy(t);
    await results;
    await frames();
    const status = document.querySelector('[data-testid=run-status]').dataset;
    return { total: performance.now() - started, run: Number(status.ms), wasm: Number(status.wasmMs),
      check: Number(status.checkMs), render: Number(status.renderMs) };
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

async function measure(page, label) {
  const edits = [], runs = [], wasm = [], checks = [], renders = [], zooms = [], draws = [];
  const policies = ['MemInv', 'Mem'];
  await editToDraw(page, prefab('MemInv')); // warm-up
  await editToDraw(page, prefab('Mem'));
  for (let i = 0; i < REPS; i++) {
    const r = await editToDraw(page, prefab(policies[i % 2]));
    edits.push(r.total); runs.push(r.run); wasm.push(r.wasm); checks.push(r.check); renders.push(r.render);
  }
  for (let i = 0; i < REPS * 4; i++) {
    const z = await zoomRedraw(page, i % 8 < 4 ? 0.7 : 1 / 0.7);
    if (z.drawn) { zooms.push(z.frame); draws.push(z.draw); }
  }
  const fmt = (x) => `${Math.round(x)} ms`;
  console.log(`${label}:\n  policy edit -> redrawn result ${fmt(median(edits))}: the check ${fmt(median(checks))}, the run ${fmt(median(runs))} ` +
    `(in wasm ${fmt(median(wasm))}, the rest is the result's transfer and JSON.parse), the metrics, task list and timeline model ` +
    `${fmt(median(renders))}, then the animation frame that draws the timeline\n` +
    `  zoom -> redrawn frame ${fmt(median(zooms))} (the draw itself ${median(draws).toFixed(1)} ms, max ${Math.max(...draws).toFixed(1)} ms)`);
}

const server = await serve();
const browser = await launch();
const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
await open(page, server.url);
await measure(page, 'teaching (200 tasks, 7 hosts)');
const before = await page.$eval('[data-testid=run-status]', (e) => Number(e.dataset.runs));
await page.selectOption('[data-testid=sample-picker]', 'surf_week');
await page.waitForFunction((n) => Number(document.querySelector('[data-testid=run-status]').dataset.runs) > n, before, { timeout: 120000 });
await measure(page, 'surf_week (6295 tasks, 277 hosts)');
const rp = await replayFrames(page, 1000, 10, 3.5 * 86400000);
console.log(`surf_week replay at x1000 for 10 s from day 3.5 (lanes ${rp.mode}): ${rp.frames} frames drawn, ` +
  `drawing time per frame p95 ${rp.p95.toFixed(1)} ms (median ${rp.median.toFixed(1)}, max ${rp.max.toFixed(1)}; target <= 16 ms), ` +
  `frame interval p95 ${rp.gapP95.toFixed(1)} ms, ${Math.round(rp.simMs / 1000)} s of simulated time`);
await browser.close();
server.stop();
