// The scenario panel: the embedded samples, file loaders (buttons and drag-and-drop) for OpenDC
// workloads (tasks.parquet + fragments.parquet), JSON/CSV workloads, topologies, carbon traces
// (parquet/CSV/JSON) and whole scenario files, each parsed once by the wasm loaders and kept as
// a ref; a failed load shows its message beside its loader and changes nothing else. Also the
// seed, the quantum and the host count of each cluster/host group; workloads made in the page
// (generator.js: the generator, windows and samples; tasktable.js: the task table) and the
// carbon what-ifs (whatif.js).
import { state, emit, on, h, diagText, WHAT_IF_KEYS } from './state.js';
import { utcLabel } from './timeline.js';
import { createWorkloadTools } from './generator.js';
import { createTaskTable } from './tasktable.js';
import { createWhatIfPanel } from './whatif.js';

export const SAMPLES = {
  teaching: { label: 'Teaching (7 hosts, 200 tasks, NL carbon)' },
  surf_week: { label: 'surf_week (277 hosts, 6295 tasks, 2.3 M fragments)' },
};

const KINDS = ['topology', 'workload', 'carbon'];
const ext = (name) => (name.match(/\.([a-z0-9]+)$/i)?.[1] || '').toLowerCase();
// Files go to the engine as bytes, text ones too: it refuses what is not UTF-8, as the CLI does.
const bytes = async (file) => new Uint8Array(await file.arrayBuffer());
/** Thrown when Stop is pressed while a file is still being read (before it reaches the worker). */
class Stopped extends Error {}
// Most files read from a dropped folder, a bound on what a drop can make the page read.
const MAX_DROPPED_FILES = 10000;

