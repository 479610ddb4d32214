import type { ColumnSchema, ConnectorContext, ConnectorDefinition, ConnectorHandle } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { ApiClient } from './client.js';
import { httpApiSpec, resolveConfig, type HttpApiConfig, type ResolvedConfig } from './config.js';
import { discoverEndpoints } from './discover.js';
import { fetchPages } from './pagination.js';
import { readEndpoint, type ReadContext } from './read.js';

export { httpApiSpec, type HttpApiConfig } from './config.js';

/** Nothing connects ahead: each call makes its own requests. A bad configuration surfaces in check, discover and read, not in open. */
export function openHttpApi(config: HttpApiConfig, context: ConnectorContext): ConnectorHandle {
  let resolved: ResolvedConfig | ConnectorError;
  try {
    resolved = resolveConfig(config);
  } catch (error) {
    resolved =
      error instanceof ConnectorError ? error : new ConnectorError('invalid_config', (error as Error).message, false);
  }
  const schemas = new Map<string, ColumnSchema[]>();
  let readContext: ReadContext | undefined;
  const ready = (): ReadContext => {
    if (resolved instanceof ConnectorError) throw resolved;
    return (readContext ??= { client: new ApiClient(resolved, context), config: resolved, log: context.log, schemas });
  };
  return {
    async check(signal) {
      try {
        const { client, config: resolvedConfig, log } = ready();
        const endpoint = resolvedConfig.endpoints[0]!;
        for await (const page of fetchPages(client, resolvedConfig, endpoint, log, {}, signal)) {
          let count = 0;
          for await (const chunk of page.records) count += chunk.length;
          return { ok: true, detail: `${count} records on the first page of "${endpoint.name}"` };
        }
        return { ok: true };
      } catch (error) {
        if (signal?.aborted && error === signal.reason) throw error;
        if (error instanceof ConnectorError) return { ok: false, code: error.code, message: error.message };
        // Unexpected failures still must not leak the secret.
        const message = readContext
          ? readContext.client.redact(String((error as Error)?.message ?? error))
          : 'check failed';
        return { ok: false, code: 'failed', message };
      }
    },
    async discover(signal) {
      return discoverEndpoints(ready(), signal);
    },
    async *read(request, signal) {
      yield* readEndpoint(ready(), request, signal);
    },
    async close() {
      schemas.clear();
      await readContext?.client.close();
    },
  };
}

export const httpApiConnector: ConnectorDefinition<typeof httpApiSpec> = {
  kind: 'http_api',
  title: 'HTTP JSON API',
  version: 1,
  spec: httpApiSpec,
  capabilities: { read: true, write: false, writeModes: [] },
  async open(config, context) {
    return openHttpApi(config, context);
  },
};
