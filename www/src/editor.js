// A policy editor: CodeMirror 6 with JSON highlighting, completion and hover from the wasm's
// policySchema() (codemirror-json-schema), and lint marks from the Rust `check` diagnostics
// (1-based line, UTF-16 column: CodeMirror's positions are UTF-16 offsets too).
import { EditorView, basicSetup } from 'codemirror';
import { hoverTooltip, keymap } from '@codemirror/view';
import { json, jsonLanguage } from '@codemirror/lang-json';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';

// JSON tokens as classes, coloured by style.css (light and dark) rather than inline styles.
const tokenClasses = HighlightStyle.define([
  { tag: tags.propertyName, class: 'tok-propertyName' }, { tag: tags.string, class: 'tok-string' },
  { tag: tags.number, class: 'tok-number' }, { tag: [tags.bool, tags.null], class: 'tok-atom' },
  { tag: tags.invalid, class: 'tok-invalid' },
]);
// (Punctuation keeps the text colour: replacing a selection that starts with a coloured token
// makes Chromium's editing carry its colour as an inline style, which the page's CSP refuses.)
import { setDiagnostics, lintGutter } from '@codemirror/lint';
import { indentWithTab } from '@codemirror/commands';
import { jsonCompletion, jsonSchemaHover, stateExtensions } from 'codemirror-json-schema';
import { disableErrorLogging } from 'best-effort-json-parser';

// codemirror-json-schema reads half-typed JSON with best-effort-json-parser, which reports every
// partial document on console.error; the Rust `check` is what reports problems here.
disableErrorLogging();

/** The document position of a 1-based line and UTF-16 column (clamped to the document). */
function position(doc, { line, column }) {
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  return Math.min(l.to, l.from + Math.max(0, (column || 1) - 1));
}

/**
 * The range a diagnostic marks: its token's `start..end`, as Rust measured it.
 * @param {import('@codemirror/state').Text} doc
 * @param {import('./types/answers').Diagnostic} d
 */
export function diagnosticRange(doc, d) {
  if (d.start && d.end) {
    const from = position(doc, d.start);
    return { from, to: Math.max(from, position(doc, d.end)) };
  }
  if (d.line == null) return { from: 0, to: Math.min(doc.length, 1) };
  const from = position(doc, d);
  return { from, to: Math.min(doc.length, from + 1) };
}

/**
 * The containers around the text before a position in (possibly half-typed) JSON: for each open
 * object the key whose value is being written, for each open array `[]`; and the string being
 * typed, if the position is inside one (`null` otherwise).
 */
export function jsonPathBefore(text) {
  const stack = [];
  let last = null, open = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) { open = text.slice(i + 1); break; }
      last = text.slice(i + 1, j);
      i = j;
    } else if (c === '{') stack.push({ key: null });
    else if (c === '[') stack.push({ array: true });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ':' && stack.length && !stack.at(-1).array) stack.at(-1).key = last;
    else if (c === ',' && stack.length && !stack.at(-1).array) stack.at(-1).key = null;
  }
  return { path: stack.map((f) => (f.array ? '[]' : f.key)), typing: open };
}

/** Every enum and const value the schema allows at `path` (keys, and `[]` for array items),
 * through anyOf / oneOf / allOf, each with its schema description. */
export function schemaValues(s, path) {
  if (!s || typeof s !== 'object') return [];
  const out = [...(s.anyOf || []), ...(s.oneOf || []), ...(s.allOf || [])].flatMap((b) => schemaValues(b, path));
  if (!path.length) {
    for (const v of s.enum || []) out.push({ value: v, doc: s.description });
    if ('const' in s) out.push({ value: s.const, doc: s.description });
    return out;
  }
  const [key, ...rest] = path;
  return out.concat(schemaValues(key === '[]' ? s.items : s.properties?.[key], rest));
}

/** Completion of values from the schema's enums: filter, weigher and prefab names, policy types.
 * Names that differ only in case (OpenDC's legacy spellings) are offered once, as first listed. */
function enumCompletion(schema, docs) {
  return (ctx) => {
    const before = ctx.state.sliceDoc(0, ctx.pos);
    const { path, typing } = jsonPathBefore(before);
    if (!path.length || path.at(-1) == null || path.at(-1) === '[]') return null;
    if (typing == null && !/:\s*$/.test(before)) return null;
    const seen = new Set();
    const options = [];
    for (const { value, doc } of schemaValues(schema, path)) {
      if (typeof value !== 'string' || seen.has(value.toLowerCase())) continue;
      seen.add(value.toLowerCase());
      const info = docs?.[value] || (doc && doc.length < 200 ? doc : undefined);
      options.push({ label: value, type: 'enum', detail: path.at(-1), info, apply: typing == null ? JSON.stringify(value) : value });
    }
    if (!options.length) return null;
    return { from: typing == null ? ctx.pos : ctx.pos - typing.length, options, validFor: /^[\w-]*$/ };
  };
}

