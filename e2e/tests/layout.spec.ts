import { expect, test } from '@playwright/test';
import { openChat } from '../support/chat-panel';
import { adminToken, signIn } from '../support/session';

// The main screen's frame as a user sees it: one chat resize handle whose width the panel
// fills to the window's edge and keeps after a reload; the Members button covers nothing.
test('the chat panel has one resize handle, fills its box to the window edge and keeps its width after a reload', async ({ page, request }) => {
  await adminToken(request);
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page);
  const panel = (await openChat(page)).getByRole('complementary', { name: 'Chat' });
  const handles = page.getByRole('separator', { name: 'Resize chat panel' });
  await expect(handles).toHaveCount(1);

  const area = page.getByTestId('chat-panel-area');
  await expect(handles).toHaveAttribute('aria-valuenow', '384');
  const grip = (await handles.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2 - 150, grip.y + grip.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(handles).toHaveAttribute('aria-valuenow', '534');

  const noGap = async () => {
    const box = (await area.boundingBox())!;
    const chat = (await panel.boundingBox())!;
    expect(Math.round(box.width)).toBe(534);
    // The box reaches the window's right edge, and the remote's panel starts where the box does:
    // no blank strip between them (two handles, two widths, left one before).
    expect(Math.round(box.x + box.width)).toBe(1400);
    expect(Math.round(chat.x)).toBe(Math.round(box.x));
    expect(chat.width).toBeGreaterThan(box.width - 20);
  };
  await noGap();

  await page.reload();
  await openChat(page);
  await expect(handles).toHaveAttribute('aria-valuenow', '534');
  await noGap();
});

test('the Members button sits in the header, over nothing of the grid', async ({ page, request }) => {
  await adminToken(request);
  await signIn(page);
  const header = (await page.locator('header').boundingBox())!;
  const button = (await page.getByTestId('members-toggle').boundingBox())!;
  expect(button.y).toBeGreaterThanOrEqual(header.y);
  expect(button.y + button.height).toBeLessThanOrEqual(header.y + header.height);
});
