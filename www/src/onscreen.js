// Drawing only what can be seen. A canvas out of view (below the page's first screen, further
// down a scrolling column, in a closed <details>, or hidden) is not redrawn when what it shows
// changes: the draw is owed, and made when the canvas comes within a margin of the view. On
// surf_week an edit would otherwise redraw two timelines (the run's placements, then its
// result), four strips and the hosts' chart, nearly all of it below the first screen: tens of
// milliseconds of the main thread per edit, during which a keystroke waits (README, "Speed").
// Printing makes every owed draw first.

/** How far outside the view a canvas still counts as shown (in the viewport and in the
 * scrolling column that holds it): it is drawn just before it scrolls in. */
const MARGIN_PX = 200;
const MARGIN = `${MARGIN_PX}px 0px`;

/** @type {WeakMap<Element, (shown: boolean) => void>} */
const watchers = new WeakMap();
/** Every handle, to flush before printing (the canvases are made once, when the page starts). */
const handles = new Set();
/** @type {IntersectionObserver | null} */
let observer = null;

function observe(element, onChange) {
  if (!observer) {
    // scrollMargin widens the clip of a scrolling column too (rootMargin only the viewport's).
    const options = /** @type {IntersectionObserverInit} */ ({ rootMargin: MARGIN, scrollMargin: MARGIN });
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) watchers.get(e.target)?.(e.isIntersecting);
    }, options);
    window.addEventListener('beforeprint', () => { for (const h of handles) h.flush(); });
  }
  watchers.set(element, onChange);
  observer.observe(element);
}

/** Whether a box (getBoundingClientRect) lies within the margin of the viewport. */
function nearViewport(r) {
  return r.width > 0 && r.height > 0 && r.bottom > -MARGIN_PX && r.top < window.innerHeight + MARGIN_PX;
}

/**
 * Watches `element` for `draw`, which paints it. Until the browser first reports where the
 * element is, it counts as shown (a draw is never held back on a guess).
 * @param {Element} element
 * @param {() => void} draw
 * @returns {{draw: () => void, resized: () => void, flush: () => void}} `draw()` runs `draw`
 *   now if the element is shown, else when it comes into view; `resized()`, after the canvas was
 *   given a new size (which blanks it), runs it at once when the canvas is near the viewport
 *   (the observer's next report would come a frame later, as for a timeline just shown), else
 *   as `draw()`; `flush()` runs a draw still owed (before something reads the pixels: an
 *   export, printing).
 */
export function drawWhenShown(element, draw) {
  let shown = true, owed = false;
  const run = () => { owed = false; draw(); };
  observe(element, (now) => {
    shown = now;
    if (shown && owed) run();
  });
  const handle = {
    draw: () => { if (shown) run(); else owed = true; },
    resized: () => { if (nearViewport(element.getBoundingClientRect())) run(); else handle.draw(); },
    flush: () => { if (owed) run(); },
  };
  handles.add(handle);
  return handle;
}
