import {
  EnhancedConversationRequestSchema,
  ERROR_CODES,
  SESSION_TEXTS,
  VERTEX_STREAM_FAILED,
  type VertexChatReply,
  VertexChatRequestSchema,
  type VertexStreamEvent,
} from '@tessera/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ClientGoneError, StreamTimeoutError, requestAbort } from '../hybrid/request-abort.js';
import { sendError } from '../http/errors.js';
import { ProviderError } from '../providers/provider.js';
import { SessionNotFoundError, SessionQuotaError } from '../sessions/session.service.js';
import { tokenUserId } from '../sessions/sessions.routes.js';
import { parseInput } from '../http/validate-input.js';
import type { ChatCall, ChatService } from './chat.service.js';
import { SseWriter } from './sse-writer.js';

/** A provider that refused or failed: the upstream's fault, its own text passed on (spec 02 §8). */
export const PROVIDER_ERROR_CODE = 'provider_error';
export const STREAM_TIMEOUT_CODE = 'stream_timeout';

export interface VertexRouteOptions {
  /** How long one call may last; default STREAM_TIMEOUT_MS (10 minutes, spec 02 §9). */
  streamTimeoutMs?: number;
}

type Route = ChatCall['route'];

/**
 * POST /vertex/chat, /vertex/stream and /vertex/enhanced-conversation (spec 02 §7) on the
 * provider AI_PROVIDER names. /vertex/stream answers with Server-Sent Events unless
 * stream_mode is false; the other two answer JSON unless the client asks for
 * `text/event-stream` (or stream_mode true). enhanced-conversation needs a session.
 */
export function registerVertexRoutes(app: FastifyInstance, chat: ChatService, options: VertexRouteOptions = {}): void {
  const handle = async (route: Route, request: FastifyRequest, reply: FastifyReply) => {
    const schema = route === 'enhanced-conversation' ? EnhancedConversationRequestSchema : VertexChatRequestSchema;
    const body = parseInput(schema, request.body, reply);
    if (!body) return reply;
    if (route === 'enhanced-conversation' && !body.session_id) {
      return sendError(reply, 400, ERROR_CODES.validation, SESSION_TEXTS.noActiveSessionEnhanced);
    }
    const userId = tokenUserId(request);
    const sessionId = body.session_id ?? null;
    // A session that is not the user's is refused before anything else, with a status the client can read.
    if (sessionId) {
      try {
        await chat.checkSession(userId, sessionId);
      } catch (err) {
        return sendChatError(reply, err);
      }
    }
    const wantsStream =
      route === 'stream' ? body.stream_mode !== false : body.stream_mode === true || (request.headers.accept ?? '').includes('text/event-stream');
    const abort = requestAbort(reply, options.streamTimeoutMs);
    const call: ChatCall = { userId, authorization: request.headers.authorization ?? '', route, body, signal: abort.signal };
    try {
      if (!wantsStream) {
        try {
          const result = await chat.run(call);
          const out: VertexChatReply = {
            success: true,
            response: result.text,
            session_id: sessionId,
            provider: chat.provider.name,
            model: chat.provider.model,
            context: result.context,
          };
          return out;
        } catch (err) {
          return sendChatError(reply, err);
        }
      }
      const sse = new SseWriter<VertexStreamEvent>(reply);
      try {
        const result = await chat.run({ ...call, onChunk: (text) => sse.write({ text, finished: false, error: null, session_id: sessionId }) });
        sse.write({ text: '', finished: true, error: null, response: result.text, session_id: sessionId });
      } catch (err) {
        const known = err instanceof ProviderError || err instanceof StreamTimeoutError || err instanceof SessionNotFoundError || err instanceof SessionQuotaError;
        if (!known) request.log.error({ err }, 'chat stream failed');
        sse.write({ text: '', finished: true, error: `${VERTEX_STREAM_FAILED}: ${known ? err.message : 'Internal server error'}`, session_id: sessionId });
      }
      sse.end();
      return reply;
    } finally {
      abort.dispose();
    }
  };

  app.post('/vertex/chat', (request, reply) => handle('chat', request, reply));
  app.post('/vertex/stream', (request, reply) => handle('stream', request, reply));
  app.post('/vertex/enhanced-conversation', (request, reply) => handle('enhanced-conversation', request, reply));
}

function sendChatError(reply: FastifyReply, err: unknown): FastifyReply {
  if (err instanceof SessionNotFoundError) return sendError(reply, 404, ERROR_CODES.notFound, err.message);
  if (err instanceof SessionQuotaError) return sendError(reply, 429, ERROR_CODES.tooManyRequests, err.message);
  if (err instanceof ProviderError) return sendError(reply, 502, PROVIDER_ERROR_CODE, err.message);
  if (err instanceof StreamTimeoutError) return sendError(reply, 504, STREAM_TIMEOUT_CODE, err.message);
  // Nobody is left to answer: whatever is sent is dropped.
  if (err instanceof ClientGoneError) return reply.code(499).send();
  throw err;
}
