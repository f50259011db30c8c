// Workloads made in the page and the carbon what-ifs (issue 20, items 3 and 5): the generator's
// download against `policy-playground generate`, the task table (a bad cell, a change, a removed
// and an added row) against native runs of the same workload, a window and a sample against
// `policy-playground window`, a trace past the browser's task limit read through a window, and
// the what-ifs and a sweep over the forecast error against the native CLI. The browser suite
// registers these tests (tests/e2e/run.mjs); `node tests/e2e/run.mjs generator` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, TEACHING, open, runs, waitRun, metrics, setPolicy, shot } from './lib.mjs';

const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);

/** A temporary folder holding the teaching sample's topology, carbon trace and `policy`. */
function teachingParts(policy = prefab('Mem')) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-gen-'));
  const s = JSON.parse(fs.readFileSync(TEACHING, 'utf8'));
  const file = (name, v) => { const f = path.join(dir, name); fs.writeFileSync(f, typeof v === 'string' ? v : JSON.stringify(v)); return f; };
  return { dir, topology: file('topology.json', s.topology), carbon: file('carbon.json', s.carbon), policy: file('policy.json', policy), file };
}

/** The native result of the teaching topology and carbon with the workload file `workload`. */
function nativeWith(parts, workload, ...args) {
  return JSON.parse(execFileSync(BIN, ['simulate', '--topology', parts.topology, '--carbon', parts.carbon,
    '--workload', workload, '--policy', parts.policy, '--json', ...args], { maxBuffer: 1 << 28 }));
}

function sameMetrics(shown, result, label) {
  const keys = Object.keys(shown);
  assert.ok(keys.length >= 10, `${label}: the page lists the metrics`);
  for (const k of keys) assert.equal(shown[k], result.metrics[k] ?? null, `${label}: ${k}`);
}

/** Downloads what a click on `testid` saves; resolves to its bytes. */
async function downloaded(page, testid, dir) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  const file = path.join(dir, d.suggestedFilename());
  await d.saveAs(file);
  return fs.readFileSync(file);
}

async function generate(page, fields) {
  await page.click('[data-testid=generator] summary');
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'boolean') await page.setChecked(`[data-testid=gen-${key}]`, value);
    else if (typeof value === 'string' && !/^-?[\d.]+$/.test(value)) await page.selectOption(`[data-testid=gen-${key}]`, value);
    else await page.fill(`[data-testid=gen-${key}]`, String(value));
  }
  const n = await runs(page);
  await page.click('[data-testid=gen-run]');
  await waitRun(page, n);
}

