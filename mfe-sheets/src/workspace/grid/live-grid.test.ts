import { applyRemoteStructure } from './live-grid.js';

test("another user's insert of 200,000 rows reaches a grid not shown (a spread of them overflowed the call stack)", () => {
  const data = [['a'], ['b']];
  applyRemoteStructure(data, 'rows_insert', 1, 200_000);
  expect(data.length).toBe(200_002);
  expect([data[0], data[1], data[200_000], data[200_001]]).toEqual([['a'], [], [], ['b']]);
  applyRemoteStructure(data, 'rows_remove', 1, 200_000);
  expect(data).toEqual([['a'], ['b']]);
});
