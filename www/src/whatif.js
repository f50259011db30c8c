// The carbon what-ifs, beyond OpenDC: run options that shift the carbon trace in time (read
// cyclically over its span: another season of the same year), scale it, and put a seeded
// error on the forecast a time-shifting policy reads (never on the carbon it is charged). Rust
// checks and applies them (crate/src/whatif.rs, engine/timeshift.rs ForecastNoise); this
// panel only writes them into state.options (runOptions sends them when set).
import { state, emit, h } from './state.js';
import { durationDifference } from './format.js';

const DAY_MS = 86_400_000;

export function createWhatIfPanel(el) {
  const input = (id, attrs) => h('input', { type: 'number', id, 'data-testid': id, ...attrs });
  const shift = input('whatif-shift-days', { step: 'any', placeholder: '0' });
  const scale = input('whatif-scale', { step: 'any', min: '0', placeholder: '1' });
  const error = input('whatif-forecast-error', { step: 'any', min: '0', placeholder: '0' });
  const reset = h('button', { type: 'button', 'data-testid': 'whatif-reset' }, 'No what-if');
  const status = h('p', { class: 'note', 'data-testid': 'whatif-status', 'aria-live': 'polite' });

  el.append(
    h('p', { class: 'note' }, 'Beyond OpenDC: OpenDC has none of these. With every field empty a run is OpenDC’s, byte for byte.'),
    h('div', { class: 'row options' }, h('label', { for: 'whatif-shift-days' }, 'Shift the carbon trace by (days) '), shift),
    h('p', { class: 'hint' }, 'The run sees the intensity that many days later (negative: earlier), read round the trace’s own span: a year’s trace shifted by 91 days puts April’s grid under January’s work.'),
    h('div', { class: 'row options' }, h('label', { for: 'whatif-scale' }, 'Scale the carbon intensity by (×) '), scale),
    h('div', { class: 'row options' }, h('label', { for: 'whatif-forecast-error' }, 'Forecast error (%) '), error),
    h('p', { class: 'hint' }, 'Seeded noise on the forecast a time-shifting policy reads: each forecast value times (1 + error × a standard normal draw), from a generator of its own seeded with the run’s seed; the carbon charged is the trace’s. To see time-shifting’s savings shrink as forecasts get worse, sweep “carbon forecast error” in Sweep a setting.'),
    h('div', { class: 'row' }, reset),
    status);

  /** The what-if fields as the run options hold them (absent when empty or neutral). */
  function read() {
    const num = (x) => (x.value.trim() === '' ? null : Number(x.value));
    const days = num(shift), k = num(scale), e = num(error);
    return {
      carbonShiftMs: days == null || days === 0 ? null : Math.round(days * DAY_MS),
      carbonScale: k == null ? null : k,
      forecastError: e == null ? null : e / 100,
    };
  }

  // The result is labelled while a what-if is in use: its figures are not OpenDC's.
  const badge = h('span', { class: 'whatif-badge', 'data-testid': 'whatif-badge', hidden: true }, 'carbon what-if (beyond OpenDC)');
  document.getElementById('results-title')?.append(' ', badge);

  function describe() {
    const o = state.options;
    const parts = [];
    if (o.carbonShiftMs != null) parts.push(`trace shifted by ${durationDifference(o.carbonShiftMs)}`);
    if (o.carbonScale != null) parts.push(`intensity × ${o.carbonScale}`);
    if (o.forecastError != null) parts.push(`forecast error ${+(o.forecastError * 100).toPrecision(6)} %`);
    status.textContent = parts.length ? `What-if in use: ${parts.join(', ')}.` : 'No what-if: the carbon trace as given.';
    el.closest('details')?.classList.toggle('active', parts.length > 0);
    badge.hidden = parts.length === 0;
    badge.title = status.textContent;
  }

  function apply() {
    const v = read();
    for (const [k, x] of Object.entries(v)) {
      if (x == null) delete state.options[k];
      else state.options[k] = x;
    }
    describe();
    emit('options');
  }
  for (const x of [shift, scale, error]) x.addEventListener('change', apply);
  reset.addEventListener('click', () => { shift.value = ''; scale.value = ''; error.value = ''; apply(); });

  return {
    /** Shows the what-ifs of state.options (after a lesson, a link or a scenario set them). */
    sync() {
      const o = state.options;
      shift.value = o.carbonShiftMs != null ? String(o.carbonShiftMs / DAY_MS) : '';
      scale.value = o.carbonScale != null ? String(o.carbonScale) : '';
      error.value = o.forecastError != null ? String(+(o.forecastError * 100).toPrecision(12)) : '';
      describe();
    },
  };
}
