import { BACKWARD_CODE_REQUIRED_MESSAGE, BACKWARD_EDITED_REQUIRED_MESSAGE, HybridBackwardRequestSchema } from './backward.schema.js';

test('a backward request needs the code and the edited grid', () => {
  const missing = HybridBackwardRequestSchema.safeParse({});
  expect(missing.error?.issues.map((i) => i.message)).toEqual([BACKWARD_CODE_REQUIRED_MESSAGE, BACKWARD_EDITED_REQUIRED_MESSAGE]);
  const ok = HybridBackwardRequestSchema.parse({ code: 'result = 1', edited_data: { headers: ['A'], rows: [[1]] } });
  expect(ok.enable_ai_generation).toBe(true);
});
