/** Every connector, by kind and version. Adding a connector is one line here plus its folder. */
import { filesConnector } from './connectors/files/definition.js';
import { sftpConnector } from './connectors/files/sftp-definition.js';
import { httpApiConnector } from './connectors/http-api/definition.js';
import { mqttConnector } from './connectors/mqtt/definition.js';
import { mysqlConnector } from './connectors/mysql/definition.js';
import { natsConnector } from './connectors/nats/definition.js';
import { rabbitmqConnector } from './connectors/rabbitmq/definition.js';
import { redisStreamsConnector } from './connectors/redis/definition.js';
import { postgresConnector } from './connectors/postgres/definition.js';
import { sampleConnector } from './connectors/sample/definition.js';
import { warehouseConnector } from './connectors/warehouse/definition.js';
import type { ConnectorDefinition } from './types.js';

/**
 * The versions of each kind. A data connector keeps the version it was created at, so a breaking
 * change of a configuration is a new version registered next to the old one: connectors created
 * before it still open with the definition they were validated against.
 */
export class ConnectorRegistry {
  readonly #kinds = new Map<string, Map<number, ConnectorDefinition>>();

  constructor(definitions: Iterable<ConnectorDefinition> = []) {
    for (const definition of definitions) this.register(definition);
  }

  /** Adds a kind at a version; each version of a kind is registered once. */
  register(definition: ConnectorDefinition): this {
    if (!Number.isInteger(definition.version) || definition.version < 1)
      throw new Error(`connector ${definition.kind}: version must be a positive integer`);
    const versions = this.#kinds.get(definition.kind) ?? new Map<number, ConnectorDefinition>();
    if (versions.has(definition.version))
      throw new Error(`connector ${definition.kind} version ${definition.version} is already registered`);
    versions.set(definition.version, definition);
    this.#kinds.set(definition.kind, versions);
    return this;
  }

  /** The connector of `kind` at `version`; without a version, its latest (what new connectors are created at). */
  connectorFor(kind: string, version?: number): ConnectorDefinition | undefined {
    const versions = this.#kinds.get(kind);
    if (!versions) return undefined;
    return version === undefined ? versions.get(Math.max(...versions.keys())) : versions.get(version);
  }

  /** The latest version of every kind, kinds in the order they were first registered. */
  latest(): ConnectorDefinition[] {
    return [...this.#kinds.keys()].map((kind) => this.connectorFor(kind)!);
  }
}

/** The connectors of this engine. */
export const registry = new ConnectorRegistry([
  postgresConnector,
  mysqlConnector,
  filesConnector,
  sftpConnector,
  httpApiConnector,
  warehouseConnector,
  sampleConnector,
  natsConnector,
  rabbitmqConnector,
  redisStreamsConnector,
  mqttConnector,
]);

/** The connector of `kind` at `version` (latest when omitted) in the engine's registry. */
export function connectorFor(kind: string, version?: number): ConnectorDefinition | undefined {
  return registry.connectorFor(kind, version);
}
