/** Every connector, by kind. Adding a connector is one line here plus its folder. */
import { filesConnector } from './connectors/files/definition.js';
import { sftpConnector } from './connectors/files/sftp-definition.js';
import { httpApiConnector } from './connectors/http-api/definition.js';
import { mysqlConnector } from './connectors/mysql/definition.js';
import { postgresConnector } from './connectors/postgres/definition.js';
import { warehouseConnector } from './connectors/warehouse/definition.js';
import type { ConnectorDefinition } from './types.js';

export const connectors: ConnectorDefinition[] = [postgresConnector, mysqlConnector, filesConnector, sftpConnector, httpApiConnector, warehouseConnector];

export function connectorFor(kind: string): ConnectorDefinition | undefined {
  return connectors.find((c) => c.kind === kind);
}
