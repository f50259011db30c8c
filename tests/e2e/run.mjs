// The browser suite: drives the page in headless Chromium and checks it against the native CLI.
// Prints one line per test and a closing `N passed, N failed`; exits 1 on a failure.
// Usage: node tests/e2e/run.mjs [name-filter]
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, BIN, SHOTS, serve, launch, native, nativeCompare, teachingScenario, open, runs, waitRun, metrics, setPolicy, policyText, shot } from './lib.mjs';
import { LESSONS, checkCaptions } from './lessons.mjs';
import { LESSON_FILE_TESTS, skipLesson } from './lesson_files.mjs';
import { HOOK_TESTS } from './hooks.mjs';
import { LAYOUT_TESTS } from './layout.mjs';
import { OVERVIEW_TESTS } from './overview.mjs';
import { SLIDE_TESTS } from './slide.mjs';
import { EXPERIMENT_TESTS } from './experiments.mjs';
import { GENERATOR_TESTS } from './generator.mjs';
import { REPLAY_TESTS } from './replay.mjs';
import { PORTFOLIO_TESTS } from './portfolio.mjs';
import { BINARY_TESTS } from './binary.mjs';
import { SCALE_TESTS } from './scale.mjs';

const has = (page, fn) => page.evaluate((f) => window.__playground.sim.has(f), fn);
/** Fails unless the page's wasm build exports `fn`: the build always ships it, so a test of it
 * must fail, not skip, when it is missing. */
async function requireExport(page, fn) {
  assert.ok(await has(page, fn), `the wasm build has no export \`${fn}\` (scripts/build-wasm builds it from crate/src/wasm.rs)`);
}
const pretty = (v) => JSON.stringify(v, null, 2);
const prefab = (name) => pretty({ type: 'prefab', policyName: name });
const surf = (f) => path.join(ROOT, 'www', 'samples', 'surf_week', f);
const tests = [];
const test = (name, fn) => tests.push({ name, fn });

function sameMetrics(actual, expected, label) {
  for (const [k, v] of Object.entries(expected)) assert.equal(actual[k], v, `${label}: ${k}`);
}

test('first load shows the teaching result, equal to the native CLI', async ({ page, url }) => {
  await open(page, url);
  const expected = native().metrics;
  sameMetrics(await metrics(page), expected, 'teaching under Mem');
  assert.equal(await page.textContent('[data-testid=metric-tasksCompleted]'), '200');
  // 89.5 h reads in days and hours, rounded to the hour: 90 h is 3 d 18 h.
  const hours = Math.round(expected.makespanMs / 3.6e6);
  assert.equal(await page.textContent('[data-testid=metric-makespanMs]'), `${Math.floor(hours / 24)} d ${hours % 24} h`);
  assert.match(await page.textContent('[data-testid=summary-workload]'), /^200 tasks \(104 deferrable with a deadline\), 4,916 fragments/);
  assert.equal(await page.isVisible('[data-testid=stale-badge]'), false);
  await shot(page, 'main');
});

test('a typo shows a diagnostic at its line; the old result stays, marked stale', async ({ page, url }) => {
  await open(page, url);
  const before = await metrics(page);
  await setPolicy(page, '{\n  "type": "prefab",\n  "policyName": "Memm"\n}');
  await page.waitForSelector('[data-testid=stale-badge]:visible');
  const diag = await page.textContent('[data-testid=diagnostics]');
  assert.match(diag, /line 3, column 17: error: unknown prefab `Memm` \(did you mean `Mem`\?\)/);
  await page.waitForSelector('.cm-lintRange-error');
  assert.equal(await page.textContent('.cm-lintRange-error'), '"Memm"');
  assert.deepEqual(await metrics(page), before);
  assert.ok(await page.$eval('#results', (e) => e.classList.contains('stale')));
  await shot(page, 'stale');
  // Fixing it runs again and clears the mark.
  const n = await runs(page);
  await setPolicy(page, prefab('Mem'));
  await waitRun(page, n);
  assert.equal(await page.isVisible('[data-testid=stale-badge]'), false);
  // The mark is cleared (when the check's answer is shown, which may follow the run's).
  await page.waitForFunction(() => !document.querySelector('.cm-lintRange-error'), null, { timeout: 10000 });
  // And a second typo marks again (the editor's marks are given only when they change).
  await setPolicy(page, '{\n  "type": "prefab",\n  "policyName": "Memx"\n}');
  await page.waitForSelector('.cm-lintRange-error');
  assert.equal(await page.textContent('.cm-lintRange-error'), '"Memx"');
});

test('typing key by key runs as you type and ends on the last text', async ({ page, url }) => {
  await open(page, url);
  const ed = page.locator('[data-testid=policy-editor]');
  await ed.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // Most prefixes do not parse, "Mem" does (and runs), "MemI" does not, "MemInv" does.
  await page.keyboard.type('{"type": "prefab", "policyName": "MemInv"}', { delay: 5 });
  await page.waitForFunction(() => window.__playground.idle() && document.querySelector('[data-testid=run-status]').dataset.state === 'done', null, { timeout: 30000 });
  assert.equal(await page.isVisible('[data-testid=stale-badge]'), false);
  sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after typing MemInv');
});

test('a prefab change changes the metrics, to the native figures', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await page.selectOption('[data-testid=prefab-picker]', 'MemInv');
  await page.click('[data-testid=use-prefab]');
  await waitRun(page, n);
  const expected = native({ policy: prefab('MemInv') }).metrics;
  sameMetrics(await metrics(page), expected, 'MemInv');
  assert.notEqual(expected.dynamicEnergyJ, native().metrics.dynamicEnergyJ);
  assert.match(await policyText(page), /"policyName": "MemInv"/);
  // Its expansion runs identically.
  const m = await runs(page);
  await page.click('[data-testid=use-expansion-A]');
  await page.waitForFunction(() => document.querySelector('[data-testid=policy-editor]').innerText.includes('"weighers"'));
  await waitRun(page, m);
  sameMetrics(await metrics(page), expected, 'MemInv expanded');
});

test('the editor completes and explains from the policy schema', async ({ page, url }) => {
  await open(page, url);
  const line = await page.locator('[data-testid=policy-editor] .cm-line').nth(2).boundingBox();
  await page.mouse.move(line.x + 30, line.y + line.height / 2);
  await page.waitForSelector('.cm-tooltip-hover');
  assert.match(await page.textContent('.cm-tooltip-hover'), /Case-insensitive\. Mem: Most free memory first/);
  await setPolicy(page, '{\n  "type": "filter",\n  \n}');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('End');
  await page.keyboard.type('"');
  await page.waitForSelector('.cm-tooltip-autocomplete');
  const options = await page.locator('.cm-tooltip-autocomplete li').allTextContents();
  assert.ok(options.some((o) => o.startsWith('filters')) && options.some((o) => o.startsWith('subsetSize')), options.join(', '));
  await page.keyboard.press('Escape');
});

