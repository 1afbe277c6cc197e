import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../http/http-error.js';
import { grownSize, requireColumnsOfBody, requireSheetSize } from './sheet-size.js';

const refusal = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof HttpError);
    return { status: err.statusCode, message: err.message };
  }
  return null;
};

describe('sheet size', () => {
  it('accepts a sheet exactly at the cap and refuses one cell more with a 413 naming the cap', () => {
    assert.equal(refusal(() => requireSheetSize(100, 10, 1000)), null);
    assert.deepEqual(refusal(() => requireSheetSize(1_048_576, 16_384, 10_000_000)), {
      status: 413,
      message: 'A sheet can hold at most 10,000,000 cells (this would be 17,179,869,184)',
    });
  });

  it('with the current size given, only growth beyond the cap is refused (a cap lowered since)', () => {
    assert.equal(refusal(() => requireSheetSize(40, 40, 1000, { rows: 40, columns: 40 })), null);
    assert.equal(refusal(() => requireSheetSize(30, 40, 1000, { rows: 40, columns: 40 })), null);
    assert.equal(refusal(() => requireSheetSize(41, 40, 1000, { rows: 40, columns: 40 }))?.message, 'A sheet can hold at most 1,000 cells (this would be 1,640)');
  });

  it('a far cell grows rows and columns; nearer cells change nothing', () => {
    assert.deepEqual(grownSize(10, 10, [{ row: 1_048_575, col: 16_383 }]), { rows: 1_048_576, columns: 16_384 });
    assert.deepEqual(grownSize(10, 10, [{ row: 2, col: 3 }]), { rows: 10, columns: 10 });
  });

  it('a body wider than 16,384 columns (headers, a row or metadata.columns) is a 413 before any schema', () => {
    assert.equal(refusal(() => requireColumnsOfBody({ headers: Array(16_384).fill('h') })), null);
    assert.deepEqual(refusal(() => requireColumnsOfBody({ headers: Array(16_385).fill('h') })), {
      status: 413,
      message: 'A sheet can hold at most 16,384 columns (this would be 16,385)',
    });
    assert.equal(refusal(() => requireColumnsOfBody({ data: [[], Array(20_000).fill(1)] }))?.status, 413);
    assert.equal(refusal(() => requireColumnsOfBody({ metadata: { columns: 100_000 } }))?.status, 413);
    assert.equal(refusal(() => requireColumnsOfBody('junk')), null);
  });
});
