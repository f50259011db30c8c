// The binary run (www/src/columns.js, the wasm's runBinaryWithProgress): the page's runs cross
// from the worker as typed arrays. What the page draws from them must be what the JSON result
// gives: every task's and host's record read from the columns equals the JSON result's (the
// download, itself the native CLI's), and the timeline's bars (laid out in Rust) equal the bars
// the page built from the JSON result before (the reference below is that code, kept here).
import assert from 'node:assert/strict';
import { open, runs, waitRun, setPolicy, native, frames, scrollToTop, showTimeline } from './lib.mjs';

const TIMESHIFT = JSON.stringify({
  type: 'timeshift', windowSize: 24, forecast: false, shortForecastThreshold: 0.2,
  longForecastThreshold: 0.35, taskStopper: { windowSize: 24, forecast: false, forecastThreshold: 0.6 },
}, null, 2);

/** In the page: the JSON result of run A (exportResult) and its records and bars from the
 * columns, with the bars the JSON result gives by the page's former buildModel. */
async function compareInPage(page) {
  return page.evaluate(async () => {
    const p = window.__playground, r = p.state.results[0];
    const answer = await p.sim.resultJson(r.run);
    if (answer.type !== 'success') return { error: JSON.stringify(answer.errors) };
    const json = JSON.parse(answer.value);
    // The page's timeline model before the columns (www/src/timeline.js, buildModel), on the JSON.
    const reference = (result) => {
      const WAIT = 0, DEFER = 1, PAUSE = 2, RUN = 3, TERM = 4;
      const hosts = result.hosts, tasks = result.tasks;
      const laneOf = new Map(hosts.map((h, i) => [h.name, i]));
      const unplaced = hosts.length;
      const bars = { from: [], to: [], lane: [], kind: [], task: [] };
      const push = (kind, lane, from, to, task) => {
        bars.from.push(from); bars.to.push(Math.max(to, from)); bars.lane.push(lane); bars.kind.push(kind); bars.task.push(task);
      };
      let anyUnplaced = false;
      const missed = [];
      for (let ti = 0; ti < tasks.length; ti++) {
        const t = tasks[ti];
        missed.push(t.state === 'completed' && t.deadlineMs != null && t.finishMs > t.deadlineMs ? 1 : 0);
        if (!t.runs.length) { anyUnplaced = true; push(TERM, unplaced, t.submitMs, t.finishMs, ti); continue; }
        const laneBefore = (ms) => {
          for (const x of t.runs) if (x.fromMs >= ms) return laneOf.get(x.host) ?? unplaced;
          return laneOf.get(t.runs[t.runs.length - 1].host) ?? unplaced;
        };
        let pre = t.submitMs;
        for (const x of t.runs) {
          const lane = laneOf.get(x.host) ?? unplaced;
          if (pre < x.fromMs) push(WAIT, lane, pre, x.fromMs, ti);
          push(RUN, lane, x.fromMs, x.toMs, ti);
          pre = x.toMs;
        }
        for (const d of t.deferrals) push(DEFER, laneBefore(d.toMs), d.fromMs, d.toMs, ti);
        for (const q of t.pauses) push(PAUSE, laneBefore(q.toMs), q.fromMs, q.toMs, ti);
        if (t.state === 'terminated') push(TERM, laneOf.get(t.runs[t.runs.length - 1].host) ?? unplaced, t.finishMs, t.finishMs, ti);
      }
      const lanes = hosts.length + (anyUnplaced ? 1 : 0);
      const n = bars.from.length;
      const extent = new Map();
      for (let i = 0; i < n; i++) {
        const key = bars.task[i] * lanes + bars.lane[i];
        const e = extent.get(key);
        if (!e) extent.set(key, [bars.from[i], bars.to[i]]);
        else { if (bars.from[i] < e[0]) e[0] = bars.from[i]; if (bars.to[i] > e[1]) e[1] = bars.to[i]; }
      }
      const items = [...extent].map(([key, [from, to]]) => ({ key, lane: key % lanes, from, to }));
      items.sort((a, b) => a.lane - b.lane || a.from - b.from);
      const rowOf = new Map();
      const laneRows = new Array(lanes).fill(1);
      let ends = [], current = -1;
      for (const it of items) {
        if (it.lane !== current) { ends = []; current = it.lane; }
        let k = 0;
        while (k < ends.length && ends[k] > it.from) k++;
        ends[k] = it.to;
        rowOf.set(it.key, k);
        if (k + 1 > laneRows[it.lane]) laneRows[it.lane] = k + 1;
      }
      const order = Array.from({ length: n }, (_, i) => i);
      order.sort((a, b) => bars.lane[a] - bars.lane[b] || bars.from[a] - bars.from[b] || bars.kind[a] - bars.kind[b]);
      return {
        lanes, laneRows, missed,
        bars: order.map((i) => [bars.lane[i], rowOf.get(bars.task[i] * lanes + bars.lane[i]) || 0, bars.kind[i], bars.task[i], bars.from[i], bars.to[i]]),
      };
    };
    const want = reference(json);
    const m = p.timelines[0].model;
    const got = {
      lanes: m.lanes, laneRows: [...m.laneRows], missed: [...m.missed],
      bars: Array.from({ length: m.n }, (_, j) => [m.lane[j], m.row[j], m.kind[j], m.task[j], m.from[j], m.to[j]]),
    };
    const kinds = [0, 0, 0, 0, 0];
    for (const b of want.bars) kinds[b[2]]++;
    // The step series as columns and as the JSON's [[timeMs, value]] points; the power strip's
    // table as drawn.
    const steps = {}, jsonSteps = {};
    for (const [key, at] of [['powerW', 'powerAtMs'], ['runningTasks', 'runningAtMs'], ['queuedTasks', 'queuedAtMs'], ['deferredTasks', 'deferredAtMs']]) {
      const t = r.steps[at], v = r.steps[key];
      steps[key] = { typed: t instanceof Float64Array && v instanceof Float64Array, points: Array.from(t, (x, k) => [x, v[k]]) };
      jsonSteps[key] = json.series[key];
    }
    const powerRows = [...document.querySelectorAll('[data-testid=chart-strip-powerW-table] tbody tr')]
      .map((tr) => tr.querySelector('td')?.textContent);
    return {
      steps, jsonSteps, powerRows,
      json: answer.value, tasks: r.data.tasks, hosts: r.data.hosts, jsonTasks: json.tasks, jsonHosts: json.hosts,
      want, got, kinds, typed: r.data.c.submitMs instanceof Float64Array && m.from instanceof Float64Array,
    };
  });
}

