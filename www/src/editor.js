// A policy editor: CodeMirror 6 with JSON highlighting, completion and hover from the wasm's
// policySchema() (codemirror-json-schema), and lint marks from the Rust `check` diagnostics
// (1-based line, UTF-16 column: CodeMirror's positions are UTF-16 offsets too).
import { EditorView, basicSetup } from 'codemirror';
import { hoverTooltip, keymap } from '@codemirror/view';
import { json, jsonLanguage } from '@codemirror/lang-json';
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

export function createEditor(parent, { doc, schema, label, testid, onChange }) {
  const view = new EditorView({
    doc,
    parent,
    extensions: [
      basicSetup,
      keymap.of([indentWithTab]),
      json(),
      lintGutter(),
      jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
      hoverTooltip(jsonSchemaHover()),
      stateExtensions(schema),
      EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': testid }),
      EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
    ],
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    /** Shows the Rust diagnostics as lint marks. */
    setDiagnostics(diagnostics) {
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
  const doc1 = mk('p', { class: 'prefab-doc' });
  const showDoc = () => { doc1.textContent = prefabs.find((p) => p.name === select.value)?.doc || ''; };
  select.addEventListener('change', showDoc);
  const button = (label, testid, fn) => {
    const b = mk('button', { type: 'button', 'data-testid': testid }, label);
    b.addEventListener('click', fn);
    return b;
  };
  const pretty = (v) => JSON.stringify(v, null, 2);
  const usePrefab = button('Use prefab', testid('use-prefab', id), () => editor.setText(pretty({ type: 'prefab', policyName: select.value })));
  const useExpansion = button('Use its expansion', `use-expansion-${id}`, () => {
    const p = prefabs.find((x) => x.name === select.value);
    if (p) editor.setText(pretty(p.expansion));
  });
  const writeOut = button('Write out this policy', `expand-${id}`, async () => {
    const a = await lint.call('expand', editor.text());
    if (a.type === 'success') editor.setText(pretty(a.value));
  });
  const host = mk('div', { class: 'editor' });
  const describe = mk('p', { class: 'description', 'data-testid': `description-${id}` });
  const diags = mk('ul', { class: 'diagnostics', 'data-testid': testid('diagnostics', id), 'aria-live': 'polite' });
  el.append(
    mk('h2', {}, title),
    mk('div', { class: 'row' }, mk('label', { for: `prefab-${id}` }, 'Prefab '), select, usePrefab, useExpansion, writeOut),
    doc1, host, describe, diags);
  showDoc();
  const editor = createEditor(host, { doc, schema, label: `${title}: policy JSON`, testid: testid('editor', id), onChange });
  return {
    editor,
    text: () => editor.text(),
    setText: (t) => editor.setText(t),
    /** Shows a `check` answer; returns whether the policy can run. */
    showCheck(answer) {
      if (answer.type !== 'success') {
        diags.replaceChildren(...answer.errors.map((d) => mk('li', { class: 'error' }, d.message)));
        return false;
      }
      const r = answer.value;
      editor.setDiagnostics(r.diagnostics);
      diags.replaceChildren(...r.diagnostics.map((d) => mk('li', { class: d.severity },
        `${d.line != null ? `line ${d.line}, column ${d.column}: ` : ''}${d.severity}: ${d.message}${d.path ? ` (${d.path})` : ''}`)));
      describe.textContent = r.ok ? (r.descriptions || []).filter(Boolean).join('; ') : '';
      if (r.ok && r.document === 'experiment') {
        diags.append(mk('li', { class: 'warning' }, 'this is an OpenDC experiment file: the playground runs one policy; paste one of its allocationPolicies'));
        return false;
      }
      return r.ok;
    },
  };
}
