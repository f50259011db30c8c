// Workloads made in the page (beyond OpenDC's inputs): the generator panel and "take a window"
// / "sample a fraction". The generator's form is built from the Rust settings' JSON Schema
// (generatorSchema: every title, range and default is Rust's); a generated workload is a
// handle like a loaded one, and its download is the bytes `policy-playground generate
// --settings FILE --out workload.json` writes. A window or sample of the workload in use is
// made by Rust (selectWorkload) and loaded as a JSON workload; a workload file past the page's
// limits can be read with the window applied (loadWorkloadSelected for JSON and CSV,
// loadWorkloadParquetSelected for OpenDC's parquet, which decodes only the kept tasks and their
// fragments), so the page never keeps more of it than its limits allow.
import { state, h, diagText } from './state.js';

/** Saves `text` as a file named `name`. */
function save(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** An input for one setting of the schema; `get()` reads its value (undefined: the default). */
function settingInput(key, p) {
  const id = `gen-${key}`;
  const label = h('label', { for: id }, `${p.title} `);
  if (p.type === 'array') return choicesInput(key, p);
  let input;
  if (p.enum) {
    input = h('select', { id, 'data-testid': id }, ...p.enum.map((v) => h('option', { value: v }, v)));
    input.value = p.default;
  } else if (p.type === 'boolean') {
    input = h('input', { type: 'checkbox', id, 'data-testid': id });
    input.checked = p.default;
  } else {
    input = h('input', { type: 'number', id, 'data-testid': id, min: String(p.minimum), max: String(p.maximum), step: p.type === 'integer' ? '1' : 'any', value: String(p.default) });
  }
  input.title = p.description;
  const row = h('div', { class: 'row options gen-field', 'data-key': key }, label, input);
  const get = () => {
    if (p.type === 'boolean') return input.checked;
    if (p.enum) return input.value;
    return input.value.trim() === '' ? undefined : Number(input.value);
  };
  return { key, row, get };
}

/** A list of {value, weight} choices with rows to edit, add and remove. */
function choicesInput(key, p) {
  const list = h('div', { class: 'choices', 'data-testid': `gen-${key}` });
  const rows = [];
  const add = (c) => {
    const value = h('input', { type: 'number', min: '1', step: '1', value: String(c.value), 'aria-label': `${p.title}: value`, class: 'choice-value' });
    const weight = h('input', { type: 'number', min: '0', step: 'any', value: String(c.weight), 'aria-label': `${p.title}: weight`, class: 'choice-weight' });
    const item = h('span', { class: 'choice' }, value, ' × weight ', weight);
    const entry = { value, weight, item };
    item.append(h('button', { type: 'button', 'aria-label': `remove this ${p.title} choice`, onclick: () => { rows.splice(rows.indexOf(entry), 1); item.remove(); } }, '−'));
    rows.push(entry);
    list.append(item);
  };
  for (const c of p.default) add(c);
  const more = h('button', { type: 'button', 'data-testid': `gen-${key}-add`, onclick: () => add({ value: 1, weight: 1 }) }, '+ choice');
  const row = h('div', { class: 'row options gen-field', 'data-key': key, title: p.description },
    h('span', { class: 'label' }, `${p.title}: `), list, more);
  const get = () => rows.map((r) => ({ value: Number(r.value.value), weight: Number(r.weight.value) }));
  return { key, row, get };
}

/**
 * The generator and the window/sample controls, inside the scenario panel.
 * @param {HTMLElement} el
 * @param {{engine: any, setWorkload: (ref: any, summary: any, source: string) => void}} deps
 */
export function createWorkloadTools(el, { engine, setWorkload }) {
  const genMsg = h('p', { class: 'loader-msg', 'data-testid': 'gen-msg', 'aria-live': 'polite' });
  const generate = h('button', { type: 'button', 'data-testid': 'gen-run' }, 'Generate and use it');
  const saveSettings = h('button', { type: 'button', 'data-testid': 'gen-save-settings' }, 'Download the settings');
  const saveWorkload = h('button', { type: 'button', 'data-testid': 'gen-save-workload' }, 'Download the workload in use (JSON)');
  const fields = h('div', { class: 'gen-fields' });
  let inputs = [];

  const selMsg = h('p', { class: 'loader-msg', 'data-testid': 'select-msg', 'aria-live': 'polite' });
  const text = (id, placeholder) => h('input', { type: 'text', id, 'data-testid': id, placeholder, size: 24 });
  const from = text('select-from', 'from (ISO-8601 or ms)');
  const to = text('select-to', 'to (ISO-8601 or ms)');
  const fraction = h('input', { type: 'number', id: 'select-fraction', 'data-testid': 'select-fraction', min: '0', max: '1', step: 'any', placeholder: '1' });
  const seed = h('input', { type: 'number', id: 'select-seed', 'data-testid': 'select-seed', min: '0', step: '1', value: '0' });
  const apply = h('button', { type: 'button', 'data-testid': 'select-apply' }, 'Keep only these tasks');
  const fromFile = h('button', { type: 'button', 'data-testid': 'select-file', hidden: true }, '');
  let tooBigFile = null; // {name, bytes, format}: the last workload file past the limits (bytes:
  // the file's, or {tasks, fragments} for parquet)

  el.append(
    h('details', { class: 'generator', 'data-testid': 'generator' },
      h('summary', {}, 'Make a workload (generator)'),
      h('p', { class: 'note' }, 'Arrivals with a daily pattern or in bursts, cores and memory from choices, durations, deferrable tasks with their deadlines. Every setting has a default; the same settings give the same workload, byte for byte, here and from the command line.'),
      fields,
      h('div', { class: 'row' }, generate, saveSettings, saveWorkload),
      h('p', { class: 'hint', 'data-testid': 'gen-cli' }, 'The same bytes from the command line: policy-playground generate --settings generator-settings.json --out workload.json'),
      genMsg),
    h('details', { class: 'selection', 'data-testid': 'selection' },
      h('summary', {}, 'Take a window or a sample of the workload'),
      h('p', { class: 'note' }, 'Window: the tasks submitted in [from, to), each kept whole. Sample: each task kept with the given probability, decided by a seeded hash of its id (the same seed keeps the same tasks, in any window and any format; OpenDC’s sampleFraction is unseeded). For a trace too large for the page, the command line does the same: policy-playground window --workload PATH --from T --to T --sample F --seed N.'),
      h('div', { class: 'row options' }, h('label', { for: 'select-from' }, 'From '), from, h('label', { for: 'select-to' }, ' to '), to),
      h('div', { class: 'row options' }, h('label', { for: 'select-fraction' }, 'Sample a fraction (0-1] '), fraction,
        h('label', { for: 'select-seed' }, ' seed '), seed),
      h('div', { class: 'row' }, apply, fromFile),
      selMsg));

  const show = (msg, answer, prefix) => {
    msg.textContent = `${prefix}: ${answer.errors.map(diagText).join('; ')}`;
    msg.classList.add('error');
  };
  const said = (msg, t) => { msg.textContent = t; msg.classList.remove('error'); };

  /** The settings the form holds (a key left empty takes its default). */
  function settings() {
    const out = {};
    for (const i of inputs) {
      const v = i.get();
      if (v !== undefined) out[i.key] = v;
    }
    return out;
  }

  generate.addEventListener('click', async () => {
    for (const r of fields.querySelectorAll('.gen-field.error')) r.classList.remove('error');
    said(genMsg, 'generating…');
    const answer = await engine.load('generateWorkload', JSON.stringify(settings()));
    if (answer.type !== 'success') {
      show(genMsg, answer, 'not generated');
      for (const e of answer.errors) {
        const key = (e.path || '').replace(/^settings\./, '').replace(/[.[].*$/, '');
        fields.querySelector(`.gen-field[data-key="${key}"]`)?.classList.add('error');
      }
      return;
    }
    const s = answer.value.summary;
    said(genMsg, `generated ${s.tasks.toLocaleString('en-US')} tasks (seed ${settings().seed ?? 0})`);
    setWorkload(answer.ref, s, 'generated');
  });
  saveSettings.addEventListener('click', () => save('generator-settings.json', JSON.stringify(settings(), null, 2)));
  saveWorkload.addEventListener('click', async () => {
    const ref = state.inputs.workload;
    if (!ref) return;
    const answer = await engine.call('workloadJson', ref.handle);
    if (answer.type === 'success') save('workload.json', answer.value);
    else show(genMsg, answer, 'no download');
  });

  /** The selection the controls hold, as Rust reads it. */
  function selection() {
    const o = { seed: Number(seed.value) || 0 };
    if (from.value.trim()) o.fromMs = from.value.trim();
    if (to.value.trim()) o.toMs = to.value.trim();
    if (fraction.value.trim()) o.fraction = Number(fraction.value);
    return JSON.stringify(o);
  }

  apply.addEventListener('click', async () => {
    const ref = state.inputs.workload;
    if (!ref) { said(selMsg, 'no workload in use'); return; }
    said(selMsg, 'selecting…');
    const picked = await engine.call('selectWorkload', ref.handle, selection());
    if (picked.type !== 'success') { show(selMsg, picked, 'nothing kept'); return; }
    const before = state.summaries.workload?.tasks;
    const loaded = await engine.load('loadWorkload', picked.value, 'json');
    if (loaded.type !== 'success') { show(selMsg, loaded, 'not loaded'); return; }
    const s = loaded.value.summary;
    said(selMsg, `kept ${s.tasks.toLocaleString('en-US')} of ${(before ?? 0).toLocaleString('en-US')} tasks`);
    setWorkload(loaded.ref, s, 'selection');
  });

  fromFile.addEventListener('click', async () => {
    if (!tooBigFile) return;
    said(selMsg, `reading ${tooBigFile.name} with the window…`);
    const f = tooBigFile;
    const answer = f.format === 'parquet'
      ? await engine.load('loadWorkloadParquetSelected', f.bytes.tasks, f.bytes.fragments, selection())
      : await engine.load('loadWorkloadSelected', f.bytes, f.format, selection());
    if (answer.type !== 'success') { show(selMsg, answer, tooBigFile.name); return; }
    const s = answer.value.summary;
    said(selMsg, `kept ${s.tasks.toLocaleString('en-US')} tasks of ${tooBigFile.name}`);
    setWorkload(answer.ref, s, `file:${tooBigFile.name} (selection)`);
    tooBigFile = null;
    fromFile.hidden = true;
  });

  return {
    async init() {
      const answer = await engine.call('generatorSchema');
      if (answer.type !== 'success') { show(genMsg, answer, 'the generator did not start'); return; }
      const props = answer.value.properties;
      inputs = Object.entries(props).map(([k, p]) => settingInput(k, p));
      fields.replaceChildren(...inputs.map((i) => i.row));
    },
    /** A workload refused for its size: offer to read a window or sample of it (`format`
     * json, csv or parquet; for parquet `bytes` is {tasks, fragments}). */
    offerSelected(name, bytes, format) {
      tooBigFile = { name, bytes, format };
      fromFile.textContent = `Read only this window / sample of ${name}`;
      fromFile.hidden = false;
      /** @type {HTMLDetailsElement} */ (el.querySelector('details.selection')).open = true;
      said(selMsg, `${name} is past the page’s limits: set a window or a sample above, then read only that part of it.`);
    },
  };
}
