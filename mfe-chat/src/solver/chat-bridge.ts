import type { SendRequest } from '../send/chat-sender.js';

/**
 * How ./RecoveryBanner reaches the chat panel (another module of this remote, mounted elsewhere
 * in the page): the panel registers its sender and its message list here while it is mounted,
 * so a retry is a turn of the chat (the same request path, the badge following it) and a
 * rollback is told there.
 */
export interface ChatBridge {
  send(request: SendRequest): Promise<void>;
  /** Adds an assistant message to the chat. */
  say(text: string): void;
}

let current: ChatBridge | null = null;

/** The panel registers itself; the returned function unregisters it (only if it is still the one registered). */
export function registerChatBridge(bridge: ChatBridge): () => void {
  current = bridge;
  return () => {
    if (current === bridge) current = null;
  };
}

/** The mounted chat panel, or null while it is hidden. */
export const chatBridge = (): ChatBridge | null => current;
