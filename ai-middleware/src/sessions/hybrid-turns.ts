import { AI_CONVERSATION_CONTEXT, type ConversationTurn, type HybridForwardRequest, type HybridResponse } from '@tessera/contracts';
import { SessionNotFoundError, type SessionService } from './session.service.js';

/**
 * The conversation a hybrid call gives the model: the session's last ten stored messages when
 * the call names a session of the user's that has any, else the client's conversation_context.
 * A session that is not the user's counts as none (the call still runs, without its history).
 */
export async function hybridConversation(sessions: SessionService, userId: string, body: HybridForwardRequest): Promise<ConversationTurn[]> {
  if (body.session_id) {
    try {
      const stored = await sessions.lastMessages(userId, body.session_id, AI_CONVERSATION_CONTEXT);
      if (stored.length) return stored.map((m) => ({ role: m.role, content: m.content, timestamp: m.created_at }));
    } catch (err) {
      if (!(err instanceof SessionNotFoundError)) throw err;
    }
  }
  return (body.conversation_context ?? []).slice(-AI_CONVERSATION_CONTEXT);
}

/** What the user asked in a hybrid call, as a message: the instruction, else the code. */
function askedText(body: HybridForwardRequest): string {
  const instruction = (body.problem ?? body.instruction ?? '').trim();
  if (instruction) return instruction;
  return body.code?.trim() ? `\`\`\`python\n${body.code.trim()}\n\`\`\`` : '';
}

/** What the reply said, as a message: its message, the code that ran, and what it printed. */
function answeredText(response: HybridResponse): string {
  const parts = [response.message];
  if (response.code?.trim()) parts.push('```python', response.code.trim(), '```');
  if (response.execution_output.trim()) parts.push('Output:', '```', response.execution_output.trim().slice(0, 4000), '```');
  return parts.join('\n');
}

/**
 * Stores a hybrid call and its reply in the call's session (when it names one of the user's),
 * so the next call, and the session list's message count, see it. Returns false when nothing
 * was stored (no session, or not the user's).
 */
export async function recordHybridTurn(
  sessions: SessionService,
  userId: string,
  body: HybridForwardRequest,
  response: HybridResponse,
  route: 'hybrid/forward' | 'hybrid/backward',
): Promise<boolean> {
  if (!body.session_id) return false;
  const asked = askedText(body);
  try {
    await sessions.append(userId, body.session_id, [
      ...(asked ? [{ role: 'user' as const, content: asked, metadata: { route, mode: response.mode } }] : []),
      {
        role: 'assistant',
        content: answeredText(response),
        metadata: {
          route,
          mode: response.mode,
          status: response.status,
          ...(response.provider ? { provider: response.provider, model: response.model ?? null } : {}),
          ...(response.figures_omitted ? { figures_omitted: response.figures_omitted } : {}),
        },
        ...(response.figures?.length ? { figures: response.figures } : {}),
      },
    ], { sheet: body.sheet_context?.name ?? null });
    return true;
  } catch (err) {
    if (err instanceof SessionNotFoundError) return false;
    throw err;
  }
}
