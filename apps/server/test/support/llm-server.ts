/**
 * An LLM server on loopback for tests: the OpenAI chat completions API on /v1/chat/completions and
 * the Anthropic Messages API on /v1/messages, answering scripted texts (or 429s) and recording every
 * request (path, headers, body).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}
export interface Scripted {
  status?: number;
  headers?: Record<string, string>;
  text?: string;
}

/** Answers the OpenAI chat API on /v1/chat/completions and the Anthropic API on /v1/messages. */
export async function startLlmServer() {
  const seen: Seen[] = [];
  const script: Scripted[] = [];
  let fallback = 'OK';
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(raw || '{}') });
      const next = script.shift() ?? {};
      const status = next.status ?? 200;
      response.writeHead(status, { 'content-type': 'application/json', ...next.headers });
      if (status !== 200) {
        response.end(JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } }));
        return;
      }
      const text = next.text ?? fallback;
      if (request.url === '/v1/messages')
        response.end(
          JSON.stringify({
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [{ type: 'text', text }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 13, output_tokens: 5 },
          }),
        );
      else
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 1_700_000_000,
            model: 'local-model',
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
          }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    script,
    setFallback: (text: string) => (fallback = text),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
