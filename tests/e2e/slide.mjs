// Exports for slides: the timeline figure (www/src/slide.js), one SVG text with a title, a
// legend, both policies' timelines stacked and a time axis in human units, and the PNG painted
// from it at 2x; and the virtualised task list (www/src/explain.js) over surf_week's thousands of
// tasks. Expected figures come from the native CLI and the page's own run data. The browser
// suite registers these tests (tests/e2e/run.mjs); `node tests/e2e/run.mjs slide` runs the
// figure's, `node tests/e2e/run.mjs "task list"` the list's. Screenshots (tests/output/screenshots):
// slide-teaching.png (the SVG as Chromium draws it), slide-teaching-2x.png (the exported PNG),
// slide-surf_week.png, task-list-surf_week.png.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, SHOTS, native, open, runs, waitRun } from './lib.mjs';

const surf = (f) => path.join(ROOT, 'www', 'samples', 'surf_week', f);

/** Turns compare mode on (policy B, the page's default second policy) and waits for the run. */
async function compare(page, timeout = 60000) {
  const n = await runs(page);
  await page.click('[data-testid=compare-toggle]');
  await waitRun(page, n, timeout);
}

/** Loads surf_week's topology and parquet workload from disk, as tests/e2e/overview.mjs does. */
async function loadSurf(page, url) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, url);
  await page.click('.loaders summary');
  let n = await runs(page);
  await page.setInputFiles('[data-testid=load-topology]', surf('topology.json'));
  await waitRun(page, n);
  n = await runs(page);
  await page.setInputFiles('[data-testid=load-workload]', [surf('tasks.parquet'), surf('fragments.parquet')]);
  await waitRun(page, n, 120000);
}

/** Clicks a download button; resolves to {name, bytes}. */
async function download(page, testid) {
  const [d] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  return { name: d.suggestedFilename(), bytes: fs.readFileSync(await d.path()) };
}

/** An SVG text opened as a data URL in a page of its own (at `scale` device pixels per px). */
async function openSvg(browser, svg, scale = 1) {
  const [, , w, h] = /viewBox="([^"]+)"/.exec(svg)[1].split(/\s+/).map(Number);
  const context = await browser.newContext({ viewport: { width: w, height: h }, deviceScaleFactor: scale });
  const viewer = await context.newPage();
  await viewer.goto(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
  return { viewer, context, w, h };
}

/** What the figure holds, read by the browser from the SVG document. */
const readFigure = (viewer) => viewer.evaluate(() => {
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  const panel = (key) => {
    const g = document.querySelector(`g[data-policy="${key}"]`);
    if (!g) return null;
    return {
      lanes: g.dataset.lanes,
      label: g.querySelector('text').textContent,
      tasks: all('g.task:not(.unplaced)', g).map((t) => t.dataset.task),
      runBars: all('g.task rect', g).filter((r) => ['#0072B2', '#CC79A7'].includes(r.getAttribute('fill'))).length,
      hostRows: all('g.host-row', g).map((r) => Number(r.dataset.hosts)),
      hostRowHeights: all('g.host-row rect', g).map((r) => Number(r.getAttribute('height'))),
      top: g.getBBox().y,
    };
  };
  return {
    title: document.querySelector('svg > title').textContent,
    titleText: document.querySelector('[data-testid=slide-title] text').textContent,
    desc: document.querySelector('svg > desc').textContent,
    mode: document.documentElement.dataset.mode,
    legend: all('[data-testid=slide-legend] .legend-entry').map((e) => ({ entry: e.dataset.entry, text: e.textContent })),
    ticks: all('[data-testid=slide-axis] g.tick').map((t) => ({ ms: Number(t.dataset.ms), label: t.textContent })),
    axisTitle: document.querySelector('[data-testid=slide-axis] > text').textContent,
    A: panel('A'), B: panel('B'),
  };
});

/** The share of pixels of two same-sized PNGs (bytes) that differ by more than 64 in a channel,
 * and how many of the first are coloured (not grey): compared in a blank page's canvases. */
