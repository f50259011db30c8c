// Experiment files in the page (issue 18): an OpenDC3 (SDK) experiment opened from the files a
// user picks or the folder they choose, with its references resolved among them (SPEC 11.8.4),
// run, and checked against the native CLI (`simulate --experiment`). The browser suite registers
// these tests (tests/e2e/run.mjs); `node tests/e2e/run.mjs experiment` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, open, runs, waitRun, metrics, shot, setPolicy } from './lib.mjs';

const SDK = path.join(ROOT, '..', 'shared', 'opendc-samples', 'experiments', 'sdk');

/** The native CLI's runs of an experiment file (`simulate --experiment F --json`). */
function nativeExperiment(file, ...args) {
  return JSON.parse(execFileSync(BIN, ['simulate', '--experiment', file, '--json', ...args], { maxBuffer: 1 << 30 }));
}

/** The figures both show: every metric the page lists, from the CLI's result. */
function sameAsNative(shown, result, label) {
  const keys = Object.keys(shown);
  assert.ok(keys.length >= 10, `${label}: the page lists the metrics (${keys.length})`);
  for (const k of keys) assert.equal(shown[k], result.metrics[k] ?? null, `${label}: ${k}`);
}

/** A folder holding the task-stopper experiment, and with `traces` its named workload. */
function taskStopperFolder(traces) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-sdk-'));
  const study = path.join(dir, 'study');
  fs.mkdirSync(study);
  fs.copyFileSync(path.join(SDK, 'timeshift-taskstopper.json'), path.join(study, 'experiment.json'));
  if (traces) {
    fs.mkdirSync(path.join(study, 'azure-deferrable'));
    for (const f of ['tasks.parquet', 'fragments.parquet']) {
      fs.copyFileSync(path.join(ROOT, 'www', 'samples', 'surf_week', f), path.join(study, 'azure-deferrable', f));
    }
  }
  return { dir, study };
}

/** The experiment of case E1 of conformance/opendc3 (three hosts of one type, Mem packs under
 * Current), written to a temporary file. */
