// Drawing only what can be seen. A canvas out of view (below the page's first screen, in a
// closed <details>, or hidden) is not redrawn when what it shows changes: the draw is owed, and
// made when the canvas comes within a margin of the viewport. On surf_week an edit would
// otherwise redraw two timelines (the run's placements, then its result), four strips and the
// hosts' chart, nearly all of it below the first screen: tens of milliseconds of the main
// thread per edit, during which a keystroke waits (README, "Speed").

/** How far outside the viewport a canvas still counts as shown: it is drawn just before it
 * scrolls in. */
const MARGIN = '200px 0px';

/** @type {WeakMap<Element, (shown: boolean) => void>} */
const watchers = new WeakMap();
/** @type {IntersectionObserver | null} */
let observer = null;

function observe(element, onChange) {
  observer ??= new IntersectionObserver((entries) => {
    for (const e of entries) watchers.get(e.target)?.(e.isIntersecting);
  }, { rootMargin: MARGIN });
  watchers.set(element, onChange);
  observer.observe(element);
}

/**
 * Watches `element` for `draw`, which paints it. Until the browser first reports where the
 * element is, it counts as shown (a draw is never held back on a guess).
 * @param {Element} element
 * @param {() => void} draw
 * @returns {{draw: () => void, flush: () => void, shown: () => boolean}} `draw()` runs `draw`
 *   now if the element is shown, else when it comes into view; `flush()` runs a draw still
 *   owed (before something reads the pixels, such as an export); `shown()` says which.
 */
export function drawWhenShown(element, draw) {
  let shown = true, owed = false;
  const run = () => { owed = false; draw(); };
  observe(element, (now) => {
    shown = now;
    if (shown && owed) run();
  });
  return {
    draw: () => { if (shown) run(); else owed = true; },
    flush: () => { if (owed) run(); },
    shown: () => shown,
  };
}