test('clicking a timeline bar opens its explanation', async ({ page, url }) => {
  await open(page, url);
  const result = native();
  const task = result.tasks.find((t) => t.id === '5');
  const at = await page.evaluate(() => window.__playground.timelines[0].reveal('5'));
  await page.waitForTimeout(100);
  await page.locator('[data-testid=timeline]').click({ position: at });
  await page.waitForSelector('[data-testid=placement-summary]');
  const summary = await page.textContent('[data-testid=placement-summary]');
  assert.match(summary, new RegExp(`^7 hosts: .*; chose ${task.host}$`));
  assert.match(await page.textContent('[data-testid=explanation]'), /job-0005/);
  const rows = await page.$$eval('[data-testid=host-table] tbody tr', (r) => r.length);
  assert.equal(rows, 7);
  assert.match(await page.textContent('[data-testid=host-table] tr.chosen'), new RegExp(task.host));
  await shot(page, 'explanation');
});

test('a deferral explains its regime, reference intensity and slack', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await setPolicy(page, prefab('Timeshift'));
  await waitRun(page, n);
  await page.fill('[data-testid=task-search]', 'job-0000');
  await page.click('[data-testid=task-list] button[data-task="0"]');
  await page.waitForSelector('[data-testid=decision-deferral]');
  const text = await page.textContent('[data-testid=decision-deferral]');
  assert.match(text, /deferred/);
  assert.match(text, /290\.94 gCO₂\/kWh now, reference 249\.35/);
  assert.match(text, /forecast of 24 samples/);
  assert.match(text, /9 h 40 min/); // slack 34 800 000 ms
  await shot(page, 'timeshift');
});

test('a pause explains when the task stopper paused the task and the work left', async ({ page, url }) => {
  await open(page, url);
  const stopper = LESSONS.find((l) => l.id === 'task-stopper').b;
  // The native explanation of job-0026 under the lesson's stopper policy: paused at 13 h with
  // 7 390 000 ms of work left, which the page shows as 2 h 3 min (7390 s: 2 h and 190 s).
  const file = teachingScenario({ policy: stopper });
  try {
    const out = execFileSync(BIN, ['simulate', '--scenario', file, '--json', '--explain', '26'], { maxBuffer: 1 << 28 });
    const pauses = JSON.parse(out).explanation.decisions.filter((d) => d.kind === 'pause');
    assert.deepEqual(pauses, [{ kind: 'pause', timeMs: 46800000, remainingMs: 7390000 }]);
  } finally { fs.rmSync(file, { force: true }); }
  const n = await runs(page);
  await setPolicy(page, stopper);
  await waitRun(page, n);
  await page.fill('[data-testid=task-search]', 'job-0026');
  await page.click('[data-testid=task-list] button[data-task="26"]');
  await page.waitForSelector('[data-testid=decision-pause]');
  const text = await page.textContent('[data-testid=decision-pause]');
  assert.match(text, /\(t = 13 h\): paused by the task stopper/);
  assert.match(text, /remaining work 2 h 3 min$/);
});

test('the task list is one Tab stop, moved in by arrow keys, and lists both policies', async ({ page, url }) => {
  await open(page, url);
  await page.fill('[data-testid=task-search]', 'job-000');
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return e?.dataset.testid === 'task-list-item' ? `${e.dataset.policy}:${e.dataset.task}` : e?.dataset.testid || e?.tagName;
  });
  await page.focus('[data-testid=task-search]');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'A:0', 'Tab enters the list at its first task');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await focused(), 'A:2');
  await page.keyboard.press('End');
  assert.equal(await focused(), 'A:9', 'job-0000 to job-0009 match');
  await page.keyboard.press('Tab');
  assert.notEqual((await focused()).split(':')[0], 'A', 'one Tab leaves the list');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'A:9', 'Shift+Tab comes back to the task last focused');
  assert.equal(await page.$$eval('[data-testid=task-list-item][tabindex="0"]', (b) => b.length), 1);
  // Comparing, B's tasks are listed too, and Enter on one explains it in B's run.
  const n = await runs(page);
  await page.click('[data-testid=compare-toggle]');
  await waitRun(page, n);
  await page.fill('[data-testid=task-search]', 'job-0005');
  const labels = await page.$$eval('[data-testid=task-list-item]', (b) => b.map((x) => x.textContent.split(' (')[0]));
  assert.deepEqual(labels, ['A · job-0005', 'B · job-0005']);
  await page.focus('[data-testid=task-list-item][data-policy=B]');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__playground.state.selected?.which === 1);
});

/** Every "N ms" of the page's rendered text with N above 10,000: a raw millisecond count. */
async function rawMilliseconds(page) {
  const text = await page.evaluate(() => document.body.innerText);
  return [...text.matchAll(/(\d[\d,]*(?:\.\d+)?)\s*ms\b/g)]
    .map((m) => m[0]).filter((m) => Number(m.replace(/[^\d.]/g, '')) > 10000);
}

test('no view shows a raw millisecond count', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await page.click('[data-testid=lesson-time-shifting]');
  await waitRun(page, n);
  await skipLesson(page);
  assert.deepEqual(await rawMilliseconds(page), [], 'with the figures over the common window');
  await page.click('[data-testid=metrics-view-perRun]');
  assert.deepEqual(await rawMilliseconds(page), [], 'with each run\'s own figures');
  // Under Timeshift in A too: the explanation of a deferred task (its slack, its deferral, its
  // decisions), the queue at 10 h with a deferred task's latest start, the task list's waits.
  const m = await runs(page);
  await setPolicy(page, prefab('Timeshift'));
  await waitRun(page, m);
  await page.fill('[data-testid=task-search]', 'job-0000');
  await page.click('[data-testid=task-list] button[data-task="0"]');
  await page.waitForSelector('[data-testid=decision-deferral]');
  assert.deepEqual(await rawMilliseconds(page), [], 'with an explanation open');
  await page.evaluate(() => window.__playground.timelines[0].setCursor(36000000));
  await page.waitForSelector('[data-testid=queue-a] h4');
  assert.match(await page.textContent('[data-testid=queue-a]'), /deferred/);
  assert.deepEqual(await rawMilliseconds(page), [], 'with the queue at 10 h');
  await page.fill('[data-testid=task-search]', 'job');
  assert.deepEqual(await rawMilliseconds(page), [], 'with the task list');
  // The scan itself finds one: a raw count planted in the page is reported.
  await page.evaluate(() => document.body.append(Object.assign(document.createElement('p'), { textContent: 'waited 41999236 ms' })));
  assert.deepEqual(await rawMilliseconds(page), ['41999236 ms']);
});

