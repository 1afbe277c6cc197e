import { CATEGORY_NAMES } from '../constants.js';
import { CATEGORY_COLOR_CYCLE, CATEGORY_ICONS, categoryColor } from './category-style.js';

describe('category style', () => {
  it('every category has its own icon', () => {
    const icons = CATEGORY_NAMES.map((c) => CATEGORY_ICONS[c]);
    expect(icons.every((icon) => icon.length > 0)).toBe(true);
    expect(new Set(icons).size).toBe(CATEGORY_NAMES.length);
  });

  it('colours follow the categories round a cycle of six distinct colours', () => {
    expect(new Set(CATEGORY_COLOR_CYCLE).size).toBe(6);
    expect(CATEGORY_NAMES.map(categoryColor)).toEqual(CATEGORY_COLOR_CYCLE.slice(0, CATEGORY_NAMES.length));
  });
});
