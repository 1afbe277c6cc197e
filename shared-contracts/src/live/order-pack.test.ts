import { packOrder, unpackOrder } from './order-pack.js';

/** A shuffled 0 … n-1 from a fixed seed. */
function shuffled(n: number, seed = 7): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  let s = seed;
  for (let i = n - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

test('an order packs to a short text and back, whatever its shape', () => {
  const identity = Array.from({ length: 100_000 }, (_, i) => i);
  const reversed = [...identity].reverse();
  // A column of 100 distinct values sorted: every 100th row, 100 times (the bench's column C).
  const strided = Array.from({ length: 100_000 }, (_, i) => (i % 1000) * 100 + Math.floor(i / 1000));
  for (const order of [[], [0], [1, 0], identity, reversed, strided, shuffled(1000), shuffled(100_000)]) {
    expect(Array.from(unpackOrder(packOrder(order), order.length)!)).toEqual(order);
  }
  expect(packOrder(identity).length).toBeLessThan(16);
  expect(packOrder(reversed).length).toBeLessThan(16);
  // 17 bits an entry for 100,000 rows, base64: about 284 KB, against ~590 KB of JSON.
  expect(packOrder(shuffled(100_000)).length).toBeLessThan(0.5 * JSON.stringify(shuffled(100_000)).length);
});

test('a text that is not an order of that many rows unpacks to null', () => {
  const packed = packOrder([2, 0, 1]);
  expect(unpackOrder(packed, 4)).toBeNull();
  expect(unpackOrder(packed, 2)).toBeNull();
  expect(unpackOrder(packOrder([0, 0, 1]), 3)).toBeNull();
  expect(unpackOrder('x', 0)).toBeNull();
  expect(unpackOrder('r%%%', 3)).toBeNull();
  expect(unpackOrder('r', 3)).toBeNull();
  expect(unpackOrder(packed, -1)).toBeNull();
  expect(unpackOrder(packed, 1e12)).toBeNull();
});
