import { z } from 'zod';
import type { VertexSettings } from '../config.js';
import { ProviderError } from './provider-error.js';
import type { AiProvider, ChatMessage, StreamOptions } from './provider.js';
import { sseData } from './sse-lines.js';

/** What Gemini streams back (GenerateContentResponse), only the fields read here; the rest is ignored. */
const GenerateContentChunkSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(z.looseObject({ text: z.string().optional() })).optional() }).optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  error: z.looseObject({ message: z.string().optional(), status: z.string().optional() }).optional(),
});

/** Finish reasons that end a reply normally; any other one, with no text given, is the model refusing. */
const NORMAL_FINISH = new Set(['STOP', 'MAX_TOKENS', 'FINISH_REASON_UNSPECIFIED']);

/**
 * AI_PROVIDER=vertex: Gemini through Vertex AI's REST streamGenerateContent (alt=sse), with an
 * API key: the global endpoint (express mode), or projects/{p}/locations/{l} with VERTEX_PROJECT.
 */
export function createVertexProvider(settings: VertexSettings): AiProvider {
  const modelPath = settings.project
    ? `projects/${settings.project}/locations/${settings.location}/publishers/google/models/${settings.model}`
    : `publishers/google/models/${settings.model}`;
  const url = `${settings.baseUrl}/${modelPath}:streamGenerateContent?alt=sse`;
  return {
    name: 'vertex',
    model: settings.model,
    async *stream(messages: ChatMessage[], options: StreamOptions = {}): AsyncIterable<string> {
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
      const body = {
        // Gemini calls the assistant "model"; system messages go to systemInstruction.
        contents: messages
          .filter((m) => m.role !== 'system')
          .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
        ...(system.length ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] } } : {}),
        ...(options.temperature === undefined ? {} : { generationConfig: { temperature: options.temperature } }),
      };
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-goog-api-key': settings.apiKey, accept: 'text/event-stream' },
          body: JSON.stringify(body),
          signal: options.signal,
        });
      } catch (err) {
        throw failure(err, options.signal);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new ProviderError(`HTTP ${response.status}: ${googleErrorText(text)}`, response.status);
      }
      if (!response.body) throw new ProviderError('No response body');
      let yielded = false;
      try {
        for await (const data of sseData(response.body)) {
          const parsed = GenerateContentChunkSchema.safeParse(safeJson(data));
          if (!parsed.success) throw new ProviderError(`Stream read error: not a Gemini response: ${data.slice(0, 200)}`);
          const chunk = parsed.data;
          if (chunk.error) throw new ProviderError(chunk.error.message ?? JSON.stringify(chunk.error));
          if (chunk.promptFeedback?.blockReason) throw new ProviderError(`The model refused the prompt: ${chunk.promptFeedback.blockReason}`);
          for (const candidate of chunk.candidates?.slice(0, 1) ?? []) {
            for (const part of candidate.content?.parts ?? []) {
              if (part.text) {
                yielded = true;
                yield part.text;
              }
            }
            if (!yielded && candidate.finishReason && !NORMAL_FINISH.has(candidate.finishReason)) {
              throw new ProviderError(`The model stopped without an answer: ${candidate.finishReason}`);
            }
          }
        }
      } catch (err) {
        throw failure(err, options.signal);
      }
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Google's error body is {error: {code, message, status}} (sometimes inside a list); else the raw text. */
function googleErrorText(text: string): string {
  const json = safeJson(text);
  const error = (Array.isArray(json) ? json[0] : json) as { error?: { message?: unknown } } | undefined;
  if (typeof error?.error?.message === 'string') return error.error.message;
  return text.trim() || '(no body)';
}

function failure(err: unknown, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
  if (err instanceof ProviderError) return err;
  const cause = err instanceof Error && err.cause instanceof Error ? ` (${err.cause.message})` : '';
  return new ProviderError(`Stream failed: ${err instanceof Error ? err.message : String(err)}${cause}`);
}
