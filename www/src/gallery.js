// The teaching gallery: one-click lessons on the teaching sample, each a policy A, a policy B
// (compare mode), host counts and a two-line caption. The figures in the captions are what the
// simulator gives (checked by tests/e2e); nothing here computes them.
import { h } from './state.js';

const prefab = (name) => JSON.stringify({ type: 'prefab', policyName: name }, null, 2);
const filter = (subsetSize) => JSON.stringify({
  type: 'filter', filters: [{ type: 'VCpu' }, { type: 'Ram' }], weighers: [{ type: 'Ram', multiplier: 1.0 }], subsetSize,
}, null, 2);
const stopper = JSON.stringify({
  type: 'timeshift', filters: [{ type: 'Compute' }, { type: 'VCpu' }, { type: 'Ram' }], weighers: [{ type: 'Ram' }],
  memorize: false, taskStopper: { forecastThreshold: 0.6 },
}, null, 2);

export const LESSONS = [
  {
    id: 'spread-pack', title: 'Spreading vs packing',
    caption: ['Mem sends each task to the host with the most free memory, so the 256 GiB bigmem host runs most tasks;',
      'MemInv (B) packs the small hosts first: same makespan, about 5 % less dynamic energy, higher utilisation.'],
    a: prefab('Mem'), b: prefab('MemInv'), hostCounts: {},
    // [metric, relation of B to A] the lesson's point, checked by the tests.
    expect: [['dynamicEnergyJ', '<'], ['meanUtilization', '>'], ['makespanMs', '=']],
  },
  {
    id: 'head-of-line', title: 'Head-of-line blocking',
    caption: ['With 2 small hosts and 1 large one, a filter policy (A) stops each cycle at the first task that fits nowhere now;',
      'the memorizing scheduler (B) passes over it and backfills the small tasks: mean wait drops from about 31 min to about 1 min.'],
    a: prefab('Mem'), b: prefab('TaskNumMemorizing'), hostCounts: { 'rack-A/small': 2, 'rack-B/large': 1, 'rack-B/bigmem': 0 },
    expect: [['meanWaitMs', '<'], ['makespanMs', '<']],
  },
  {
    id: 'subset-size', title: 'What subsetSize does',
    caption: ['subsetSize 3 (B) draws at random among the 3 best-ranked hosts instead of taking the best (A):',
      'tasks spread over both large hosts and bigmem, whose sqrt power model makes that cost about 18 % more dynamic energy. Change the seed and B moves.',
      'This is the Classic semantics: the scheduler of OpenDC since its SDK (Current) ignores subsetSize and draws nothing, so under Current A and B place every task alike.'],
    a: filter(1), b: filter(3), hostCounts: {},
    expect: [['dynamicEnergyJ', '>']],
  },
  {
    id: 'time-shifting', title: 'Time-shifting: waiting for carbon',
    caption: ['Timeshift (B) defers deferrable tasks while the carbon intensity is not low (the shaded regime):',
      'dynamic carbon falls about 6 % and, over the same window (A\'s hosts idle until B ends), total carbon about 1 %, with no deadline missed; paid for in waiting (mean wait about 57 min instead of 0) and a run 9 h longer.'],
    a: prefab('Mem'), b: prefab('Timeshift'), hostCounts: {},
    expect: [['dynamicCarbonG', '<'], ['meanWaitMs', '>'], ['deferredTasks', '>'], ['deadlineMisses', '=']],
  },
  {
    id: 'task-stopper', title: 'The task stopper',
    caption: ['With a task stopper (B), running deferrable tasks are paused when the intensity is high and resumed later (orange outlines);',
      'a few tasks pause, dynamic carbon falls a little further, and deferral grows.'],
    a: prefab('Timeshift'), b: stopper, hostCounts: {},
    expect: [['pausedTasks', '>'], ['dynamicCarbonG', '<'], ['deferralMs', '>']],
  },
];

// A strip of buttons above the result: a lesson's caption shows in the result when it runs (and,
// before, as the button's tooltip and description), so picking one never scrolls the result away.
export function createGallery(el, onLesson) {
  el.append(
    h('div', { class: 'lessons-head' }, h('h2', {}, 'Lessons'),
      h('span', { class: 'hint' }, 'one click sets up a comparison on the teaching sample')),
    h('ul', { class: 'lessons' }, LESSONS.map((l) => h('li', {},
      h('button', { type: 'button', class: 'lesson', 'data-testid': `lesson-${l.id}`, 'aria-describedby': `lesson-doc-${l.id}`,
        title: l.caption.join(' '), onclick: () => onLesson(l) }, l.title),
      h('span', { id: `lesson-doc-${l.id}`, class: 'visually-hidden' }, l.caption.join(' '))))));
}
