/** What the broker connectors share. */
import type { CheckResult, ConnectorError } from '../types.js';

/**
 * A broker connector's check: connects (which also checks the credentials), probes what a stream will
 * need, and answers with the failure's precise code and message; the connection is always closed.
 */
export async function checkBroker<Connection>(steps: {
  open(): Promise<Connection>;
  probe?(connection: Connection): Promise<unknown>;
  close(connection: Connection): Promise<unknown> | void;
  classify(error: unknown): ConnectorError;
}): Promise<CheckResult> {
  let connection: Connection | undefined;
  try {
    connection = await steps.open();
    await steps.probe?.(connection);
    return { ok: true };
  } catch (error) {
    const classified = steps.classify(error);
    return { ok: false, code: classified.code, message: classified.message };
  } finally {
    if (connection !== undefined) await Promise.resolve(steps.close(connection)).catch(() => undefined);
  }
}
