// The parts of a page below its first screen load after the page's first contentful paint
// and are drawn one at a time, each in a task of its own after a paint: the first paint
// waits for none of them, and no task runs long enough to hold up a tap while they arrive.

/** Settles once the browser has shown the page's first text (the paint timing entry), or after a second without one. */
function firstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint') || painted()) return resolve();
    const observer = new PerformanceObserver(() => {
      if (!painted()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint' });
    setTimeout(() => {
      observer.disconnect();
      resolve();
    }, 1000);
  });
}

/** Settles in a task after the next paint, or after a short wait where a hidden page paints nothing. */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const go = () => {
      if (done) return;
      done = true;
      resolve();
    };
    requestAnimationFrame(() => setTimeout(go, 0));
    setTimeout(go, 250);
  });
}

let firstPaint: Promise<void> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * `load()` started after the first contentful paint, its result handed on after the parts
 * queued before it, in a task after a paint of its own.
 */
export function afterFirstPaint<T>(load: () => Promise<T>): Promise<T> {
  firstPaint ??= firstContentfulPaint();
  const loaded = firstPaint.then(load);
  const shown = queue.then(() => loaded).then(async (value) => {
    await afterNextPaint();
    return value;
  });
  queue = shown.catch(() => undefined);
  return shown;
}
