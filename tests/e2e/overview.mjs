// Large clusters (issue 17, item 4): the timeline's cluster overview strip, one labelled
// heat-map row per host group (the wasm's `overview`), collapsible host groups, and the vertical
// zoom (lane height by keyboard and ctrl+wheel), on OpenDC's surf_week loaded from disk as a
// user loads it. The screenshot tests/output/screenshots/overview-surf_week.png (1440x900) is
// the README's. The browser suite registers these tests (tests/e2e/run.mjs); `node
// tests/e2e/run.mjs overview` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, SHOTS, TEACHING, open, runs, waitRun } from './lib.mjs';

const surf = (f) => path.join(ROOT, 'www', 'samples', 'surf_week', f);
const TL = '[data-testid=timeline]';

/** The `cluster/group` keys of a topology file's host groups, in file order. */
function groupKeys(topology) {
  return topology.clusters.flatMap((c) => c.hosts.map((h) => `${c.name}/${h.name}`));
}

/** Loads surf_week's topology and parquet workload from disk through the loaders. */
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
  await overviewShown(page, 277);
}

/** Waits until policy A's timeline draws the overview of a run of `hosts` hosts. */
async function overviewShown(page, hosts) {
  await page.waitForFunction((h) => {
    const t = window.__playground.timelines[0];
    return t.run && t.overviewRun === t.run && t.ov() !== null && t.model.hosts.length === h && t.canvas.dataset.overviewRows !== '';
  }, hosts, { timeout: 60000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

const rows = (page) => page.$eval(TL, (c) => JSON.parse(c.dataset.overviewRows || '[]'));
const laneHeight = (page) => page.$eval(TL, (c) => Number(c.dataset.laneHeight));
/** Where policy A's timeline lays out a group: its heading's y in the canvas, and its lanes. */
const groupLayout = (page, key) => page.evaluate((k) => {
  const t = window.__playground.timelines[0];
  const g = t.groups.find((x) => x.key === k);
  const lanes = Array.from(t.laneH.subarray(g.first, g.first + g.count));
  return { headY: t.plotTop + g.y - t.scrollY - 7, collapsed: g.collapsed, lanes, totalH: t.totalH };
}, key);

export const OVERVIEW_TESTS = [
  ['overview: one labelled heat-map row per host group (surf_week, teaching), and its table', async ({ page, url }) => {
    await loadSurf(page, url);
    // The groups as the topology file names them, and as the page's loaded summary says.
    const surfKeys = groupKeys(JSON.parse(fs.readFileSync(surf('topology.json'), 'utf8')));
    assert.deepEqual(surfKeys, ['C01/H01']);
    assert.match(await page.textContent('[data-testid=summary-topology]'), /^277 hosts: C01\/H01 × 277/);
    assert.deepEqual(await rows(page), surfKeys);
    // The table: one row per group, its figures from Rust (all 6295 tasks ran on the one group).
    await page.click(`#timeline-a [data-testid=overview-details] summary`);
    await page.waitForSelector('#timeline-a [data-testid=overview-table] tbody tr');
    const table = await page.$$eval('#timeline-a [data-testid=overview-table] tbody tr', (trs) => trs.map((tr) => ({
      group: tr.dataset.group, cells: [...tr.children].map((c) => c.textContent),
    })));
    assert.deepEqual(table.map((r) => r.group), surfKeys);
    assert.equal(table[0].cells[1], '277 × 16');
    assert.match(table[0].cells[2], /^6,295 tasks · [\d.]+ % of cores in use \(peak [\d.]+ %\) · [\d,.]+ kWh$/);
    assert.equal(table[0].cells.length, 3 + 12, 'the group, its hosts, its figures and 12 time buckets');
    for (const c of table[0].cells.slice(3)) assert.match(c, /^(<1|\d+) %$/);
    assert.match(await page.textContent('#timeline-a [data-testid=overview-table] caption'), /cores held by running tasks, per \d+ h/);
    // The group toggles name the same groups.
    assert.deepEqual(await page.$$eval('#timeline-a [data-testid=group-toggle]', (bs) => bs.map((b) => b.dataset.group)), surfKeys);

    // The teaching sample: three groups in two clusters, in the topology's order.
    const teachingKeys = groupKeys(JSON.parse(fs.readFileSync(TEACHING, 'utf8')).topology);
    assert.deepEqual(teachingKeys, ['rack-A/small', 'rack-B/large', 'rack-B/bigmem']);
    const n = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'teaching');
    await waitRun(page, n);
    await overviewShown(page, 7);
    assert.deepEqual(await rows(page), teachingKeys);
  }],

  ['overview: collapsing a host group hides its lanes and shows its summary row', async ({ page, url }) => {
    await loadSurf(page, url);
    const key = 'C01/H01';
    const toggle = page.locator(`#timeline-a [data-testid=group-toggle][data-group="${key}"]`);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    let g = await groupLayout(page, key);
    assert.equal(g.lanes.length, 277);
    assert.ok(g.lanes.every((h) => h > 0), 'every lane is drawn');
    assert.ok(g.totalH > 277 * 0.25, `lanes take ${g.totalH} px`);

    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.match(await toggle.textContent(), /^▸ C01\/H01 \(277 hosts\)$/);
    assert.equal(await page.$eval(TL, (c) => c.dataset.collapsed), key);
    g = await groupLayout(page, key);
    assert.ok(g.collapsed && g.lanes.every((h) => h === 0), 'no lane of the group is drawn');
    assert.ok(g.totalH <= 14 + 16, `one heading and one summary row: ${g.totalH} px`);
    // The summary row is a heat map: coloured pixels where the group ran tasks.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    const coloured = await page.evaluate((y) => {
      const t = window.__playground.timelines[0];
      const d = t.ctx.getImageData(0, Math.round((y + 14) * t.dpr), t.canvas.width, 1).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 2] > d[i] + 20) n++; // blue of the scale
      return n;
    }, g.headY);
    assert.ok(coloured > 200, `the summary row has ${coloured} coloured pixels`);
    // Its heading shows the group's figures: hovering it tells them.
    await page.locator(TL).hover({ position: { x: 200, y: g.headY } });
    await page.waitForSelector('#timeline-a .tooltip:not([hidden])');
    assert.match(await page.textContent('#timeline-a .tooltip'), /C01\/H01: 277 × 16 cores6,295 tasks · [\d.]+ % of cores in use/);
    await page.locator('#timeline-a').screenshot({ path: path.join(SHOTS, 'overview-surf_week-collapsed.png') });
    // A click on the group's name in the overview strip shows its lanes again.
    const rowY = await page.evaluate(() => { const t = window.__playground.timelines[0]; return t.overviewTop + 16 + t.ovRowH() / 2; });
    await page.locator(TL).click({ position: { x: 30, y: rowY } });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    g = await groupLayout(page, key);
    assert.ok(!g.collapsed && g.lanes.every((h) => h > 0));
  }],

  ['overview: vertical zoom by keyboard and ctrl+wheel changes the lane height', async ({ page, url }) => {
    await loadSurf(page, url);
    // 277 hosts fit: one thin row per host, drawn per pixel.
    const fit = await laneHeight(page);
    assert.ok(fit > 0 && fit < 2, `fitted lane height ${fit}`);
    assert.equal(await page.$eval(TL, (c) => c.dataset.laneMode), 'aggregated');
    const { total, avail } = await page.evaluate(() => {
      const t = window.__playground.timelines[0];
      return { total: t.totalH, avail: t.height - t.plotTop };
    });
    assert.ok(total <= avail, `all 277 lanes in view: ${total} of ${avail} px`);
    await page.focus(TL);
    await page.keyboard.press(']');
    const taller = await laneHeight(page);
    assert.ok(taller > fit, `] makes lanes taller: ${fit} -> ${taller}`);
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    const thinner = await laneHeight(page);
    assert.ok(thinner < fit, `[ makes them thinner: ${fit} -> ${thinner}`);
    // ctrl+wheel up: taller, step by step, to rows with every bar and the hosts' names.
    await page.locator(TL).hover({ position: { x: 700, y: 300 } });
    await page.keyboard.down('Control');
    for (let i = 0; i < 9; i++) await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    const wheeled = await laneHeight(page);
    assert.ok(wheeled >= 9, `ctrl+wheel makes lanes taller: ${thinner} -> ${wheeled}`);
    assert.equal(await page.$eval(TL, (c) => c.dataset.laneMode), 'detailed');
    assert.equal(await page.textContent('#timeline-a [data-testid=lane-height]'), `${wheeled} px`);
    // Host names are drawn now (the SVG export is the same drawing, as text).
    const svg = await page.evaluate(() => window.__playground.timelines[0].toSvg());
    assert.match(svg, />H01-\d+</, 'host names are drawn once lanes are tall enough');
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, 100);
    await page.keyboard.up('Control');
    assert.ok((await laneHeight(page)) < wheeled, 'ctrl+wheel down makes them thinner');
    // The buttons do the same.
    const before = await laneHeight(page);
    await page.click('#timeline-a [data-testid=lanes-taller]');
    assert.ok((await laneHeight(page)) > before);
  }],

  ['overview: surf_week screenshot at 1440x900', async ({ page, url }) => {
    await loadSurf(page, url);
    await page.evaluate(() => document.querySelector('#timeline-panel').scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    await page.mouse.move(0, 0);
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, 'overview-surf_week.png') });
  }],
];