test('the time cursor shows the queue at that instant', async ({ page, url }) => {
  await open(page, url);
  await requireExport(page, 'queueAt');
  await page.evaluate(() => window.__playground.timelines[0].setCursor(3600000));
  await page.waitForSelector('[data-testid=queue-a] h4');
  assert.match(await page.textContent('[data-testid=queue-a] h4'),
    /06-13 07:00 UTC: 5 running, 0 waiting, 0 deferred; 195 not yet submitted, 0 completed/);
  // Clicking the axis sets it too.
  await page.locator('[data-testid=timeline]').click({ position: { x: 400, y: 10 } });
  await page.waitForFunction(() => window.__playground.view.cursorMs !== 3600000);
});

test('compare mode runs a second policy on the same inputs', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await page.click('[data-testid=compare-toggle]');
  await waitRun(page, n);
  await page.waitForSelector('[data-testid=timeline-b]:visible');
  sameMetrics(await metrics(page), native().metrics, 'A');
  sameMetrics(await metrics(page, 'metric-b-'), native({ policy: prefab('MemInv') }).metrics, 'B');
  assert.match(await page.textContent('[data-testid=metric-delta-dynamicEnergyJ]'), /^−0\.867 kWh \(−5\.0 %\)$/);
  await shot(page, 'compare');
});

test('every lesson shows its point', async ({ page, url }) => {
  await open(page, url);
  for (const lesson of LESSONS) {
    const n = await runs(page);
    await page.click(`[data-testid=lesson-${lesson.id}]`);
    await waitRun(page, n);
    await skipLesson(page);
    // The lesson's point: its conditions, evaluated by Rust on the runs shown, all hold.
    const holds = await page.$$eval('[data-testid=lesson-conditions] li', (l) => l.map((x) => x.dataset.holds));
    assert.deepEqual(holds, lesson.lesson.conditions.map(() => 'true'), `${lesson.id}: every condition holds`);
    const b = await metrics(page, 'metric-b-');
    // The figures match the native CLI with the same host counts.
    sameMetrics(b, native({ policy: lesson.b, hostCounts: lesson.hostCounts }).metrics, `${lesson.id} B`);
    assert.match(await page.textContent('[data-testid=lesson-caption]'), new RegExp(lesson.title));
    if (lesson.id === 'head-of-line') {
      // The cursor where A's queue is longest: its head fits nowhere, the tasks behind it would.
      const res = native({ policy: lesson.a, hostCounts: lesson.hostCounts });
      let best = 0, at = 0;
      for (let t = 0; t < res.metrics.makespanMs; t += 600000) {
        const c = res.tasks.filter((x) => x.submitMs <= t && t < (x.startMs ?? x.finishMs)).length;
        if (c > best) { best = c; at = t; }
      }
      await requireExport(page, 'queueAt');
      await page.evaluate((t) => window.__playground.timelines[0].setCursor(t), at);
      await page.waitForSelector('[data-testid=queue-a] [data-testid=queue-list]');
      const q = await page.textContent('[data-testid=queue-a]');
      assert.match(q, new RegExp(`${best} waiting`));
      assert.match(q, /head of the queue, waiting: no host fits it now/);
      assert.match(q, /head-of-line blocking/);
      assert.match(await page.textContent('[data-testid=queue-b]'), /0 waiting|the queue is empty|waiting/);
      await shot(page, 'lesson-head-of-line');
    }
    if (lesson.id === 'time-shifting') {
      await shot(page, 'lesson-time-shifting');
      // The README's picture: the lesson with a deferred task of B explained.
      await page.evaluate(() => window.__playground.timelines[1].setCursor(40 * 3600000));
      const at = await page.evaluate(() => window.__playground.timelines[1].reveal('80'));
      await page.locator('[data-testid=timeline-b]').click({ position: at });
      await page.waitForSelector('[data-testid=decision-deferral]');
      await page.mouse.move(5, 5);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(100);
      await page.screenshot({ path: path.join(SHOTS, 'readme.png'), fullPage: true, clip: { x: 0, y: 0, width: 1400, height: 1640 } });
    }
  }
});

// The figures the captions state (not only the direction checked above), from the native CLI.
test('every lesson caption states the simulator\'s figures', async () => checkCaptions());

test('the time-shifting lesson compares carbon over the common window, as its caption says', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await page.click('[data-testid=lesson-time-shifting]');
  await waitRun(page, n);
  await skipLesson(page);
  await page.waitForSelector('[data-testid=metric-b-windowCarbonG]');
  const caption = await page.textContent('#lesson-caption');
  const stated = Number(/total carbon about (\d+) %/.exec(caption)?.[1]);
  // The window is the default view: its rows show, the per-run rows of energy and carbon do not.
  assert.equal(await page.isVisible('[data-testid=metric-windowCarbonG]'), true);
  assert.equal(await page.isVisible('[data-testid=metric-carbonG]'), false);
  const value = async (id) => Number(await page.getAttribute(`[data-testid=${id}]`, 'data-value'));
  const a = await value('metric-windowCarbonG'), b = await value('metric-b-windowCarbonG');
  assert.equal(Math.round((-100 * (b - a)) / a), stated, 'the caption\'s figure is the table\'s');
  const native = nativeCompare(prefab('Mem'), prefab('Timeshift')).rows;
  const row = (key) => native.find((r) => r.key === key).cells;
  assert.deepEqual([a, b], row('windowCarbonG').map((c) => c.value), 'the page\'s window figures are the CLI\'s');
  const delta = page.locator('[data-testid=metric-delta-windowCarbonG]');
  assert.equal(await delta.textContent(), row('windowCarbonG')[1].difference.text);
  assert.match(await delta.textContent(), /^−0\.\d{3} kg \(−\d\.\d %\)$/);
  assert.ok((await delta.getAttribute('class')).includes('better'), 'less carbon is better');
  assert.match(await page.textContent('[data-testid=window-note]'), /from time 0 to 4 d 3 h, the latest end of the runs compared/);
  await shot(page, 'lesson-time-shifting-window');
  // Each run's own figures are one click away: there B's longer run costs more carbon in all.
  await page.click('[data-testid=metrics-view-perRun]');
  assert.equal(await page.isVisible('[data-testid=metric-carbonG]'), true);
  assert.equal(await page.isVisible('[data-testid=metric-windowCarbonG]'), false);
  const perRun = await page.textContent('[data-testid=metric-delta-carbonG]');
  assert.equal(perRun, row('carbonG')[1].difference.text);
  assert.match(perRun, /^\+\d\.\d{3} kg \(\+\d\.\d %\)$/);
});

