// Compare mode: a second policy (B) run on the same inputs and options; main.js runs both,
// the metrics panel shows them side by side with differences, and the timelines are stacked
// on one time axis.
import { state, emit, h } from './state.js';
import { createPolicyPanel } from './editor.js';

export function createCompare(toggleEl, panelEl, { schema, prefabs, lint, onChange }) {
  let panel = null;
  const toggle = h('button', { type: 'button', 'aria-pressed': 'false', 'data-testid': 'compare-toggle' }, 'Compare with a second policy');
  toggleEl.append(toggle);

  function set(on, text) {
    if (on && !panel) {
      panel = createPolicyPanel(panelEl, {
        id: 'B', title: 'Policy B', schema, prefabs, lint,
        doc: text ?? JSON.stringify({ type: 'prefab', policyName: 'MemInv' }, null, 2),
        onChange: (t) => { state.policyB = t; onChange('B'); },
      });
    } else if (on && text != null) panel.setText(text);
    panelEl.hidden = !on;
    state.policyB = on ? panel.text() : null;
    toggle.setAttribute('aria-pressed', String(on));
    toggle.textContent = on ? 'Stop comparing' : 'Compare with a second policy';
    emit('compare', on);
  }
  toggle.addEventListener('click', () => { set(state.policyB == null); onChange('B'); });
  return { set, panel: () => panel, on: () => state.policyB != null };
}