export const GENERATOR_TESTS = [
  ['generator: the page generates the bytes of `policy-playground generate`, and runs them to the native figures', async ({ page, url }) => {
    await open(page, url);
    const parts = teachingParts();
    try {
      // The form starts from Rust's defaults.
      await page.click('[data-testid=generator] summary');
      assert.equal(await page.inputValue('[data-testid=gen-tasksPerHour]'), '3');
      assert.equal(await page.inputValue('[data-testid=gen-pattern]'), 'daily');
      await page.click('[data-testid=generator] summary');
      await generate(page, { seed: 5 });
      assert.match(await page.textContent('[data-testid=gen-msg]'), /^generated \d+ tasks \(seed 5\)$/);
      const mine = await downloaded(page, 'gen-save-workload', parts.dir);
      const cli = path.join(parts.dir, 'cli.json');
      execFileSync(BIN, ['generate', '--seed', '5', '--out', cli]);
      assert.ok(mine.equals(fs.readFileSync(cli)), 'the page\'s workload is the CLI\'s, byte for byte');
      sameMetrics(await metrics(page), nativeWith(parts, cli), 'generated, seed 5');
      assert.match(await page.textContent('[data-testid=summary-workload]'), /^\d+ tasks/);
      // Other settings: the downloaded settings file gives the CLI the same bytes.
      await page.click('[data-testid=generator] summary');
      await generate(page, { seed: 11, pattern: 'bursts', fragments: false, deferrableShare: 0.8 });
      const settings = path.join(parts.dir, 'settings.json');
      fs.writeFileSync(settings, await downloaded(page, 'gen-save-settings', parts.dir));
      const again = path.join(parts.dir, 'again.json');
      execFileSync(BIN, ['generate', '--settings', settings, '--out', again]);
      assert.ok((await downloaded(page, 'gen-save-workload', parts.dir)).equals(fs.readFileSync(again)));
      sameMetrics(await metrics(page), nativeWith(parts, again), 'generated with bursts');
      await shot(page, 'generator');
      // A setting out of range: Rust's message, the field marked, the workload kept.
      const before = await metrics(page);
      await page.fill('[data-testid=gen-hours]', '0');
      await page.click('[data-testid=gen-run]');
      await page.waitForSelector('[data-testid=gen-msg].error');
      assert.match(await page.textContent('[data-testid=gen-msg]'), /`hours` must be a number in \[0\.001, 8784\], found 0/);
      assert.ok(await page.$eval('.gen-field[data-key=hours]', (e) => e.classList.contains('error')));
      assert.deepEqual(await metrics(page), before);
    } finally { fs.rmSync(parts.dir, { recursive: true, force: true }); }
  }],

  ['generator: the task table changes, removes and adds tasks; Rust refuses a bad cell by row and column', async ({ page, url }) => {
    await open(page, url);
    const parts = teachingParts();
    try {
      await generate(page, { seed: 3, hours: 6 });
      await page.click('[data-testid=task-table] summary');
      await page.waitForSelector('[data-testid=task-rows]');
      const count = () => page.$$eval('[data-testid=task-rows] tbody tr', (r) => r.length);
      const rows = await count();
      assert.ok(rows >= 5 && rows < 60, `${rows} rows`);
      // A bad cell: refused, marked, the workload unchanged.
      const before = await metrics(page);
      await page.fill('[data-testid=task-2-cpuCount]', '0');
      await page.press('[data-testid=task-2-cpuCount]', 'Tab');
      await page.waitForSelector('[data-testid=tasks-msg].error');
      assert.match(await page.textContent('[data-testid=tasks-msg]'), /task 2: `cpuCount` must be an integer >= 1, found 0 \(rows\[2\]\.cpuCount\)/);
      assert.ok(await page.$eval('[data-testid=task-2-cpuCount]', (e) => e.classList.contains('error')));
      assert.deepEqual(await metrics(page), before);
      // A change: 4 cores and 12 minutes for row 1.
      let n = await runs(page);
      await page.fill('[data-testid=task-2-cpuCount]', '4');
      await page.press('[data-testid=task-2-cpuCount]', 'Tab');
      await waitRun(page, n);
      await page.waitForSelector('[data-testid=task-2-cpuCount]');
      assert.equal(await page.inputValue('[data-testid=task-2-cpuCount]'), '4');
      n = await runs(page);
      await page.fill('[data-testid=task-1-durationMinutes]', '12');
      await page.press('[data-testid=task-1-durationMinutes]', 'Tab');
      await waitRun(page, n);
      // Removed and added.
      n = await runs(page);
      await page.click('[data-testid=task-0-remove]');
      await waitRun(page, n);
      n = await runs(page);
      await page.click('[data-testid=task-add]');
      await waitRun(page, n);
      await page.waitForFunction((r) => document.querySelectorAll('[data-testid=task-rows] tbody tr').length === r, rows);
      assert.equal(await page.inputValue(`[data-testid=task-${rows - 1}-durationMinutes]`), '60');
      await shot(page, 'task-table');
      // The edited workload, downloaded, runs natively to the page's figures; its tasks are the edits.
      const file = path.join(parts.dir, 'edited.json');
      fs.writeFileSync(file, await downloaded(page, 'gen-save-workload', parts.dir));
      const tasks = JSON.parse(fs.readFileSync(file, 'utf8')).tasks;
      assert.equal(tasks.length, rows);
      assert.equal(tasks[1].cpuCount, 4);
      assert.equal(tasks[0].fragments.duration.reduce((a, b) => a + b, 0), 720000);
      assert.equal(tasks[rows - 1].duration, 3600000);
      sameMetrics(await metrics(page), nativeWith(parts, file), 'edited');
    } finally { fs.rmSync(parts.dir, { recursive: true, force: true }); }
  }],

  ['generator: a window and a sample of surf_week are `policy-playground window`\'s, and run to the native figures', async ({ page, url }) => {
    await open(page, url);
    let n = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, n);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-window-'));
    try {
      await page.click('[data-testid=selection] summary');
      await page.fill('[data-testid=select-from]', '2022-10-08T00:00:00Z');
      await page.fill('[data-testid=select-to]', '2022-10-09T00:00:00Z');
      await page.fill('[data-testid=select-fraction]', '0.5');
      await page.fill('[data-testid=select-seed]', '2');
      n = await runs(page);
      await page.click('[data-testid=select-apply]');
      await waitRun(page, n);
      const out = path.join(dir, 'window.json');
      execFileSync(BIN, ['window', '--workload', path.join(ROOT, 'www', 'samples', 'surf_week'),
        '--from', '2022-10-08T00:00:00Z', '--to', '2022-10-09T00:00:00Z', '--sample', '0.5', '--seed', '2', '--out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      const kept = JSON.parse(fs.readFileSync(out, 'utf8')).tasks.length;
      assert.match(await page.textContent('[data-testid=select-msg]'), new RegExp(`^kept ${kept} of 6,295 tasks$`));
      await page.click('[data-testid=generator] summary');
      assert.ok((await downloaded(page, 'gen-save-workload', dir)).equals(fs.readFileSync(out)));
      const native = JSON.parse(execFileSync(BIN, ['simulate', '--topology', path.join(ROOT, 'www', 'samples', 'surf_week', 'topology.json'),
        '--carbon', path.join(ROOT, 'www', 'samples', 'surf_week', 'carbon.json'), '--workload', out,
        '--policy', path.join(ROOT, 'www', 'samples', 'policies', 'mem.json'), '--json'], { maxBuffer: 1 << 28 }));
      sameMetrics(await metrics(page), native, 'surf_week window and sample');
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  }],

  ['generator: a CSV trace past the browser\'s task limit is read through a window into one the page runs', async ({ page, url }) => {
    await open(page, url);
    const limits = await page.evaluate(async () => (await window.__playground.sim.call('limits')).value);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-big-'));
    try {
      const rows = ['id,submissionTime,duration,cpuCount,cpuCapacity,memory'];
      for (let i = 0; i <= limits.maxTasks; i++) rows.push(`${i},${1704067200000 + i * 1000},600000,1,1000,100`);
      const csv = path.join(dir, 'many.csv');
      fs.writeFileSync(csv, rows.join('\n'));
      await page.click('.loaders summary');
      await page.setInputFiles('[data-testid=load-workload]', csv);
      await page.waitForFunction(() => document.querySelector('[data-testid=msg-workload]').classList.contains('error'), null, { timeout: 90000 });
      assert.match(await page.textContent('[data-testid=msg-workload]'), /the playground in the browser takes at most 500000/);
      await page.waitForSelector('[data-testid=select-file]:visible');
      // The first hour: 3600 tasks.
      await page.fill('[data-testid=select-to]', '2024-01-01T01:00:00Z');
      const n = await runs(page);
      await page.click('[data-testid=select-file]');
      await waitRun(page, n, 120000);
      assert.match(await page.textContent('[data-testid=summary-workload]'), /^3,600 tasks/);
      assert.equal((await metrics(page)).tasksCompleted, 3600);
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  }],

  ['generator: an OpenDC parquet trace past the browser\'s task limit is read through a window, decoding only what it keeps', async ({ page, url }) => {
    await open(page, url);
    const limits = await page.evaluate(async () => (await window.__playground.sim.call('limits')).value);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-bigpq-'));
    try {
      // One task more than the page takes, one fragment each, written as OpenDC parquet by the CLI.
      const tasks = [];
      for (let i = 0; i <= limits.maxTasks; i++) {
        tasks.push(`{"id":"${i}","submissionTime":${1704067200000 + i * 1000},"cpuCount":1,"cpuCapacity":1000,"memory":100,"fragments":{"duration":[600000],"cpuUsage":[500]}}`);
      }
      fs.writeFileSync(path.join(dir, 'many.json'), `{"tasks":[${tasks.join(',')}]}`);
      fs.writeFileSync(path.join(dir, 'topology.json'), JSON.stringify({ clusters: [{ name: 'C', hosts: [{ name: 'h', count: 2, cpu: { coreCount: 4, coreSpeed: 1000 }, memory: { memorySize: 1000 } }] }] }));
      fs.writeFileSync(path.join(dir, 'policy.json'), prefab('Mem'));
      const out = path.join(dir, 'exported');
      execFileSync(BIN, ['export', '--format', 'legacy', '--out', out, '--topology', path.join(dir, 'topology.json'),
        '--workload', path.join(dir, 'many.json'), '--policy', path.join(dir, 'policy.json')], { stdio: 'ignore' });
      await page.click('.loaders summary');
      await page.setInputFiles('[data-testid=load-workload]', [path.join(out, 'workload', 'tasks.parquet'), path.join(out, 'workload', 'fragments.parquet')]);
      await page.waitForFunction(() => document.querySelector('[data-testid=msg-workload]').classList.contains('error'), null, { timeout: 90000 });
      assert.match(await page.textContent('[data-testid=msg-workload]'), /tasks\.parquet has 500001 tasks; the playground in the browser takes at most 500000/);
      await page.waitForSelector('[data-testid=select-file]:visible');
      // Half an hour, sampled at 0.5 with seed 4: the tasks the CLI's window keeps.
      await page.fill('[data-testid=select-to]', '2024-01-01T00:30:00Z');
      await page.fill('[data-testid=select-fraction]', '0.5');
      await page.fill('[data-testid=select-seed]', '4');
      const n = await runs(page);
      await page.click('[data-testid=select-file]');
      await waitRun(page, n, 120000);
      const cli = path.join(dir, 'window.json');
      execFileSync(BIN, ['window', '--workload', path.join(out, 'workload'), '--to', '2024-01-01T00:30:00Z', '--sample', '0.5', '--seed', '4', '--out', cli], { stdio: 'ignore' });
      const kept = JSON.parse(fs.readFileSync(cli, 'utf8')).tasks.length;
      assert.ok(kept > 800 && kept < 1000, `${kept} kept`);
      assert.match(await page.textContent('[data-testid=summary-workload]'), new RegExp(`^${kept.toLocaleString('en-US')} tasks`));
      assert.equal((await metrics(page)).tasksCompleted, kept);
      await page.click('[data-testid=generator] summary');
      assert.ok((await downloaded(page, 'gen-save-workload', dir)).equals(fs.readFileSync(cli)));
    } finally { fs.rmSync(dir, { recursive: true, force: true }); }
  }],

  ['generator: carbon what-ifs run to the native figures, and a share link holds them; a forecast error of 0 is no option at all', async ({ page, url, browser }) => {
    await open(page, url);
    const parts = teachingParts(prefab('Timeshift'));
    try {
      let n = await runs(page);
      await setPolicy(page, prefab('Timeshift'));
      await waitRun(page, n);
      const plain = await metrics(page);
      await page.click('[data-testid=whatif] summary');
      n = await runs(page);
      await page.fill('[data-testid=whatif-forecast-error]', '0');
      await page.press('[data-testid=whatif-forecast-error]', 'Tab');
      await waitRun(page, n);
      assert.deepEqual(await metrics(page), plain, 'a forecast error of 0 changes nothing');
      for (const [testid, value] of [['whatif-shift-days', '1'], ['whatif-scale', '0.5'], ['whatif-forecast-error', '20']]) {
        n = await runs(page);
        await page.fill(`[data-testid=${testid}]`, value);
        await page.press(`[data-testid=${testid}]`, 'Tab');
        await waitRun(page, n);
      }
      assert.match(await page.textContent('[data-testid=whatif-status]'), /trace shifted by \+1 d, intensity × 0\.5, forecast error 20 %/);
      assert.ok(await page.isVisible('[data-testid=whatif-badge]'), 'the result says it is a what-if');
      // The native run of the teaching scenario with the page's policy and the same what-ifs.
      const scenario = JSON.parse(fs.readFileSync(TEACHING, 'utf8'));
      scenario.policy = { type: 'prefab', policyName: 'Timeshift' };
      const file = parts.file('scenario.json', scenario);
      const timeshift = JSON.parse(execFileSync(BIN, ['simulate', '--scenario', file, '--json',
        '--carbon-shift-ms', '86400000', '--carbon-scale', '0.5', '--forecast-error', '0.2'], { maxBuffer: 1 << 28 }));
      sameMetrics(await metrics(page), timeshift, 'shift 1 d, scale 0.5, forecast error 0.2');
      assert.notDeepEqual(await metrics(page), plain);
      await shot(page, 'whatif');
      // A share link holds the what-ifs: a fresh page runs the same what-if.
      await page.click('[data-testid=share]');
      await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value !== '');
      const fresh = await browser.newContext();
      try {
        const other = await fresh.newPage();
        await open(other, await page.inputValue('[data-testid=share-link]'));
        assert.deepEqual(await metrics(other), await metrics(page), 'the shared what-if');
        assert.match(await other.textContent('[data-testid=whatif-status]'), /trace shifted by \+1 d, intensity × 0\.5, forecast error 20 %/);
      } finally { await fresh.close(); }
      // A scenario file with the what-ifs, loaded in a fresh page, runs as the CLI's flags do;
      // loading one without them clears them.
      const withWhatIfs = parts.file('whatif-scenario.json', { ...scenario, carbonShiftMs: 86400000, carbonScale: 0.5, forecastError: 0.2 });
      const fresh2 = await browser.newContext();
      try {
        const other = await fresh2.newPage();
        await open(other, url);
        await other.click('.loaders summary');
        let m = await runs(other);
        await other.setInputFiles('[data-testid=file-input]', withWhatIfs);
        await waitRun(other, m);
        sameMetrics(await metrics(other), timeshift, 'a scenario file with the what-ifs');
        assert.match(await other.textContent('[data-testid=whatif-status]'), /trace shifted by \+1 d, intensity × 0\.5, forecast error 20 %/);
        m = await runs(other);
        await other.setInputFiles('[data-testid=file-input]', file);
        await waitRun(other, m);
        assert.equal(await other.isVisible('[data-testid=whatif-badge]'), false, 'a file without what-ifs clears them');
      } finally { await fresh2.close(); }
      // No what-if again: the run is OpenDC's.
      n = await runs(page);
      await page.click('[data-testid=whatif-reset]');
      await waitRun(page, n);
      assert.deepEqual(await metrics(page), plain);
      assert.equal(await page.isVisible('[data-testid=whatif-badge]'), false);
    } finally { fs.rmSync(parts.dir, { recursive: true, force: true }); }
  }],

  ['generator: a sweep over the forecast error gives the native sweep\'s figures, seed for seed', async ({ page, url }) => {
    await open(page, url);
    const parts = teachingParts(prefab('Timeshift'));
    try {
      const n = await runs(page);
      await setPolicy(page, prefab('Timeshift'));
      await waitRun(page, n);
      await page.waitForSelector('[data-testid=sweep-parameter] option[value=forecastError]', { state: 'attached' });
      await page.selectOption('[data-testid=sweep-parameter]', 'forecastError');
      await page.fill('[data-testid=sweep-values]', '0, 0.2, 0.5');
      await page.fill('[data-testid=sweep-seeds]', '3');
      await page.click('[data-testid=sweep-run]');
      await page.waitForFunction(() => document.querySelector('[data-testid=sweep-status]').dataset.runs === '9', null, { timeout: 120000 });
      const scenario = JSON.parse(fs.readFileSync(TEACHING, 'utf8'));
      scenario.policy = { type: 'prefab', policyName: 'Timeshift' };
      const file = parts.file('scenario.json', scenario);
      const sweep = (...more) => execFileSync(BIN, ['sweep', '--scenario', file, '--parameter', 'forecastError',
        '--values', '0,0.2,0.5', '--seeds', '3', ...more], { maxBuffer: 1 << 28 });
      const native = JSON.parse(sweep('--json').toString());
      for (let i = 0; i < 3; i++) {
        const cell = await page.getAttribute(`[data-testid=sweep-row-${i}] td[data-key=dynamicCarbonG]`, 'data-value');
        assert.equal(Number(cell), native.points[i].summary.dynamicCarbonG.mean, `error ${native.points[i].value}`);
      }
      // Every run as CSV: the bytes of the native `sweep --csv`.
      const csv = (await downloaded(page, 'sweep-csv', parts.dir)).toString();
      assert.equal(csv.trimEnd(), sweep('--csv').toString().trimEnd());
      assert.equal(csv.trimEnd().split('\n').length, 1 + 3 * 3);
      await shot(page, 'sweep-forecast-error');
      // The savings shrink: at error 0 the seeds agree, with noise they spread.
      const spread = native.points.map((p) => p.summary.dynamicCarbonG.max - p.summary.dynamicCarbonG.min);
      assert.equal(spread[0], 0);
      assert.ok(spread[2] > 0);
    } finally { fs.rmSync(parts.dir, { recursive: true, force: true }); }
  }],
];
