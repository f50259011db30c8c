// The lessons of the gallery (www/lessons/<id>.json, listed by www/src/gallery.js's GALLERY),
// as the tests use them, and the figures their texts state checked against the native CLI.
// Each lesson's policies A and B run on the teaching sample with the lesson's host counts, and
// every figure its intro, question and explanation state must be the simulator's, to the text's
// rounding ("about 5 %" means the change rounds to 5 %, i.e. lies in [4.5, 5.5)). Every number
// in those texts must be read by one of the checks below, so a new figure cannot go in
// unchecked. (Rust checks each lesson's own conditions, `policy-playground lesson check`, in
// crate/tests/lessons.rs; this reads the prose, including what no metric holds: which host runs
// most tasks, how many hosts there are.)
// The browser suite runs this as one of its tests (tests/e2e/run.mjs); on its own:
// Usage: node tests/e2e/lessons.mjs   (needs target/release/policy-playground)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, TEACHING, native, nativeCompare } from './lib.mjs';
import { GALLERY } from '../../www/src/gallery.js';

export const LESSON_DIR = path.join(ROOT, 'www', 'lessons');
const pretty = (v) => JSON.stringify(v, null, 2);
const paragraphs = (p) => (p == null ? [] : [].concat(p));

/** A lesson file as the tests use it: its text, policies A and B as texts, host counts, and
 * the prose that states figures. */
export function lessonFile(id) {
  const file = path.join(LESSON_DIR, `${id}.json`);
  const text = fs.readFileSync(file, 'utf8');
  const l = JSON.parse(text);
  return {
    id, file, text, title: l.title, lesson: l,
    a: pretty(l.policies[0].policy), b: l.policies[1] ? pretty(l.policies[1].policy) : null,
    hostCounts: l.options?.hostCounts ?? {},
    prose: [...paragraphs(l.intro), l.question.prompt, ...paragraphs(l.explanation)],
  };
}

/** The gallery's lessons, in its order. */
export const LESSONS = GALLERY.map(lessonFile);

const change = (a, b, key) => (100 * (b.metrics[key] - a.metrics[key])) / a.metrics[key];
const minutes = (r) => r.metrics.meanWaitMs / 60000;
const hostsNamed = (r, group) => r.hosts.filter((h) => h.name === group || h.name.startsWith(`${group}-`)).length;

/** Fails unless `actual` rounds to the `stated` whole number (`+ 0`: -0 is 0 here). */
function about(actual, stated, what) {
  assert.equal(Math.round(actual) + 0, stated, `${what}: the lesson says about ${stated}, the simulator gives ${actual.toFixed(2)}`);
}

/** The teaching topology's host group `name` (memory in MiB). */
function group(name) {
  const { topology } = JSON.parse(fs.readFileSync(TEACHING, 'utf8'));
  return topology.clusters.flatMap((c) => c.hosts).find((h) => h.name === name);
}

/** B's subsetSize stated twice (`n`), and A taking the best host. */
function subsetSizes(n, { lesson }) {
  const size = JSON.parse(lesson.b).subsetSize;
  assert.deepEqual([size, size], n, 'B\'s subsetSize (stated twice)');
  assert.equal(JSON.parse(lesson.a).subsetSize, 1, 'A takes the best host');
}