// The page's stable test hooks, driven through their data-testid alone (tests/e2e/hooks.mjs).
for (const [name, fn] of HOOK_TESTS) test(name, fn);

// The page as a workbench: what each click produces is in view (tests/e2e/layout.mjs).
for (const [name, fn] of LAYOUT_TESTS) test(name, fn);

// Large clusters: the overview strip, host groups, vertical zoom (tests/e2e/overview.mjs).
for (const [name, fn] of OVERVIEW_TESTS) test(name, fn);
for (const [name, fn] of SLIDE_TESTS) test(name, fn);
for (const [name, fn] of EXPERIMENT_TESTS) test(name, fn);
for (const [name, fn] of GENERATOR_TESTS) test(name, fn);
// The replay of a run, step by step (tests/e2e/replay.mjs).
for (const [name, fn] of REPLAY_TESTS) test(name, fn);
for (const [name, fn] of BINARY_TESTS) test(name, fn);
for (const [name, fn] of SCALE_TESTS) test(name, fn);
for (const [name, fn] of PORTFOLIO_TESTS) test(name, fn);
// Lesson files: predict, then reveal; from a file and a link; bounded links (tests/e2e/lesson_files.mjs).
for (const [name, fn] of LESSON_FILE_TESTS) test(name, fn);

test('a share URL reproduces the same metrics in a fresh page', async ({ page, url, browser }) => {
  await open(page, url);
  let n = await runs(page);
  await setPolicy(page, pretty({ type: 'filter', weighers: [{ type: 'Ram', multiplier: 1 }], subsetSize: 3 }));
  await waitRun(page, n);
  n = await runs(page);
  await page.fill('[data-testid=seed]', '7');
  await page.press('[data-testid=seed]', 'Enter');
  await waitRun(page, n);
  n = await runs(page);
  await page.fill('[data-testid="count-rack-A/small"]', '2');
  await page.press('[data-testid="count-rack-A/small"]', 'Enter');
  await waitRun(page, n);
  const expected = await metrics(page);
  sameMetrics(expected, native({ policy: { type: 'filter', weighers: [{ type: 'Ram', multiplier: 1 }], subsetSize: 3 }, seed: 7, hostCounts: { 'rack-A/small': 2 } }).metrics, 'native');
  await page.click('[data-testid=share]');
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value !== '');
  const link = await page.inputValue('[data-testid=share-link]');
  assert.match(link, /#s2=[A-Za-z0-9_-]+$/);
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await open(other, link);
  assert.deepEqual(await metrics(other), expected);
  assert.equal(await other.inputValue('[data-testid=seed]'), '7');
  await fresh.close();
});

test('share links are compressed, and links of format 1 still open', async ({ page, url }) => {
  await open(page, url);
  // A long policy: the expansion of the Timeshift prefab, every default written out.
  const long = await page.evaluate(async () => {
    const a = await window.__playground.lint.call('expand', JSON.stringify({ type: 'prefab', policyName: 'Timeshift' }));
    return JSON.stringify(a.value, null, 2);
  });
  let n = await runs(page);
  await setPolicy(page, long);
  await waitRun(page, n);
  await page.click('[data-testid=share]');
  await page.waitForFunction(() => document.querySelector('[data-testid=share-link]').value !== '');
  const link = await page.inputValue('[data-testid=share-link]');
  const state = { v: 1, sample: 'teaching', policy: long, seed: 0, quantumMs: 1000 };
  const v1 = `#s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
  const hash = link.slice(link.indexOf('#'));
  assert.ok(hash.length * 2 < v1.length, `compressed ${hash.length} chars vs ${v1.length} uncompressed`);
  // The old format opens to the same figures.
  await page.goto('about:blank');
  await open(page, `${url}${v1}`);
  assert.equal(await policyText(page), long);
  sameMetrics(await metrics(page), native({ policy: long }).metrics, 'format-1 link');
});

test('a lesson that replaces the edited policy offers it back', async ({ page, url }) => {
  await open(page, url);
  const mine = pretty({ type: 'filter', filters: [{ type: 'VCpu', allocationRatio: 1 }], weighers: [{ type: 'CoreRam', multiplier: -1 }] });
  let n = await runs(page);
  await setPolicy(page, mine);
  await waitRun(page, n);
  const lesson = LESSONS[0];
  n = await runs(page);
  await page.click(`[data-testid=lesson-${lesson.id}]`);
  await waitRun(page, n);
  assert.match(await page.textContent('[data-testid=notice]'), /replaced your policy/);
  assert.notEqual(await policyText(page), mine);
  n = await runs(page);
  await page.click('[data-testid=notice-action]');
  await waitRun(page, n);
  assert.equal(await policyText(page), mine);
  assert.equal(await page.isVisible('[data-testid=metric-b-tasksCompleted]'), false, 'compare mode is off again');
  sameMetrics(await metrics(page), native({ policy: mine, hostCounts: lesson.hostCounts }).metrics, 'restored policy');
  // The restored policy is what a reload brings back.
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  assert.equal(await policyText(page), mine);
});

test('a damaged share URL says so and keeps the current work', async ({ page, url }) => {
  await open(page, url);
  let n = await runs(page);
  await setPolicy(page, prefab('ActiveServers'));
  await waitRun(page, n);
  await page.goto(`${url}#s=bm90IGpzb24`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await waitRun(page, 0);
  assert.match(await page.textContent('[data-testid=notice]'), /damaged/);
  assert.match(await policyText(page), /ActiveServers/);
  sameMetrics(await metrics(page), native({ policy: prefab('ActiveServers') }).metrics, 'kept work');
});

test('the edited policy survives a reload', async ({ page, url }) => {
  await open(page, url);
  const n = await runs(page);
  await setPolicy(page, prefab('CoreMem'));
  await waitRun(page, n);
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await waitRun(page, 0);
  assert.match(await policyText(page), /"policyName": "CoreMem"/);
  sameMetrics(await metrics(page), native({ policy: prefab('CoreMem') }).metrics, 'CoreMem after reload');
});

