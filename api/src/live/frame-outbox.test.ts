import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameOutbox } from './frame-outbox.js';

describe('FrameOutbox', () => {
  it('sends the frames of one turn to a socket as one array message, a lone frame as itself', async () => {
    const written: [string, unknown][] = [];
    const outbox = new FrameOutbox<string>((conn, text) => written.push([conn, JSON.parse(text)]));
    outbox.send('a', '{"type":"ack","data":1}');
    outbox.send('b', '{"type":"operation","data":1}');
    outbox.send('a', '{"type":"operation","data":2}');
    assert.equal(written.length, 0, 'nothing before the turn ends');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(written, [
      ['a', [{ type: 'ack', data: 1 }, { type: 'operation', data: 2 }]],
      ['b', { type: 'operation', data: 1 }],
    ]);
    outbox.send('a', '{"type":"sync","data":3}');
    outbox.flush('a');
    assert.deepEqual(written[2], ['a', { type: 'sync', data: 3 }], 'flushed at once before a close');
  });
});
