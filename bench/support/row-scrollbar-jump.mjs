// A jump with a windowed grid's row scroll bar, run in the page (page.evaluate(jumpInPage, …)):
// million-rows and million-versions time it.

/**
 * In the page: set the windowed grid's row scroll bar to `fraction` and resolve with the ms until a
 * frame draws a cell holding `{tag}{n}` with n within 50 rows of `target`; rejects after `limitMs`.
 * Self-contained: Playwright sends its text to the page.
 */
export function jumpInPage({ fraction, target, tag, limitMs = 60_000 }) {
  const root = document.querySelector('[data-testid="sheet-grid"]');
  const bar = root.querySelector('[data-testid="row-scrollbar"]');
  const pattern = new RegExp(`^${tag}(\\d+)$`);
  const near = () => [...root.querySelectorAll('.ht_master td')].some((td) => {
    const m = pattern.exec(td.textContent ?? '');
    return m !== null && Math.abs(Number(m[1]) - target) <= 50;
  });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    bar.scrollTop = fraction * (bar.scrollHeight - bar.clientHeight);
    const frame = () => {
      if (near()) resolve(performance.now() - t0);
      else if (performance.now() - t0 > limitMs) reject(new Error(`not drawn within ${limitMs / 1000} s`));
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}
