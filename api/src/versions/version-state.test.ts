import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VERSION_STATUSES } from '@tessera/contracts';
import { HttpError } from '../http/http-error.js';
import { transition, type VersionAction } from './version-state.js';

const ACTIONS: VersionAction[] = ['accept', 'checkout', 'restore', 'discard'];

/** The whole table, written out: every pair not here must be refused. */
const ALLOWED: Record<string, string> = {
  'accept/proposed': 'new_live',
  'checkout/archived': 'new_live',
  'restore/archived': 'new_live',
  'discard/proposed': 'removed',
  'discard/archived': 'removed',
};

describe('version state machine', () => {
  for (const action of ACTIONS) {
    for (const status of VERSION_STATUSES) {
      const key = `${action}/${status}`;
      if (ALLOWED[key]) {
        it(`allows ${key} → ${ALLOWED[key]}`, () => assert.equal(transition(action, status), ALLOWED[key]));
      } else {
        it(`refuses ${key} with a 409 that says why`, () => {
          assert.throws(
            () => transition(action, status),
            (err: unknown) => err instanceof HttpError && err.statusCode === 409 && err.code === 'conflict' && err.message.length > 10,
          );
        });
      }
    }
  }
});