async function comparePngs(browser, a, b) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async ([x, y]) => {
      const load = (b64) => new Promise((resolve, reject) => {
        const img = new Image();
        img.onload = () => resolve(img);
        img.onerror = reject;
        img.src = `data:image/png;base64,${b64}`;
      });
      const [ia, ib] = await Promise.all([load(x), load(y)]);
      const data = (img) => {
        const c = document.createElement('canvas');
        c.width = img.width; c.height = img.height;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, c.width, c.height).data;
      };
      const da = data(ia), db = data(ib);
      let differ = 0, coloured = 0;
      for (let i = 0; i < da.length; i += 4) {
        if (Math.abs(da[i] - db[i]) > 64 || Math.abs(da[i + 1] - db[i + 1]) > 64 || Math.abs(da[i + 2] - db[i + 2]) > 64) differ++;
        if (Math.max(da[i], da[i + 1], da[i + 2]) - Math.min(da[i], da[i + 1], da[i + 2]) > 60) coloured++;
      }
      return { size: [ia.width, ia.height, ib.width, ib.height], differ: differ / (da.length / 4), coloured };
    }, [a.toString('base64'), b.toString('base64')]);
  } finally { await page.close(); }
}

const placed = (tasks) => tasks.filter((t) => t.runs.length > 0);
const prefabName = (text) => JSON.parse(text).policyName;
/** A tick label in human units: `0 s`, `12 h`, `1 d 12 h`, `13 h 30 min`; never a count of ms. */
const HUMAN = /^\d+(\.\d)? (s|min|h|d)( \d+ (s|min|h))?$/;
const DAY = 86400000;

