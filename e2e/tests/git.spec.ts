import { expect, test, type Locator, type Page } from '@playwright/test';
import { admin, signIn } from '../support/session';


async function openGitTab(page: Page): Promise<Locator> {
  await page.getByTestId('tab-git').click();
  const panel = page.getByTestId('remote-mfe-git-GitPanel');
  await expect(panel.getByRole('heading', { name: 'Git History' })).toBeVisible();
  return panel;
}

/** Replaces the editor's whole text, typing into Monaco as a user does (focus, select all, type). */
async function replaceEditorText(page: Page, panel: Locator, text: string) {
  const editor = panel.locator('.monaco-editor').first();
  await expect(editor).toBeVisible();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  // insertText: the text as given, without Monaco's auto-closing and auto-indent of typed keys.
  await page.keyboard.insertText(text);
}

test.describe.serial('git: the code repository as a new user', () => {
  test('Monaco loads only when the git tab opens', async ({ page }) => {
    const scripts: { url: string; body: string }[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script' || !response.ok()) return;
      scripts.push({ url: response.url(), body: await response.text().catch(() => '') });
    });
    await signIn(page);
    await page.waitForLoadState('networkidle');
    const beforeTab = scripts.filter((s) => s.body.includes('MonacoEnvironment'));
    expect(beforeTab.map((s) => s.url)).toEqual([]);

    const panel = await openGitTab(page);
    await panel.getByRole('button', { name: 'New File' }).click();
    await panel.getByRole('textbox', { name: 'New file path' }).fill('scratch.json');
    await panel.getByRole('button', { name: 'Create' }).click();
    await expect(panel.locator('.monaco-editor')).toBeVisible();
    expect(scripts.some((s) => s.body.includes('MonacoEnvironment'))).toBe(true);
    // The JSON language worker (started from a blob, across origins) marks invalid JSON.
    await replaceEditorText(page, panel, '{"a": }');
    await expect(panel.locator('.monaco-editor .squiggly-error').first()).toBeAttached();
    await panel.getByRole('button', { name: 'Cancel' }).click();
  });

  test('creates a file, edits it in Monaco, sees the diff, commits and finds it in the history', async ({ page }) => {
    // Monaco's workers come from the remote's origin through blob URLs: none may fail to start.
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await signIn(page);
    const panel = await openGitTab(page);
    await expect(panel.getByText('No commits yet — create your first file to initialize the repository.')).toBeVisible();

    // A new file.
    await panel.getByRole('button', { name: 'New File' }).click();
    await panel.getByRole('textbox', { name: 'New file path' }).fill('scripts/hello.py');
    await panel.getByRole('button', { name: 'Create' }).click();
    await expect(panel.getByRole('button', { name: 'Save' })).toBeDisabled();
    await replaceEditorText(page, panel, 'greeting = "hello"\nprint(greeting)\n');
    await expect(panel.getByTestId('diff-preview')).toContainText('+greeting = "hello"');
    await expect(panel.getByRole('textbox', { name: 'Commit message' })).toHaveAttribute('placeholder', 'Update scripts/hello.py');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(panel.getByRole('status').filter({ hasText: /^Committed$/ })).toBeVisible();
    const commits = panel.getByRole('list', { name: 'Commits' });
    await expect(commits.getByRole('listitem')).toHaveCount(1);
    await expect(commits.getByRole('listitem').first()).toContainText('Update scripts/hello.py');
    await expect(commits.getByRole('listitem').first()).toContainText(admin.username);
    await expect(commits.getByRole('listitem').first()).toContainText(/\dm ago/);
    await panel.getByRole('button', { name: 'Cancel' }).click();

    // Edit it: the diff shows the change before committing; a message of our own.
    await expect(panel.getByTestId('code-preview')).toContainText('print(greeting)');
    await panel.getByRole('button', { name: 'Edit' }).click();
    await replaceEditorText(page, panel, 'greeting = "hello, world"\nprint(greeting)\n');
    const diff = panel.getByTestId('diff-preview');
    await expect(diff).toContainText('-greeting = "hello"');
    await expect(diff).toContainText('+greeting = "hello, world"');
    await panel.getByRole('textbox', { name: 'Commit message' }).fill('Greet the world');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect(panel.getByRole('status').filter({ hasText: /^Committed$/ })).toBeVisible();
    await expect(commits.getByRole('listitem')).toHaveCount(2);
    await expect(commits.getByRole('listitem').first()).toContainText('Greet the world');
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await expect(panel.getByTestId('code-preview')).toContainText('hello, world');

    expect(errors.filter((e) => /worker|monaco/i.test(e))).toEqual([]);

    // After a reload the first .py file opens by itself.
    await page.reload();
    await expect(page.getByTestId('remote-mfe-git-GitPanel').getByTestId('code-preview')).toContainText('hello, world');
  });

  test('a conflicting save from a second context shows the Conflict badge, and Retry Base lets it commit', async ({ browser }) => {
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const [a, b] = [await first.newPage(), await second.newPage()];
      await signIn(a);
      await signIn(b);
      const panelA = await openGitTab(a);
      const panelB = await openGitTab(b);
      for (const panel of [panelA, panelB]) {
        await expect(panel.getByTestId('code-preview')).toContainText('hello, world');
        await panel.getByRole('button', { name: 'Edit' }).click();
      }

      await replaceEditorText(a, panelA, 'greeting = "from A"\nprint(greeting)\n');
      await panelA.getByRole('button', { name: 'Save' }).click();
      await expect(panelA.getByRole('status').filter({ hasText: /^Committed$/ })).toBeVisible();

      await replaceEditorText(b, panelB, 'greeting = "from B"\nprint(greeting)\n');
      await panelB.getByRole('button', { name: 'Save' }).click();
      await expect(panelB.getByText('Conflict: refresh and retry', { exact: true })).toBeVisible();
      await expect(panelB.getByText('Conflict', { exact: true })).toBeVisible();

      await panelB.getByRole('button', { name: 'Retry Base' }).click();
      await expect(panelB.getByText('Base updated – retry Save', { exact: true })).toBeVisible();
      await panelB.getByRole('button', { name: 'Save' }).click();
      await expect(panelB.getByRole('status').filter({ hasText: /^Committed$/ })).toBeVisible();
      await expect(panelB.getByRole('list', { name: 'Commits' }).getByRole('listitem')).toHaveCount(4);

      // A sees B's commit after a Full Refresh.
      await panelA.getByRole('button', { name: 'Cancel' }).click();
      await panelA.getByRole('button', { name: 'Full Refresh' }).click();
      await expect(panelA.getByTestId('code-preview')).toContainText('from B');
    } finally {
      await first.close();
      await second.close();
    }
  });
});
