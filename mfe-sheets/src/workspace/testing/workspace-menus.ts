import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type Handsontable from 'handsontable/base';

/** Opens File and picks an item with the keyboard (Zag's menus take pointer selection jsdom cannot give). */
export async function chooseFromFileMenu(testId: string): Promise<void> {
  await userEvent.click(screen.getByTestId('file-menu'));
  await waitFor(() => expect(screen.getByRole('menu')).toHaveFocus());
  const item = await screen.findByTestId(testId);
  for (let i = 0; i < 8 && !item.hasAttribute('data-highlighted'); i++) await userEvent.keyboard('{ArrowDown}');
  expect(item).toHaveAttribute('data-highlighted');
  await userEvent.keyboard('{Enter}');
}

/** An entry of the grid's context menu as the user sees it: enabled or greyed out. */
export function menuEntry(hot: Handsontable, name: string): 'enabled' | 'disabled' {
  const menu = hot.getPlugin('contextMenu');
  act(() => menu.open({ top: 0, left: 0, width: 0, height: 0 }));
  const entry = [...document.querySelectorAll('.htContextMenu td')].find((td) => td.textContent === name);
  const state = entry?.classList.contains('htDisabled') ? 'disabled' : 'enabled';
  act(() => menu.close());
  return state;
}

/** The texts of the grid's context menu as it opens for the current selection. */
export function menuTexts(hot: Handsontable): (string | null)[] {
  const menu = hot.getPlugin('contextMenu');
  act(() => menu.open({ top: 0, left: 0, width: 0, height: 0 }));
  const texts = [...document.querySelectorAll('.htContextMenu td')].map((td) => td.textContent);
  act(() => menu.close());
  return texts;
}
