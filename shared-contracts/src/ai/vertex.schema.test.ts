import { AI_TEMPERATURE } from '../constants.js';
import { EnhancedConversationRequestSchema, VertexChatRequestSchema } from './vertex.schema.js';

test('a chat request: a message, temperature 0.7 by default, extra fields dropped', () => {
  expect(VertexChatRequestSchema.parse({ message: ' hi ', stream_mode: true, vendor_field: 1 })).toEqual({
    message: 'hi',
    temperature: AI_TEMPERATURE,
    stream_mode: true,
  });
  expect(VertexChatRequestSchema.safeParse({ message: '' }).success).toBe(false);
  expect(VertexChatRequestSchema.safeParse({ message: 'x', temperature: 3 }).success).toBe(false);
  const enhanced = EnhancedConversationRequestSchema.parse({
    message: 'x',
    workspace_context: { current_sheet: { name: 'S', selected_cells: [{ row: 0, col: 1, value: 5 }] } },
    preferences: { response_format: 'markdown', detail_level: 'detailed' },
  });
  expect(enhanced.workspace_context?.current_sheet?.selected_cells).toEqual([{ row: 0, col: 1, value: 5 }]);
  expect(EnhancedConversationRequestSchema.safeParse({ message: 'x', workspace_context: { current_sheet: { selected_cells: [{ row: -1, col: 0 }] } } }).success).toBe(false);
});
