import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/**
 * Presses Escape until no menu is open. A menu takes the focus a frame after it opens; an Escape
 * pressed before that (on a busy machine) reaches nothing and leaves the menu open.
 */
export async function closeMenu(): Promise<void> {
  await waitFor(async () => {
    await userEvent.keyboard('{Escape}');
    expect(screen.queryAllByRole('menuitem')).toHaveLength(0);
  });
}
