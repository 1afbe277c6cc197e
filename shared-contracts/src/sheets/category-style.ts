import { CATEGORY_NAMES } from '../constants.js';
import type { CategoryName } from './sheet-name.js';

/** Each category's icon (spec 01 §9: 'each with an icon'); an emoji needs no icon library in every remote. */
export const CATEGORY_ICONS: Record<CategoryName, string> = {
  Financial: '💰',
  'Project Management': '📋',
  Operations: '⚙️',
  Analytics: '📊',
  General: '📄',
};

/** The six colours category colours cycle through (spec 01 §9), as Chakra colour palettes. */
export const CATEGORY_COLOR_CYCLE = ['blue', 'green', 'purple', 'orange', 'teal', 'pink'] as const;
export type CategoryColor = (typeof CATEGORY_COLOR_CYCLE)[number];

/** A category's colour: its place among the categories, round the six-colour cycle. */
export function categoryColor(category: CategoryName): CategoryColor {
  const index = Math.max(0, CATEGORY_NAMES.indexOf(category));
  return CATEGORY_COLOR_CYCLE[index % CATEGORY_COLOR_CYCLE.length]!;
}
