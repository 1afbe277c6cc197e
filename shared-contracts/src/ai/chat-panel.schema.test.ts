import { HybridReplyEventSchema, HybridReplySchema, hybridFailureMessage, hybridReplyGrid } from './chat-panel.schema.js';

test('a reply of any mode parses; its grid is grid_update, else spreadsheet_data', () => {
  const reply = HybridReplySchema.parse({
    success: true,
    status: 'success',
    message: 'ok',
    mode: 'agent-ai',
    attempts: [{ code: 'x' }],
    handsontable_data: { spreadsheet_data: { headers: ['A'], rows: [[1]] } },
    snapshot: { sheet_id: 's', version_id: 'v', status: 'proposed', base_version: 2 },
  });
  expect(hybridReplyGrid(reply)).toEqual({ headers: ['A'], rows: [[1]], hash: undefined });
  expect(hybridReplyGrid(HybridReplySchema.parse({ grid_update: { headers: ['B'], rows: [[2]], metadata: { hash: 'h' } } }))).toEqual({
    headers: ['B'],
    rows: [[2]],
    hash: 'h',
  });
  expect(hybridReplyGrid(HybridReplySchema.parse({}))).toBeNull();
  expect(HybridReplySchema.safeParse({ success: 'yes' }).success).toBe(false);
});

test("spec 02 §8: a failure's text is langchain_result.message, else message, else error, else 'Operation failed'", () => {
  expect(hybridFailureMessage({ status: 'failed', message: 'm', langchain_result: { status: 'failed', message: 'lc' } })).toBe('lc');
  expect(hybridFailureMessage({ status: 'failed', message: 'm', error: 'e' })).toBe('m');
  expect(hybridFailureMessage({ status: 'failed', error: 'e' })).toBe('e');
  expect(hybridFailureMessage({ status: 'failed' })).toBe('Operation failed');
  expect(hybridFailureMessage({ success: true, status: 'success', message: 'fine' })).toBeNull();
});

test('a stream event needs its fields typed; a stage outside the spec is refused', () => {
  expect(HybridReplyEventSchema.safeParse({ text: 't', metadata: { stage: 'analysis', progress: 20 }, error: null, finished: false }).success).toBe(true);
  expect(HybridReplyEventSchema.safeParse({ metadata: { stage: 'thinking' } }).success).toBe(false);
});
