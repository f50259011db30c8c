// The half-year scale in the page (issue 21): surf_week tiled 18 times a week apart (113,310
// tasks, 41.8 M fragments, written by the release CLI's `tile`) loads from its parquet files into
// the page, runs under the surf_week sample's policy on its topology and carbon, and shows the figures the native
// CLI computes for the same files, every one of them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, open, runs, waitRun, metrics, policyText } from './lib.mjs';

const SW = path.join(ROOT, 'www', 'samples', 'surf_week');

/** The CLI's metrics for the tiled folder `dir` under the policy file `policy` with surf_week's
 * topology and carbon. */
function nativeMetrics(dir, policy) {
  const out = execFileSync(BIN, ['simulate', '--topology', path.join(SW, 'topology.json'), '--workload', dir,
    '--carbon', path.join(SW, 'carbon.json'), '--policy', policy, '--json'], { maxBuffer: 1 << 30 });
  return JSON.parse(out).metrics;
}

export const SCALE_TESTS = [
  ['the half-year scale (surf_week tiled 18 times) loads from parquet files, runs and shows the CLI\'s figures', async ({ page, url }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-half-year-'));
    try {
      execFileSync(BIN, ['tile', '--workload', SW, '--copies', '18', '--out', dir]);
      await open(page, url);
      let n = await runs(page);
      await page.selectOption('[data-testid=sample-picker]', 'surf_week');
      await waitRun(page, n, 120000);
      await page.click('.loaders summary');
      n = await runs(page);
      await page.setInputFiles('[data-testid=load-workload]', [path.join(dir, 'tasks.parquet'), path.join(dir, 'fragments.parquet')]);
      await waitRun(page, n, 600000);
      assert.match(await page.textContent('[data-testid=summary-workload]'), /^113,310 tasks .*41,822,550 fragments/);
      const policy = path.join(dir, 'policy.json');
      fs.writeFileSync(policy, await policyText(page));
      const expected = nativeMetrics(dir, policy);
      assert.equal(expected.tasksCompleted, 18 * 6295);
      const shown = await metrics(page);
      for (const [key, value] of Object.entries(expected)) {
        if (typeof value === 'number' && key in shown) assert.equal(shown[key], value, key);
      }
      assert.equal(shown.tasksCompleted, 113310);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }],
];