/** The schema's hover text, shown above the line (below it would cover the rest of the
 * policy, which now fills a taller editor). */
const schemaHover = jsonSchemaHover();
async function hoverAbove(view, pos, side) {
  const t = await schemaHover(view, pos, side);
  return t && { ...t, above: true };
}

export function createEditor(parent, { doc, schema, docs, label, testid, onChange }) {
  const view = new EditorView({
    doc,
    parent,
    extensions: [
      basicSetup,
      keymap.of([indentWithTab]),
      json(),
      lintGutter(),
      jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
      jsonLanguage.data.of({ autocomplete: enumCompletion(schema, docs) }),
      EditorView.lineWrapping,
      syntaxHighlighting(tokenClasses),
      hoverTooltip(hoverAbove),
      stateExtensions(schema),
      EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': testid }),
      EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
    ],
  });
  /** How many lint marks the last setDiagnostics gave the editor. */
  let marksShown = 0;
  return {
    view,
    text: () => view.state.doc.toString(),
    /** Replaces the text by `text`, as one change of the part that differs (the text before
     * and after it kept): the editor then redraws only the lines that changed, and an undo
     * restores only them. */
    setText(text) {
      const old = view.state.doc.toString();
      if (old === text) { // as before: the same text is a change too (its listeners run again)
        view.dispatch({ changes: { from: 0, to: old.length, insert: text } });
        return;
      }
      let from = 0;
      while (from < old.length && from < text.length && old[from] === text[from]) from++;
      let end = 0;
      while (end < old.length - from && end < text.length - from
        && old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
      view.dispatch({ changes: { from, to: old.length - end, insert: text.slice(from, text.length - end) } });
    },
    /** Shows the Rust diagnostics as lint marks (an empty set again is not dispatched: each
     * dispatch updates the editor and lays the page out, and most checks find nothing). */
    setDiagnostics(diagnostics) {
      if (!diagnostics.length && !marksShown) return;
      marksShown = diagnostics.length;
      const doc = view.state.doc;
      const marks = diagnostics.map((d) => ({
        ...diagnosticRange(doc, d),
        severity: d.severity === 'warning' ? 'warning' : 'error',
        message: d.message + (d.path ? ` (${d.path})` : ''),
        source: 'check',
      }));
      view.dispatch(setDiagnostics(view.state, marks));
    },
  };
}

// Policy A's controls carry the page's stable test hooks (README, "The page"), kept across
// versions for tests written outside the project; the rest, and policy B's, are `<name>-<id>`.
const HOOKS_A = { editor: 'policy-editor', diagnostics: 'diagnostics', 'prefab-select': 'prefab-picker', 'use-prefab': 'use-prefab' };
const testid = (name, id) => (id === 'A' && HOOKS_A[name]) || `${name}-${id}`;

/**
 * A policy panel: a prefab picker (the wasm's prefabs()), the editor, and the `check` report
 * (diagnostics as text and as lint marks, and the policy's one-line description).
 */
export function createPolicyPanel(el, { id, title, schema, prefabs, doc, lint, onChange }) {
  const mk = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    e.append(...kids);
    return e;
  };
  const select = mk('select', { id: `prefab-${id}`, 'data-testid': testid('prefab-select', id) },
    ...prefabs.map((p) => { const o = mk('option', { value: p.name }, p.name); o.title = p.doc; return o; }));
  const doc1 = mk('p', { class: 'prefab-doc', 'data-testid': `prefab-doc-${id}` });
  let heldBy = null; // how the editor holds the picked prefab: 'name', 'expansion', or null
  const button = (label, testid, hint, fn) => {
    const b = mk('button', { type: 'button', 'data-testid': testid, title: hint }, label);
    b.addEventListener('click', fn);
    return b;
  };
  const pretty = (v) => JSON.stringify(v, null, 2);
  const usePrefab = button('Use prefab', testid('use-prefab', id), 'Put {"type": "prefab", "policyName": <picked>} in the editor',
    () => select.value && editor.setText(pretty({ type: 'prefab', policyName: select.value })));
  const useExpansion = button('Use it written out', `use-expansion-${id}`, 'Put the picked prefab in the editor as its explicit policy, every setting written out, to edit them',
    () => {
      const p = prefabs.find((x) => x.name === select.value);
      if (p) editor.setText(pretty(p.expansion));
    });
  const writeOut = button('Write out every default', `expand-${id}`, 'Replace the policy in the editor by its explicit form: the same policy with every default written out',
    async () => {
      const a = await lint.call('expand', editor.text());
      if (a.type === 'success') editor.setText(pretty(a.value));
    });
  const showDoc = () => {
    const p = prefabs.find((x) => x.name === select.value);
    usePrefab.disabled = useExpansion.disabled = !p;
    doc1.textContent = !p ? 'The editor holds a policy of its own, not a prefab; pick one to replace it.'
      : `${p.doc}${heldBy === 'expansion' ? ' (the editor holds it written out)' : ''}`;
  };
  select.addEventListener('change', () => { heldBy = null; showDoc(); });
  const host = mk('div', { class: 'editor' });
  const describe = mk('p', { class: 'description', 'data-testid': `description-${id}` });
  const diags = mk('ul', { class: 'diagnostics', 'data-testid': testid('diagnostics', id), 'aria-live': 'polite' });
  // Where OpenDC behaves differently: a list of its own, so the `diagnostics` hook stays check's.
  const differs = mk('ul', { class: 'diagnostics differences', 'data-testid': `opendc-differences-${id}`, 'aria-label': 'Where OpenDC differs' });
  const hintId = `editor-hint-${id}`;
  el.append(
    mk('h2', {}, title),
    mk('div', { class: 'row' }, mk('label', { for: `prefab-${id}` }, 'Prefab '), select, usePrefab, useExpansion),
    doc1, host,
    mk('div', { class: 'row editor-foot' },
      mk('p', { class: 'hint', id: hintId }, 'Tab indents; to leave the editor by keyboard press ', mk('kbd', {}, 'Esc'), ' then ', mk('kbd', {}, 'Tab'), '. Drag the corner to resize.'),
      writeOut),
    describe, diags, differs);
  const docs = Object.fromEntries(prefabs.map((p) => [p.name, p.doc]));
  const editor = createEditor(host, { doc, schema, docs, label: `${title}: policy JSON`, testid: testid('editor', id), onChange });
  editor.view.contentDOM.setAttribute('aria-describedby', hintId);
  showDoc();

  // The picker follows what the editor holds: the prefab whose explicit form (its expansion)
  // is the checked policy's, as the Rust `check` gives it; none for a policy of one's own.
  const canon = (v) => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));
  const expansions = prefabs.map((p) => canon(p.expansion));
  function follow(report) {
    if (!report.ok || report.document !== 'policy' || report.policies.length !== 1 || report.policies[0] == null) return;
    const i = expansions.indexOf(canon(report.policies[0]));
    if (i < 0) { select.selectedIndex = -1; heldBy = null; } else {
      select.value = prefabs[i].name;
      let named = false;
      try { named = JSON.parse(editor.text())?.type === 'prefab'; } catch { /* written out, or not JSON */ }
      heldBy = named ? 'name' : 'expansion';
    }
    showDoc();
  }

  return {
    editor,
    text: () => editor.text(),
    setText: (t) => editor.setText(t),
    /** Shows a `check` answer, and the `opendcDifferences` marks when given; returns whether
     * the policy can run. */
    showCheck(answer, differences = []) {
      if (answer.type !== 'success') {
        diags.replaceChildren(...answer.errors.map((d) => mk('li', { class: 'error' }, d.message)));
        differs.replaceChildren();
        return false;
      }
      const r = answer.value;
      const all = [...r.diagnostics, ...(r.ok ? differences : [])];
      editor.setDiagnostics(all);
      follow(r);
      const at = (d) => `${d.line != null ? `line ${d.line}, column ${d.column}: ` : ''}`;
      diags.replaceChildren(...r.diagnostics.map((d) => mk('li', { class: d.severity },
        `${at(d)}${d.severity}: ${d.message}${d.path ? ` (${d.path})` : ''}`)));
      differs.replaceChildren(...all.slice(r.diagnostics.length).map((d) => mk('li', { class: 'difference', 'data-testid': 'opendc-difference' },
        `${at(d)}${d.message}${d.path ? ` (${d.path})` : ''}`)));
      describe.textContent = r.ok ? (r.descriptions || []).filter(Boolean).join('; ') : '';
      if (r.ok && r.document === 'experiment') {
        diags.append(mk('li', { class: 'warning' }, 'this is an OpenDC experiment file: the playground runs one policy; paste one of its allocationPolicies'));
        return false;
      }
      return r.ok;
    },
  };
}
