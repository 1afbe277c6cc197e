import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameOutbox, sendBounded } from './frame-outbox.js';

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

describe('sendBounded', () => {
  const socket = (bufferedAmount: number, readyState = 1) => {
    const sent: string[] = [];
    return { sent, readyState, bufferedAmount, send: (text: string) => void sent.push(text) };
  };

  it('sends while what waits unread is within the bound (one big message on an idle socket too)', () => {
    const idle = socket(0);
    assert.equal(sendBounded(idle, 'x'.repeat(500), 100), 'sent');
    const under = socket(100);
    assert.equal(sendBounded(under, 'y', 100), 'sent');
    assert.deepEqual([idle.sent.length, under.sent.length], [1, 1]);
  });

  it("says 'behind' and sends nothing once more than the bound waits; 'closed' for a socket no longer open", () => {
    const behind = socket(101);
    assert.equal(sendBounded(behind, 'z', 100), 'behind');
    const closing = socket(0, 2);
    assert.equal(sendBounded(closing, 'z', 100), 'closed');
    assert.deepEqual([behind.sent, closing.sent], [[], []]);
  });
});
