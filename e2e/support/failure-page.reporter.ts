import { readFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Lines of a failed test's page snapshot printed: enough to tell the screen it was on. */
const MAX_LINES = 60;

/**
 * Prints what the page showed when a test failed (Playwright's error-context attachment: the page's
 * ARIA snapshot), once the run ends. CI keeps only the console, not test-results/: without this a
 * failure there says which locator was missing but not which screen was shown instead.
 */
export default class FailurePageReporter implements Reporter {
  readonly #failed: { title: string; context: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.status === 'passed' || result.status === 'skipped') return;
    for (const attachment of result.attachments) {
      if (attachment.name !== 'error-context' || !attachment.path) continue;
      try {
        this.#failed.push({ title: test.titlePath().filter(Boolean).join(' › '), context: readFileSync(attachment.path, 'utf8') });
      } catch {
        // Gone already: the list reporter's failure text stands alone.
      }
    }
  }

  onEnd() {
    for (const { title, context } of this.#failed) {
      // The error itself the list reporter printed already: the page's part is what is new.
      const page = context.indexOf('# Page snapshot');
      const lines = (page >= 0 ? context.slice(page) : context).split('\n');
      const shown = lines.slice(0, MAX_LINES).join('\n');
      console.log(`\n[e2e] the page when it failed: ${title}\n${shown}${lines.length > MAX_LINES ? `\n… ${lines.length - MAX_LINES} more lines` : ''}\n`);
    }
  }

  printsToStdio() {
    return true;
  }
}
