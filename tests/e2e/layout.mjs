// The page as a workbench (issue 17): at 1280x720, 1440x900 and 800x900, what each click
// produces (the explanation of a bar, a lesson's caption and notice, policy B's result, the
// summary of loaded files) lies inside the viewport, not under the header or below the fold; and
// the editor: completion of every name the schema lists, the prefab picker following the editor,
// line wrapping, resizing and the keyboard way out. Screenshots of the viewport go to
// tests/output/screenshots/layout-<width>-<step>.png (for the README). The browser suite
// registers these tests (tests/e2e/run.mjs); `node tests/e2e/run.mjs layout` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, SHOTS, open, runs, waitRun, setPolicy, metrics } from './lib.mjs';
import { skipLesson } from './lesson_files.mjs';

const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);
const surf = (f) => path.join(ROOT, 'www', 'samples', 'surf_week', f);
const VIEWPORTS = [[1280, 720], [1440, 900], [800, 900]];

/** A screenshot of the viewport: what the user sees after the step. */
async function viewShot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.mouse.move(0, 0); // no hover tooltip in the picture
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Fails unless the element's bounding box lies inside the viewport and, unless `overHeader`,
 * below the sticky header (which would hide it). */
async function inView(page, selector, what, { overHeader = false } = {}) {
  const el = page.locator(selector).first();
  await el.waitFor({ state: 'visible' });
  const box = await el.boundingBox();
  const vp = page.viewportSize();
  const top = overHeader ? 0 : await page.evaluate(() => document.querySelector('header').getBoundingClientRect().bottom);
  const where = `${what} at x ${Math.round(box.x)}..${Math.round(box.x + box.width)}, y ${Math.round(box.y)}..${Math.round(box.y + box.height)}`;
  assert.ok(box.width > 0 && box.height > 0, `${where} has no size`);
  assert.ok(box.x >= -0.5 && box.x + box.width <= vp.width + 0.5, `${where} is not inside the ${vp.width} px width`);
  assert.ok(box.y >= top - 0.5, `${where} is above the fold or under the header (which ends at y ${Math.round(top)})`);
  assert.ok(box.y + box.height <= vp.height + 0.5, `${where} is below the fold (${vp.height} px)`);
}

/** Waits for a run to finish after `fn`; `timeout` for surf_week. */
async function afterRun(page, fn, timeout) {
  const n = await runs(page);
  await fn();
  await waitRun(page, n, timeout);
}

function workbench([w, h]) {
  return async ({ page, url }) => {
    await page.setViewportSize({ width: w, height: h });
    await open(page, url);
    const tag = `layout-${w}`;

    // First load: the status, policy A's editor and the result's first figures.
    await inView(page, '[data-testid=run-status]', 'the run status', { overHeader: true });
    await inView(page, '[data-testid=policy-editor]', 'policy A\'s editor');
    await inView(page, '#results-title', 'the result\'s heading');
    await inView(page, '[data-testid=metric-tasksCompleted]', 'tasks completed');
    assert.equal((await metrics(page)).tasksCompleted, 200);
    await viewShot(page, `${tag}-load`);

    // A click on a bar: the explanation opens in view and takes the focus.
    const at = await page.evaluate(() => window.__playground.timelines[0].reveal('5'));
    await page.waitForTimeout(100);
    await page.locator('[data-testid=timeline]').click({ position: at });
    await page.waitForSelector('[data-testid=placement-summary]');
    await inView(page, '[data-testid=inspector]', 'the inspector', { overHeader: w < 1100 });
    await inView(page, '#explain-title', 'the explanation\'s heading', { overHeader: w < 1100 });
    await inView(page, '[data-testid=placement-summary]', 'the placement summary', { overHeader: w < 1100 });
    assert.match(await page.textContent('[data-testid=explanation]'), /job-0005/);
    assert.ok(await page.evaluate(() => document.querySelector('[data-testid=inspector]').contains(document.activeElement)),
      'the explanation takes the focus');
    await viewShot(page, `${tag}-bar`);
    // Escape closes it and gives the focus back to the timeline.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid=inspector]', { state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'timeline');

    // Compare: policy B's result (its column of figures) and its editor.
    await afterRun(page, () => page.click('[data-testid=compare-toggle]'));
    await page.waitForSelector('[data-testid=metric-b-tasksCompleted]');
    await inView(page, '[data-testid=metric-b-tasksCompleted]', 'B\'s tasks completed');
    // On a wide screen the whole comparison shows beside the editors.
    if (w >= 1100) await inView(page, '[data-testid=metric-delta-dynamicEnergyJ]', 'the difference in dynamic energy');
    if (w >= 760) await inView(page, '[data-testid=editor-B]', 'policy B\'s editor');
    await viewShot(page, `${tag}-compare`);

    // A lesson that replaces an edited policy: its caption, and the notice with its action.
    await afterRun(page, () => setPolicy(page, prefab('CoreMem')));
    await afterRun(page, () => page.click('[data-testid=lesson-time-shifting]'));
    // The lesson asks first (results hidden); shown without answering, its reveal comes into view.
    await skipLesson(page);
    assert.match(await page.textContent('[data-testid=lesson-caption]'), /Time-shifting/);
    await inView(page, '[data-testid=lesson-caption]', 'the lesson\'s caption');
    await inView(page, '[data-testid=notice]', 'the notice', { overHeader: true });
    assert.match(await page.textContent('[data-testid=notice]'), /replaced your policy/);
    await inView(page, '[data-testid=notice-action]', 'Restore my policy', { overHeader: true });
    await inView(page, '[data-testid=headline-windowCarbonG]', 'the headline carbon over the common window, the lesson\'s point');
    await viewShot(page, `${tag}-lesson`);

    // surf_week from disk: the summary of what was loaded, beside its loader.
    await page.click('.loaders summary');
    await afterRun(page, () => page.setInputFiles('[data-testid=load-topology]', surf('topology.json')));
    await afterRun(page, () => page.setInputFiles('[data-testid=load-workload]', [surf('tasks.parquet'), surf('fragments.parquet')]), 120000);
    assert.match(await page.textContent('[data-testid=summary-workload]'), /^6,295 tasks/);
    await inView(page, '[data-testid=summary-workload]', 'the workload summary');
    await inView(page, '[data-testid=msg-workload]', 'the workload loader\'s message');
    assert.equal((await metrics(page)).tasksCompleted, 6295);
    await page.waitForTimeout(200);
    await viewShot(page, `${tag}-surf`);
  };
}

