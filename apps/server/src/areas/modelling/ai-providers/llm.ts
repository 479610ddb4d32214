/**
 * One call to a provider's model through the Vercel AI SDK (`ai` 6 with `@ai-sdk/openai-compatible`
 * for OpenAI and OpenAI-compatible servers such as Ollama, vLLM or LiteLLM, and `@ai-sdk/anthropic`
 * for the Anthropic Messages API), every connection through the egress policy. Rate limits (429) and
 * server errors are retried by the SDK, honouring `retry-after-ms` / `retry-after`. Errors name the
 * provider's status and never carry the API key or the request. The SDK (about 40 MB of code with
 * its providers) is loaded by the first call, not by every process.
 */
import { bareHost, egressFetch, type EgressPolicy } from '@svc/engine';
import type { ProviderType } from './repository.js';

export interface ModelEndpoint {
  type: ProviderType;
  baseUrl: string;
  model: string;
  apiKey: string | undefined;
}

export interface Completion {
  text: string;
  inputTokens: number;
  outputTokens: number;
  /** The SDK's warnings (a setting the model does not support), for our own log. */
  warnings: string[];
}

// The SDK would print its warnings to the console; they go to our structured log instead (Completion.warnings).
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

/** The innermost message of an error and its causes (a refused connection inside "fetch failed"). */
function innermost(error: unknown): string {
  let message = (error as Error)?.message ?? String(error);
  let current: unknown = (error as { cause?: unknown })?.cause;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

/** A provider's call failed (after the SDK's retries); the message is safe to show and log. */
export class ProviderCallFailed extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

export const DEFAULT_BASE_URLS: Record<ProviderType, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  openai_compatible: undefined,
};

/** Retries of a rate-limited or failing call (the SDK's backoff; a Retry-After under a minute is honoured). */
const MAX_RETRIES = 2;

export async function complete(
  endpoint: ModelEndpoint,
  egress: EgressPolicy,
  request: { system: string; prompt: string; temperature?: number; maxTokens?: number; signal?: AbortSignal },
): Promise<Completion> {
  // Checked once before the SDK's first attempt, so that a refused destination fails at once, without retries.
  const target = new URL(endpoint.baseUrl);
  try {
    await egress.resolve(bareHost(target.hostname), Number(target.port) || (target.protocol === 'https:' ? 443 : 80));
  } catch (error) {
    throw new ProviderCallFailed((error as Error).message, undefined);
  }
  const [{ createAnthropic }, { createOpenAICompatible }, { APICallError, generateText, RetryError }] =
    await Promise.all([import('@ai-sdk/anthropic'), import('@ai-sdk/openai-compatible'), import('ai')]);
  const http = egressFetch(egress);
  const common = { baseURL: endpoint.baseUrl.replace(/\/+$/, ''), fetch: http.fetch };
  const model =
    endpoint.type === 'anthropic'
      ? createAnthropic({ ...common, apiKey: endpoint.apiKey ?? '' }).languageModel(endpoint.model)
      : createOpenAICompatible({ ...common, name: 'svc', apiKey: endpoint.apiKey, includeUsage: true }).chatModel(
          endpoint.model,
        );
  try {
    const result = await generateText({
      model,
      system: request.system,
      prompt: request.prompt,
      temperature: request.temperature,
      maxOutputTokens: request.maxTokens,
      maxRetries: MAX_RETRIES,
      abortSignal: request.signal,
    });
    return {
      text: result.text,
      inputTokens: result.usage.inputTokens ?? 0,
      outputTokens: result.usage.outputTokens ?? 0,
      warnings: (result.warnings ?? []).map((w) => JSON.stringify(w)),
    };
  } catch (error) {
    const last = RetryError.isInstance(error) ? error.lastError : error;
    if (APICallError.isInstance(last) && last.statusCode !== undefined) {
      const attempts = RetryError.isInstance(error) ? ` after ${error.errors.length} attempts` : '';
      throw new ProviderCallFailed(
        `the provider answered ${last.statusCode ?? 'without a status'}${attempts}${last.statusCode === 429 ? ' (rate limited)' : ''}`,
        last.statusCode,
      );
    }
    const message = innermost(last);
    // Egress refusals and network failures name the host, never the key.
    const key = endpoint.apiKey;
    throw new ProviderCallFailed(
      `calling the provider failed: ${key ? message.split(key).join('[redacted]') : message}`,
      undefined,
    );
  } finally {
    await http.close().catch(() => undefined);
  }
}
