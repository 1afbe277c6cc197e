import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { HttpError } from '../http/http-error.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TransferSlots } from './transfer-slots.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof HttpError);
    return { status: err.statusCode, code: err.code, message: err.message };
  }
  assert.fail('not refused');
};

const bounds = (perUser: number, atOnce: number) => ({
  import: { perUser, atOnce },
  export: { perUser, atOnce },
  'sheet read': { perUser, atOnce },
  'sheet copy': { perUser, atOnce },
  restore: { perUser, atOnce },
  save: { perUser, atOnce },
});

test("a member's slots are bounded, with a text that says so; others' are not; a release gives one back, once", () => {
  const slots = new TransferSlots(bounds(2, 8));
  const first = slots.take('export', 'ann');
  slots.take('export', 'ann');
  assert.deepEqual(refusal(() => slots.take('export', 'ann')), { status: 429, code: 'too_many_requests', message: 'You have 2 exports under way. Wait for one to finish.' });
  slots.take('export', 'bob');
  first();
  first();
  assert.equal(slots.inUse('export'), 2);
  slots.take('export', 'ann');
  assert.throws(() => slots.take('export', 'ann'), /2 exports under way/);
});

test("the process's slots are bounded for everyone, with the server's text", () => {
  const slots = new TransferSlots(bounds(2, 3));
  const releases = ['a', 'b', 'c'].map((user) => slots.take('import', user));
  assert.deepEqual(refusal(() => slots.take('import', 'd')), { status: 429, code: 'too_many_requests', message: 'The server is busy with other imports. Try again in a moment.' });
  releases[1]();
  slots.take('import', 'd');
  assert.equal(slots.inUse('import'), 3);
});

test('each kind has its own slots and its own text', () => {
  const slots = new TransferSlots();
  for (let i = 0; i < 4; i++) slots.take('sheet read', 'ann');
  assert.deepEqual(refusal(() => slots.take('sheet read', 'ann')), { status: 429, code: 'too_many_requests', message: 'You have 4 sheet reads under way. Wait for one to finish.' });
  slots.take('sheet copy', 'ann');
  slots.take('sheet copy', 'ann');
  assert.throws(() => slots.take('sheet copy', 'ann'), /You have 2 sheet copies under way/);
  slots.take('restore', 'ann');
  assert.equal(slots.inUse('export'), 0);
});

test("a request's slot is given back when its reply closes; a reply closed before the slot is taken takes none (it would never be given back)", () => {
  const slots = new TransferSlots();
  const request = { user: { id: 'ann' } } as unknown as FastifyRequest;
  const replyOf = (raw: EventEmitter & { destroyed: boolean }) => ({ raw }) as unknown as FastifyReply;
  const open = Object.assign(new EventEmitter(), { destroyed: false });
  slots.hold('sheet copy', request, replyOf(open));
  assert.equal(slots.inUse('sheet copy'), 1);
  open.emit('close');
  assert.equal(slots.inUse('sheet copy'), 0);
  const gone = Object.assign(new EventEmitter(), { destroyed: true });
  assert.throws(() => slots.hold('sheet copy', request, replyOf(gone)), /closed by its client/);
  assert.equal(slots.inUse('sheet copy'), 0);
});

test("work that cannot be refused (a live sync with the cells) waits for the process's slot in turn, ahead of requests, and never holds more than the bound", async () => {
  const slots = new TransferSlots(bounds(2, 2));
  const request = slots.take('sheet read', 'ann');
  const first = await slots.wait('sheet read');
  assert.equal(slots.inUse('sheet read'), 2);
  const order: string[] = [];
  const second = slots.wait('sheet read').then((release) => (order.push('second'), release));
  const third = slots.wait('sheet read').then((release) => (order.push('third'), release));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, [], 'both wait while the process holds its bound');
  assert.throws(() => slots.take('sheet read', 'bob'), /The server is busy with other sheet reads/);
  request();
  const releaseSecond = await second;
  assert.deepEqual(order, ['second']);
  assert.equal(slots.inUse('sheet read'), 2);
  assert.throws(() => slots.take('sheet read', 'bob'), /The server is busy/, 'the waiter went first');
  first();
  first();
  (await third)();
  releaseSecond();
  assert.equal(slots.inUse('sheet read'), 0);
  slots.take('sheet read', 'bob');
});
