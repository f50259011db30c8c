// The portfolio (issue 19): the 14 prefabs side by side on the teaching sample and on
// surf_week, run in the worker with progress, equal value for value to `policy-playground
// compare` on the same inputs; Stop; the editor taking keys while a 14-policy portfolio runs;
// the trade-off's front against the CLI's; the charts' text alternatives, keyboard focus and
// downloads; two policies opened in the stacked A/B timeline; the strips under the timeline.
// The screenshot tests/output/screenshots/portfolio.png is the README's. The browser suite
// registers these tests (tests/e2e/run.mjs); `node tests/e2e/run.mjs portfolio` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, SHOTS, TEACHING, open, runs, waitRun, frames } from './lib.mjs';

const PANEL = '[data-testid=portfolio-panel]';
const SW = path.join(ROOT, 'www', 'samples', 'surf_week');

/** The prefab names, in the page's order (the wasm's prefabs()). */
const prefabNames = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=portfolio-prefab] option')].map((o) => o.value));

/** `compare --json` of the 14 prefabs (files named after them) with `inputs` (CLI arguments). */
function nativePortfolio(names, inputs, extra = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-portfolio-'));
  try {
    const args = ['compare', ...inputs];
    for (const n of names) {
      const file = path.join(dir, `${n}.json`);
      fs.writeFileSync(file, JSON.stringify({ type: 'prefab', policyName: n }));
      args.push('--policy', file);
    }
    return JSON.parse(execFileSync(BIN, [...args, ...extra, '--json'], { maxBuffer: 1 << 28 }));
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
}

/** Adds every prefab and runs the portfolio; resolves when it is done. */
async function runPrefabs(page, { seeds = 1, timeout = 120000 } = {}) {
  await page.click('[data-testid=portfolio-add-prefabs]');
  await page.fill('[data-testid=portfolio-seeds]', String(seeds));
  await page.click('[data-testid=portfolio-run]');
  await page.waitForFunction((p) => document.querySelector(p).dataset.state === 'done', PANEL, { timeout });
}

/** Every cell of the page's table: {key: [value per policy]}. */
function pageTable(page) {
  return page.$$eval('[data-testid=portfolio-table] td[data-testid^="pf-"]', (cells) => {
    const out = {};
    for (const c of cells) {
      const [, i, key] = /^pf-(\d+)-(.+)$/.exec(c.dataset.testid);
      (out[key] ??= [])[Number(i)] = { value: c.dataset.value === 'null' ? null : Number(c.dataset.value), best: c.dataset.best === 'true' };
    }
    return out;
  });
}

/** The page's table equals the CLI's, value for value, and so do the labels, the best marks
 * and the front. */
async function sameAsNative(page, native) {
  const table = await pageTable(page);
  assert.deepEqual(await page.$$eval('[data-testid=portfolio-table] thead th', (t) => t.slice(1).map((e) => e.firstChild.textContent)), native.labels);
  let compared = 0;
  for (const row of native.rows) {
    assert.ok(table[row.key], `the page has a row ${row.key}`);
    row.cells.forEach((cell, i) => {
      assert.equal(table[row.key][i].value, cell.value, `${native.labels[i]}: ${row.key}`);
      assert.equal(table[row.key][i].best, cell.best, `${native.labels[i]}: ${row.key} best`);
      compared += 1;
    });
  }
  assert.equal(compared, native.rows.length * native.labels.length);
  assert.ok(compared >= 14 * 22, `${compared} cells`);
  const front = JSON.parse(await page.getAttribute('[data-testid=portfolio-front]', 'data-front'));
  assert.deepEqual(front, native.pareto.front);
  return compared;
}

export const PORTFOLIO_TESTS = [
  ['portfolio: the 14 prefabs on the teaching sample equal `compare`, value for value', async ({ page, url }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await open(page, url);
    const names = await prefabNames(page);
    assert.equal(names.length, 14);
    // Progress shows while it runs (polled: the teaching portfolio takes about a second).
    await page.click('[data-testid=portfolio-add-prefabs]');
    await page.fill('[data-testid=portfolio-seeds]', '2');
    await page.click('[data-testid=portfolio-run]');
    await page.waitForFunction(() => !document.querySelector('[data-testid=portfolio-progress]').hidden, null, { timeout: 10000 });
    await page.waitForFunction((p) => document.querySelector(p).dataset.state === 'done', PANEL, { timeout: 120000 });
    assert.equal(await page.getAttribute('[data-testid=portfolio-status]', 'data-runs'), '28');
    // Rust split the 28 runs between the page's two workers (the report assembled from both
    // halves is the CLI's, value for value, below).
    assert.equal(await page.getAttribute('[data-testid=portfolio-status]', 'data-workers'), '2');
    const native = nativePortfolio(names, ['--scenario', TEACHING], ['--seeds', '2']);
    const cells = await sameAsNative(page, native);
    // A range is shown where the seeds differ (a prefab with subsetSize draws), none elsewhere.
    const ranges = await page.$$eval('[data-testid=portfolio-table] .pf-range', (r) => r.length);
    assert.ok(ranges > 0, 'some figures differ between the seeds');
    // The CSV download is the CLI's `compare --csv`, byte for byte.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=portfolio-csv]')]);
    const text = fs.readFileSync(await csv.path(), 'utf8');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-portfolio-csv-'));
    try {
      const args = ['compare', '--scenario', TEACHING, '--seeds', '2', '--csv'];
      for (const n of names) { const f = path.join(dir, `${n}.json`); fs.writeFileSync(f, JSON.stringify({ type: 'prefab', policyName: n })); args.push('--policy', f); }
      assert.equal(text.trimEnd(), execFileSync(BIN, args).toString().trimEnd());
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
    // The portfolio as one OpenDC 3 experiment: its 14 policies in order, and the CLI's
    // portfolio of that file gives the page's table for the first seed.
    const [odc3] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=portfolio-opendc3]')]);
    const study = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-portfolio-odc3-'));
    try {
      execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', await odc3.path(), study]);
      const experiment = JSON.parse(fs.readFileSync(path.join(study, 'experiment.json'), 'utf8'));
      assert.equal(experiment.allocationPolicies.length, 14);
      const fromFile = JSON.parse(execFileSync(BIN, ['compare', '--experiment', path.join(study, 'experiment.json'), '--json'], { maxBuffer: 1 << 28 }));
      const oneSeed = nativePortfolio(names, ['--scenario', TEACHING]);
      assert.equal(fromFile.policies.length, 14);
      for (const [i, p] of fromFile.policies.entries()) {
        assert.deepEqual(p.metrics, oneSeed.policies[i].metrics, `policy ${i} of the exported experiment`);
      }
    } finally { fs.rmSync(study, { recursive: true, force: true }); }
    // Every chart: a legend, a focusable canvas, a table of its numbers.
    for (const id of ['chart-tradeoff', 'chart-cdf-wait', 'chart-cdf-turnaround', 'chart-cdf-boundedSlowdown']) {
      const legend = await page.$$eval(`[data-testid=${id}-legend] li`, (l) => l.length);
      assert.ok(legend >= 14, `${id}: ${legend} legend entries`);
      assert.equal(await page.getAttribute(`[data-testid=${id}-canvas]`, 'tabindex'), '0');
      const rows = await page.$$eval(`[data-testid=${id}-table] tbody tr`, (r) => r.length);
      assert.equal(rows, 14, `${id}: a table row per policy`);
    }
    // The trade-off by keyboard: arrows step through the points, each said aloud.
    await page.focus('[data-testid=chart-tradeoff-canvas]');
    await page.keyboard.press('Home');
    const said = await page.textContent('#chart-tradeoff-live');
    assert.match(said, new RegExp(`^${native.labels[0]}: dynamic carbon .* mean wait `));
    // Its quantiles are the CLI's: p95 wait of the first policy, as the table prints it.
    const p95 = await page.$eval('[data-testid=chart-cdf-wait-table] tbody tr td:nth-of-type(4)', (e) => e.textContent);
    assert.ok(p95.length > 0);
    // The SVG download names its axes and units and holds the legend.
    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=chart-tradeoff-svg]')]);
    const svgText = fs.readFileSync(await svg.path(), 'utf8');
    assert.match(svgText, /^<svg/);
    assert.match(svgText, />dynamic carbon \(kg\)</);
    assert.match(svgText, />mean wait \((s|min|h|d)\)</);
    assert.match(svgText, />Pareto front \(ringed, joined\)</);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=chart-cdf-wait-png]')]);
    assert.deepEqual([...fs.readFileSync(await png.path()).subarray(1, 4)], [...Buffer.from('PNG')]);
    // The README's picture: the table and the trade-off, from the table's heading down.
    await page.setViewportSize({ width: 1440, height: 2200 });
    await page.locator('[data-testid=portfolio-results] h3').first().evaluate((e) => {
      e.scrollIntoView({ block: 'start' });
      // Out from under the sticky header: scroll the element's scrolling column back by its height.
      let box = e.parentElement;
      while (box && !/(auto|scroll)/.test(getComputedStyle(box).overflowY)) box = box.parentElement;
      (box || document.scrollingElement).scrollBy(0, -(document.querySelector('header').getBoundingClientRect().bottom + 12));
    });
    const top = await page.locator('[data-testid=portfolio-results] h3').first().boundingBox();
    const bottom = await page.locator('[data-testid=portfolio-front]').boundingBox();
    const panel = await page.locator(PANEL).boundingBox();
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'portfolio.png'), clip: { x: panel.x, y: top.y - 8, width: panel.width, height: bottom.y + bottom.height - top.y + 16 } });
    await page.setViewportSize({ width: 1440, height: 1000 });
    console.log(`     ${cells} cells equal to compare --json`);
  }],

  ['portfolio: the editor takes keys while 14 policies run, and Stop stops it', async ({ page, url }) => {
    await open(page, url);
    const n = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, n, 120000);
    // 14 policies x 4 seeds on surf_week: several seconds of runs in the worker.
    await page.click('[data-testid=portfolio-add-prefabs]');
    await page.fill('[data-testid=portfolio-seeds]', '4');
    await page.click('[data-testid=portfolio-run]');
    await page.waitForFunction((p) => document.querySelector(p).dataset.state === 'running', PANEL);
    const editor = page.locator('[data-testid=policy-editor]');
    await editor.click();
    await page.keyboard.press('Control+End');
    const typed = [];
    for (const key of ' \n{}'.split('')) {
      const t0 = Date.now();
      await page.keyboard.type(key);
      typed.push(Date.now() - t0);
    }
    const running = await page.$eval(PANEL, (e) => e.dataset.state);
    assert.equal(running, 'running', 'the keys were typed while the portfolio ran');
    const text = await page.locator('[data-testid=policy-editor]').innerText();
    assert.ok(text.trimEnd().endsWith('{}'), `the editor holds what was typed: ${text.slice(-20)}`);
    // The typed `{}` after the policy is an error the checking worker finds during the run.
    await page.waitForSelector('[data-testid=stale-badge]:visible', { timeout: 10000 });
    assert.equal(await page.$eval(PANEL, (e) => e.dataset.state), 'running', 'checked while the portfolio ran');
    assert.ok(Math.max(...typed) < 1000, `key latency ${typed.join(', ')} ms`);
    console.log(`     keys took ${typed.join(', ')} ms during the run`);
    await page.click('[data-testid=portfolio-stop]');
    await page.waitForFunction((p) => document.querySelector(p).dataset.state === 'stopped', PANEL);
    assert.match(await page.textContent('[data-testid=portfolio-status]'), /^stopped/);
  }],

  ['portfolio: two policies open in the stacked A/B timeline; strips under it', async ({ page, url }) => {
    await open(page, url);
    await page.selectOption('[data-testid=portfolio-prefab]', 'Mem');
    await page.click('[data-testid=portfolio-add-prefab]');
    await page.selectOption('[data-testid=portfolio-prefab]', 'Timeshift');
    await page.click('[data-testid=portfolio-add-prefab]');
    await page.check('[data-testid=portfolio-a-0]');
    await page.check('[data-testid=portfolio-b-1]');
    const n = await runs(page);
    await page.click('[data-testid=portfolio-open]');
    await waitRun(page, n);
    await page.waitForSelector('[data-testid=timeline-b]', { state: 'visible' });
    assert.match(await page.locator('[data-testid=editor-B]').innerText(), /Timeshift/);
    // The A/B table is the two-policy case of the same comparison: its figures are the
    // portfolio's for these two policies.
    await page.click('[data-testid=portfolio-run]');
    await page.waitForFunction((p) => document.querySelector(p).dataset.state === 'done', PANEL);
    const table = await pageTable(page);
    for (const key of ['makespanMs', 'energyJ', 'dynamicCarbonG', 'meanWaitMs', 'meanTurnaroundMs', 'loadImbalance']) {
      const a = Number(await page.getAttribute(`[data-testid=metric-${key}]`, 'data-value'));
      const b = Number(await page.getAttribute(`[data-testid=metric-b-${key}]`, 'data-value'));
      assert.equal(table[key][0].value, a, `A ${key}`);
      assert.equal(table[key][1].value, b, `B ${key}`);
    }
    // The strips: A and B in the legend, a table row per axis tick.
    for (const key of ['powerW', 'runningTasks', 'queuedTasks', 'deferredTasks']) {
      const legend = await page.$$eval(`[data-testid=chart-strip-${key}-legend] li`, (l) => l.map((e) => e.textContent));
      assert.deepEqual(legend, ['A', 'B'], key);
      assert.ok(await page.$$eval(`[data-testid=chart-strip-${key}-table] tbody tr`, (r) => r.length) >= 3, key);
    }
    const hosts = await page.$$eval('[data-testid=chart-host-utilisation-table] tbody tr', (r) => r.length);
    const native = JSON.parse(execFileSync(BIN, ['simulate', '--scenario', TEACHING, '--json'], { maxBuffer: 1 << 28 }));
    assert.equal(hosts, native.hosts.length);
    const first = await page.$eval('[data-testid=chart-host-utilisation-table] tbody tr td', (e) => e.textContent);
    assert.equal(first, (native.hosts[0].meanUtilization * 100).toFixed(2));
    // Scrolled in first, and two frames for the draws owed while out of view (onscreen.js).
    await page.locator('[data-testid=strips]').scrollIntoViewIfNeeded();
    await frames(page, 2);
    await page.locator('[data-testid=strips]').screenshot({ path: path.join(SHOTS, 'strips.png') });
  }],

  ['portfolio: the 14 prefabs on surf_week equal `compare`, value for value', async ({ page, url }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await open(page, url);
    const n = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, n, 120000);
    const names = await prefabNames(page);
    const started = Date.now();
    await runPrefabs(page, { timeout: 600000 });
    const ms = Date.now() - started;
    const native = nativePortfolio(names, ['--topology', path.join(SW, 'topology.json'), '--workload', SW, '--carbon', path.join(SW, 'carbon.json')]);
    await sameAsNative(page, native);
    console.log(`     14 surf_week runs in the page: ${ms} ms`);
    await page.locator(PANEL).screenshot({ path: path.join(SHOTS, 'portfolio-surf_week.png') });
  }],
  ['portfolio: a 2-D sweep as a heat map equals `sweep` with two settings', async ({ page, url }) => {
    await open(page, url);
    await page.click('.grid-sweep summary');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=grid-x] option').length > 2);
    await page.selectOption('[data-testid=grid-x]', '/subsetSize');
    await page.fill('[data-testid=grid-x-values]', '1, 3');
    await page.selectOption('[data-testid=grid-y]', '/weighers/0/multiplier');
    await page.fill('[data-testid=grid-y-values]', '-1, 1');
    await page.fill('[data-testid=grid-seeds]', '2');
    await page.click('[data-testid=grid-run]');
    await page.waitForSelector('[data-testid=grid-cell-1-1]');
    // Its 8 runs were shared by the page's two workers (the cells below are the CLI's).
    assert.equal(await page.getAttribute('[data-testid=grid-status]', 'data-workers'), '2');
    const native = JSON.parse(execFileSync(BIN, ['sweep', '--scenario', TEACHING, '--parameter', '/subsetSize', '--values', '1,3',
      '--parameter', '/weighers/0/multiplier', '--values=-1,1', '--seeds', '2', '--json'], { maxBuffer: 1 << 28 }));
    for (const key of ['energyJ', 'meanWaitMs']) {
      await page.selectOption('[data-testid=grid-metric]', key);
      await page.waitForFunction(() => document.querySelector('[data-testid=grid-heatmap] caption'));
      for (let r = 0; r < 2; r += 1) {
        for (let c = 0; c < 2; c += 1) {
          const v = Number(await page.getAttribute(`[data-testid=grid-cell-${r}-${c}]`, 'data-value'));
          assert.equal(v, native.cells[r * 2 + c].summary[key].mean, `${key} cell ${r},${c}`);
        }
      }
    }
    const front = JSON.parse(await page.getAttribute('[data-testid=grid-front]', 'data-front'));
    assert.ok(front.length >= 1, 'a front over the cells');
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=grid-csv]')]);
    const text = fs.readFileSync(await csv.path(), 'utf8');
    const cli = execFileSync(BIN, ['sweep', '--scenario', TEACHING, '--parameter', '/subsetSize', '--values', '1,3',
      '--parameter', '/weighers/0/multiplier', '--values=-1,1', '--seeds', '2', '--csv']).toString();
    assert.equal(text.trimEnd(), cli.trimEnd());
    await page.locator('.grid-sweep').screenshot({ path: path.join(SHOTS, 'sweep-2d.png') });
  }],
];
