/** jsdom shims the Handsontable grid needs in tests (added to the shared jest-react setup). */

// Handsontable watches its root's visibility; jsdom has no IntersectionObserver.
class NoopIntersectionObserver {
  readonly root = null;
  readonly rootMargin = '';
  readonly thresholds = [];
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}
globalThis.IntersectionObserver ??= NoopIntersectionObserver as unknown as typeof IntersectionObserver;

// jsdom's CSS parser rejects the theme's modern syntax and reports each sheet through console.error.
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  const first = args[0];
  if (first instanceof Error && first.message.startsWith('Could not parse CSS stylesheet')) return;
  consoleError(...args);
};

// jsdom computes styles by matching every stylesheet rule against the element (seconds per grid
// render with Handsontable's theme rules, which it asks for each cell). jsdom has no layout, so
// those values mean nothing here: inside a grid, the element's inline style stands in for them.
const computedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = ((element: Element, pseudo?: string | null) =>
  element instanceof HTMLElement && element.closest('.ht-root-wrapper, .handsontable')
    ? element.style
    : computedStyle(element, pseudo)) as typeof window.getComputedStyle;

// Handsontable asks whether its root is visible through checkVisibility() (which jsdom lacks),
// else by computing the style of every ancestor. Without layout, inline display and `hidden`
// are what makes an element invisible here.
if (!('checkVisibility' in Element.prototype)) {
  Object.defineProperty(Element.prototype, 'checkVisibility', {
    configurable: true,
    value(this: Element) {
      for (let node: Element | null = this; node; node = node.parentElement) {
        if (node instanceof HTMLElement && (node.hidden || node.style.display === 'none')) return false;
      }
      return this.isConnected;
    },
  });
}

// The theme's stylesheets are stubbed out above (no layout to style): Handsontable says so on each grid.
const consoleWarn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('theme is enabled, but its stylesheets are missing')) return;
  consoleWarn(...args);
};

// jsdom has no Worker: grids compute their formulas with the worker's own code, in the page.
jest.mock('../grid/formulas/start-formula-worker.js', () => ({
  ...jest.requireActual('../grid/formulas/start-formula-worker.js'),
  startFormulaWorker: () => (jest.requireActual('./in-page-formula-worker.js') as typeof import('./in-page-formula-worker.js')).inPageFormulaWorker(),
}));
