// Shared by the browser suite and the benchmark: the static server, Chromium, the native CLI
// for expected figures, and helpers that drive the page.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(ROOT, 'www', 'package.json'));
const { chromium } = require('playwright-core');

export const SHOTS = path.join(ROOT, 'tests', 'output', 'screenshots');
export const BIN = path.join(ROOT, 'target', 'release', 'policy-playground');
export const TEACHING = path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json');

/** Starts scripts/serve on a free port; resolves to {url, stop}. */
export function serve() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'serve')], {
      env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d) => {
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(String(d));
      if (m) resolve({ url: m[0], stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`scripts/serve exited with ${code}`)));
  });
}

export function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-quic', '--no-first-run', '--no-sandbox'],
  });
}

/** The teaching scenario under another policy / seed / quantum / host counts, written to a
 * temporary file; returns its path (the caller removes it). */
export function teachingScenario({ policy, seed, quantumMs, hostCounts } = {}) {
  const scenario = JSON.parse(fs.readFileSync(TEACHING, 'utf8'));
  if (policy !== undefined) scenario.policy = typeof policy === 'string' ? JSON.parse(policy) : policy;
  if (seed !== undefined) scenario.seed = seed;
  if (quantumMs !== undefined) scenario.quantumMs = quantumMs;
  if (hostCounts) {
    // A scenario file has no host groups of count 0: leave those out.
    for (const c of scenario.topology.clusters) {
      for (const hst of c.hosts) {
        const key = `${c.name}/${hst.name}`;
        if (key in hostCounts) hst.count = hostCounts[key];
      }
      c.hosts = c.hosts.filter((x) => x.count > 0);
    }
    scenario.topology.clusters = scenario.topology.clusters.filter((c) => c.hosts.length);
  }
  return tempFile(JSON.stringify(scenario));
}

/** A new temporary file holding `text`; the caller removes it. */
function tempFile(text) {
  const file = path.join(os.tmpdir(), `pp-e2e-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, text);
  return file;
}

/** The native CLI's result for the teaching scenario under another policy / seed / ... */
export function native(changes = {}) {
  const file = teachingScenario(changes);
  try {
    return JSON.parse(execFileSync(BIN, ['simulate', '--scenario', file, '--json'], { maxBuffer: 1 << 28 }));
  } finally { fs.rmSync(file, { force: true }); }
}

/** The native CLI's comparison (`compare --json`) of the teaching sample under `a` (the
 * baseline, with `changes` such as host counts) and `b`, two policy texts. */
export function nativeCompare(a, b, changes = {}) {
  const file = teachingScenario({ ...changes, policy: a });
  const with_ = tempFile(b);
  try {
    return JSON.parse(execFileSync(BIN, ['compare', '--scenario', file, '--with', with_, '--json'], { maxBuffer: 1 << 28 }));
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(with_, { force: true });
  }
}

// ---- page helpers ------------------------------------------------------------------------------

export const runs = (page) => page.$eval('[data-testid=run-status]', (e) => Number(e.dataset.runs || 0));

/** Waits for a run that finished after `before` runs. */
export async function waitRun(page, before, timeout = 60000) {
  await page.waitForFunction((n) => {
    const e = document.querySelector('[data-testid=run-status]');
    return Number(e.dataset.runs || 0) > n && e.dataset.state === 'done' && window.__playground.idle();
  }, before, { timeout });
}

export async function open(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 30000 });
  await waitRun(page, 0);
}

/** The metrics the page shows, as the raw numbers of data-value (prefix `metric-` or `metric-b-`):
 * every value cell of metrics.js, by catalog key (the stable hooks such as metric-makespan are
 * spans inside six of them; tests/e2e/hooks.mjs reads those). */
export function metrics(page, prefix = 'metric-') {
  return page.$$eval(`td[data-testid^="${prefix}"]`, (cells, p) => {
    const out = {};
    for (const c of cells) {
      const key = c.dataset.testid.slice(p.length);
      if (key.includes('-')) continue; // metric-b-* and metric-delta-*
      out[key] = c.dataset.value === 'null' ? null : Number(c.dataset.value);
    }
    return out;
  }, prefix);
}

/** Waits for `n` animation frames in the page (a draw owed or requested is made by then). */
export const frames = (page, n = 3) => page.evaluate(async (k) => {
  for (let i = 0; i < k; i++) await new Promise((r) => requestAnimationFrame(r));
}, n);

/** Scrolls the page and the desktop layout's scrolling column (`.right`) to their tops. */
export async function scrollToTop(page) {
  await page.evaluate(() => { window.scrollTo(0, 0); document.querySelector('.right').scrollTop = 0; });
  await frames(page);
}

/** Scrolls policy A's timeline panel into view and waits for the frames that draw it there. */
export async function showTimeline(page) {
  await page.evaluate(() => document.getElementById('timeline-panel').scrollIntoView({ block: 'start' }));
  await frames(page);
}

/** The testid of a policy's editor: A's is the stable hook `policy-editor`, B's `editor-B`. */
const editor = (id) => (id === 'A' ? 'policy-editor' : `editor-${id}`);

/** Replaces the text of a policy editor, as a paste would. */
export async function setPolicy(page, text, id = 'A') {
  const ed = page.locator(`[data-testid=${editor(id)}]`);
  await ed.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

export const policyText = (page, id = 'A') => page.locator(`[data-testid=${editor(id)}]`).innerText();

export async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
