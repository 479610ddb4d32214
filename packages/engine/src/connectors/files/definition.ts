import { isAbsolute } from 'node:path';
import { Type } from 'typebox';
import type { ConnectorConfig, ConnectorContext, ConnectorDefinition, ConnectorHandle } from '../../types.js';
import { formatProperties, invalidConfig, openDirectoryHandle, validateFormatOptions } from './handle.js';
import { confinedLocalStore, localStore } from './local-store.js';

export const filesSpec = Type.Object(
  {
    /** The base directory; every dataset is a file in it (not in subdirectories). */
    path: Type.String({
      minLength: 1,
      title: 'Directory',
      description: "Relative to the project's own folder of the files root (SVC_FILES_ROOT/<project id>)",
    }),
    ...formatProperties,
  },
  { additionalProperties: false },
);

/** Set by the host, never by users' configs (the spec refuses it). */
export interface FilesHostConfig {
  /** The folder nothing may be read or written outside of, symbolic links included. */
  confineTo?: string;
}

export type FilesConfig = ConnectorConfig<typeof filesSpec, FilesHostConfig>;

/** No connection to hold: each call works on the directory as it is then. */
export function openFiles(config: FilesConfig, context: ConnectorContext): ConnectorHandle {
  return openDirectoryHandle({
    dir: config.path,
    options: config,
    context,
    validate() {
      if (typeof config.path !== 'string' || !isAbsolute(config.path))
        throw invalidConfig('path must be an absolute directory path');
      validateFormatOptions(config);
    },
    connect: async () => (config.confineTo ? confinedLocalStore(config.confineTo) : localStore),
  });
}

export const filesConnector: ConnectorDefinition<typeof filesSpec, FilesHostConfig> = {
  kind: 'files',
  title: 'Files (local directory)',
  version: 1,
  spec: filesSpec,
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite'] },
  async open(config, context) {
    return openFiles(config, context);
  },
};
