import { CHAT_MAX_MESSAGES } from '@tessera/contracts';
import { createChatStore } from './chat.store.js';

test('the panel keeps the last 50 messages, oldest dropped first', () => {
  const store = createChatStore();
  for (let i = 1; i <= CHAT_MAX_MESSAGES + 7; i++) store.getState().add({ role: 'user', content: `message ${i}` });
  const { messages } = store.getState();
  expect(messages).toHaveLength(50);
  expect(messages[0].content).toBe('message 8');
  expect(messages.at(-1)?.content).toBe('message 57');
  expect(new Set(messages.map((m) => m.id)).size).toBe(50);
});

test('Clear empties the list and resets the stream state', () => {
  const store = createChatStore();
  store.getState().add({ role: 'user', content: 'hi' });
  store.getState().setStream({ status: 'error', streamError: 'Stream failed' });
  store.getState().clear();
  expect(store.getState()).toMatchObject({ messages: [], status: 'idle', streamError: null });
});