test('surf_week parquet files from disk complete 6295 tasks', async ({ page, url }) => {
  await open(page, url);
  await page.click('.loaders summary');
  let n = await runs(page);
  await page.setInputFiles('[data-testid=load-topology]', surf('topology.json'));
  await waitRun(page, n);
  assert.match(await page.textContent('[data-testid=summary-topology]'), /^277 hosts: C01\/H01 × 277/);
  n = await runs(page);
  await page.setInputFiles('[data-testid=load-workload]', [surf('tasks.parquet'), surf('fragments.parquet')]);
  await waitRun(page, n, 120000);
  assert.match(await page.textContent('[data-testid=summary-workload]'), /^6,295 tasks \(0 deferrable with a deadline\), 2,323,475 fragments/);
  const m = await metrics(page);
  assert.equal(m.tasksCompleted, 6295);
  assert.equal(m.tasksTotal ?? 6295, 6295);
  await page.waitForTimeout(300);
  await shot(page, 'surf_week');
  // Cancel during a run: the worker restarts, the inputs are loaded again, and the next edit
  // runs. The cancel is clicked by the page itself the moment the status says a run started
  // (a run of surf_week takes about 300 ms, shorter than Playwright's polling can rely on
  // catching); should a run still finish first, the test edits again.
  const policies = ['MemInv', 'CoreMem', 'CoreMemInv', 'ProvisionedCores'];
  let state = null;
  for (let attempt = 0; attempt < policies.length && state !== 'cancelled'; attempt++) {
    await page.evaluate(() => {
      const status = document.querySelector('[data-testid=run-status]');
      const watch = new MutationObserver(() => {
        if (status.dataset.state !== 'running') return;
        watch.disconnect();
        // A click through the DOM, as a person's would be at that moment.
        document.querySelector('[data-testid=cancel]').click();
      });
      watch.observe(status, { attributes: true, attributeFilter: ['data-state'] });
    });
    await setPolicy(page, prefab(policies[attempt]));
    await page.waitForFunction(() => ['cancelled', 'done'].includes(document.querySelector('[data-testid=run-status]').dataset.state), null, { timeout: 120000 });
    state = await page.$eval('[data-testid=run-status]', (e) => e.dataset.state);
  }
  assert.equal(state, 'cancelled', 'no run could be cancelled before it finished');
  // A run reports its progress (runWithProgress) as it goes: every value the page gives its
  // progress bar is recorded (whether or not the bar is shown yet; it shows after 200 ms).
  await requireExport(page, 'runWithProgress');
  await page.evaluate(() => {
    const bar = document.querySelector('[data-testid=progress]');
    const own = Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype, 'value');
    window.__progressSeen = [];
    Object.defineProperty(bar, 'value', {
      configurable: true,
      get() { return own.get.call(this); },
      set(v) { window.__progressSeen.push(v); own.set.call(this, v); },
    });
  });
  n = await runs(page);
  await setPolicy(page, prefab('Mem'));
  await waitRun(page, n, 120000);
  assert.equal((await metrics(page)).tasksCompleted, 6295);
  const seen = await page.evaluate(() => window.__progressSeen);
  assert.ok(seen.some((v) => v > 0 && v < 1), `progress values reported during the run: ${seen}`);
});

test('a sweep of subsetSize over seeds gives the native sweep; a refused value says why', async ({ page, url }) => {
  await open(page, url);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=sweep-parameter] option').length > 1);
  await page.selectOption('[data-testid=sweep-parameter]', '/subsetSize');
  // Settings read as names; the pointer is the tooltip (Mem's Ram weigher is weighers/0).
  const option = (p) => page.locator(`[data-testid=sweep-parameter] option[value="${p}"]`);
  assert.equal(await option('/subsetSize').textContent(), 'subset size (now 1)');
  assert.equal(await option('/weighers/0/multiplier').textContent(), 'Ram weigher: multiplier (now 1)');
  assert.equal(await option('/weighers/0/multiplier').getAttribute('title'), '/weighers/0/multiplier');
  assert.equal(await page.inputValue('[data-testid=sweep-values]'), '1, 2, 3, 4', 'values suggested around the current 1');
  await page.fill('[data-testid=sweep-values]', '1, 3');
  await page.fill('[data-testid=sweep-seeds]', '4');
  await page.click('[data-testid=sweep-run]');
  await page.waitForFunction(() => document.querySelector('[data-testid=sweep-status]').dataset.runs === '8');
  // Rust split the 8 runs between the page's two workers; the report of both halves is the CLI's.
  assert.equal(await page.getAttribute('[data-testid=sweep-status]', 'data-workers'), '2');
  // The native CLI's sweep of the same scenario (the teaching sample, seed 0 on).
  const report = JSON.parse(execFileSync(BIN, ['sweep', '--scenario', path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'),
    '--parameter', '/subsetSize', '--values', '1,3', '--seeds', '4', '--json'], { encoding: 'utf8' }));
  for (const [i, point] of report.points.entries()) {
    for (const key of ['energyJ', 'dynamicCarbonG', 'makespanMs']) {
      const cell = await page.getAttribute(`[data-testid=sweep-row-${i}] td[data-key=${key}]`, 'data-value');
      assert.equal(Number(cell), point.summary[key].mean, `value ${point.value}: ${key}`);
    }
  }
  assert.notEqual(report.points[1].summary.energyJ.min, report.points[1].summary.energyJ.max, 'subsetSize 3 draws: the seeds differ');
  const aria = await page.getAttribute('[data-testid=sweep-chart]', 'aria-label');
  assert.match(aria, /^energy by \/subsetSize: 1: [0-9.,]+, 3: [0-9.,]+$/);
  await shot(page, 'sweep');
  // Every run as CSV: the bytes of the native `sweep --csv`.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=sweep-csv]')]);
  const csv = fs.readFileSync(await download.path(), 'utf8');
  const nativeCsv = execFileSync(BIN, ['sweep', '--scenario', path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'),
    '--parameter', '/subsetSize', '--values', '1,3', '--seeds', '4', '--csv'], { encoding: 'utf8' });
  assert.equal(csv.trimEnd(), nativeCsv.trimEnd());
  assert.equal(csv.trimEnd().split('\n').length, 1 + 2 * 4);
  // A value the policy language refuses: the Rust reader's message, naming the value.
  await page.fill('[data-testid=sweep-values]', '2, 0');
  await page.click('[data-testid=sweep-run]');
  await page.waitForFunction(() => /subsetSize = 0/.test(document.querySelector('[data-testid=sweep-status]').textContent));
  assert.match(await page.textContent('[data-testid=sweep-status]'), /\/subsetSize = 0: `subsetSize` must be an integer >= 1, found 0/);
  await page.fill('[data-testid=sweep-values]', '1, two');
  await page.click('[data-testid=sweep-run]');
  assert.equal(await page.textContent('[data-testid=sweep-status]'), '`two` is not a number, true or false');
});

