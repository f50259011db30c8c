// The teaching gallery: the lessons of www/lessons/, one button each, and a picker for a lesson
// file of one's own. A lesson's content lives in its file only (fetched as lessons/<id>.json and
// read by Rust's readLesson); this lists which files the gallery shows, in order.
import { h, diagText } from './state.js';

/** The gallery's lessons: the files www/lessons/<id>.json, in the order shown. */
export const GALLERY = ['spread-pack', 'head-of-line', 'subset-size', 'time-shifting', 'task-stopper'];

/**
 * A strip of buttons and the lesson file picker; `onLesson(text, source)` opens a lesson's text.
 * The buttons' titles and descriptions come from the files, through `lint` (readLesson).
 * @param {HTMLElement} el
 * @param {{lint: any, onLesson: (text: string, source: string) => void, maxBytes: () => number}} o
 */
export function createGallery(el, { lint, onLesson, maxBytes }) {
  const list = h('ul', { class: 'lessons' });
  const status = h('p', { class: 'loader-msg', 'data-testid': 'lesson-file-msg', 'aria-live': 'polite' });
  const picker = h('input', { type: 'file', id: 'lesson-file', accept: '.json', 'data-testid': 'lesson-file' });
  picker.addEventListener('change', async () => {
    const file = picker.files[0];
    picker.value = '';
    if (!file) return;
    if (file.size > maxBytes()) {
      status.textContent = `${file.name} is ${(file.size / 2 ** 20).toFixed(1)} MiB; a lesson file is at most ${maxBytes() / 2 ** 20} MiB`;
      return;
    }
    status.textContent = '';
    onLesson(await file.text(), file.name);
  });
  el.append(
    h('div', { class: 'lessons-head' }, h('h2', {}, 'Lessons'),
      h('span', { class: 'hint' }, 'predict, then see: each asks a question about a run before showing it')),
    list, status);
  // Each button as soon as its file is read; a file that fails says so in its place.
  for (const id of GALLERY) {
    const item = h('li', {});
    list.append(item);
    (async () => {
      const r = await fetch(`lessons/${id}.json`);
      const text = r.ok ? await r.text() : null;
      const read = text == null ? null : await lint.call('readLesson', text);
      if (read?.type !== 'success') {
        item.append(h('span', { class: 'error' }, `lessons/${id}.json: ${read ? read.errors.map(diagText).join('; ') : `HTTP ${r.status}`}`));
        return;
      }
      const doc = read.value.intro.join(' ');
      item.append(
        h('button', { type: 'button', class: 'lesson', 'data-testid': `lesson-${id}`, 'data-lesson': id, 'aria-describedby': `lesson-doc-${id}`,
          title: doc, onclick: () => onLesson(text, `lessons/${id}.json`) }, read.value.title),
        h('span', { id: `lesson-doc-${id}`, class: 'visually-hidden' }, doc));
    })();
  }
  // After the gallery's buttons, in their row: a lesson file of one's own.
  list.append(h('li', { class: 'lesson-open' }, h('label', { for: 'lesson-file' }, 'Open a lesson file '), picker));
}