async function check(page, label) {
  const c = await compareInPage(page);
  assert.equal(c.error, undefined, c.error);
  assert.ok(c.typed, `${label}: the columns are typed arrays`);
  assert.equal(c.tasks.length, c.jsonTasks.length, `${label}: tasks`);
  for (let i = 0; i < c.tasks.length; i++) assert.deepStrictEqual(c.tasks[i], c.jsonTasks[i], `${label}: task ${i}`);
  assert.deepStrictEqual(c.hosts, c.jsonHosts, `${label}: hosts`);
  assert.deepStrictEqual(c.got.lanes, c.want.lanes, `${label}: lanes`);
  assert.deepStrictEqual(c.got.laneRows, c.want.laneRows, `${label}: rows per lane`);
  assert.deepStrictEqual(c.got.missed, c.want.missed, `${label}: missed deadlines`);
  assert.equal(c.got.bars.length, c.want.bars.length, `${label}: bars`);
  for (let j = 0; j < c.got.bars.length; j++) assert.deepStrictEqual(c.got.bars[j], c.want.bars[j], `${label}: bar ${j}`);
  for (const [key, s] of Object.entries(c.steps)) {
    assert.ok(s.typed, `${label}: ${key} crosses as typed arrays`);
    assert.ok(s.points.length > 0, `${label}: ${key} has change points`);
    assert.deepStrictEqual(s.points, c.jsonSteps[key], `${label}: ${key}`);
  }
  // Each value of the power strip's table is a value the JSON's power series takes, in kW (the
  // strip reads the columns, not the JSON).
  const shown = new Set(c.jsonSteps.powerW.map(([, w]) => (+(w * 1e-3).toPrecision(4)).toLocaleString('en-US')));
  assert.ok(c.powerRows.length >= 3, `${label}: the power strip's table has rows`);
  for (const v of c.powerRows) assert.ok(v === '—' || shown.has(v), `${label}: power strip value ${v} is one of the series'`);
  assert.ok(c.powerRows.some((v) => v !== '—' && v !== '0'), `${label}: the power strip shows power`);
  return c;
}

