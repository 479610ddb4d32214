/** The connectivity area's errors. */
import { conflict, connectorFailed } from '../../platform/errors/index.js';

export const CONNECTOR = 'Data connector';

export const connectorNameTaken = (name: string) =>
  conflict(`The project already has a data connector named "${name}"`);

export const discoveryFailed = (code: string, message: string) =>
  connectorFailed(`Discovery failed (${code}): ${message}`, [{ path: 'config', message }], code);