test('dropped files are recognised by kind and loaded', async ({ page, url }) => {
  await open(page, url);
  await page.click('.loaders summary');
  const n = await runs(page);
  const files = [['topology.json', fs.readFileSync(surf('topology.json'), 'utf8')], ['carbon.json', fs.readFileSync(surf('carbon.json'), 'utf8')]];
  const dt = await page.evaluateHandle((list) => {
    const d = new DataTransfer();
    for (const [name, text] of list) d.items.add(new File([text], name, { type: 'application/json' }));
    return d;
  }, files);
  await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer: dt });
  await page.waitForFunction(() => /^518 samples/.test(document.querySelector('[data-testid=summary-carbon]').textContent));
  assert.match(await page.textContent('[data-testid=summary-topology]'), /^277 hosts/);
  await waitRun(page, n);
  assert.equal((await metrics(page)).tasksCompleted, 200);
  // "no carbon" runs without carbon figures.
  const m = await runs(page);
  await page.click('[data-testid=carbon-none]');
  await waitRun(page, m);
  assert.equal((await metrics(page)).carbonG, null);
  assert.equal(await page.textContent('[data-testid=metric-carbonG]'), '—');
});

test('a malicious task name stays text', async ({ page, url }) => {
  let alerted = false;
  page.on('dialog', (d) => { alerted = true; d.dismiss(); });
  await open(page, url);
  const evil = '<img src=x onerror=alert(1)>';
  const file = path.join(os.tmpdir(), `pp-evil-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify({ tasks: [
    { id: evil, name: evil, submissionTime: 1655100000000, duration: 600000, cpuCount: 1, cpuCapacity: 1000, memory: 100 },
    { id: 'b', name: '<script>alert(2)</script>', submissionTime: 1655100060000, duration: 600000, cpuCount: 1, cpuCapacity: 1000, memory: 100 },
  ] }));
  await page.click('.loaders summary');
  const n = await runs(page);
  await page.setInputFiles('[data-testid=load-workload]', file);
  await waitRun(page, n);
  fs.rmSync(file);
  assert.equal((await metrics(page)).tasksCompleted, 2);
  assert.match(await page.textContent('[data-testid=task-list]'), /<img src=x onerror=alert\(1\)>/);
  await page.click('[data-testid=task-list] li:first-child button');
  await page.waitForSelector('[data-testid=placement-summary]');
  assert.match(await page.textContent('[data-testid=explanation]'), /<img src=x onerror=alert\(1\)>/);
  assert.equal(await page.$$eval('img', (i) => i.length), 0);
  assert.equal(await page.$$eval('body script', (s) => s.length), 0);
  assert.equal(alerted, false);
});

test('a bad file shows the loader message and the page stays usable', async ({ page, url }) => {
  await open(page, url);
  const before = await metrics(page);
  const file = path.join(os.tmpdir(), `pp-bad-${process.pid}.json`);
  fs.writeFileSync(file, '{"clusters": [{"name": "c", "hosts": [{"name": "h", "count": "many"}]}]}');
  await page.click('.loaders summary');
  await page.setInputFiles('[data-testid=load-topology]', file);
  await page.waitForFunction(() => document.querySelector('[data-testid=msg-topology]').classList.contains('error'));
  const msg = await page.textContent('[data-testid=msg-topology]');
  assert.match(msg, /error: .*count/);
  // A parquet file that is not one.
  fs.writeFileSync(file.replace('.json', '.parquet'), 'not parquet');
  await page.setInputFiles('[data-testid=load-carbon]', file.replace('.json', '.parquet'));
  await page.waitForFunction(() => document.querySelector('[data-testid=msg-carbon]').classList.contains('error'));
  fs.rmSync(file); fs.rmSync(file.replace('.json', '.parquet'));
  assert.deepEqual(await metrics(page), before);
  assert.match(await page.textContent('[data-testid=summary-topology]'), /^7 hosts/);
  await shot(page, 'bad-file');
  const n = await runs(page);
  await setPolicy(page, prefab('MemInv'));
  await waitRun(page, n);
  sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after a bad file');
});

test('a long read of a workload can be stopped; nothing else changes', async ({ page, url }) => {
  // surf_week tiled 31 times a week apart (written by the release CLI's `tile`: 72 M fragments)
  // takes the worker a second or more to read; Stop terminates it, and it loads the inputs
  // before the read again (a Stop while the files are still read from disk ends the load before
  // it reaches the worker). A forged file that held the decoder for seconds served here until
  // the reader refused it at once: tests/fuzz-regressions/parquet-desynced-field-type.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-long-'));
  try {
    execFileSync(BIN, ['tile', '--workload', path.join(ROOT, 'www', 'samples', 'surf_week'), '--copies', '31', '--out', dir]);
    await open(page, url);
    const before = await metrics(page);
    await page.click('.loaders summary');
    await page.setInputFiles('[data-testid=load-workload]', [path.join(dir, 'tasks.parquet'), path.join(dir, 'fragments.parquet')]);
    await page.click('[data-testid=stop-workload]');
    await page.waitForFunction(() => /^stopped reading tasks\.parquet \+ fragments\.parquet; nothing changed$/.test(document.querySelector('[data-testid=msg-workload]').textContent));
    assert.deepEqual(await metrics(page), before);
    assert.match(await page.textContent('[data-testid=summary-workload]'), /^200 tasks/);
    const n = await runs(page);
    await setPolicy(page, prefab('MemInv'));
    await waitRun(page, n);
    sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after a stopped read');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every bad input of the corpus gives its native message beside its loader; nothing else changes', async ({ page, url }) => {
  await open(page, url);
  const before = await metrics(page);
  const policy = await policyText(page);
  // The same entries, bytes and native answers as the wasm suite (scripts/test writes them).
  const fixtures = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'output', 'browser-fixtures.json'), 'utf8'));
  const input = { loadTopology: 'topology', loadScenario: 'scenario', loadWorkload: 'workload', loadWorkloadParquet: 'workload', loadCarbon: 'carbon' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-corpus-'));
  await page.click('.loaders summary');
  let checked = 0;
  for (const [i, e] of fixtures.badInputs.entries()) {
    const native = JSON.parse(e.answer);
    if (native.type !== 'failure') continue;
    const kind = input[e.loader];
    const sub = fs.mkdirSync(path.join(dir, String(i)), { recursive: true }) || path.join(dir, String(i));
    const base = e.name.replace(/\.[a-z]+$/, '');
    const names = e.loader === 'loadWorkloadParquet' ? ['tasks.parquet', 'fragments.parquet'] : [`${base}.${e.format || 'json'}`];
    const files = names.map((n, k) => { const f = path.join(sub, n); fs.writeFileSync(f, Buffer.from(e.bytes[k])); return f; });
    await page.$eval(`[data-testid=msg-${kind}]`, (el) => { el.textContent = ''; el.classList.remove('error'); });
    await page.setInputFiles(`[data-testid=load-${kind}]`, files);
    await page.waitForFunction((k) => document.querySelector(`[data-testid=msg-${k}]`).classList.contains('error'), kind);
    const msg = await page.textContent(`[data-testid=msg-${kind}]`);
    assert.ok(msg.includes(native.errors[0].message), `${e.name} via ${e.loader}: ${msg}`);
    checked += 1;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  assert.ok(checked >= 35, `${checked} bad inputs`);
  assert.deepEqual(await metrics(page), before);
  assert.equal(await policyText(page), policy);
  assert.match(await page.textContent('[data-testid=summary-topology]'), /^7 hosts/);
  const n = await runs(page);
  await setPolicy(page, prefab('MemInv'));
  await waitRun(page, n);
  sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after the corpus');
});

test('a workload past the browser limits shows the limit and the page stays usable', async ({ page, url }) => {
  await open(page, url);
  const before = await metrics(page);
  const limits = await page.evaluate(async () => (await window.__playground.sim.call('limits')).value);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-limits-'));
  // One task more than the browser takes, as CSV (about 22 MB).
  const rows = ['id,submissionTime,duration,cpuCount,cpuCapacity,memory'];
  for (let i = 0; i <= limits.maxTasks; i++) rows.push(`${i},${1704067200000 + i * 1000},600000,1,1000,100`);
  const csv = path.join(dir, 'many.csv');
  fs.writeFileSync(csv, rows.join('\n'));
  await page.click('.loaders summary');
  await page.setInputFiles('[data-testid=load-workload]', csv);
  await page.waitForFunction(() => document.querySelector('[data-testid=msg-workload]').classList.contains('error'), null, { timeout: 60000 });
  assert.match(await page.textContent('[data-testid=msg-workload]'),
    new RegExp(`has ${limits.maxTasks + 1} tasks; the playground in the browser takes at most ${limits.maxTasks} \\(use the command-line tool`));
  // A file past the byte limit is refused before it is read (a sparse file: no disk used).
  const huge = path.join(dir, 'huge.json');
  fs.writeFileSync(huge, '');
  fs.truncateSync(huge, limits.maxFileBytes + 1);
  await page.setInputFiles('[data-testid=load-topology]', huge);
  await page.waitForFunction(() => document.querySelector('[data-testid=msg-topology]').classList.contains('error'));
  assert.match(await page.textContent('[data-testid=msg-topology]'), /huge\.json is 256\.0 MiB; the page takes files up to 256 MiB \(use the CLI/);
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(await metrics(page), before);
  assert.match(await page.textContent('[data-testid=summary-workload]'), /^200 tasks/);
  const n = await runs(page);
  await setPolicy(page, prefab('MemInv'));
  await waitRun(page, n);
  sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after the refused files');
});

test('the edited policy survives a sample switch and runs on the new sample', async ({ page, url }) => {
  await open(page, url);
  const mine = pretty({ type: 'filter', filters: [{ type: 'VCpu', allocationRatio: 2 }], weighers: [{ type: 'Ram', multiplier: -1 }] });
  let n = await runs(page);
  await setPolicy(page, mine);
  await waitRun(page, n);
  n = await runs(page);
  await page.selectOption('[data-testid=sample-picker]', 'surf_week');
  await waitRun(page, n, 120000);
  assert.equal(JSON.parse(await policyText(page)).weighers[0].multiplier, -1);
  assert.equal((await metrics(page)).tasksTotal, 6295);
  n = await runs(page);
  await page.selectOption('[data-testid=sample-picker]', 'teaching');
  await waitRun(page, n);
  assert.deepEqual(JSON.parse(await policyText(page)), JSON.parse(mine));
  sameMetrics(await metrics(page), native({ policy: mine }).metrics, 'my policy, back on teaching');
});

test('on surf_week, time-shifting says it has nothing to defer, and why', async ({ page, url }) => {
  await open(page, url);
  // The teaching sample has deferrable tasks: no note about time-shifting there.
  let n = await runs(page);
  await setPolicy(page, prefab('Timeshift'));
  await waitRun(page, n);
  assert.equal(await page.$$eval('[data-testid=run-notes] li[data-feature=timeshift]', (l) => l.length), 0);
  assert.match(await page.textContent('[data-testid=summary-workload]'), /\b[1-9][\d,]* deferrable with a deadline/);
  n = await runs(page);
  await page.selectOption('[data-testid=sample-picker]', 'surf_week');
  await waitRun(page, n, 120000);
  assert.match(await page.textContent('[data-testid=summary-workload]'), /^6,295 tasks \(0 deferrable with a deadline\)/);
  const notes = await page.$$eval('[data-testid=run-notes] li', (l) => l.map((x) => [x.dataset.feature, x.textContent]));
  assert.deepEqual(notes.map(([f]) => f), ['timeshift', 'waiting']);
  assert.match(notes[0][1], /^time-shifting defers nothing here: none of the workload's 6295 tasks is deferrable/);
  assert.match(notes[1][1], /^no task waited: the 277 hosts always had room/);
  assert.ok(await page.isVisible('[data-testid=run-notes]'));
  await shot(page, 'notes-surf-week');
});

test('a trap restarts the worker, reloads the inputs and keeps the work', async ({ page, url }) => {
  await open(page, url);
  const answer = await page.evaluate(() => window.__playground.sim.call('__trap'));
  assert.equal(answer.type, 'failure');
  assert.match(answer.errors[0].message, /^internal error: /);
  await page.waitForSelector('[data-testid=notice]:visible');
  const n = await runs(page);
  await setPolicy(page, prefab('MemInv'));
  await waitRun(page, n);
  sameMetrics(await metrics(page), native({ policy: prefab('MemInv') }).metrics, 'after a trap');
  // A run handle from before the trap still explains (the run is repeated in the new worker).
  await page.fill('[data-testid=task-search]', 'job-0003');
  await page.click('[data-testid=task-list] button[data-task="3"]');
  await page.waitForSelector('[data-testid=placement-summary]');
  assert.equal(await page.evaluate(() => window.__playground.sim.restarts), 1);
});

test('zoom and pan with the keyboard and the wheel', async ({ page, url }) => {
  await open(page, url);
  const span = () => page.evaluate(() => window.__playground.view.t1 - window.__playground.view.t0);
  const full = await span();
  await page.focus('[data-testid=timeline]');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  assert.ok((await span()) < full * 0.7);
  const t0 = await page.evaluate(() => window.__playground.view.t0);
  await page.keyboard.press('ArrowRight');
  assert.ok((await page.evaluate(() => window.__playground.view.t0)) > t0);
  await page.mouse.move(700, 700);
  await page.locator('[data-testid=timeline]').hover({ position: { x: 500, y: 200 } });
  await page.mouse.wheel(0, 400);
  assert.ok((await span()) > full * 0.6);
  await page.keyboard.press('0');
  assert.equal(await span(), full);
  await page.locator('[data-testid=timeline]').hover({ position: { x: 300, y: 300 } });
  await page.waitForTimeout(100);
});

test('the result downloads as the JSON the CLI prints', async ({ page, url }) => {
  await open(page, url);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-result]')]);
  const file = await download.path();
  const text = fs.readFileSync(file, 'utf8');
  // Byte for byte what `simulate --json` prints for the same scenario.
  const scenario = teachingScenario();
  try {
    assert.equal(text, execFileSync(BIN, ['simulate', '--scenario', scenario, '--json'], { encoding: 'utf8' }).trimEnd());
  } finally { fs.rmSync(scenario, { force: true }); }
});

test('the exported scenario and OpenDC experiment give the same figures natively', async ({ page, url }) => {
  await open(page, url);
  await requireExport(page, 'exportScenario');
  await requireExport(page, 'exportOpenDcExperiment');
  let n = await runs(page);
  await setPolicy(page, prefab('Timeshift'));
  await waitRun(page, n);
  n = await runs(page);
  await page.fill('[data-testid="count-rack-B/large"]', '1');
  await page.press('[data-testid="count-rack-B/large"]', 'Enter');
  await waitRun(page, n);
  const shown = await metrics(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-export-'));
  try {
    const [scenario] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-scenario]')]);
    await scenario.saveAs(path.join(dir, 'scenario.json'));
    const viaScenario = JSON.parse(execFileSync(BIN, ['simulate', '--scenario', path.join(dir, 'scenario.json'), '--json'], { maxBuffer: 1 << 28 }));
    sameMetrics(viaScenario.metrics, shown, 'exported scenario');
    const [exp] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-opendc]')]);
    await exp.saveAs(path.join(dir, 'exp.zip'));
    execFileSync('python3', ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', path.join(dir, 'exp.zip'), dir]);
    for (const f of ['experiment.json', 'topology.json', 'workload/tasks.parquet', 'workload/fragments.parquet', 'carbon.parquet']) {
      assert.ok(fs.existsSync(path.join(dir, f)), `the zip holds ${f}`);
    }
    const viaExperiment = JSON.parse(execFileSync(BIN, ['simulate', '--experiment', path.join(dir, 'experiment.json'), '--json'], { maxBuffer: 1 << 28, cwd: dir }));
    sameMetrics(viaExperiment[0].result.metrics, shown, 'exported OpenDC experiment');
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('tasks CSV, timeline PNG and SVG downloads, and the OpenDC notes', async ({ page, url, context }) => {
  await open(page, url);
  await requireExport(page, 'exportTasksCsv');
  await requireExport(page, 'exportOpenDcExperiment');
  let n = await runs(page);
  await setPolicy(page, prefab('Timeshift'));
  await waitRun(page, n);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-downloads-'));
  try {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-tasks-csv]')]);
    const scenario = JSON.parse(fs.readFileSync(path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'), 'utf8'));
    scenario.policy = { type: 'prefab', policyName: 'Timeshift' };
    fs.writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
    execFileSync(BIN, ['simulate', '--scenario', path.join(dir, 'scenario.json'), '--tasks-csv', path.join(dir, 'cli.csv')]);
    assert.equal(fs.readFileSync(await csv.path(), 'utf8'), fs.readFileSync(path.join(dir, 'cli.csv'), 'utf8'));

    const [png] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-png]')]);
    const bytes = fs.readFileSync(await png.path());
    assert.deepEqual([...bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
    const size = await page.evaluate(() => { const c = window.__playground.timelines[0].canvas; return [c.width, c.height]; });
    assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], size, 'the PNG is the canvas, pixel for pixel');

    const [svg] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-svg]')]);
    const text = fs.readFileSync(await svg.path(), 'utf8');
    assert.match(text, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(text, /<pattern /, 'deferrals are hatched with a vector pattern');
    assert.match(text, />UTC</);
    assert.match(text, />rack-A</, 'cluster names are text in the SVG');
    // Every run bar in view is a rect of the blue run colour: at least one per visible task run.
    const blue = (text.match(/fill="#0072B2"|fill="#0072b2"|fill="rgb\(0, ?114, ?178\)"/g) || []).length;
    assert.ok(blue >= 50, `run bars in the SVG: ${blue}`);
    // It renders: Chromium draws it as an image of the canvas's size.
    const viewer = await context.newPage();
    await viewer.setContent(text);
    const box = await viewer.locator('svg').boundingBox();
    assert.ok(box.width > 200 && box.height > 100, `svg size ${box.width} x ${box.height}`);
    await shot(viewer, 'timeline-svg-export');
    await viewer.close();

    const [zip] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-opendc]')]);
    await zip.saveAs(path.join(dir, 'exp.zip'));
    const notes = execFileSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("NOTES.md").decode())', path.join(dir, 'exp.zip')]).toString();
    assert.match(notes, /SPEC 9\.6/);
    assert.match(notes, /Window mode|Forecast mode/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

// ---- runner ------------------------------------------------------------------------------------

const filter = process.argv[2];
const server = await serve();
const browser = await launch();
let passed = 0, failed = 0;
for (const t of tests) {
  if (filter && !t.name.includes(filter)) continue;
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  const started = Date.now();
  try {
    await t.fn({ page, url: server.url, browser, context });
    assert.deepEqual(errors, [], 'console errors');
    passed += 1;
    console.log(`ok   ${t.name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL ${t.name} (${Date.now() - started} ms)\n     ${String(e.stack || e).split('\n').slice(0, 6).join('\n     ')}`);
    await shot(page, `failed-${t.name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => {});
  } finally {
    await context.close();
  }
}
await browser.close();
server.stop();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
