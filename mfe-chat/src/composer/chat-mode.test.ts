import { isChatMode, resolvePrompt } from './chat-mode.js';

test('chat mode refuses an empty or blank prompt', () => {
  expect(resolvePrompt('chat', '')).toBeNull();
  expect(resolvePrompt('chat', '  \n ')).toBeNull();
  expect(resolvePrompt('chat', 'sum column B')).toBe('sum column B');
});

test('agent modes send their default text for an empty prompt', () => {
  expect(resolvePrompt('agent-direct', '')).toBe('Execute the code directly');
  expect(resolvePrompt('agent-ai', ' ')).toBe('Analyze and process the provided data and code');
  expect(resolvePrompt('agent-ai', 'solve')).toBe('solve');
});

test('only the three modes are modes', () => {
  expect(['agent-direct', 'agent-ai', 'chat', 'agent'].map(isChatMode)).toEqual([true, true, true, false]);
});
