import {
  AI_TEMPERATURE,
  ChatReplyTextSchema,
  SESSION_TEXTS,
  VertexStreamEventSchema,
  chatSubmitFailed,
  enhancedChatFailed,
  type ConversationTurn,
  type ShellContext,
  type WorkspaceContext,
} from '@tessera/contracts';
import { aiFetch } from './ai-fetch.js';
import { readEventStream } from './event-stream.client.js';
import { httpFailure } from './http-failure.js';
import { STREAM_TEXTS, StreamError } from './stream-errors.js';

export interface ChatCallInput {
  message: string;
  sessionId: string | null;
  workspaceContext: WorkspaceContext;
  conversation: ConversationTurn[];
  streaming: boolean;
  /** The enhancedChat flag: Standard replies go through /vertex/enhanced-conversation, which needs a session. */
  enhanced: boolean;
}

/**
 * Chat mode (spec 02 §4, §7). Streaming: POST /vertex/stream, its chunks appended as they
 * come (`onText` gets the whole text so far). Standard: /vertex/enhanced-conversation (the
 * enhanced chat flag; a session is required) or /vertex/chat; the reply's response or message.
 */
export async function callChat(ai: ShellContext['ai'], input: ChatCallInput, signal: AbortSignal, onText: (text: string) => void): Promise<string | null> {
  const base = {
    message: input.message,
    temperature: AI_TEMPERATURE,
    ...(input.sessionId ? { session_id: input.sessionId } : {}),
    workspace_context: input.workspaceContext,
  };

  if (input.streaming) {
    let text = '';
    let finalText: string | null = null;
    let error: string | null = null;
    await readEventStream({
      path: '/vertex/stream',
      body: { ...base, stream_mode: true },
      signal,
      fetch: aiFetch(ai),
      onJson(json) {
        const reply = ChatReplyTextSchema.parse(json);
        finalText = reply.response ?? reply.message ?? '';
      },
      onData(data) {
        let event;
        try {
          event = VertexStreamEventSchema.parse(JSON.parse(data));
        } catch {
          throw new StreamError(STREAM_TEXTS.readError);
        }
        if (event.text) {
          text += event.text;
          onText(text);
        }
        if (event.error) error = event.error;
        if (event.finished && event.response !== undefined) finalText = event.response;
        return event.finished;
      },
    });
    if (signal.aborted) return null;
    if (error) throw new StreamError(error);
    return finalText ?? text;
  }

  if (input.enhanced) {
    if (!input.sessionId) throw new StreamError(SESSION_TEXTS.noActiveSessionEnhanced);
    try {
      const { data } = await ai.post<unknown>(
        '/vertex/enhanced-conversation',
        {
          ...base,
          conversation_context: input.conversation,
          preferences: { response_format: 'markdown', include_code_examples: true, detail_level: 'detailed' },
        },
        { signal },
      );
      const reply = ChatReplyTextSchema.parse(data);
      return reply.response ?? reply.message ?? '';
    } catch (error) {
      if (signal.aborted) return null;
      throw new StreamError(enhancedChatFailed(httpFailure(error)));
    }
  }

  try {
    const { data } = await ai.post<unknown>('/vertex/chat', { ...base, prompt: input.message }, { signal });
    const reply = ChatReplyTextSchema.parse(data);
    return reply.response ?? reply.message ?? '';
  } catch (error) {
    if (signal.aborted) return null;
    throw new StreamError(chatSubmitFailed(httpFailure(error)));
  }
}