function caseE1() {
  const cases = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'conformance', 'opendc3', 'cases.json'), 'utf8'));
  const e1 = cases.experiments.find((c) => c.name.startsWith('E1'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-e1-'));
  const file = path.join(dir, 'current-mem-packs.json');
  fs.writeFileSync(file, JSON.stringify(e1.experiment, null, 2));
  return { dir, file };
}

export const EXPERIMENT_TESTS = [
  ['editor: where a policy behaves differently than in OpenDC is marked on its key, and follows the semantics', async ({ page, url }) => {
    await open(page, url);
    let n = await runs(page);
    await setPolicy(page, JSON.stringify({ type: 'filter', filters: [{ type: 'Compute' }], weighers: [{ type: 'CoreRam', multiplier: -1 }], subsetSize: 2 }, null, 2));
    await waitRun(page, n);
    const marks = () => page.$$eval('[data-testid=opendc-difference]', (li) => li.map((x) => x.textContent));
    const classic = await marks();
    assert.ok(classic.some((m) => /CoreRam weigher \(SPEC 9\.1\).*\(weighers\[0\]\)$/.test(m)), classic.join('\n'));
    assert.ok(classic.some((m) => /OpenDC after v2\.4f ignores subsetSize.*\(subsetSize\)$/.test(m)), classic.join('\n'));
    // The editor shows them as lint marks too (CodeMirror's warning underline).
    assert.ok(await page.locator('[data-testid=policy-editor] .cm-lintRange-warning').count() >= 2);
    n = await runs(page);
    await page.selectOption('[data-testid=semantics]', 'current');
    await waitRun(page, n);
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=opendc-difference]')].some((x) => /ignored under Current/.test(x.textContent)));
    const current = await marks();
    assert.ok(!current.some((m) => /CoreRam/.test(m)), 'Current applies CoreRam\'s multiplier twice, as OpenDC 3 does');
  }],
  ['experiment: the OpenDC 3 export of a Current run reads back to the same figures, in the CLI and in the page', async ({ page, url }) => {
    await open(page, url);
    let n = await runs(page);
    await page.selectOption('[data-testid=semantics]', 'current');
    await waitRun(page, n);
    n = await runs(page);
    await page.fill('[data-testid="count-rack-B/large"]', '1');
    await page.press('[data-testid="count-rack-B/large"]', 'Enter');
    await waitRun(page, n);
    const shown = await metrics(page);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-odc3-'));
    try {
      const [zip] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-opendc3]')]);
      await zip.saveAs(path.join(dir, 'exp.zip'));
      const study = path.join(dir, 'study');
      execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', path.join(dir, 'exp.zip'), study]);
      const experiment = JSON.parse(fs.readFileSync(path.join(study, 'experiment.json'), 'utf8'));
      assert.deepEqual(experiment.workloads, [{ type: 'trace', source: { type: 'uri', uri: 'workload' } }]);
      assert.match(fs.readFileSync(path.join(study, 'NOTES.md'), 'utf8'), /Current/);
      const native = nativeExperiment(path.join(study, 'experiment.json'), '--semantics', 'current');
      sameAsNative(shown, native[0].result, 'the OpenDC 3 export, read back by the CLI');
      // The same folder opened in the page, under Current (the page keeps the switch).
      await page.click('.loaders summary');
      n = await runs(page);
      await page.setInputFiles('[data-testid=folder-input]', study);
      await waitRun(page, n);
      assert.match(await page.textContent('[data-testid=scenario-status]'), /\(OpenDC3\): run 1 of 1/);
      assert.deepEqual(await metrics(page), shown);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }],
  ['experiment: an SDK file offers Current in one click; the run and the explanation say where the semantics part', async ({ page, url }) => {
    await open(page, url);
    await page.click('.loaders summary');
    const { dir, file } = caseE1();
    try {
      let n = await runs(page);
      await page.setInputFiles('[data-testid=file-input]', file);
      await waitRun(page, n);
      assert.equal(await page.inputValue('[data-testid=semantics]'), 'classic');
      sameAsNative(await metrics(page), nativeExperiment(file)[0].result, 'E1 under Classic');
      n = await runs(page);
      await page.click('[data-testid=use-current]');
      await waitRun(page, n);
      assert.equal(await page.inputValue('[data-testid=semantics]'), 'current');
      const current = nativeExperiment(file, '--semantics', 'current')[0].result;
      sameAsNative(await metrics(page), current, 'E1 under Current');
      // Worked out by hand in the case: the square model makes packing cost 198 750 J.
      assert.equal(current.metrics.energyJ, 198750);
      // t2 goes to H under Current; Classic would spread it to the empty H-1.
      await page.click('[data-testid=task-list-item][data-task="2"]');
      await page.waitForSelector('[data-testid=current-record]');
      assert.match(await page.textContent('[data-testid=placement-other]'), /H-1/);
      const cells = await page.$$eval('[data-testid=current-table] tbody th', (ths) => ths.map((t) => t.textContent));
      assert.deepEqual(cells, ['H-0', 'H ✔ chosen', 'H-1']);
      await shot(page, 'experiment-current-explanation');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }],

  ['experiment: OpenDC\'s tiny-experiment.json opens, warns about `scheduler`, and runs as the CLI does', async ({ page, url }) => {
    await open(page, url);
    await page.click('.loaders summary');
    const n = await runs(page);
    const file = path.join(SDK, 'tiny-experiment.json');
    await page.setInputFiles('[data-testid=file-input]', file);
    await waitRun(page, n);
    assert.match(await page.textContent('[data-testid=scenario-status]'), /^experiment tiny \(OpenDC3\): run 1 of 1/);
    const message = await page.textContent('[data-testid=msg-scenario]');
    assert.match(message, /OpenDC3 ignores `scheduler`; this prefab runs Mem/);
    assert.match(await page.textContent('[data-testid=experiment-note]'), /Current/);
    assert.match(await page.textContent('[data-testid=summary-workload]'), /^2 tasks/);
    const expected = nativeExperiment(file);
    sameAsNative(await metrics(page), expected[0].result, 'tiny');
    // The editor holds the policy as OpenDC3 reads it: the ignored key is gone.
    assert.deepEqual(JSON.parse(await page.locator('[data-testid=policy-editor]').innerText()), { type: 'prefab', prefabName: 'Mem' });
  }],

  ['experiment: a named workload that is not among the dropped files is an error naming where it looked; with it, the run equals the CLI\'s', async ({ page, url }) => {
    await open(page, url);
    await page.click('.loaders summary');
    const missing = taskStopperFolder(false);
    const complete = taskStopperFolder(true);
    try {
      await page.setInputFiles('[data-testid=folder-input]', missing.study);
      await page.waitForFunction(() => /workloads\[0\]\.source/.test(document.querySelector('[data-testid=msg-scenario]').textContent));
      const error = await page.textContent('[data-testid=msg-scenario]');
      assert.match(error, /the named workload `azure-deferrable` was not found at `study\/azure-deferrable\/`/);
      assert.equal(await page.$eval('[data-testid=msg-scenario]', (e) => e.classList.contains('error')), true);
      assert.match(await page.textContent('[data-testid=scenario-status]'), /^sample: teaching/, 'nothing else changed');

      const n = await runs(page);
      await page.setInputFiles('[data-testid=folder-input]', complete.study);
      await waitRun(page, n, 180000);
      assert.match(await page.textContent('[data-testid=scenario-status]'), /^experiment timeshift-taskstopper-experiment \(OpenDC3\): run 1 of 2/);
      assert.equal(await page.$$eval('[data-testid=experiment-run] option', (o) => o.length), 2);
      assert.equal(await page.inputValue('[data-testid=seed]'), '42');
      const expected = nativeExperiment(path.join(complete.study, 'experiment.json'));
      assert.equal(expected[0].seed, 42);
      sameAsNative(await metrics(page), expected[0].result, 'task stopper, seed 42');
      await shot(page, 'experiment-sdk-folder');
    } finally {
      fs.rmSync(missing.dir, { recursive: true, force: true });
      fs.rmSync(complete.dir, { recursive: true, force: true });
    }
  }],
];
