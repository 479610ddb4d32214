export * from './types.js';
export { connectorFor, connectors } from './registry.js';
