/**
 * JSON POSTs to addresses users configure (notification channels, audit destinations): through the
 * egress policy (the connection goes to the address the policy checked), without following
 * redirects, within a time limit. The answer is returned truncated; nothing is thrown for an HTTP
 * status, only for a refused or failed connection.
 */
import { egressAgent, type EgressPolicy } from '@svc/engine';
import { fetch } from 'undici';

export interface PostAnswer {
  ok: boolean;
  status: number;
  /** The remote body, truncated. */
  body: string;
}

const MAX_ANSWER_CHARS = 1000;

export const truncateAnswer = (text: string) =>
  text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}…` : text;

export async function postJson(
  egress: EgressPolicy,
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<PostAnswer> {
  const agent = egressAgent(egress);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'svc', ...headers },
      body,
      dispatcher: agent,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = await response.text();
    return {
      ok: response.status >= 200 && response.status < 300,
      status: response.status,
      body: truncateAnswer(answer),
    };
  } finally {
    await agent.close().catch(() => undefined);
  }
}

/** The cause of a failed call, without a remote body or a secret (URLs are left out: they may carry tokens). */
export function describeFailure(error: unknown): string {
  let current: unknown = error;
  const parts: string[] = [];
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { message?: string; code?: string; cause?: unknown };
    if (e.message) parts.push(e.code ? `${e.message} (${e.code})` : e.message);
    current = e.cause;
  }
  return truncateAnswer((parts.join(': ') || String(error)).replace(/https?:\/\/\S+/g, '<url>'));
}
