// The wasm package as a user of it gets it (www/pkg, built by scripts/build-wasm): its
// package.json, and the example of its README run as written, in Node.js, on the teaching
// sample. The figures printed must be the native CLI's (tests/output/teaching.native.json,
// written by scripts/test). Run: node --test tests/node/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const PKG = path.join(ROOT, 'www', 'pkg');

test('package.json names the version of Cargo.toml and ships what it lists', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PKG, 'package.json'), 'utf8'));
  const cargo = fs.readFileSync(path.join(ROOT, 'Cargo.toml'), 'utf8');
  const version = /\[workspace\.package\][^[]*?version = "([^"]+)"/.exec(cargo)?.[1];
  assert.equal(pkg.name, 'policy-playground');
  assert.equal(pkg.version, version);
  assert.equal(pkg.exports['.'].types, './policy_playground.d.ts');
  for (const f of pkg.files) assert.ok(fs.existsSync(path.join(PKG, f)), `the package lacks ${f}`);
});

test("the README's example runs as written and prints the native figures", () => {
  const readme = fs.readFileSync(path.join(PKG, 'README.md'), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, 'the README has a ```js example');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-package-'));
  try {
    // A project that depends on the package: node_modules/policy-playground is the built one.
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(PKG, path.join(dir, 'node_modules', 'policy-playground'), 'dir');
    fs.copyFileSync(path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'), path.join(dir, 'scenario.json'));
    fs.writeFileSync(path.join(dir, 'example.mjs'), example);
    const out = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' });
    const native = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests', 'output', 'teaching.native.json'), 'utf8'));
    const m = native.metrics;
    assert.equal(out.trim(), `${m.tasksCompleted} tasks completed, ${(m.energyJ / 3.6e6).toFixed(3)} kWh`);
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
});

test('the package answers a whole result byte for byte as the native CLI', async () => {
  const wasm = await import(path.join(PKG, 'policy_playground.js'));
  await wasm.default({ module_or_path: fs.readFileSync(path.join(PKG, 'policy_playground_bg.wasm')) });
  const scenario = fs.readFileSync(path.join(ROOT, 'www', 'samples', 'teaching', 'scenario.json'), 'utf8');
  const answer = wasm.simulate(scenario);
  const native = fs.readFileSync(path.join(ROOT, 'tests', 'output', 'teaching.native.json'), 'utf8').trim();
  assert.equal(answer, `{"type":"success","value":${native}}`);
  const bad = JSON.parse(wasm.simulate('{"topology": 1}'));
  assert.equal(bad.type, 'failure');
  assert.ok(bad.errors.length > 0);
});
