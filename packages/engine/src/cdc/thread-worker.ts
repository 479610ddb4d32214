/** The capture thread (thread.ts): runs captures it is sent, opening their connectors itself. */
import { parentPort } from 'node:worker_threads';
import { registry } from '../registry.js';
import { ConnectorError, type ConnectorHandle, type EgressPolicy, type Log } from '../types.js';
import { runCapture } from './run.js';
import { fromThreadError, toThreadError, type CaptureEndpoint, type FromThread, type ToThread } from './thread.js';

const port = parentPort!;
const send = (message: FromThread) => port.postMessage(message);
const captures = new Map<number, AbortController>();
const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextCall = 1;

/** Asks the calling thread and waits for its answer. */
function ask<T>(message: (call: number) => FromThread): Promise<T> {
  const call = nextCall++;
  return new Promise<T>((resolve, reject) => {
    calls.set(call, { resolve: resolve as (value: unknown) => void, reject });
    send(message(call));
  });
}

async function open(endpoint: CaptureEndpoint, log: Log, egress: EgressPolicy | undefined): Promise<ConnectorHandle> {
  const definition = registry.connectorFor(endpoint.kind, endpoint.version);
  if (!definition)
    throw new ConnectorError(
      'invalid_config',
      `version ${endpoint.version} of the ${endpoint.kind} connector is not available`,
      false,
    );
  return definition.open(endpoint.config, { log, ...(egress ? { egress } : {}) });
}

async function run(id: number, options: Extract<ToThread, { type: 'run' }>['options']): Promise<void> {
  const controller = new AbortController();
  captures.set(id, controller);
  const log: Log = (level, message, fields) => send({ type: 'log', id, level, message, ...(fields ? { fields } : {}) });
  const egress: EgressPolicy | undefined = options.egress
    ? { resolve: (host, port) => ask((call) => ({ type: 'resolve', id, call, host, port })) }
    : undefined;
  const handles: ConnectorHandle[] = [];
  let source: ReturnType<NonNullable<ConnectorHandle['changeSource']>> | undefined;
  let sink: ReturnType<NonNullable<ConnectorHandle['changeSink']>> | undefined;
  try {
    const from = await open(options.source, log, egress);
    handles.push(from);
    const to = await open(options.sink, log, egress);
    handles.push(to);
    source = from.changeSource?.(options.captureId);
    sink = to.changeSink?.();
    if (!source) throw new ConnectorError('unsupported', 'the source connector cannot capture changes', false);
    if (!sink)
      throw new ConnectorError('unsupported', 'the destination connector cannot apply captured changes', false);
    await runCapture({
      ...options,
      source,
      sink,
      signal: controller.signal,
      log,
      onPhase: (phase, details) => ask((call) => ({ type: 'phase', id, call, phase, details })),
      onApplied: (progress) =>
        send({ type: 'applied', id, progress: { ...progress, appliedAt: progress.appliedAt.getTime() } }),
    });
    send({ type: 'done', id });
  } catch (error) {
    send({ type: 'done', id, error: toThreadError(error) });
  } finally {
    captures.delete(id);
    await source?.close().catch(() => undefined);
    await sink?.close().catch(() => undefined);
    for (const handle of handles) await handle.close().catch(() => undefined);
  }
}

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'run':
      void run(message.id, message.options);
      break;
    case 'abort':
      captures.get(message.id)?.abort(new Error('aborted'));
      break;
    case 'answer': {
      const call = calls.get(message.call);
      calls.delete(message.call);
      if (message.error) call?.reject(fromThreadError(message.error));
      else call?.resolve(message.value);
      break;
    }
  }
});
