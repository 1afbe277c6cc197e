import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoginBodySchema } from '@tessera/contracts';
import { HttpError } from './http-error.js';
import { validate } from './validate.js';

describe('validate', () => {
  it('returns the parsed value', () => {
    assert.deepEqual(validate(LoginBodySchema, { username: ' alice ', password: 'x' }), { username: 'alice', password: 'x' });
  });

  it('turns the first zod issue into a 400 in the error shape', () => {
    assert.throws(
      () => validate(LoginBodySchema, { username: 'alice' }),
      (err: unknown) =>
        err instanceof HttpError && err.statusCode === 400 && err.code === 'validation_failed' && typeof err.message === 'string',
    );
  });

  it('says a body is required when there is none', () => {
    assert.throws(() => validate(LoginBodySchema, undefined), /Request body is required/);
  });
});
