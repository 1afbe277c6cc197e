/**
 * mulberry32: a small seeded generator of numbers in [0, 1), the one definition that the
 * property tests (shared-contracts, api) and the benchmarks use, so that a failing run replays
 * from the seed it prints and every bench run makes the same data. Test support: exported as
 * `@tessera/contracts/testing/seeded-random`, never from the package's index (no product code
 * imports it, so no bundle carries it).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