// Per lesson: the phrases of its prose that state figures, each with the check of what it says
// (`n` the numbers it states, `a` and `b` the native results of policies A and B).
const CLAIMS = {
  'spread-pack': [
    [/the (\d+) GiB bigmem host runs most tasks/, (n, { a }) => {
      assert.equal(group('bigmem').memory.memorySize / 1024, n[0], 'bigmem memory in GiB');
      const onBigmem = a.tasks.filter((t) => t.host === 'bigmem').length;
      assert.ok(onBigmem > a.tasks.length / 2, `under A bigmem runs ${onBigmem} of ${a.tasks.length} tasks`);
    }],
    [/same makespan, about (\d+) % less dynamic energy/, (n, { a, b }) => {
      assert.equal(b.metrics.makespanMs, a.metrics.makespanMs, 'same makespan');
      about(-change(a, b, 'dynamicEnergyJ'), n[0], '% less dynamic energy');
    }],
  ],
  'head-of-line': [
    [/With (\d+) small hosts and (\d+) large one/, (n, { a }) => {
      assert.deepEqual([hostsNamed(a, 'small'), hostsNamed(a, 'large'), a.hosts.length], [n[0], n[1], n[0] + n[1]], 'small, large, all hosts');
    }],
    [/mean wait drops from about (\d+) min to about (\d+) min/, (n, { a, b }) => {
      about(minutes(a), n[0], 'A\'s mean wait in min');
      about(minutes(b), n[1], 'B\'s mean wait in min');
    }],
  ],
  'subset-size': [
    [/B has subsetSize (\d+) and draws at random among the (\d+) best-ranked hosts/, subsetSizes],
    [/subsetSize (\d+) \(B\) draws at random among the (\d+) best-ranked hosts/, subsetSizes],
    [/about (\d+) % more dynamic energy/, (n, { a, b }) => about(change(a, b, 'dynamicEnergyJ'), n[0], '% more dynamic energy')],
  ],
  'time-shifting': [
    [/dynamic carbon falls about (\d+) %/, (n, { a, b }) => about(-change(a, b, 'dynamicCarbonG'), n[0], '% less dynamic carbon')],
    [/total carbon about (\d+) %, with no deadline missed/, (n, { b, compared }) => {
      const cells = compared.rows.find((r) => r.key === 'windowCarbonG').cells;
      about(-100 * (cells[1].value - cells[0].value) / cells[0].value, n[0], '% less carbon over the common window');
      assert.equal(b.metrics.deadlineMisses, 0, 'deadlines missed under B');
    }],
    [/a run (\d+) h longer/, (n, { a, b }) => about((b.metrics.makespanMs - a.metrics.makespanMs) / 3.6e6, n[0], 'hours B runs longer')],
    [/mean wait about (\d+) min instead of (\d+)/, (n, { a, b }) => {
      about(minutes(b), n[0], 'B\'s mean wait in min');
      about(minutes(a), n[1], 'A\'s mean wait in min');
    }],
  ],
};

/** Checks one lesson's prose: every stated figure, and no figure left unchecked. */
export function checkCaption(lesson) {
  const run = (policy) => native({ policy, hostCounts: lesson.hostCounts });
  const context = { lesson, a: run(lesson.a), b: run(lesson.b), compared: nativeCompare(lesson.a, lesson.b, { hostCounts: lesson.hostCounts }) };
  let text = lesson.prose.join(' ');
  for (const [pattern, check] of CLAIMS[lesson.id] ?? []) {
    const m = pattern.exec(text);
    assert.ok(m, `the lesson no longer says ${pattern}; update the check in tests/e2e/lessons.mjs`);
    check(m.slice(1).map(Number), context);
    text = text.replace(m[0], '');
  }
  const unchecked = text.match(/\d+(\.\d+)?/g);
  assert.equal(unchecked, null, `figures in the lesson that no check reads: ${unchecked}`);
}

/** Checks every lesson's prose; throws on the first wrong figure, naming its lesson. The
 * gallery lists exactly the files of www/lessons. */
export function checkCaptions() {
  const files = fs.readdirSync(LESSON_DIR).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual([...GALLERY].sort(), files, 'the gallery lists every lesson file of www/lessons');
  for (const lesson of LESSONS) {
    try { checkCaption(lesson); } catch (e) {
      e.message = `${lesson.id}: ${e.message}`;
      throw e;
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let failed = 0;
  for (const lesson of LESSONS) {
    try {
      checkCaption(lesson);
      console.log(`ok   ${lesson.id}`);
    } catch (e) {
      failed += 1;
      console.log(`FAIL ${lesson.id}: ${e.message.split('\n')[0]}`);
    }
  }
  console.log(`${LESSONS.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
