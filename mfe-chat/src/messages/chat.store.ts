import { CHAT_MAX_MESSAGES, type HybridStreamStage } from '@tessera/contracts';
import { createStore } from 'zustand';
import { nextMessageId, type ChatMessage } from './chat-message.js';

/** Spec 02 §4 Streaming: idle, streaming (with a stage), completed (progress 100), error, stopped. */
export type StreamStatus = 'idle' | 'streaming' | 'completed' | 'error' | 'stopped';
/** What the final_response stage shows (spec 02 §4). */
export type StreamOutcome = 'complete' | 'failed' | 'infeasible';

export interface ChatState {
  messages: ChatMessage[];
  status: StreamStatus;
  stage: HybridStreamStage | null;
  progress: number;
  /** With the `queued` stage: the job's place in the server's queue. */
  queuePosition: number | null;
  outcome: StreamOutcome | null;
  /** Shown in the Stream Error box with Reload. */
  streamError: string | null;
}

export interface ChatActions {
  add(message: Omit<ChatMessage, 'id' | 'createdAt'> & Partial<Pick<ChatMessage, 'createdAt'>>): string;
  update(id: string, patch: Partial<ChatMessage> | ((m: ChatMessage) => Partial<ChatMessage>)): void;
  replaceAll(messages: ChatMessage[]): void;
  clear(): void;
  setStream(patch: Partial<Omit<ChatState, 'messages'>>): void;
}

export type ChatStore = ReturnType<typeof createChatStore>;

/** The panel's messages (at most CHAT_MAX_MESSAGES kept, oldest dropped first) and its stream state. */
export function createChatStore() {
  return createStore<ChatState & ChatActions>()((set) => ({
    messages: [],
    status: 'idle',
    stage: null,
    progress: 0,
    queuePosition: null,
    outcome: null,
    streamError: null,
    add(message) {
      const id = nextMessageId();
      const full: ChatMessage = { createdAt: new Date().toISOString(), ...message, id };
      set((s) => ({ messages: [...s.messages, full].slice(-CHAT_MAX_MESSAGES) }));
      return id;
    },
    update(id, patch) {
      set((s) => ({
        messages: s.messages.map((m) => (m.id === id ? { ...m, ...(typeof patch === 'function' ? patch(m) : patch) } : m)),
      }));
    },
    replaceAll(messages) {
      set({ messages: messages.slice(-CHAT_MAX_MESSAGES) });
    },
    clear() {
      set({ messages: [], status: 'idle', stage: null, progress: 0, queuePosition: null, outcome: null, streamError: null });
    },
    setStream(patch) {
      set(patch);
    },
  }));
}
