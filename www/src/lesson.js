// A lesson in the page: predict, then reveal. Opening a lesson (from the gallery, a file or a
// link) puts its inputs, policies and options in place and asks its question while the results
// stay hidden (body.lesson-pending); the answer (or "show without answering") reveals them with
// the verdict, the explanation and the lesson's conditions evaluated on the runs shown. Rust
// reads and checks the lesson (readLesson), evaluates and grades (revealLesson); this draws.
// A lesson whose conditions fail on its own run says so to its author as soon as it has run.
import { h, diagText } from './state.js';
import { encodeLesson } from './share.js';

/**
 * @param {HTMLElement} parent where the lesson panel goes (the gallery's section)
 * @param {HTMLElement} caption the results' lesson caption, which holds the reveal
 * @param {{lint: any, sim: any, apply: (view: any, override: any) => Promise<boolean>,
 *   runs: () => any[], settled: () => Promise<void>, show: (el: HTMLElement) => void}} o
 */
export function createLessons(parent, caption, { lint, sim, apply, runs, settled, show }) {
  const errors = h('div', { class: 'lesson-errors', 'data-testid': 'lesson-errors', role: 'alert' });
  const panel = h('section', { class: 'lesson-panel', 'data-testid': 'lesson-panel', 'aria-labelledby': 'lesson-title', hidden: true });
  parent.append(errors, panel);
  /** @type {{text: string, view: any, source: string, answered: boolean, checked: boolean} | null} */
  let current = null;

  /** Opens a lesson text; false (the current work kept) when it has errors or cannot run. */
  async function open(text, source, override = null) {
    errors.replaceChildren();
    const read = await lint.call('readLesson', text);
    if (read.type !== 'success') {
      errors.replaceChildren(
        h('p', {}, `The lesson ${source} cannot open; your current work is kept:`),
        h('ul', { class: 'diagnostics' }, read.errors.map((d) => h('li', { class: d.severity }, diagText(d)))));
      show(errors);
      return false;
    }
    const previous = current;
    current = { text, view: read.value, source, answered: false, checked: false };
    render(read.value);
    document.body.classList.add('lesson-pending');
    caption.hidden = true;
    caption.replaceChildren();
    if (!(await apply(read.value, override))) {
      errors.replaceChildren(h('p', {}, `The lesson ${source} could not set up its run; see the scenario panel.`));
      current = previous;
      if (!previous) close();
      return false;
    }
    show(panel);
    return true;
  }

  function close() {
    current = null;
    panel.hidden = true;
    panel.replaceChildren();
    caption.hidden = true;
    caption.replaceChildren();
    document.body.classList.remove('lesson-pending');
    mark(null);
  }

  /** The gallery button of the lesson open is marked current. */
  function mark(id) {
    for (const b of document.querySelectorAll('button.lesson')) b.setAttribute('aria-current', String(id != null && b.getAttribute('data-lesson') === id));
  }

  function render(v) {
    mark(v.id);
    const q = v.question;
    const choices = q.kind === 'choice'
      ? h('div', { class: 'lesson-choices' }, q.choices.map((c, i) => h('label', { class: 'lesson-choice' },
        h('input', { type: 'radio', name: 'lesson-choice', value: String(i), 'data-testid': `lesson-choice-${i}` }), ` ${c}`)))
      : h('label', { class: 'numeric' }, 'Your answer ',
        h('input', { type: 'number', step: 'any', 'data-testid': 'lesson-number', 'aria-label': 'Your answer' }), q.unit ? ` ${q.unit}` : '');
    const form = h('form', { class: 'lesson-question', 'data-testid': 'lesson-question' },
      h('fieldset', {}, h('legend', { 'data-testid': 'lesson-prompt' }, q.prompt), choices),
      h('div', { class: 'row' },
        h('button', { type: 'submit', 'data-testid': 'lesson-answer' }, 'Answer'),
        h('button', { type: 'button', 'data-testid': 'lesson-skip', onclick: () => answer(null) }, 'Show the results without answering')),
      h('p', { class: 'hint', 'data-testid': 'lesson-hidden-note' }, 'The results stay hidden until you answer.'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const given = readAnswer(form, q);
      if (given) answer(given);
    });
    const linkOut = h('input', { readonly: true, hidden: true, 'data-testid': 'lesson-link-url', 'aria-label': 'Link to this lesson' });
    panel.replaceChildren(...[
      h('div', { class: 'lesson-head' },
        h('h3', { id: 'lesson-title', 'data-testid': 'lesson-title' }, v.title),
        h('button', { type: 'button', 'data-testid': 'lesson-link', onclick: () => link(linkOut) }, 'Copy a link to this lesson'),
        h('button', { type: 'button', 'data-testid': 'lesson-close', onclick: close }, 'Close the lesson')),
      linkOut,
      h('div', { 'data-testid': 'lesson-intro' }, v.intro.map((p) => h('p', {}, p))),
      v.warnings.length ? h('ul', { class: 'diagnostics' }, v.warnings.map((d) => h('li', { class: d.severity }, diagText(d)))) : null,
      form,
      h('p', { class: 'lesson-verdict', 'data-testid': 'lesson-verdict', role: 'status', hidden: true }),
      h('div', { class: 'lesson-failures', 'data-testid': 'lesson-failures', role: 'alert', hidden: true })].filter(Boolean));
    panel.hidden = false;
  }

  /** The student's answer from the form, or null (and a message) when there is none yet. */
  function readAnswer(form, q) {
    const verdict = panel.querySelector('[data-testid=lesson-verdict]');
    if (q.kind === 'choice') {
      const picked = form.querySelector('input[name=lesson-choice]:checked');
      if (picked) return { choice: Number(picked.value) };
    } else {
      const input = form.querySelector('[data-testid=lesson-number]');
      if (input.value !== '' && Number.isFinite(Number(input.value))) return { value: Number(input.value) };
    }
    verdict.hidden = false;
    verdict.className = 'lesson-verdict';
    verdict.textContent = q.kind === 'choice' ? 'Pick a choice first (or show the results without answering).' : 'Type a number first (or show the results without answering).';
    return null;
  }

  /** The lesson's runs shown: one per policy of the lesson, as run handles. */
  async function handles() {
    await settled();
    const refs = runs().slice(0, current.view.policies.length);
    return Promise.all(refs.map((r) => sim.runHandle(r)));
  }

  /** Reveals the results: grades `given` ({choice} or {value}; null: no answer). */
  async function answer(given) {
    if (!current) return;
    const lesson = current;
    const r = await sim.call('revealLesson', lesson.text, JSON.stringify(given ? { runs: await handles(), answer: given } : { runs: await handles() }));
    if (current !== lesson) return;
    const verdict = panel.querySelector('[data-testid=lesson-verdict]');
    verdict.hidden = false;
    if (r.type !== 'success') {
      verdict.className = 'lesson-verdict error';
      verdict.textContent = `The answer could not be checked: ${r.errors.map(diagText).join('; ')}`;
      return;
    }
    lesson.answered = true;
    const v = r.value;
    const g = v.grade;
    verdict.className = `lesson-verdict ${g.correct == null ? '' : g.correct ? 'right' : 'wrong'}`;
    verdict.dataset.correct = String(g.correct);
    verdict.textContent = (g.correct == null ? `The answer: ${g.answer}.`
      : g.correct ? `Right: ${g.answer}.` : `Not quite: you answered ${g.given}; the answer is ${g.answer}.`)
      + (v.ownRuns ? '' : ' (On the policies or options as you changed them, not the lesson\'s own.)');
    for (const el of panel.querySelectorAll('form input, form button')) /** @type {any} */ (el).disabled = true;
    panel.querySelector('[data-testid=lesson-hidden-note]').textContent = 'The results are shown below.';
    failures(v);
    caption.replaceChildren(
      h('strong', {}, v.title), ' ', h('span', { class: 'lesson-verdict-copy' }, verdict.textContent),
      ...v.explanation.map((p) => h('p', {}, p)),
      // The conditions with their figures, one click away, so that the figures below stay in view.
      h('details', { class: 'lesson-conditions-box', 'data-testid': 'lesson-conditions-box' },
        h('summary', { 'data-testid': 'lesson-conditions-summary' }, conditionsSummary(v)),
        h('ul', { class: 'lesson-conditions', 'data-testid': 'lesson-conditions' }, v.conditions.map((c) => h('li', { 'data-holds': String(c.holds), class: c.holds ? 'holds' : 'fails' },
          h('span', { class: 'mark', 'aria-label': c.holds ? 'holds' : 'does not hold' }, c.holds ? '✓ ' : '✗ '), h('code', {}, c.text),
          h('span', { class: 'figures' }, ` ${c.error ?? c.figures.map((f) => `${f.figure} = ${f.text}`).join(', ')}`))))));
    caption.hidden = false;
    document.body.classList.remove('lesson-pending');
    toTop(/** @type {HTMLElement} */ (caption.closest('section')) ?? caption);
  }

  /** Scrolls the result to the top of its column, the reveal first and the figures it speaks of
   * after it. In the wide layout the column scrolls on its own: only it moves (scrolling into
   * view would also move the page, whose absolutely placed screen-reader tables overflow it). */
  function toTop(el) {
    const column = /** @type {HTMLElement | null} */ (el.closest('.right'));
    if (column && getComputedStyle(column).overflowY === 'auto') {
      column.scrollTop += el.getBoundingClientRect().top - column.getBoundingClientRect().top - 8;
    } else show(el);
  }

  /** `What the run shows: all 4 conditions of the lesson hold` (or how many do not). */
  function conditionsSummary(v) {
    const n = v.conditions.length, failed = v.conditions.filter((c) => !c.holds).length;
    return `What the run shows: ${failed ? `${failed} of the lesson's ${n} conditions do not hold` : `${n === 1 ? 'the' : `all ${n}`} condition${n === 1 ? '' : 's'} of the lesson hold${n === 1 ? 's' : ''}`}`;
  }

  /** The conditions that fail on the lesson's own run: an error for the lesson's author. */
  function failures(v) {
    const box = panel.querySelector('[data-testid=lesson-failures]');
    box.hidden = !v.failures.length;
    box.replaceChildren(...(v.failures.length ? [
      h('p', {}, 'This lesson is wrong about its own run (an error in the lesson file):'),
      h('ul', { class: 'diagnostics' }, v.failures.map((f) => h('li', { class: 'error' }, f)))] : []));
  }

  /** After a run: the first results of the lesson's own runs check its conditions. */
  async function onResults() {
    if (!current || current.checked || current.answered) return;
    const lesson = current;
    const r = await sim.call('revealLesson', lesson.text, JSON.stringify({ runs: await handles() }));
    if (current !== lesson || r.type !== 'success' || !r.value.ownRuns) return;
    lesson.checked = true;
    if (r.value.failures.length) { failures(r.value); show(panel); }
  }

  async function link(out) {
    if (!current) return;
    const url = `${location.origin}${location.pathname}${await encodeLesson(current.text)}`;
    out.value = url;
    out.hidden = false;
    out.select();
    navigator.clipboard?.writeText(url).catch(() => {});
  }

  return {
    open,
    close,
    onResults,
    /** The open lesson's text (null when none), for share links. */
    text: () => current?.text ?? null,
    /** Whether a lesson is open and not answered yet. */
    pending: () => current != null && !current.answered,
  };
}
