import OpenAI from 'openai';
import type { OpenAiSettings } from '../config.js';
import { ProviderError } from './provider-error.js';
import type { AiProvider, ChatMessage, StreamOptions } from './provider.js';

/**
 * AI_PROVIDER=openai: the chat.completions streaming API of any OpenAI-compatible endpoint
 * (OpenAI, Ollama, vLLM, llama.cpp server) through the openai client.
 */
export function createOpenAiProvider(settings: OpenAiSettings): AiProvider {
  const client = new OpenAI({
    baseURL: settings.baseUrl,
    // Local servers take no key, but the client insists on one; it is only sent as a header.
    apiKey: settings.apiKey ?? 'no-key',
    // The user sees the provider's error at once and may resend; silent retries would also repeat a paid call.
    maxRetries: 0,
    // The route bounds the whole request (10 minutes, spec 02 §9) with its own signal.
    timeout: 2_147_483_647,
  });
  return {
    name: 'openai',
    model: settings.model,
    async *stream(messages: ChatMessage[], options: StreamOptions = {}): AsyncIterable<string> {
      let stream: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>;
      try {
        stream = await client.chat.completions.create(
          {
            model: settings.model,
            messages,
            stream: true,
            ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          },
          { signal: options.signal },
        );
      } catch (err) {
        throw toProviderError(err, options.signal);
      }
      try {
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta?.content;
          if (text) yield text;
        }
      } catch (err) {
        throw toProviderError(err, options.signal);
      }
      // The client ends its stream quietly on an abort: a cut reply must not pass for a whole one.
      if (options.signal?.aborted) throw toProviderError(undefined, options.signal);
    },
  };
}

/** The provider's own error text: 'HTTP {status}: {its message}' for a refusal, its message for an error event mid-stream. */
function toProviderError(err: unknown, signal: AbortSignal | undefined): Error {
  // Stop or the timeout: the caller tells which from its signal's reason.
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
  if (err instanceof OpenAI.APIUserAbortError) return err;
  if (err instanceof OpenAI.APIConnectionError) {
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    return new ProviderError(`Stream failed: ${cause && cause !== err.message ? `${err.message} (${cause})` : err.message}`);
  }
  if (err instanceof OpenAI.APIError) {
    const text = providerText(err);
    return err.status ? new ProviderError(`HTTP ${err.status}: ${text}`, err.status) : new ProviderError(text);
  }
  return new ProviderError(`Stream failed: ${err instanceof Error ? err.message : String(err)}`);
}

function providerText(err: InstanceType<typeof OpenAI.APIError>): string {
  const body: unknown = err.error;
  if (typeof body === 'string') return body;
  if (body && typeof body === 'object') {
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    return JSON.stringify(body);
  }
  // A body that was not JSON: the client put its text in the message after the status.
  return err.status ? err.message.replace(new RegExp(`^${err.status} `), '') : err.message;
}
