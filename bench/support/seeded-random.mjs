// mulberry32 has one definition, in shared-contracts' test support (built to its dist by the
// bootstrap that `npm run bench` runs first); every run of a bench makes the same data.
export { seededRandom } from '../../shared-contracts/dist/testing/seeded-random.js';
