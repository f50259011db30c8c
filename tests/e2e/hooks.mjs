// The page's stable test hooks (README, "The page"), driven as a test written outside the
// project would drive them: every element is found by its data-testid alone, nothing reads
// window.__playground, and the figures are the native CLI's. The browser suite registers these
// tests (tests/e2e/run.mjs); `scripts/e2e hooks` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { native, shot, teachingScenario } from './lib.mjs';

const hook = (name) => `[data-testid="${name}"]`;
const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);

// The six metric hooks, each with its key in the CLI's result.metrics.
const METRICS = {
  'metric-tasks-completed': 'tasksCompleted', 'metric-tasks-terminated': 'tasksTerminated', 'metric-makespan': 'makespanMs',
  'metric-energy': 'energyJ', 'metric-carbon': 'carbonG', 'metric-deferred': 'deferredTasks',
};

/** The six figures the page shows, by the CLI's keys (data-value "null": no figure). */
async function shownMetrics(page) {
  const out = {};
  for (const [name, key] of Object.entries(METRICS)) {
    const v = await page.getAttribute(hook(name), 'data-value');
    out[key] = v === 'null' ? null : Number(v);
  }
  return out;
}

/** The same six of a native result. */
const nativeMetrics = (result) => Object.fromEntries(Object.values(METRICS).map((k) => [k, result.metrics[k]]));

/** How many runs the page has finished (run-status's data-runs). */
const runsDone = async (page) => Number((await page.getAttribute(hook('run-status'), 'data-runs')) || 0);

/** Waits until run-status says `state`; for `done`, of a run that finished after `before` runs. */
async function waitStatus(page, state, before = -1, timeout = 60000) {
  await page.waitForFunction(([sel, s, n]) => {
    const e = document.querySelector(sel);
    return e.dataset.state === s && (s !== 'done' || Number(e.dataset.runs || 0) > n);
  }, [hook('run-status'), state, before], { timeout });
}

/** Waits until the hook's text matches `pattern`; returns the text. */
async function waitText(page, name, pattern) {
  await page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''),
    [hook(name), pattern.source]);
  return page.textContent(hook(name));
}

/** Opens the page and waits for its first result. */
async function openPage(page, url) {
  await page.goto(url);
  await waitStatus(page, 'done', 0, 30000);
}

/** Replaces policy A's text, as a paste would. */
async function typePolicy(page, text) {
  await page.click(hook('policy-editor'));
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

async function loadTeaching(page) {
  const n = await runsDone(page);
  await page.selectOption(hook('sample-picker'), 'teaching');
  await waitStatus(page, 'done', n);
  assert.deepEqual(await shownMetrics(page), nativeMetrics(native()), 'teaching under the default policy (Mem)');
}

/** A typo: its diagnostic, and the last good figures stay while the status says stale. */
async function makeTypo(page) {
  const before = await shownMetrics(page);
  await typePolicy(page, '{\n  "type": "prefab",\n  "policyName": "Memm"\n}');
  await waitStatus(page, 'stale');
  const diag = await waitText(page, 'diagnostics', /unknown prefab `Memm`/);
  assert.match(diag, /line 3, column 17: error: unknown prefab `Memm` \(did you mean `Mem`\?\)/);
  assert.deepEqual(await shownMetrics(page), before, 'the last good result stays');
}

/** Timeshift from the prefab picker: it defers tasks, so metric-deferred moves from 0. */
async function switchPrefab(page) {
  const n = await runsDone(page);
  await page.selectOption(hook('prefab-picker'), 'Timeshift');
  await page.click(hook('use-prefab'));
  await waitStatus(page, 'done', n);
  assert.match(await page.textContent(hook('policy-editor')), /"policyName": "Timeshift"/);
  assert.equal(await page.textContent(hook('diagnostics')), '', 'no diagnostic left');
  const expected = native({ policy: prefab('Timeshift') });
  assert.ok(expected.metrics.deferredTasks > 0, 'Timeshift defers tasks on the teaching sample');
  assert.deepEqual(await shownMetrics(page), nativeMetrics(expected), 'teaching under Timeshift');
  return expected;
}

/** The first task of the task list, explained: its name, id and the host the CLI chose. */
async function explainFirstTask(page, expected) {
  const item = page.locator(`${hook('task-list')} ${hook('task-list-item')}`).first();
  const id = await item.getAttribute('data-task');
  const task = expected.tasks.find((t) => t.id === id);
  await item.click();
  const text = await waitText(page, 'explanation', new RegExp(`id ${id}[^]*\\d+ decisions?`));
  assert.ok(text.includes(task.name), `the explanation names ${task.name}`);
  assert.ok(text.includes(`chose ${task.host}`), `the explanation says task ${id} went to ${task.host}`);
}

/** The share link of the current view, opened in a fresh context: the same figures. */
async function followShareLink(page, browser) {
  const shown = await shownMetrics(page);
  await page.click(hook('share'));
  await page.waitForFunction((sel) => document.querySelector(sel).value !== '', hook('share-link'));
  const link = await page.inputValue(hook('share-link'));
  assert.match(link, /#s2=[A-Za-z0-9_-]+$/);
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await openPage(other, link);
    assert.deepEqual(await shownMetrics(other), shown, 'the shared view\'s figures');
  } finally { await fresh.close(); }
}

export const HOOK_TESTS = [
  ['stable hooks: sample, metrics, typo, prefab, explanation, compare, share link', async ({ page, url, browser }) => {
    await openPage(page, url);
    await loadTeaching(page);
    assert.ok(await page.isVisible(hook('timeline')), 'the timeline of policy A is shown');
    await makeTypo(page);
    const timeshift = await switchPrefab(page);
    await explainFirstTask(page, timeshift);
    // Compare mode: policy B runs beside A, and the metric hooks keep A's figures.
    const n = await runsDone(page);
    await page.click(hook('compare-toggle'));
    await waitStatus(page, 'done', n);
    assert.equal(await page.getAttribute(hook('compare-toggle'), 'aria-pressed'), 'true');
    assert.deepEqual(await shownMetrics(page), nativeMetrics(timeshift), 'A\'s figures in compare mode');
    await shot(page, 'hooks');
    await followShareLink(page, browser);
  }],
  ['stable hooks: a scenario file through file-input gives its native figures', async ({ page, url }) => {
    await openPage(page, url);
    // A file that differs from the page's view in policy, seed and topology, so each must be read.
    const changes = { policy: { type: 'filter', weighers: [{ type: 'Ram', multiplier: 1 }], subsetSize: 3 }, seed: 7, hostCounts: { 'rack-A/small': 2 } };
    const file = teachingScenario(changes);
    try {
      const n = await runsDone(page);
      await page.setInputFiles(hook('file-input'), file);
      await waitStatus(page, 'done', n);
    } finally { fs.rmSync(file, { force: true }); }
    assert.deepEqual(await shownMetrics(page), nativeMetrics(native(changes)), 'the scenario file\'s figures');
    assert.match(await page.textContent(hook('policy-editor')), /"subsetSize": 3/);
  }],
];
