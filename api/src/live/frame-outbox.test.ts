import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrameOutbox, sendBounded } from './frame-outbox.js';

describe('FrameOutbox', () => {
  it('sends the frames of one turn to a socket as one array message, a lone frame as itself', async () => {
    const written: [string, unknown][] = [];
    const outbox = new FrameOutbox<string>((conn, data) => written.push([conn, JSON.parse(data.toString('utf8'))]));
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

  it('builds the message once for the sockets that get the same frames in a turn, and one of their own for the others', async () => {
    const written = new Map<string, Buffer>();
    const outbox = new FrameOutbox<string>((conn, data) => written.set(conn, data));
    const op1 = '{"type":"operation","data":{"version":1,"value":"é"}}';
    const op2 = '{"type":"operation","data":{"version":2}}';
    const ack2 = '{"type":"ack","data":{"version":2}}';
    for (const conn of ['a', 'b', 'c']) outbox.send(conn, op1);
    outbox.send('a', op2);
    outbox.send('b', op2);
    outbox.send('c', ack2);
    outbox.send('d', op2);
    outbox.send('e', op2);
    await new Promise((r) => setImmediate(r));
    assert.ok([...written.values()].every((m) => Buffer.isBuffer(m)), 'encoded once, not per socket');
    assert.equal(written.get('a'), written.get('b'), 'one message (the same bytes) shared by a and b');
    assert.equal(written.get('d'), written.get('e'), 'one message shared by d and e');
    assert.notEqual(written.get('a'), written.get('c'));
    assert.equal(written.get('a')!.toString('utf8'), `[${op1},${op2}]`);
    assert.equal(written.get('c')!.toString('utf8'), `[${op1},${ack2}]`);
    assert.equal(written.get('d')!.toString('utf8'), op2);
  });
});

describe('sendBounded', () => {
  const socket = (bufferedAmount: number, readyState = 1) => {
    const sent: [string | Buffer, { binary: boolean }][] = [];
    return { sent, readyState, bufferedAmount, send: (data: string | Buffer, options: { binary: boolean }) => void sent.push([data, options]) };
  };

  it('sends while what waits unread is within the bound (one big message on an idle socket too)', () => {
    const idle = socket(0);
    assert.equal(sendBounded(idle, 'x'.repeat(500), 100), 'sent');
    const under = socket(100);
    assert.equal(sendBounded(under, 'y', 100), 'sent');
    assert.deepEqual([idle.sent.length, under.sent.length], [1, 1]);
    assert.deepEqual(under.sent[0][1], { binary: false }, 'a text message, whether a string or UTF-8 bytes');
  });

  it("says 'behind' and sends nothing once more than the bound waits; 'closed' for a socket no longer open", () => {
    const behind = socket(101);
    assert.equal(sendBounded(behind, 'z', 100), 'behind');
    const closing = socket(0, 2);
    assert.equal(sendBounded(closing, 'z', 100), 'closed');
    assert.deepEqual([behind.sent, closing.sent], [[], []]);
  });
});