export const BINARY_TESTS = [
  ['a timeline out of view is drawn when it scrolls in or is exported, not by each run; the strips\' tables follow every run (onscreen.js)', async ({ page, url }) => {
    await page.setViewportSize({ width: 1400, height: 600 });
    await open(page, url);
    await scrollToTop(page);
    const seen = () => page.evaluate(() => {
      const tl = window.__playground.timelines[0], box = tl.canvas.getBoundingClientRect();
      return { frames: tl.frames, top: box.top, power: document.querySelector('[data-testid=chart-strip-powerW-table] tbody').textContent,
        energy: window.__playground.state.results[0].result.metrics.energyJ };
    });
    const before = await seen();
    assert.ok(before.top > 600 + 200, `the timeline starts below the viewport and its margin: ${before.top} px`);
    const n = await runs(page);
    await setPolicy(page, JSON.stringify({ type: 'prefab', policyName: 'MemInv' }, null, 2));
    await waitRun(page, n);
    await frames(page);
    const after = await seen();
    assert.notEqual(after.energy, before.energy, 'MemInv uses other hosts than Mem');
    assert.equal(after.frames, before.frames, 'the timeline out of view was not redrawn');
    assert.notEqual(after.power, before.power, 'the power strip\'s table follows the run out of view');
    await showTimeline(page);
    const shown = await seen();
    assert.ok(shown.top < 600, `the timeline is in view: ${shown.top} px`);
    assert.ok(shown.frames > after.frames, 'drawn on scrolling in');
    // In view, the next run redraws it at once.
    let m = await runs(page);
    await page.evaluate((t) => window.__playground.setPolicy(t), JSON.stringify({ type: 'prefab', policyName: 'Mem' }, null, 2));
    await waitRun(page, m);
    await frames(page);
    const again = await seen();
    assert.ok(again.frames > shown.frames, 'in view, a run redraws the timeline');
    // Out of view again, the timeline view's PNG (which reads the canvas) makes the draw owed first.
    await scrollToTop(page);
    m = await runs(page);
    await setPolicy(page, JSON.stringify({ type: 'prefab', policyName: 'MemInv' }, null, 2));
    await waitRun(page, m);
    await frames(page);
    const owed = await seen();
    assert.equal(owed.frames, again.frames, 'out of view again: not redrawn');
    const exported = await page.evaluate(() => {
      const tl = window.__playground.timelines[0], at = tl.frames;
      /** @type {HTMLElement} */ (document.querySelector('[data-testid=export-png]')).click();
      return tl.frames - at;
    });
    assert.equal(exported, 1, 'the export drew the timeline once before reading it');
    // Within 200 px below the scrolling column's edge it counts as shown: drawn before it
    // scrolls in; 400 px below, not.
    for (const [below, drawn] of [[100, true], [400, false]]) {
      await page.evaluate((b) => {
        const col = document.querySelector('.right'), canvas = window.__playground.timelines[0].canvas;
        col.scrollTop += canvas.getBoundingClientRect().top - col.getBoundingClientRect().bottom - b;
      }, below);
      await frames(page);
      const at = await seen();
      const n2 = await runs(page);
      await page.evaluate((t) => window.__playground.setPolicy(t), JSON.stringify({ type: 'prefab', policyName: drawn ? 'Mem' : 'MemInv' }, null, 2));
      await waitRun(page, n2);
      await frames(page);
      const got = await seen();
      assert.ok(got.top > 600, `${below} px below: out of the viewport (${got.top} px)`);
      assert.equal(got.frames > at.frames, drawn, `${below} px below the column's edge: ${drawn ? '' : 'not '}drawn`);
    }
  }],
  ['the binary run draws what the JSON result gives: records and bars (teaching, Mem and time-shifting)', async ({ page, url }) => {
    await open(page, url);
    const mem = await check(page, 'teaching under Mem');
    // The JSON the page downloads is the native CLI's, byte for byte but the version.
    const cli = native();
    const strip = (r) => ({ ...r, provenance: { ...r.provenance, version: '' } });
    assert.deepStrictEqual(strip(JSON.parse(mem.json)), strip(cli));
    const before = await runs(page);
    await setPolicy(page, TIMESHIFT);
    await waitRun(page, before);
    const ts = await check(page, 'teaching under time-shifting with the task stopper');
    assert.ok(ts.kinds[1] > 0 && ts.kinds[2] > 0, `deferrals and pauses drawn: ${ts.kinds}`);
  }],
  ['the binary run draws what the JSON result gives on surf_week', async ({ page, url }) => {
    await open(page, url);
    const before = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, before, 120000);
    const c = await check(page, 'surf_week under Mem');
    assert.equal(c.tasks.length, 6295);
  }],
  ['on surf_week an edit draws the placements first, and they are the full run\'s (runPlacements)', async ({ page, url }) => {
    await open(page, url);
    // The teaching sample (a few thousand fragments) is not run twice: no placements first.
    const teaching = await page.evaluate(async (policy) => {
      const p = window.__playground;
      if (p.drawsPlacementsFirst()) return 'Rust says the teaching sample draws placements first';
      let placed = false;
      p.nextPlacements().then(() => { placed = true; });
      const results = p.nextResults();
      p.setPolicy(policy);
      await results;
      await new Promise((r) => setTimeout(r, 50));
      return placed;
    }, JSON.stringify({ type: 'prefab', policyName: 'MemInv' }, null, 2));
    assert.equal(teaching, false, 'the teaching sample drew no placements first');
    const before = await runs(page);
    await page.selectOption('[data-testid=sample-picker]', 'surf_week');
    await waitRun(page, before, 120000);
    assert.ok(await page.evaluate(() => window.__playground.drawsPlacementsFirst()), 'surf_week draws placements first');
    const got = await page.evaluate(async (policy) => {
      const p = window.__playground, tl = p.timelines[0];
      const copy = (m) => ({ n: m.n, lanes: m.lanes, endMs: m.endMs, tasks: m.data.tasks,
        bars: ['from', 'to', 'lane', 'row', 'kind', 'task'].map((k) => Array.from(m[k])) });
      // A task selected on the timeline while the placements are shown (as a click does) is
      // explained once the run is in.
      const placed = p.nextPlacements().then(() => {
        const seen = {
          model: copy(tl.model), stale: document.getElementById('results').classList.contains('stale'),
          status: document.querySelector('[data-testid=run-status]').textContent,
        };
        const id = tl.model.data.taskId(tl.model.task[0]);
        tl.onSelect(id);
        return { ...seen, picked: id, note: document.getElementById('explain-note').textContent };
      });
      const mem = copy(tl.model);
      const results = p.nextResults();
      p.setPolicy(policy);
      const first = await placed;
      await results;
      // The explanation asked for by showResults for the task picked meanwhile.
      const explained = await new Promise((resolve) => {
        const t0 = performance.now();
        const poll = () => {
          const head = document.querySelector('#explanation .explain-head small');
          if (head || performance.now() - t0 > 10000) resolve(head ? head.textContent : null);
          else setTimeout(poll, 20);
        };
        poll();
      });
      const changed = mem.bars.some((col, k) => col.some((v, j) => v !== first.model.bars[k][j]));
      return { first, changed, explained, full: copy(tl.model), hostEnergy: Array.from(tl.model.data.c.hostEnergyJ.slice(0, 3)) };
    }, JSON.stringify({ type: 'prefab', policyName: 'Random' }, null, 2));
    assert.ok(got.first.stale, 'the figures are marked as not yet updated while the placements are shown');
    assert.match(got.first.note, /explained once the run is in/);
    assert.equal(got.explained, `id ${got.first.picked}`, 'the task picked during the placements is explained once the run is in');
    assert.match(got.first.status, /placements drawn/);
    assert.equal(got.first.model.tasks.length, 6295);
    assert.equal(got.first.model.n, got.full.n, 'bars');
    assert.deepStrictEqual(got.first.model.bars, got.full.bars, 'the placements\' bars are the full run\'s');
    assert.deepStrictEqual(got.first.model.tasks, got.full.tasks, 'task records');
    assert.equal(got.first.model.endMs, got.full.endMs, 'makespan');
    assert.ok(got.hostEnergy.every((e) => e > 0), `the full run's host figures replace the placements': ${got.hostEnergy}`);
    assert.ok(got.changed, 'Random places differently from Mem on surf_week (the deterministic prefabs all place alike there): the placements drawn follow the edit');
  }],
];