export const SLIDE_TESTS = [
  ['slide: the figure of A and B on teaching, as SVG and as a 2x PNG painted from it', async ({ page, url, browser }) => {
    await open(page, url);
    await compare(page);
    const names = (await page.evaluate(() => [window.__playground.state.policy, window.__playground.state.policyB])).map(prefabName);
    assert.deepEqual(names, ['Mem', 'MemInv'], 'the page compares Mem with MemInv by default');
    // The expected tasks from the native CLI, under each policy; the page ran the same.
    const expected = names.map((n) => native({ policy: { type: 'prefab', policyName: n } }));
    const pageTasks = await page.evaluate(() => window.__playground.state.results.map((r) => r.result.tasks.map((t) => ({ id: t.id, runs: t.runs.length }))));
    for (const [i, e] of expected.entries()) {
      assert.deepEqual(pageTasks[i], e.tasks.map((t) => ({ id: t.id, runs: t.runs.length })), `the page's run ${i ? 'B' : 'A'} is the CLI's`);
    }

    assert.equal(await page.inputValue('[data-testid=figure-range]'), 'whole');
    const svgFile = await download(page, 'export-figure-svg');
    assert.equal(svgFile.name, 'timeline-teaching-Mem-vs-MemInv.svg');
    const svg = svgFile.bytes.toString('utf8');
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const { viewer, context, w, h } = await openSvg(browser, svg);
    try {
      const fig = await readFigure(viewer);
      // The title names the sample and both policies; the text alternative says what is shown.
      assert.equal(fig.title, 'teaching — A: Mem vs B: MemInv');
      assert.equal(fig.titleText, fig.title);
      assert.match(fig.desc, /A \(Mem\) and B \(MemInv\)/);
      assert.equal(fig.mode, 'whole');
      // The legend: what A and B are (Rust's one-line descriptions), and the timeline's colours.
      const entries = fig.legend.map((e) => e.entry);
      for (const e of ['policy-A', 'policy-B', 'running', 'missed', 'queued', 'deferred', 'paused', 'terminated', 'carbon']) {
        assert.ok(entries.includes(e), `legend entry ${e} in ${entries}`);
      }
      assert.match(fig.legend.find((e) => e.entry === 'policy-A').text, /^A: Mem — filter: filters \[/);
      assert.match(fig.legend.find((e) => e.entry === 'policy-B').text, /^B: MemInv — filter: filters \[/);
      // Both timelines, A above B, each labelled, each with one group of bars per placed task
      // of its run and one run bar per run span.
      for (const [i, key] of ['A', 'B'].entries()) {
        const p = fig[key];
        assert.ok(p, `g[data-policy=${key}] is in the figure`);
        assert.equal(p.lanes, 'detailed', 'seven hosts: one lane per host');
        assert.equal(p.label, `${key}: ${names[i]}`);
        const want = placed(expected[i].tasks);
        assert.equal(p.tasks.length, want.length, `${key}: task bars`);
        assert.deepEqual([...p.tasks].sort(), want.map((t) => t.id).sort(), `${key}: the placed tasks' ids`);
        assert.equal(p.runBars, want.reduce((n, t) => n + t.runs.length, 0), `${key}: one run bar per run span`);
      }
      assert.ok(fig.A.top < fig.B.top, 'A is above B');
      // The axis: ticks in human units over the whole run, days on whole-day ticks.
      assert.ok(fig.ticks.length >= 4, `${fig.ticks.length} ticks`);
      assert.equal(fig.ticks[0].ms, 0);
      const makespan = Math.max(...expected.map((e) => e.metrics.makespanMs));
      assert.ok(fig.ticks.at(-1).ms <= makespan && fig.ticks.at(-1).ms > makespan / 2, 'the ticks cover the run');
      for (const t of fig.ticks) {
        assert.match(t.label, HUMAN, `tick at ${t.ms} ms`);
        assert.doesNotMatch(t.label, /ms/);
        if (t.ms > 0 && t.ms % DAY === 0) assert.equal(t.label, `${t.ms / DAY} d`);
      }
      assert.ok(fig.ticks.some((t) => t.ms === DAY), 'a tick at one day');
      assert.match(fig.axisTitle, /^time since the first submission \(\d\d-\d\d \d\d:\d\d UTC\)$/);
      await viewer.screenshot({ path: path.join(SHOTS, 'slide-teaching.png') });
    } finally { await context.close(); }

    // The PNG: 2x the SVG's viewBox, and the same picture as Chromium's own drawing of the SVG.
    const png = await download(page, 'export-figure-png');
    assert.equal(png.name, 'timeline-teaching-Mem-vs-MemInv.png');
    assert.deepEqual([...png.bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
    assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [2 * w, 2 * h], 'the PNG is the viewBox at 2x');
    fs.writeFileSync(path.join(SHOTS, 'slide-teaching-2x.png'), png.bytes);
    const drawn = await openSvg(browser, svg, 2);
    const reference = await drawn.viewer.screenshot();
    await drawn.context.close();
    const diff = await comparePngs(browser, png.bytes, reference);
    assert.deepEqual(diff.size, [2 * w, 2 * h, 2 * w, 2 * h]);
    assert.ok(diff.coloured > 20000, `the PNG has bars: ${diff.coloured} coloured pixels`);
    assert.ok(diff.differ < 0.01, `the PNG is the SVG: ${(diff.differ * 100).toFixed(2)} % of pixels differ`);
  }],

  ['slide: the visible range is the zoomed window, with the tasks in it', async ({ page, url, browser }) => {
    await open(page, url);
    await compare(page);
    const [t0, t1] = [10 * 3600000, 14 * 3600000];
    await page.evaluate(([a, b]) => window.__playground.view.set(a, b), [t0, t1]);
    await page.selectOption('[data-testid=figure-range]', 'visible');
    const file = await download(page, 'export-figure-svg');
    assert.equal(file.name, 'timeline-teaching-Mem-vs-MemInv-visible.svg');
    const svg = file.bytes.toString('utf8');
    const results = await page.evaluate(() => window.__playground.state.results.map((r) => r.result.tasks));
    const { viewer, context } = await openSvg(browser, svg);
    try {
      const fig = await readFigure(viewer);
      assert.equal(fig.mode, 'visible');
      // A task is drawn when its bars (its wait from submission to its last run's end) overlap the
      // window (a bar that ends where the window starts has no width in it).
      for (const [i, key] of ['A', 'B'].entries()) {
        const want = placed(results[i]).filter((t) => t.submitMs < t1 && t.runs.at(-1).toMs > t0).map((t) => t.id).sort();
        assert.ok(want.length > 0 && want.length < results[i].length, `${key}: ${want.length} tasks in the window`);
        const got = [...fig[key].tasks].sort();
        assert.deepEqual(got, want, `${key}: the tasks in the window; extra ${got.filter((x) => !want.includes(x))}, missing ${want.filter((x) => !got.includes(x))}`);
      }
      assert.ok(fig.ticks.every((t) => t.ms >= t0 && t.ms <= t1), 'ticks inside the window');
      for (const t of fig.ticks) assert.match(t.label, HUMAN);
      assert.ok(fig.ticks.some((t) => t.label === '12 h'), `hours on the axis: ${fig.ticks.map((t) => t.label)}`);
    } finally { await context.close(); }
  }],

  ['slide: surf_week\'s whole cluster draws rows of hosts, not 277 thin lanes', async ({ page, url, browser }) => {
    await loadSurf(page, url);
    await compare(page, 120000);
    const hosts = await page.evaluate(() => window.__playground.state.results.map((r) => r.result.hosts.length));
    assert.deepEqual(hosts, [277, 277]);
    const file = await download(page, 'export-figure-svg');
    assert.match(file.name, /^timeline-.+-Mem-vs-MemInv\.svg$/);
    const svg = file.bytes.toString('utf8');
    const { viewer, context, h } = await openSvg(browser, svg);
    try {
      const fig = await readFigure(viewer);
      assert.ok(fig.legend.some((e) => e.entry === 'heat'), 'the legend has the share-of-cores scale');
      for (const key of ['A', 'B']) {
        const p = fig[key];
        assert.equal(p.lanes, 'aggregated');
        assert.equal(p.tasks.length, 0, 'no per-task bars');
        assert.equal(p.hostRows.reduce((a, b) => a + b, 0), 277, `${key}: every host in a row`);
        assert.ok(p.hostRows.length >= 20 && p.hostRows.length < 277, `${key}: ${p.hostRows.length} rows of hosts`);
        assert.ok(p.hostRowHeights.every((x) => x >= 3), `${key}: rows at least 3 px tall`);
      }
      assert.ok(h <= 900, `the figure fits a slide: ${h} px tall`);
      await viewer.screenshot({ path: path.join(SHOTS, 'slide-surf_week.png') });
    } finally { await context.close(); }
  }],

  ['task list: virtualised over surf_week\'s tasks of A and B, End reaches the last, search narrows', async ({ page, url }) => {
    await loadSurf(page, url);
    await compare(page, 120000);
    const ids = await page.evaluate(() => window.__playground.state.results.map((r) => r.result.tasks.map((t) => ({ id: t.id, name: t.name }))));
    const total = ids[0].length + ids[1].length;
    assert.equal(ids[0].length, 6295);
    const list = '[data-testid=task-list]';
    assert.equal(await page.getAttribute(list, 'data-matches'), String(total));
    assert.equal(await page.textContent('[data-testid=task-count]'), `${total} matches (A ${ids[0].length}, B ${ids[1].length})`);
    const inDom = () => page.$$eval('[data-testid=task-list-item]', (b) => b.length);
    assert.ok((await inDom()) < 60, `only the rows in view are in the DOM: ${await inDom()} of ${total}`);
    const items = () => page.$$eval(`${list} li`, (lis) => lis.map((li) => ({
      set: li.getAttribute('aria-setsize'), pos: Number(li.getAttribute('aria-posinset')), policy: li.firstElementChild.dataset.policy, id: li.firstElementChild.dataset.task,
    })));
    const first = await items();
    assert.ok(first.every((x) => x.set === String(total)), 'every item knows the total');
    assert.deepEqual(first.slice(0, 2).map((x) => [x.pos, x.policy, x.id]), [[1, 'A', ids[0][0].id], [2, 'A', ids[0][1].id]]);
    const focused = () => page.evaluate(() => {
      const e = document.activeElement;
      return e?.dataset.testid === 'task-list-item' ? { policy: e.dataset.policy, id: e.dataset.task, pos: Number(e.parentElement.getAttribute('aria-posinset')) } : null;
    });
    // Into the list by Tab, then End: the last task of B's run, scrolled into view.
    await page.focus('[data-testid=task-search]');
    await page.keyboard.press('Tab');
    assert.deepEqual(await focused(), { policy: 'A', id: ids[0][0].id, pos: 1 });
    await page.keyboard.press('End');
    assert.deepEqual(await focused(), { policy: 'B', id: ids[1].at(-1).id, pos: total });
    const visible = () => page.evaluate(() => {
      const box = document.querySelector('[data-testid=task-scroll]').getBoundingClientRect();
      const r = document.activeElement.getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    });
    assert.ok(await visible(), 'the last task is scrolled into view');
    await page.evaluate(() => document.querySelector('#task-finder').scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(SHOTS, 'task-list-surf_week.png') });
    assert.ok((await inDom()) < 60, 'still only the rows in view');
    assert.equal(await page.$$eval('[data-testid=task-list-item][tabindex="0"]', (b) => b.length), 1);
    // Page Up moves by a page, Home back to the first; one Tab leaves the list, Shift+Tab returns.
    await page.keyboard.press('PageUp');
    const up = await focused();
    assert.ok(up.pos < total - 3 && up.pos > total - 30, `Page Up moves a page: to ${up.pos}`);
    assert.ok(await visible());
    await page.keyboard.press('ArrowUp');
    assert.equal((await focused()).pos, up.pos - 1);
    await page.keyboard.press('Home');
    assert.deepEqual(await focused(), { policy: 'A', id: ids[0][0].id, pos: 1 });
    await page.keyboard.press('PageDown');
    const down = (await focused()).pos;
    assert.ok(down > 3, `Page Down moves a page: to ${down}`);
    await page.keyboard.press('Tab');
    assert.equal(await focused(), null, 'one Tab leaves the list');
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focused()).pos, down, 'Shift+Tab comes back to the task last focused');
    // Scrolling by wheel keeps the Tab stop in the DOM.
    await page.locator('[data-testid=task-scroll]').hover();
    await page.mouse.wheel(0, 4000);
    await page.waitForFunction(() => document.querySelector('[data-testid=task-scroll]').scrollTop > 2000);
    assert.equal(await page.$$eval('[data-testid=task-list-item][tabindex="0"]', (b) => b.length), 1);
    assert.ok((await inDom()) < 80);
    // Search narrows over both policies, by id or name; every match is listed.
    const q = ids[1].at(-1).id.slice(0, -1);
    const want = [...ids[0].map((t) => ['A', t]), ...ids[1].map((t) => ['B', t])]
      .filter(([, t]) => t.id.toLowerCase().includes(q.toLowerCase()) || t.name.toLowerCase().includes(q.toLowerCase()));
    assert.ok(want.length >= 2 && want.length < 60, `${want.length} tasks match ${q}`);
    await page.fill('[data-testid=task-search]', q);
    assert.equal(await page.getAttribute(list, 'data-matches'), String(want.length));
    const listed = await items();
    assert.deepEqual(listed.map((x) => [x.policy, x.id]), want.map(([p, t]) => [p, t.id]));
    assert.ok(listed.every((x, i) => x.set === String(want.length) && x.pos === i + 1));
    const labels = await page.$$eval('[data-testid=task-list-item]', (b) => b.map((x) => x.textContent.slice(0, 4)));
    assert.ok(labels.every((l) => l === 'A · ' || l === 'B · '), 'each item is labelled with its policy');
  }],
];
