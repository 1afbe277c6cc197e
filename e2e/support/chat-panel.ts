import { expect, type Locator, type Page } from '@playwright/test';

/** The chat panel as a user drives it: open it, choose a mode, send a message, read the reply. */

export type AgentMode = 'Agent • AI Powered' | 'Agent • Direct Exec';

/** The chat panel, once the ai-middleware answered its health check and /config. */
export async function openChat(page: Page): Promise<Locator> {
  const panel = page.getByTestId('remote-mfe-chat-ChatPanel');
  // The chat opens with the page; the header's toggle shows it if it was closed.
  const toggle = page.getByRole('button', { name: 'Show chat' });
  if (await toggle.isVisible()) await toggle.click();
  await expect(panel.getByRole('complementary', { name: 'Chat' })).toBeVisible();
  await expect(panel.getByText(/^AI service: builtin .* • Streaming available$/)).toBeVisible();
  return panel;
}

/** Types (or pastes) a message in the composer with the given mode and sends it. */
export async function ask(panel: Locator, mode: AgentMode, message: string) {
  await panel.getByRole('combobox', { name: 'Mode' }).selectOption({ label: mode });
  await panel.getByRole('textbox', { name: 'Message' }).fill(message);
  await expect(panel.getByRole('button', { name: 'Send' })).toBeEnabled();
  await panel.getByRole('button', { name: 'Send' }).click();
}

/** The last AI message, once the reply is over (the progress bar says how it ended: complete, failed or infeasible). */
export async function lastReply(panel: Locator, outcome: 'complete' | 'failed' | 'infeasible' = 'complete'): Promise<Locator> {
  await expect(panel.getByRole('status', { name: 'Progress' })).toContainText(`Final response: ${outcome}`, { timeout: 30_000 });
  return panel.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'AI message' }).last();
}
