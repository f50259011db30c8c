// surf_week through the wasm package in Node, as `policy-playground bench` runs it for
// `wasmNativeRatio`: load the package from www/pkg with initSync, then time (medians) the load
// step (parquet workload, topology, carbon into handles), a run under Mem, and a re-run through
// the same handles after a policy change. Prints one JSON object {loadMs, runMs, rerunMs, ...,
// memoryBytes}, memoryBytes the wasm linear memory after the runs (it only grows).
// Usage: [DIR=folder] node tests/bench/wasm-surf-week.mjs [repetitions]
// With DIR, tasks.parquet and fragments.parquet come from that folder (the bench's half-year
// scale, surf_week tiled), still on surf_week's topology and carbon, loaded and run once as the
// page does (the binary run); the repetitions are then ignored.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = process.env.PKG || join(root, "www", "pkg");
const wasm = await import(join(pkg, "policy_playground.js"));
const wasmExports = wasm.initSync({ module: readFileSync(join(pkg, "policy_playground_bg.wasm")) });

const sw = join(root, "www", "samples", "surf_week");
const dir = process.env.DIR || sw;
const tasks = readFileSync(join(dir, "tasks.parquet"));
const fragments = readFileSync(join(dir, "fragments.parquet"));
const topologyText = readFileSync(join(sw, "topology.json"), "utf8");
const carbonBytes = readFileSync(join(sw, "carbon.json"));
const mem = readFileSync(join(root, "www", "samples", "policies", "mem.json"), "utf8");
const other = JSON.stringify({ type: "prefab", policyName: "CoreMem" });
const repetitions = Number(process.argv[2] ?? 5);

function value(text) {
  const a = JSON.parse(text);
  if (a.type !== "success") throw new Error(`wasm answered ${text.slice(0, 300)}`);
  return a.value;
}
function checkRun(text) {
  if (!text.startsWith('{"type":"success"')) throw new Error(`run answered ${text.slice(0, 300)}`);
  return text.length;
}
const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];

// The tiled folder runs as the page runs it: one load and one run through runBinaryWithProgress
// (columns, not JSON), the memory read right after, as a tab holding that run has it.
if (process.env.DIR) {
  const t0 = performance.now();
  const workload = value(wasm.loadWorkloadParquet(tasks, fragments)).handle;
  const topology = value(wasm.loadTopology(topologyText)).handle;
  const carbon = value(wasm.loadCarbon(carbonBytes, "json")).handle;
  const t1 = performance.now();
  const answer = wasm.runBinaryWithProgress(JSON.stringify({ topology, workload, carbon }), mem, "{}", () => {});
  if (answer.type !== "success") throw new Error(`run answered ${JSON.stringify(answer.errors)}`);
  const t2 = performance.now();
  console.log(JSON.stringify({
    loadMs: t1 - t0, runMs: t2 - t1, totalMs: t2 - t0, tasks: answer.value.columns.taskCount,
    memoryBytes: wasmExports.memory.buffer.byteLength, binary: true,
  }));
  process.exit(0);
}

const load = [], run = [], rerun = [];
let bytes = 0;
for (let i = 0; i < repetitions; i++) {
  const t0 = performance.now();
  const workload = value(wasm.loadWorkloadParquet(tasks, fragments)).handle;
  const topology = value(wasm.loadTopology(topologyText)).handle;
  const carbon = value(wasm.loadCarbon(carbonBytes, "json")).handle;
  const t1 = performance.now();
  const handles = JSON.stringify({ topology, workload, carbon });
  bytes = checkRun(wasm.run(handles, mem, "{}"));
  const t2 = performance.now();
  checkRun(wasm.run(handles, other, "{}"));
  const t3 = performance.now();
  for (const h of [workload, topology, carbon]) wasm.release(h);
  load.push(t1 - t0);
  run.push(t2 - t1);
  rerun.push(t3 - t2);
}
const loadMs = median(load), runMs = median(run);
console.log(JSON.stringify({
  loadMs, runMs, totalMs: loadMs + runMs, rerunMs: median(rerun), resultBytes: bytes, repetitions,
  memoryBytes: wasmExports.memory.buffer.byteLength,
}));
