// The typed contract: the answer types generated from Rust (www/src/types/answers.d.ts) name
// every export of the built module, the page's JavaScript type-checks against them, a misspelt
// field of an answer is rejected, and a user of the package gets the same types from it.
// Run: node --test tests/node/ (after scripts/build-wasm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PKG = path.join(ROOT, 'www', 'pkg');
const TSC = path.join(ROOT, 'www', 'node_modules', 'typescript', 'bin', 'tsc');
const CHECK_JS = ['--noEmit', '--allowJs', '--checkJs', '--target', 'es2022', '--module', 'es2022',
  '--moduleResolution', 'bundler', '--lib', 'es2022,dom'];

/** Runs tsc; answers its exit status and output. */
function tsc(args, cwd = ROOT) {
  const r = spawnSync(process.execPath, [TSC, ...args], { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The names `Answers` maps to an answer type. */
function answerNames(dts) {
  const body = /export interface Answers \{([\s\S]*?)\n\}/.exec(dts)?.[1] ?? '';
  return [...body.matchAll(/^ {2}(\w+): /gm)].map((m) => m[1]);
}

test('Answers names every export of the module that answers', () => {
  const module = fs.readFileSync(path.join(PKG, 'policy_playground.d.ts'), 'utf8');
  const exported = [...module.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1]);
  const answers = answerNames(fs.readFileSync(path.join(ROOT, 'www', 'src', 'types', 'answers.d.ts'), 'utf8'));
  // `start` runs at instantiation; `lastPanic` and the format functions answer plain text and
  // `placementsFirst` a boolean: none is a tagged answer.
  const expected = exported.filter((f) => !['start', 'lastPanic', 'initSync', 'formatDuration', 'formatDurationDifference', 'axisTicks', 'placementsFirst'].includes(f)).sort();
  assert.ok(expected.length >= 30, `the module exports ${expected.length} answering functions`);
  assert.deepEqual([...answers].sort(), expected);
});

test("the page's JavaScript type-checks against the generated types", () => {
  const r = tsc(['-p', path.join('www', 'tsconfig.json')]);
  assert.equal(r.status, 0, r.out);
});

test('a misspelt field of an answer is rejected, the right one accepted', () => {
  const right = tsc([...CHECK_JS, path.join('tests', 'types', 'right-field.js')]);
  assert.equal(right.status, 0, right.out);
  const wrong = tsc([...CHECK_JS, path.join('tests', 'types', 'wrong-field.js')]);
  assert.notEqual(wrong.status, 0, 'the misspelt field type-checked');
  assert.match(wrong.out, /wrong-field\.js\(11,\d+\): error TS\d+: Property 'tasksCompletd' does not exist/);
  assert.equal(wrong.out.match(/error TS/g).length, 1, wrong.out);
});

test("a user of the package gets the answer types from it", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-types-'));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(PKG, path.join(dir, 'node_modules', 'policy-playground'), 'dir');
    const use = (field) => [
      "import { simulate } from 'policy-playground';",
      "/** @type {import('policy-playground').Answers['simulate']} */",
      "const answer = JSON.parse(simulate('{}'));",
      `export const n = answer.type === 'success' ? answer.value.metrics.${field} : answer.errors[0].end?.offset;`,
      '',
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'right.js'), use('tasksCompleted'));
    fs.writeFileSync(path.join(dir, 'wrong.js'), use('taskCompleted'));
    const right = tsc([...CHECK_JS, 'right.js'], dir);
    assert.equal(right.status, 0, right.out);
    const wrong = tsc([...CHECK_JS, 'wrong.js'], dir);
    assert.match(wrong.out, /Property 'taskCompleted' does not exist/);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('real answers of every kind conform to their declared types (strict)', async () => {
  const wasm = await import(path.join(PKG, 'policy_playground.js'));
  await wasm.default({ module_or_path: fs.readFileSync(path.join(PKG, 'policy_playground_bg.wasm')) });
  const teaching = fs.readFileSync(path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'), 'utf8');
  const timeshift = fs.readFileSync(path.join(ROOT, 'www', 'samples', 'policies', 'timeshift-stopper.json'), 'utf8');
  const cases = fs.readFileSync(path.join(ROOT, 'tests', 'conformance', 'decisions.json'), 'utf8');
  /** Each answer by export name; several per export where their shapes differ. */
  const samples = [];
  const add = (fn, text) => samples.push([fn, typeof text === 'string' ? text : JSON.stringify(text)]);
  add('check', wasm.check(timeshift));
  add('check', wasm.check('{"type": "prefab", "policyname": "Mem"}'));
  add('expand', wasm.expand(timeshift));
  for (const fn of ['prefabs', 'defaultPolicy', 'defaultOptions', 'metrics', 'policySchema', 'limits', 'newSeed']) add(fn, wasm[fn]());
  add('decide', wasm.decide(cases));
  add('simulate', wasm.simulate(teaching));
  add('simulate', wasm.simulate('{"topology": 1}'));
  const loaded = JSON.parse(wasm.loadScenario(teaching));
  add('loadScenario', loaded);
  const v = loaded.value;
  add('loadTopology', wasm.loadTopology(JSON.stringify({ clusters: [{ name: 'C', hosts: [{ name: 'h', cpu: { coreCount: 4, coreSpeed: 2000 }, memory: { memorySize: 8e9 } }] }] })));
  add('loadCarbon', wasm.loadCarbon(new TextEncoder().encode('timestamp,carbon_intensity\n2024-01-01T00:00:00Z,100\n'), 'csv'));
  const handles = JSON.stringify({ topology: v.topology.handle, workload: v.workload.handle, carbon: v.carbon.handle });
  const run = JSON.parse(wasm.run(handles, timeshift, '{"seriesResolutionMs": 0}'));
  add('run', run);
  const task = run.value.result.tasks.find((t) => t.pauses.length) ?? run.value.result.tasks[0];
  add('explain', wasm.explain(run.value.run, task.id));
  add('queueAt', wasm.queueAt(run.value.run, 3600000));
  add('exportResult', wasm.exportResult(run.value.run));
  add('exportTasksCsv', wasm.exportTasksCsv(run.value.run));
  add('exportScenario', wasm.exportScenario(handles, timeshift, '{}'));
  add('exportOpenDcExperiment', wasm.exportOpenDcExperiment(handles, timeshift, '{}'));
  add('sweepSettings', wasm.sweepSettings(timeshift));
  const sweep = wasm.sweep(handles, timeshift, '{}', '{"parameter": "/subsetSize", "values": [1, 2], "seeds": 2}');
  add('sweep', sweep);
  add('sweepCsv', wasm.sweepCsv(JSON.stringify(JSON.parse(sweep).value)));
  add('release', wasm.release(v.carbon.handle));
  // Every answer is a success but the one bad scenario, so that both branches are checked.
  const failed = samples.filter(([, text]) => JSON.parse(text).type !== 'success');
  assert.deepEqual(failed.map(([fn]) => fn), ['simulate']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-answers-'));
  try {
    const types = path.join(ROOT, 'www', 'src', 'types', 'answers').replaceAll('\\', '/');
    const body = samples.map(([fn, text], i) => `export const a${i}: Answers['${fn}'] = ${text};`);
    fs.writeFileSync(path.join(dir, 'answers.ts'), [`import type { Answers } from '${types}';`, ...body, ''].join('\n'));
    const r = tsc(['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'bundler', path.join(dir, 'answers.ts')]);
    assert.equal(r.status, 0, r.out.slice(0, 4000));
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});
