import {
  DeleteSessionReplySchema,
  SessionListSchema,
  SessionReplySchema,
  type ChatSession,
  type SessionReply,
  type ShellContext,
} from '@tessera/contracts';

const PATH = '/vertex/user-sessions';

/**
 * The AI chat sessions of the signed-in user (spec 02 §7 /vertex/user-sessions). The spec's
 * user_id is sent for its clients; the ai-middleware takes the user from the token.
 */
export function sessionsService(ai: ShellContext['ai'], userId: string, cancel: () => AbortSignal | undefined = () => undefined) {
  return {
    async list(): Promise<ChatSession[]> {
      const { data } = await ai.get<unknown>(PATH, { params: { user_id: userId }, signal: cancel() });
      return SessionListSchema.parse(data).sessions;
    },
    async create(name: string): Promise<SessionReply> {
      const { data } = await ai.post<unknown>(PATH, { user_id: userId, session_name: name, action: 'create' }, { signal: cancel() });
      return SessionReplySchema.parse(data);
    },
    async switchTo(sessionId: string): Promise<SessionReply> {
      const { data } = await ai.post<unknown>(PATH, { user_id: userId, session_id: sessionId, action: 'switch' }, { signal: cancel() });
      return SessionReplySchema.parse(data);
    },
    async remove(sessionId: string): Promise<void> {
      const { data } = await ai.delete<unknown>(PATH, { params: { user_id: userId, session_id: sessionId }, signal: cancel() });
      DeleteSessionReplySchema.parse(data);
    },
  };
}
export type SessionsService = ReturnType<typeof sessionsService>;
