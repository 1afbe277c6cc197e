import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/**
 * Test support: opens the menu of the button named `trigger` and picks `item` by keyboard, as
 * a user can (jsdom has no layout for pointer hover, which Chakra's menus select by).
 */
export async function chooseMenuItem(trigger: string, item: string, role: 'menuitem' | 'menuitemradio' = 'menuitem') {
  await userEvent.click(screen.getByRole('button', { name: trigger }));
  await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
  const target = await screen.findByRole(role, { name: item });
  for (let step = 0; step < 10 && !target.hasAttribute('data-highlighted'); step++) await userEvent.keyboard('{ArrowDown}');
  expect(target).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
}