/** The files under dropped entries (folders read recursively), each with its relative path. */
async function filesOf(entries) {
  const out = [];
  const walk = async (entry) => {
    if (out.length >= MAX_DROPPED_FILES) return;
    if (entry.isFile) {
      const file = await new Promise((ok, bad) => entry.file(ok, bad));
      file.relPath = entry.fullPath.replace(/^\//, '');
      out.push(file);
      return;
    }
    const reader = entry.createReader();
    for (;;) {
      const batch = await new Promise((ok, bad) => reader.readEntries(ok, bad));
      if (!batch.length) break;
      for (const child of batch) await walk(child);
    }
  };
  for (const e of entries) await walk(e);
  return out;
}

function summaryText(kind, s) {
  if (!s) return kind === 'carbon' ? 'none (no carbon figures, no time-shifting)' : 'none';
  const span = s.fromMs != null ? `, ${utcLabel(s.fromMs, true, true)} → ${utcLabel(s.toMs, true, true)} UTC` : '';
  if (kind === 'topology') return `${s.hosts} hosts: ${s.hostGroups.map((g) => `${g.key} × ${g.count}`).join(', ')}`;
  if (kind === 'workload') {
    const deferrable = `${s.deferrableTasks.toLocaleString('en-US')} deferrable with a deadline`
      + (s.deferrableWithoutDeadline ? `, ${s.deferrableWithoutDeadline.toLocaleString('en-US')} deferrable without one` : '');
    return `${s.tasks.toLocaleString('en-US')} tasks (${deferrable}), ${s.fragments.toLocaleString('en-US')} fragments${span}`;
  }
  return `${s.samples} samples${span}`;
}

export function createScenarioPanel(el, { engine, onPolicy }) {
  const msg = {}, summary = {};
  const picker = h('select', { id: 'sample-select', 'data-testid': 'sample-picker' },
    ...Object.entries(SAMPLES).map(([k, v]) => h('option', { value: k }, v.label)),
    h('option', { value: '', disabled: true }, 'files you loaded'));
  picker.addEventListener('change', () => picker.value && loadSample(picker.value));
  const status = h('p', { class: 'status', 'data-testid': 'scenario-status', 'aria-live': 'polite' });
  const experimentPanel = h('div', { class: 'experiment', 'data-testid': 'experiment-panel' });
  const strict = h('input', { type: 'checkbox', id: 'experiment-strict', 'data-testid': 'experiment-strict' });

  const loader = (kind, label, accept, multiple) => {
    const input = h('input', { type: 'file', id: `load-${kind}`, accept, multiple, 'data-testid': `load-${kind}` });
    input.addEventListener('change', () => { if (input.files.length) loadFiles(kind, [...input.files]).finally(() => { input.value = ''; }); });
    msg[kind] = h('p', { class: 'loader-msg', 'data-testid': `msg-${kind}`, 'aria-live': 'polite' });
    summary[kind] = h('span', { class: 'summary', 'data-testid': `summary-${kind}` });
    return h('div', { class: 'loader' },
      h('label', { for: `load-${kind}` }, label), input,
      kind === 'carbon' ? h('button', { type: 'button', 'data-testid': 'carbon-none', onclick: () => setInput('carbon', null, null, 'none') }, 'no carbon') : null,
      kind !== 'scenario' ? h('div', {}, 'in use: ', summary[kind]) : null,
      msg[kind]);
  };

  // One chooser for files of any kind, sorted as a drop sorts them: what a drop does, for the
  // keyboard, and the `file-input` hook of the page's stable interface (README, "The page").
  const anyFiles = h('input', { type: 'file', id: 'load-any', accept: '.parquet,.json,.csv', multiple: true, 'data-testid': 'file-input' });
  anyFiles.addEventListener('change', () => { if (anyFiles.files.length) dropped([...anyFiles.files]).finally(() => { anyFiles.value = ''; }); });
  const drop = h('div', { class: 'drop', 'data-testid': 'drop-zone', tabindex: '-1' },
    'Drop files here: tasks.parquet + fragments.parquet, a workload (.json/.csv), a topology (.json), a carbon trace (.parquet/.csv/.json) or a scenario (.json).',
    h('div', {}, h('label', { for: 'load-any' }, 'or choose them: '), anyFiles));
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean);
    dropped(entries.some((x) => x.isDirectory) ? await filesOf(entries) : [...e.dataTransfer.files]);
  });
  // A folder, for an experiment with the traces it names (`uri` or `named` references).
  const folder = h('input', { type: 'file', id: 'load-folder', webkitdirectory: '', multiple: true, 'data-testid': 'folder-input' });
  folder.addEventListener('change', () => { if (folder.files.length) dropped([...folder.files]).finally(() => { folder.value = ''; }); });
  drop.append(h('div', {}, h('label', { for: 'load-folder' }, 'or a folder (an experiment with its traces): '), folder));

  const seed = h('input', { type: 'number', id: 'seed', min: '0', step: '1', value: String(state.options.seed), 'data-testid': 'seed' });
  const quantum = h('input', { type: 'number', id: 'quantum', min: '1', step: '1', value: String(state.options.quantumMs), 'data-testid': 'quantum' });
  const counts = h('div', { class: 'host-counts', 'data-testid': 'host-counts' });
  // Which OpenDC's scheduler decides (SPEC 11.12): Classic (SPEC 1-10) or Current (OpenDC 3).
  const semantics = h('select', { id: 'semantics', 'data-testid': 'semantics' },
    h('option', { value: 'classic' }, 'Classic: OpenDC 2 (SPEC 1-10)'),
    h('option', { value: 'current' }, 'Current: OpenDC 3\'s scheduler'));
  semantics.value = state.options.semantics || 'classic';
  semantics.addEventListener('change', () => { state.options.semantics = semantics.value; emit('options'); });
  const useSemantics = (v) => { semantics.value = v; state.options.semantics = v; emit('options'); };
  const newSeed = h('button', { type: 'button', 'data-testid': 'new-seed' }, 'new random seed');
  seed.addEventListener('change', () => {
    const v = Number(seed.value);
    if (Number.isSafeInteger(v) && v >= 0) { state.options.seed = v; emit('options'); }
  });
  quantum.addEventListener('change', () => {
    const v = Number(quantum.value);
    if (Number.isSafeInteger(v)) { state.options.quantumMs = v; emit('options'); }
  });
  newSeed.addEventListener('click', async () => {
    const a = await engine.call('newSeed');
    if (a.type !== 'success') return;
    state.options.seed = a.value; seed.value = String(a.value); emit('options');
  });

  const tools = h('div', { class: 'workload-tools' });
  const whatIfBox = h('div', { class: 'whatif' });
  el.append(
    h('div', { class: 'row' }, h('label', { for: 'sample-select' }, 'Sample '), picker),
    status,
    h('details', { class: 'loaders' }, h('summary', {}, 'Load your own files'),
      loader('workload', 'Workload: tasks.parquet + fragments.parquet, or .json / .csv ', '.parquet,.json,.csv', true),
      loader('topology', 'Topology (OpenDC JSON) ', '.json', false),
      loader('carbon', 'Carbon trace (.parquet, .csv, .json) ', '.parquet,.csv,.json', false),
      loader('scenario', 'Whole scenario file or experiment (.json) ', '.json', false),
      drop, experimentPanel),
    tools,
    h('div', { class: 'row options' }, h('label', { for: 'seed' }, 'Seed '), seed, newSeed),
    h('div', { class: 'row options' }, h('label', { for: 'quantum' }, 'Scheduling quantum (ms) '), quantum),
    h('div', { class: 'row options' }, h('label', { for: 'semantics' }, 'Scheduler semantics '), semantics),
    h('details', { class: 'whatif-panel', 'data-testid': 'whatif' }, h('summary', {}, 'Carbon what-ifs (beyond OpenDC)'), whatIfBox),
    h('h3', {}, 'Hosts per group'), counts);
  // A workload made here replaces the one in use, as a loaded file does.
  const setWorkload = (ref, s, source) => { ok('workload', ''); setInput('workload', ref, s, source); };
  const workloadTools = createWorkloadTools(tools, { engine, setWorkload });
  const taskTable = createTaskTable(tools, { engine, setWorkload });
  const whatIf = createWhatIfPanel(whatIfBox);
  on('inputs', () => taskTable.refresh());

  let limits = null;
  const tooBig = (files) => {
    const f = limits && files.find((x) => x.size > limits.maxFileBytes);
    return f ? `${f.name} is ${(f.size / 2 ** 20).toFixed(1)} MiB; the page takes files up to ${(limits.maxFileBytes / 2 ** 20).toFixed(0)} MiB (use the CLI for larger ones)` : null;
  };

  function renderCounts() {
    const s = state.summaries.topology;
    counts.replaceChildren();
    if (!s) return;
    for (const g of s.hostGroups) {
      const id = `count-${g.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
      const input = h('input', { type: 'number', id, min: '0', step: '1', value: String(state.options.hostCounts[g.key] ?? g.count), 'data-testid': `count-${g.key}`, 'data-key': g.key });
      input.addEventListener('change', () => {
        const v = Number(input.value);
        if (!Number.isSafeInteger(v) || v < 0) return;
        if (v === g.count) delete state.options.hostCounts[g.key];
        else state.options.hostCounts[g.key] = v;
        emit('options');
      });
      counts.append(h('div', { class: 'count' }, h('label', { for: id }, `${g.key} (${g.cores} cores, ${(g.memoryMib / 1024).toFixed(0)} GiB) `), input));
    }
  }

  function showSummaries() {
    for (const k of KINDS) summary[k].textContent = summaryText(k, state.summaries[k]);
    renderCounts();
  }

  /** Puts a loaded input in use, releasing the one it replaces. */
  function setInput(kind, ref, s, source) {
    const old = state.inputs[kind];
    if (old && old !== ref && !Object.values(state.inputs).some((r, i) => r === old && KINDS[i] !== kind)) engine.release(old);
    state.inputs[kind] = ref;
    state.summaries[kind] = s;
    state.sources[kind] = source;
    if (kind === 'topology') state.options.hostCounts = {};
    state.sample = KINDS.every((k) => state.sources[k] === state.sources.topology) && SAMPLES[state.sources.topology] ? state.sources.topology : null;
    picker.value = state.sample || '';
    status.textContent = state.sample ? `sample: ${state.sample}` : 'your own files (with what remains of the sample)';
    showSummaries();
    emit('inputs', { kind });
  }

  function fail(kind, answer, what) {
    msg[kind].textContent = `${what}: ${answer.errors.map(diagText).join('; ')}`;
    msg[kind].classList.add('error');
  }
  function ok(kind, text) { msg[kind].textContent = text; msg[kind].classList.remove('error'); }

  async function loadFiles(kind, files) {
    const big = tooBig(files);
    if (big) { msg[kind].textContent = big; msg[kind].classList.add('error'); return false; }
    const names = files.map((f) => f.name).join(' + ');
    ok(kind, `loading ${names}… `);
    // A large trace (the half-year scale) takes a second or two to read and decode: an
    // indeterminate bar with the time taken so far, and Stop, which terminates the worker (it
    // reloads what was loaded before); a Stop while the files are still being read from disk
    // ends the load before it reaches the worker.
    const cancels = engine.cancels;
    const started = performance.now();
    const clock = h('span', { 'data-testid': `load-elapsed-${kind}` });
    const tick = setInterval(() => { clock.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s `; }, 250);
    msg[kind].append(h('progress', { 'data-testid': `load-progress-${kind}`, 'aria-label': `reading ${names}` }), ' ', clock,
      h('button', { type: 'button', class: 'stop', 'data-testid': `stop-${kind}`, onclick: () => engine.cancel() }, 'Stop'));
    try {
      return await readFiles(kind, files, names, () => engine.cancels !== cancels);
    } catch (e) {
      // Stopped, or a file that could not be read (removed meanwhile, say): said beside the
      // loader in place of the progress, nothing else changed.
      if (e instanceof Stopped) ok(kind, `stopped reading ${names}; nothing changed`);
      else fail(kind, { errors: [{ message: String((e && e.message) || e) }] }, names);
      return false;
    } finally { clearInterval(tick); }
  }

  /** loadFiles's reading, parsing and checking of the files, once the message shows; throws
   * Stopped when `stopped()` says Stop was pressed while a file was read. */
  async function readFiles(kind, files, names, stopped) {
    const read = async (file) => {
      const b = await bytes(file);
      if (stopped()) throw new Stopped();
      return b;
    };
    if (kind === 'scenario') return (await findExperiment(files)) ? dropped(files, read) : loadScenarioText(await read(files[0]), names);
    let answer;
    if (kind === 'topology') answer = await engine.load('loadTopology', await read(files[0]));
    else if (kind === 'carbon') {
      const e = ext(files[0].name);
      if (!['parquet', 'csv', 'json'].includes(e)) { fail(kind, { errors: [{ message: 'a carbon trace is .parquet, .csv or .json' }] }, names); return false; }
      answer = await engine.load('loadCarbon', await read(files[0]), e);
    } else {
      const parquet = files.filter((f) => ext(f.name) === 'parquet');
      if (parquet.length) {
        const fragments = parquet.find((f) => /frag/i.test(f.name));
        const tasks = parquet.find((f) => f !== fragments);
        if (parquet.length !== 2 || !fragments || !tasks) {
          fail(kind, { errors: [{ message: 'an OpenDC workload is two files: tasks.parquet and fragments.parquet (select both)' }] }, names);
          return false;
        }
        const parts = { tasks: await read(tasks), fragments: await read(fragments) };
        answer = await engine.load('loadWorkloadParquet', parts.tasks, parts.fragments);
        if (answer.type !== 'success' && answer.errors.some((d) => /the playground in the browser takes at most/.test(d.message))) {
          workloadTools.offerSelected(names, parts, 'parquet');
        }
      } else {
        const e = ext(files[0].name);
        if (!['json', 'csv'].includes(e)) { fail(kind, { errors: [{ message: 'a workload is tasks.parquet + fragments.parquet, .json or .csv' }] }, names); return false; }
        const content = await read(files[0]);
        answer = await engine.load('loadWorkload', content, e);
        // Past the page's limits (a Rust limit message): a window or a sample of it may fit.
        if (answer.type !== 'success' && answer.errors.some((d) => /the playground in the browser takes at most/.test(d.message))) {
          workloadTools.offerSelected(files[0].name, content, e);
        }
      }
    }
    if (answer.cancelled) { ok(kind, `stopped reading ${names}; nothing changed`); return false; }
    if (answer.type !== 'success') { fail(kind, answer, names); return false; }
    const warnings = answer.value.summary.warnings || [];
    ok(kind, `loaded ${names}${warnings.length ? `; ${warnings.map(diagText).join('; ')}` : ''}`);
    setInput(kind, answer.ref, answer.value.summary, `file:${names}`);
    return true;
  }

  async function loadScenarioText(text, source, sample = null) {
    const answer = await engine.loadScenario(text);
    if (answer.cancelled) { ok('scenario', `stopped reading ${source}; nothing changed`); return false; }
    if (answer.type !== 'success') { fail(sample ? 'workload' : 'scenario', answer, source); return false; }
    const v = answer.value;
    if (!sample) {
      ok('scenario', `loaded ${source}${v.warnings.length ? `; ${v.warnings.map(diagText).join('; ')}` : ''}`);
      if (v.policy != null) onPolicy(JSON.stringify(v.policy, null, 2));
      state.options.seed = v.seed;
      state.options.quantumMs = v.quantumMs;
      state.options.semantics = v.semantics || 'classic';
      // The file's carbon what-ifs, and none that it does not set: the run it describes.
      for (const k of WHAT_IF_KEYS) { if (v[k] != null) state.options[k] = v[k]; else delete state.options[k]; }
      whatIf.sync();
      semantics.value = state.options.semantics;
      seed.value = String(state.options.seed);
      quantum.value = String(state.options.quantumMs);
    }
    useBundle(answer, sample || `file:${source}`, sample);
    status.textContent = sample ? `sample: ${sample}` : `scenario file: ${source}`;
    experimentPanel.replaceChildren();
    emit('inputs', { kind: 'scenario' });
    return true;
  }

  /** Puts the three inputs of a scenario or experiment answer in use (one inputs event). */
  function useBundle(answer, src, sample = null) {
    const v = answer.value;
    const quiet = { topology: answer.refs.topology, workload: answer.refs.workload, carbon: answer.refs.carbon };
    for (const k of KINDS) {
      const old = state.inputs[k];
      if (old && !Object.values(quiet).includes(old)) engine.release(old);
      state.inputs[k] = quiet[k];
      state.summaries[k] = v[k] ? v[k].summary : null;
      state.sources[k] = src;
    }
    state.options.hostCounts = {};
    state.sample = sample;
    picker.value = sample || '';
    showSummaries();
  }

  // ---- experiment files (OpenDC 2 and OpenDC3): the experiment goes with every file dropped
  // beside it, under the relative paths the browser reports, so its references resolve.
  let opened = null; // {files, path, run}
  strict.addEventListener('change', () => opened && openExperiment(opened.files, opened.path, opened.run));

  async function openExperiment(files, path, run = 0) {
    ok('scenario', `opening ${path}… `);
    const answer = await engine.loadExperiment(files, path, run, strict.checked);
    if (answer.cancelled) { ok('scenario', `stopped reading ${path}; nothing changed`); return false; }
    if (answer.type !== 'success') { fail('scenario', answer, path); return false; }
    const v = answer.value;
    opened = { files, path, run };
    ok('scenario', `opened ${path}${v.warnings.length ? `; ${v.warnings.map(diagText).join('; ')}` : ''}`);
    const chosen = v.runs[run];
    const policy = v.policies[chosen.policy];
    if (policy != null) onPolicy(JSON.stringify(policy, null, 2));
    state.options.seed = chosen.seed;
    seed.value = String(chosen.seed);
    useBundle(answer, `experiment:${path}`);
    status.textContent = `experiment ${v.name} (${v.format === 'sdk' ? 'OpenDC3' : 'OpenDC 2'}): run ${run + 1} of ${v.runs.length}`;
    renderExperiment(v);
    emit('inputs', { kind: 'experiment' });
    return true;
  }

  function renderExperiment(v) {
    const runs = h('select', { id: 'experiment-run', 'data-testid': 'experiment-run' },
      ...v.runs.map((r, i) => h('option', { value: String(i) }, r.label)));
    runs.value = String(v.run);
    runs.addEventListener('change', () => opened && openExperiment(opened.files, opened.path, Number(runs.value)));
    experimentPanel.replaceChildren(
      h('div', { class: 'row' }, h('label', { for: 'experiment-run' }, 'Run '), runs),
      h('div', { class: 'row' }, strict, h('label', { for: 'experiment-strict' }, ' strict, as `opendc --strict`: unknown keys are errors')),
      ...v.notes.map((n) => h('p', { class: 'note', 'data-testid': 'experiment-note' }, n,
        v.format === 'sdk' && state.options.semantics !== 'current'
          ? h('button', { type: 'button', 'data-testid': 'use-current', onclick: (e) => { e.target.remove(); useSemantics('current'); } }, 'Run it under Current')
          : null)));
  }

  /** An experiment among the files, by its keys (`topologies` with `workloads`). */
  async function findExperiment(files) {
    for (const f of files.filter((x) => ext(x.name) === 'json')) {
      const head = await f.slice(0, 65536).text();
      if (/"topologies"\s*:/.test(head) && /"workloads"\s*:/.test(head)) return f;
    }
    return null;
  }

  /** Relative path of a file: as a folder pick or drop reports it, else its name. */
  const relPath = (f) => f.relPath || f.webkitRelativePath || f.name;

  async function loadSample(name) {
    if (!SAMPLES[name]) { status.textContent = `no sample called ${name}`; return false; }
    status.textContent = `loading the ${name} sample…`;
    emit('busy', `loading ${name}`);
    const get = async (p, as) => {
      const r = await fetch(`samples/${name}/${p}`);
      if (!r.ok) throw new Error(`samples/${name}/${p}: HTTP ${r.status}`);
      return as === 'text' ? r.text() : new Uint8Array(await r.arrayBuffer());
    };
    try {
      if (name === 'teaching') {
        if (!(await loadScenarioText(await get('scenario.json', 'text'), 'teaching', 'teaching'))) return false;
      } else {
        const [topo, tasks, frags, carbon] = await Promise.all([
          get('topology.json', 'text'), get('tasks.parquet'), get('fragments.parquet'), get('carbon.json')]);
        const answers = [await engine.load('loadTopology', topo), await engine.load('loadWorkloadParquet', tasks, frags), await engine.load('loadCarbon', carbon, 'json')];
        const bad = answers.find((a) => a.type !== 'success');
        if (bad) { status.textContent = `the sample failed to load: ${bad.errors.map(diagText).join('; ')}`; return false; }
        KINDS.forEach((k, i) => {
          const old = state.inputs[k];
          if (old) engine.release(old);
          state.inputs[k] = answers[i].ref;
          state.summaries[k] = answers[i].value.summary;
          state.sources[k] = name;
        });
        state.options.hostCounts = {};
        state.sample = name;
        picker.value = name;
        showSummaries();
        emit('inputs', { kind: 'sample' });
      }
      status.textContent = `sample: ${name}`;
      return true;
    } catch (e) {
      status.textContent = `the sample failed to load: ${e.message}`;
      return false;
    }
  }

  /** Dropped or picked files: an experiment among them is opened (its files read with `read`,
   * which a loader's Stop ends), else each file goes to the loader of its kind. */
  async function dropped(files, read = bytes) {
    const exp = await findExperiment(files);
    if (exp) {
      const big = tooBig(files);
      if (big) { fail('scenario', { errors: [{ message: big }] }, relPath(exp)); return false; }
      const list = await Promise.all(files.map(async (f) => ({ path: relPath(f), bytes: await read(f) })));
      return openExperiment(list, relPath(exp));
    }
    const byKind = { workload: [], topology: [], carbon: [], scenario: [] };
    for (const f of files) {
      const e = ext(f.name);
      if (e === 'parquet') (/frag|task/i.test(f.name) ? byKind.workload : byKind.carbon).push(f);
      else if (e === 'csv') byKind[/carbon_intensity/.test(await f.slice(0, 4096).text()) ? 'carbon' : 'workload'].push(f);
      else if (e === 'json') {
        const head = await f.slice(0, 65536).text();
        const key = (k) => new RegExp(`"${k}"\\s*:`).test(head);
        if (key('workload') && key('topology')) byKind.scenario.push(f);
        else if (key('clusters')) byKind.topology.push(f);
        else if (key('tasks')) byKind.workload.push(f);
        else byKind.carbon.push(f);
      } else { msg.scenario.textContent = `${f.name}: not a file the playground reads`; msg.scenario.classList.add('error'); }
    }
    for (const k of ['scenario', 'topology', 'workload', 'carbon']) if (byKind[k].length) await loadFiles(k, byKind[k]);
  }

  return {
    loadSample,
    async init() {
      const a = await engine.call('limits');
      if (a.type === 'success') limits = a.value;
      await workloadTools.init();
      whatIf.sync();
    },
    setOptions(o) {
      state.options = { seed: o.seed, quantumMs: o.quantumMs, hostCounts: { ...(o.hostCounts || {}) }, semantics: o.semantics || 'classic' };
      for (const k of WHAT_IF_KEYS) if (o[k] != null) state.options[k] = o[k];
      whatIf.sync();
      seed.value = String(state.options.seed);
      semantics.value = state.options.semantics;
      quantum.value = String(state.options.quantumMs);
      renderCounts();
    },
    showSummaries,
  };
}
