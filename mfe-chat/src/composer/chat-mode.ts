import { AI_POWERED_DEFAULT_INSTRUCTION, DIRECT_EXEC_DEFAULT_INSTRUCTION } from '@tessera/contracts';

/** The chat modes of spec 02 §4 with their selector labels (spec 02 §2). */
export const CHAT_MODES = [
  { value: 'agent-direct', label: 'Agent • Direct Exec' },
  { value: 'agent-ai', label: 'Agent • AI Powered' },
  { value: 'chat', label: 'Chat' },
] as const;

export type ChatMode = (typeof CHAT_MODES)[number]['value'];

export const isChatMode = (value: string): value is ChatMode => CHAT_MODES.some((m) => m.value === value);

/** Spec 02 §5: what an empty prompt means in each agent mode. */
export const DEFAULT_AGENT_PROMPTS = {
  'agent-direct': DIRECT_EXEC_DEFAULT_INSTRUCTION,
  'agent-ai': AI_POWERED_DEFAULT_INSTRUCTION,
} as const;

/**
 * The prompt to send, or null when it cannot be sent: in chat mode an empty
 * prompt cannot be sent; in agent modes it takes the mode's default.
 */
export function resolvePrompt(mode: ChatMode, text: string): string | null {
  const trimmed = text.trim();
  if (trimmed !== '') return text;
  return mode === 'chat' ? null : DEFAULT_AGENT_PROMPTS[mode];
}
