// mulberry32 has one definition, in shared-contracts' test support (also used by its own tests and the benchmarks).
export { seededRandom } from '@tessera/contracts/testing/seeded-random';
