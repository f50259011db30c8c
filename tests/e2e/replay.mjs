// The replay (issue 20, item 1; www/src/replay.js): on the teaching sample, after N single
// steps (the `.` key) the queue panel, the run bars the timeline draws growing and the marked
// explanation are what the wasm's queueAt and explain give at that instant, and the events are
// the wasm's replayEvents; `,` steps back; space plays and pauses; keys typed in a field do not
// drive it; one decision at a time; a deferral under Timeshift. Screenshots:
// tests/output/screenshots/replay-*.png. The browser suite registers these tests
// (tests/e2e/run.mjs); `node tests/e2e/run.mjs replay` runs only them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { SHOTS, open, runs, waitRun, setPolicy, shot } from './lib.mjs';

const REPLAY = '[data-testid=replay]';
const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);

/** The focus on nothing (the page's body), where the replay's keys work. */
const blur = (page) => page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement)?.blur());

/** A screenshot of the viewport with the timeline panel (its replay controls and the canvas)
 * scrolled into view, beside the inspector. */
async function timelineShot(page, name) {
  await page.evaluate(() => document.getElementById('timeline-panel').scrollIntoView({ block: 'start' }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Presses `key` `n` times, each once the replay has taken the one before. */
async function press(page, key, n = 1) {
  for (let i = 0; i < n; i++) {
    const before = await page.evaluate(() => window.__playground.replay.state.pos);
    await page.keyboard.press(key);
    await page.waitForFunction((b) => {
      const s = window.__playground.replay.state;
      return s.total > 0 && s.pos !== b;
    }, before);
  }
}

/** Waits until the queue and the explanation asked for the replay's time are on screen. */
async function settled(page) {
  await page.waitForFunction(() => {
    const s = window.__playground.replay.state;
    const el = document.querySelector('[data-testid=replay]');
    return s.settled && el.dataset.queueMs === String(Math.round(s.t));
  }, null, { timeout: 30000 });
}

/** The wasm's events of policy A's run, as the page's replay holds them. */
async function wasmEvents(page) {
  return page.evaluate(async () => {
    const p = window.__playground, ref = p.state.results[0].run;
    const handle = await p.sim.runHandle(ref);
    const a = await p.sim.call('replayEvents', handle, 0, 100000);
    if (a.type !== 'success') throw new Error(JSON.stringify(a));
    const v = a.value, tasks = p.state.results[0].result.tasks, hosts = p.state.results[0].result.hosts;
    return v.timeMs.map((t, i) => ({ timeMs: t, kind: v.kinds[v.kind[i]], task: tasks[v.task[i]].id, host: v.host[i] == null ? null : hosts[v.host[i]].name }));
  });
}

/** After the replay's steps: what the page shows against what the wasm gives at its time. */
async function checkInstant(page, events) {
  await settled(page);
  const got = await page.evaluate(async () => {
    const p = window.__playground, ref = p.state.results[0].run, s = p.replay.state;
    const q = await p.sim.queueAt(ref, Math.round(s.t));
    const block = document.querySelector('[data-testid=queue-a]');
    const box = document.getElementById('explanation');
    const task = box.dataset.replayTask;
    const explained = task ? await p.sim.explain(ref, task) : null;
    const now = box.querySelector('.decision.replay-now');
    return {
      pos: s.pos, t: s.t,
      heading: block.querySelector('h4').textContent,
      listed: [...block.querySelectorAll('[data-testid=queue-list] li button')].map((b) => b.textContent),
      bars: p.timelines[0].replayRunning(),
      queue: q.type === 'success' ? q.value : null,
      task, decision: Number(box.dataset.replayDecision),
      explained: explained && explained.type === 'success' ? explained.value : null,
      marked: now ? (now.querySelector('[data-testid=placement-summary]') || now.querySelector('h4')).textContent : null,
      said: document.querySelector('[data-testid=replay-event]').textContent,
      time: document.querySelector('[data-testid=replay-time]').textContent,
    };
  });
  assert.ok(got.queue, 'queueAt answered');
  const { pos, t } = got;
  assert.equal(t, pos ? events[pos - 1].timeMs : -1, 'the replay stands at its event');
  // The queue panel: queueAt's figures and its queue in order (the first 50 listed).
  const q = got.queue;
  const waiting = q.queue.filter((e) => e.state !== 'deferred').length;
  assert.ok(got.heading.includes(`${q.running.length} running, ${waiting} waiting, ${q.queue.length - waiting} deferred`), `${got.heading} at t = ${t}`);
  assert.equal(got.listed.length, Math.min(50, q.queue.length));
  got.listed.forEach((text, k) => assert.ok(text.endsWith(`(${q.queue[k].taskId})`), `${text} is queue entry ${k}, ${q.queue[k].taskId}`));
  // The bars drawn growing are the tasks running then.
  assert.deepEqual([...got.bars].sort(), q.running.map((r) => r.taskId).sort(), `running bars at t = ${t}`);
  // The explanation: the last decision passed, marked, as explain gives it.
  let d = pos - 1;
  while (d >= 0 && !['placement', 'deferral', 'pause'].includes(events[d].kind)) d--;
  if (d < 0) return got;
  const e = events[d];
  assert.equal(got.task, e.task, `the explanation is of the last decision's task (event ${d + 1})`);
  const decision = got.explained.decisions[got.decision];
  assert.ok(decision, 'a decision is marked');
  const when = decision.kind === 'deferral' ? decision.nowMs : decision.timeMs;
  assert.equal(when, e.timeMs);
  assert.equal(decision.kind, e.kind);
  if (e.kind === 'placement') {
    assert.equal(decision.placement.chosen, e.host);
    assert.equal(got.marked, decision.placement.summary);
  }
  assert.match(got.said, new RegExp(`^event ${pos} of ${events.length}, `));
  return got;
}

export const REPLAY_TESTS = [
  ['replay: after N single steps the queue, the running bars and the explanation are queueAt and explain at that instant', async ({ page, url }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, url);
    await blur(page);
    await press(page, '.');
    const events = await wasmEvents(page);
    // Every task of the teaching sample under Mem: submitted, placed once, finished.
    assert.equal(events.length, 600);
    const held = await page.evaluate((n) => Array.from({ length: n }, (_, i) => window.__playground.replay.event(i)), events.length);
    assert.deepEqual(held, events, 'the page replays the wasm\'s events');
    assert.deepEqual(await page.evaluate(() => window.__playground.replay.state.pos), 1);
    let shown = 1;
    for (const n of [7, 40, 123]) {
      await press(page, '.', n - shown);
      shown = n;
      const got = await checkInstant(page, events);
      assert.equal(got.pos, n);
    }
    assert.ok(events.slice(0, 123).filter((e) => e.kind === 'finish').length > 0, 'the steps pass finishes too');
    await page.locator('#explanation .decision.replay-now').scrollIntoViewIfNeeded();
    await shot(page, 'replay-steps');
    await timelineShot(page, 'replay-steps-timeline');
    // Back one event with `,`.
    await press(page, ',');
    assert.equal((await checkInstant(page, events)).pos, 122);
    // The buttons do the same.
    await page.click('[data-testid=replay-next]');
    await page.waitForFunction(() => window.__playground.replay.state.pos === 123);
    await checkInstant(page, events);
    // Show the whole run: the replay ends, every bar is drawn again.
    await page.click('[data-testid=replay-stop]');
    assert.equal(await page.evaluate(() => window.__playground.view.replayMs), null);
    assert.equal(await page.getAttribute(REPLAY, 'data-active'), 'false');
  }],

  ['replay: space plays and pauses, bars grow, keys in a field are left alone, one decision at a time', async ({ page, url }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, url);
    // Labelled controls, reachable by keyboard.
    for (const name of ['Play (space)', 'Previous event (,)', 'Next event (.)', 'End the replay and show the whole run']) {
      assert.equal(await page.getByRole('button', { name, exact: true }).count(), 1, name);
    }
    const speed = page.locator('[data-testid=replay]').getByRole('combobox', { name: 'Speed', exact: true });
    assert.equal(await speed.getAttribute('data-testid'), 'replay-speed');
    await speed.focus();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'replay-next');
    assert.deepEqual(await page.$$eval('[data-testid=replay-speed] option', (o) => o.map((x) => x.textContent)),
      ['×1', '×10', '×100', '×1,000', '×10,000', 'one decision at a time']);
    await page.selectOption('[data-testid=replay-speed]', '10000');
    await blur(page);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => window.__playground.replay.state.playing);
    await page.waitForTimeout(1500);
    const mid = await page.evaluate(() => {
      const p = window.__playground, s = p.replay.state;
      return { t: s.t, bars: p.timelines[0].replayRunning().length, view: p.view.replayMs };
    });
    // ×10,000: about 10,000 simulated seconds a second (the frame steps are capped at 100 ms).
    assert.ok(mid.t > 3.6e6 && mid.t < 2e7, `t = ${mid.t}`);
    assert.equal(mid.view, mid.t);
    assert.ok(mid.bars > 0, 'tasks are running at the replay time');
    await timelineShot(page, 'replay-playing');
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !window.__playground.replay.state.playing);
    const stopped = await page.evaluate(() => window.__playground.replay.state.t);
    await page.waitForTimeout(400);
    assert.equal(await page.evaluate(() => window.__playground.replay.state.t), stopped, 'paused');
    assert.equal(await page.getAttribute('[data-testid=replay-play]', 'aria-label'), 'Play (space)');
    // Paused, the live region says where the replay stands, as the line on screen does.
    const line = await page.textContent('[data-testid=replay-event]');
    assert.match(line, /^event \d+ of 600, /);
    assert.equal(await page.textContent('[data-testid=replay-live]'), line);
    assert.equal(await page.getAttribute('[data-testid=replay-live]', 'aria-live'), 'polite');
    // Keys typed in a field (the task search) do not step or play.
    const pos = await page.evaluate(() => window.__playground.replay.state.pos);
    await page.fill('[data-testid=task-search]', '');
    await page.focus('[data-testid=task-search]');
    await page.keyboard.type('1., ');
    assert.equal(await page.inputValue('[data-testid=task-search]'), '1., ');
    const after = await page.evaluate(() => window.__playground.replay.state);
    assert.equal(after.pos, pos);
    assert.equal(after.playing, false);
    // One decision at a time: each step of the play is a placement, explained.
    await page.selectOption('[data-testid=replay-speed]', 'decision');
    await blur(page);
    await page.keyboard.press(' ');
    await page.waitForFunction((p) => window.__playground.replay.state.pos >= p + 2, pos, { timeout: 10000 });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => !window.__playground.replay.state.playing);
    const at = await page.evaluate(() => { const r = window.__playground.replay; return r.event(r.state.pos - 1); });
    assert.equal(at.kind, 'placement');
    await settled(page);
    assert.equal(await page.getAttribute('#explanation', 'data-replay-task'), at.task);
  }],

  ['replay: under Timeshift a deferral is stepped to and its test is the marked decision', async ({ page, url }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await open(page, url);
    const n = await runs(page);
    await setPolicy(page, prefab('Timeshift'));
    await waitRun(page, n);
    await blur(page);
    await press(page, '.');
    const events = await wasmEvents(page);
    const first = events.findIndex((e) => e.kind === 'deferral');
    assert.ok(first > 0, 'Timeshift defers on the teaching sample');
    await press(page, '.', first);
    const got = await checkInstant(page, events);
    assert.equal(got.pos, first + 1);
    const marked = await page.$eval('#explanation .decision.replay-now', (e) => [...e.classList]);
    assert.ok(marked.includes('deferral') && marked.includes('deferred'), marked.join(' '));
    // The carbon regime at the replay's time is shown.
    assert.match(await page.textContent('[data-testid=replay-carbon]'), /^carbon intensity [\d.]+ gCO₂\/kWh · time-shifting regime: /);
    await shot(page, 'replay-deferral');
    await timelineShot(page, 'replay-deferral-timeline');
  }],
];
