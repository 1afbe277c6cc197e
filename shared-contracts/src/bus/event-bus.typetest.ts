/**
 * Compile-time proof that the bus rejects wrong payloads: each line marked
 * @ts-expect-error must fail to type-check, or `tsc` fails on this file.
 * event-bus.types.test.ts also compiles these lines without the markers and
 * expects an error for each.
 */
import { createEventBus } from './event-bus.js';

const bus = createEventBus();

bus.emit('sheet-created', { sheetId: 's1', name: 'ok' });
bus.on('sheet-snapshot-merged', (p) => p.version.toFixed());

// @ts-expect-error name is required on sheet-created
bus.emit('sheet-created', { sheetId: 's1' });
// @ts-expect-error sheetId must be a string
bus.emit('sheet-loaded', { sheetId: 42 });
// @ts-expect-error unknown event name
bus.emit('sheet-exploded', { sheetId: 's1' });
// @ts-expect-error the listener's payload has no field `versionId`
bus.on('sheet-loaded', (p) => p.versionId);