/** The names a schema lists at `path` (property keys, `[]` for array items), through anyOf. */
function schemaNames(s, pathKeys) {
  if (!s || typeof s !== 'object') return [];
  const out = [...(s.anyOf || []), ...(s.oneOf || [])].flatMap((b) => schemaNames(b, pathKeys));
  if (!pathKeys.length) return out.concat(s.enum || [], 'const' in s ? [s.const] : []);
  const [k, ...rest] = pathKeys;
  return out.concat(schemaNames(k === '[]' ? s.items : s.properties?.[k], rest));
}

/** The completions the editor offers with the cursor `back` characters before the end. */
async function completions(page, text, back) {
  await setPolicy(page, text);
  for (let i = 0; i < back; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Control+Space');
  await page.waitForSelector('.cm-tooltip-autocomplete');
  const labels = await page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents();
  await page.keyboard.press('Escape');
  return labels;
}

export const LAYOUT_TESTS = [
  ...VIEWPORTS.map((vp) => [`layout ${vp[0]}x${vp[1]}: what each click produces is in view`, workbench(vp)]),

  ['layout: completion offers every filter, weigher and prefab name of the schema', async ({ page, url }) => {
    await open(page, url);
    const schema = await page.evaluate(async () => (await window.__playground.lint.call('policySchema')).value);
    const names = (p) => [...new Set(schemaNames(schema, p).map((n) => n.toLowerCase()))].sort();
    const cases = [
      ['filter', '{"type": "filter", "filters": [{"type": ""}]}', 4, ['filters', '[]', 'type']],
      ['timeshift filter', '{"type": "timeshift", "filters": [{"type": ""}]}', 4, ['filters', '[]', 'type']],
      ['weigher', '{"type": "filter", "weighers": [{"type": ""}]}', 4, ['weighers', '[]', 'type']],
      ['prefab', '{"type": "prefab", "policyName": ""}', 2, ['policyName']],
      ['prefab, no quote yet', '{"type": "prefab", "policyName": }', 1, ['policyName']],
    ];
    for (const [what, text, back, at] of cases) {
      const expected = names(at);
      assert.ok(expected.length >= (what.startsWith('prefab') ? 14 : 6), `${what}: the schema lists ${expected}`);
      const offered = await completions(page, text, back);
      assert.deepEqual([...new Set(offered.map((o) => o.toLowerCase()))].sort(), expected, `${what}: offered ${offered.join(', ')}`);
    }
    // A pick writes the name in.
    await setPolicy(page, '{"type": "filter", "weighers": [{"type": "Core"}]}');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Control+Space');
    await page.waitForSelector('.cm-tooltip-autocomplete');
    assert.deepEqual(await page.locator('.cm-tooltip-autocomplete li .cm-completionLabel').allTextContents(), ['CoreRam']);
    await page.waitForTimeout(150); // CodeMirror takes no Enter in the first moments of a list
    await page.keyboard.press('Enter');
    assert.match(await page.locator('[data-testid=policy-editor]').innerText(), /"type": "CoreRam"/);
  }],

  ['layout: the prefab pickers follow what their editors hold', async ({ page, url }) => {
    await open(page, url);
    const docs = Object.fromEntries((await page.evaluate(async () => (await window.__playground.lint.call('prefabs')).value)).map((p) => [p.name, p.doc]));
    const picked = (id) => page.inputValue(id === 'A' ? '[data-testid=prefab-picker]' : `[data-testid=prefab-select-${id}]`);
    const follows = async (id, name) => {
      const sel = id === 'A' ? '[data-testid=prefab-picker]' : `[data-testid=prefab-select-${id}]`;
      await page.waitForFunction(([s, n]) => document.querySelector(s).value === n, [sel, name]);
      if (name) assert.equal((await page.textContent(`[data-testid=prefab-doc-${id}]`)).split(' (')[0], docs[name].split(' (')[0]);
    };
    await follows('A', 'Mem');
    await afterRun(page, () => page.click('[data-testid=compare-toggle]'));
    await follows('B', 'MemInv'); // B opens on MemInv: its picker says so
    await afterRun(page, () => setPolicy(page, prefab('Timeshift'), 'B'));
    await follows('B', 'Timeshift');
    await afterRun(page, () => setPolicy(page, '{"type":"prefab","policyName":"MemInv"}', 'B'));
    await follows('B', 'MemInv');
    assert.equal(await picked('A'), 'Mem', 'A\'s picker is A\'s');
    // A policy of one's own: no prefab picked, and the panel says so; its written-out form: its name.
    await afterRun(page, () => setPolicy(page, JSON.stringify({ type: 'filter', weighers: [{ type: 'CoreRam' }] })));
    await follows('A', '');
    assert.match(await page.textContent('[data-testid=prefab-doc-A]'), /not a prefab/);
    assert.ok(await page.isDisabled('[data-testid=use-prefab]'));
    await page.selectOption('[data-testid=prefab-picker]', 'CoreMemInv');
    await afterRun(page, () => page.click('[data-testid=use-expansion-A]'));
    await follows('A', 'CoreMemInv');
    assert.match(await page.textContent('[data-testid=prefab-doc-A]'), /written out/);
  }],

  ['layout: the editor wraps lines, resizes, and says how to leave it by keyboard', async ({ page, url }) => {
    await open(page, url);
    assert.equal(await page.$eval('[data-testid=policy-editor]', (e) => e.classList.contains('cm-lineWrapping')), true);
    const long = JSON.stringify({ type: 'filter', filters: [{ type: 'VCpu', allocationRatio: 1 }, { type: 'Ram', allocationRatio: 1 }, { type: 'Compute' }], weighers: [{ type: 'CoreRam', multiplier: -1 }] });
    await afterRun(page, () => setPolicy(page, long));
    const scroller = await page.$eval('#policy-a .cm-scroller', (e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(scroller[0] <= scroller[1], `no horizontal scrolling: ${scroller}`);
    assert.equal(await page.$eval('#policy-a .editor', (e) => getComputedStyle(e).resize), 'vertical');
    const before = (await page.locator('#policy-a .editor').boundingBox()).height;
    assert.ok(before >= 240, `the editor is ${before} px high`);
    // Drag the resize corner down.
    const box = await page.locator('#policy-a .editor').boundingBox();
    await page.mouse.move(box.x + box.width - 3, box.y + box.height - 3);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 3, box.y + box.height + 80, { steps: 4 });
    await page.mouse.up();
    const after = (await page.locator('#policy-a .editor').boundingBox()).height;
    assert.ok(after > before + 40, `resized from ${before} to ${after} px`);
    assert.match(await page.textContent('#editor-hint-A'), /Esc then Tab/);
    // Tab indents inside; Escape then Tab leaves.
    await page.click('[data-testid=policy-editor]');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => [!!document.activeElement.closest('.cm-editor'), document.activeElement.dataset.testid]);
    assert.deepEqual(focused, [false, 'expand-A'], 'Escape then Tab moves to the next control');
  }],
];
