import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HttpError } from '../http/http-error.js';
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

test("a member's slots are bounded, with a text that says so; others' are not; a release gives one back, once", () => {
  const slots = new TransferSlots('export', 2, 8);
  const first = slots.take('ann');
  slots.take('ann');
  assert.deepEqual(refusal(() => slots.take('ann')), { status: 429, code: 'too_many_requests', message: 'You have 2 exports under way. Wait for one to finish.' });
  slots.take('bob');
  first();
  first();
  assert.equal(slots.inUse, 2);
  slots.take('ann');
  assert.throws(() => slots.take('ann'), /2 exports under way/);
});

test("the process's slots are bounded for everyone, with the server's text", () => {
  const slots = new TransferSlots('import', 2, 3);
  const releases = ['a', 'b', 'c'].map((user) => slots.take(user));
  assert.deepEqual(refusal(() => slots.take('d')), { status: 429, code: 'too_many_requests', message: 'The server is busy with other imports. Try again in a moment.' });
  releases[1]();
  slots.take('d');
  assert.equal(slots.inUse, 3);
});
