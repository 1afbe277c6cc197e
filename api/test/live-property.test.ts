import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type CellValue, SheetSchema, type LiveServerFrame } from '@tessera/contracts';
import { type ApiClient, apiClient } from './support/api-client.js';
import { signupAdmin } from './support/auth-helpers.js';
import { signedInMember } from './support/members.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { LiveClient, listen, Replica } from './live-client.js';

/**
 * Order and convergence under concurrent writers, as a property: for any interleaving of cell
 * operations from several sockets (and REST PATCHes from outside), sent without waiting for acks,
 * every socket gets each version exactly once and in order, and every replica that applies them
 * ends equal to the server's sheet (GET). Bounded: a few runs of a few dozen operations (CI has
 * 2 cores); fast-check shrinks a failure to a small interleaving and prints its seed.
 */
const NUM_RUNS = 8;

type Cell = { row: number; col: number; value: CellValue };
type Step =
  | { kind: 'cell'; client: number; cell: Cell }
  | { kind: 'cells'; client: number; cells: Cell[] }
  | { kind: 'rest'; cells: Cell[] }
  /** Lets the event loop run: frames arrive and the server works between bursts. */
  | { kind: 'yield' };

// A small area (8×6, beyond the 6×5 sheet) so that writers collide on cells and rows grow.
const cellArb = fc.record({
  row: fc.nat({ max: 7 }),
  col: fc.nat({ max: 5 }),
  value: fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -999, max: 999 }), fc.constant(null)),
});
const stepArb = (clients: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('cell' as const), client: fc.nat({ max: clients - 1 }), cell: cellArb }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cells' as const), client: fc.nat({ max: clients - 1 }), cells: fc.array(cellArb, { minLength: 1, maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('rest' as const), cells: fc.array(cellArb, { minLength: 1, maxLength: 3 }) }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'yield' as const }) },
  );
const scenarioArb = fc.integer({ min: 2, max: 4 }).chain((clients) => fc.record({ clients: fc.constant(clients), steps: fc.array(stepArb(clients), { minLength: 1, maxLength: 40 }) }));

describe('live sheet socket: order and convergence (property)', () => {
  let t: TestApp;
  let base: string;
  let api: ApiClient;
  let tokens: string[];

  before(async () => {
    t = await createTestApp();
    const admin = await signupAdmin(t.app);
    api = apiClient(t.app, admin.accessToken);
    // Two tabs of one user among the sockets too (tokens[0] twice when there are 4).
    tokens = [admin.accessToken, (await signedInMember(t.app, 'user')).accessToken, (await signedInMember(t.app, 'user')).accessToken, admin.accessToken];
    base = await listen(t.app);
  });
  after(async () => {
    await t.close();
  });

  it('every replica that applies the frames by version ends equal to the server sheet', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async ({ clients: count, steps }) => {
        const created = await api.post('/api/v1/sheets', { name: `Prop ${Math.random().toString(36).slice(2, 10)}`, metadata: { rows: 6, columns: 5 } });
        assert.equal(created.statusCode, 201, created.body);
        const s = SheetSchema.parse(created.json());
        const clients = await Promise.all(Array.from({ length: count }, (_, i) => LiveClient.join(base, s.id, tokens[i], { since: s.version, label: `socket ${i}` })));
        try {
          const replicas = clients.map(() => new Replica(structuredClone(s.data), s.version));
          const rest: Promise<number>[] = [];
          let sent = 0;
          for (const [n, step] of steps.entries()) {
            if (step.kind === 'yield') {
              await new Promise((r) => setImmediate(r));
            } else if (step.kind === 'rest') {
              // From outside the socket, on a base that may be stale: merged, or refused with 409 where a cell clashed.
              rest.push(api.patch(`/api/v1/sheets/${s.id}/cells`, { base_version: s.version, changes: step.cells }).then((r) => r.statusCode));
            } else {
              const id = `op-${n}`;
              const cells = step.kind === 'cell' ? [step.cell] : step.cells;
              replicas[step.client].sent.set(id, cells);
              const operation =
                step.kind === 'cell'
                  ? { id, type: 'cell_update', position: { row: step.cell.row, column: step.cell.col }, value: step.cell.value }
                  : { id, type: 'cells_update', changes: step.cells };
              clients[step.client].send({ type: 'operation', sheet_id: s.id, operation });
              sent += 1;
            }
          }
          const restApplied = (await Promise.all(rest)).filter((status) => {
            assert.ok(status === 200 || status === 409, `REST PATCH answered ${status}`);
            return status === 200;
          }).length;
          const finalVersion = s.version + sent + restApplied;
          for (const c of clients) {
            await c.waitFor((frames) => ((lastVersion(frames) ?? s.version) === finalVersion ? true : undefined), `version ${finalVersion} on ${c.label}`);
          }
          const truth = SheetSchema.parse((await api.get(`/api/v1/sheets/${s.id}`)).json());
          assert.equal(truth.version, finalVersion);
          for (const [i, c] of clients.entries()) {
            const versions = c.frames.flatMap((f) => (f.type === 'operation' || f.type === 'ack' ? [f.data.version] : []));
            assert.deepEqual(
              versions,
              Array.from({ length: finalVersion - s.version }, (_, k) => s.version + 1 + k),
              `${c.label}: each version once, in order`,
            );
            replicas[i].absorb(c.frames);
            assert.equal(replicas[i].version, finalVersion);
            assert.deepEqual(replicas[i].grid, truth.data, `${c.label}'s replica equals the server's sheet`);
            assert.deepEqual(c.frames.filter((f) => f.type === 'error'), []);
          }
        } finally {
          await Promise.all(clients.map((c) => c.close()));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

function lastVersion(frames: LiveServerFrame[]): number | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if (f.type === 'operation' || f.type === 'ack') return f.data.version;
  }
  return undefined;
}
