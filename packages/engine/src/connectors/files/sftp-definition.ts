/** The files connector over SFTP: the same formats and dataset layout, in a directory on an SSH server. */
import { posix } from 'node:path';
import { Type, type Static } from 'typebox';
import { Secret, type ConnectorContext, type ConnectorDefinition, type ConnectorHandle } from '../../types.js';
import { formatProperties, invalidConfig, openDirectoryHandle, validateFormatOptions } from './handle.js';
import { connectSftp, normalizeFingerprint } from './sftp-client.js';
import { SftpStore } from './sftp-store.js';

export const sftpSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 22, title: 'Port' })),
    username: Type.String({ minLength: 1, title: 'User' }),
    password: Secret('Password'),
    /** PEM or OpenSSH private key. */
    private_key: Secret('Private key (PEM or OpenSSH)'),
    passphrase: Secret('Private key passphrase'),
    /** The server's host key fingerprint as OpenSSH prints it: 'SHA256:' and unpadded base64. */
    host_key_sha256: Type.Optional(
      Type.String({
        pattern: '^SHA256:[A-Za-z0-9+/]{43}=?$',
        title: 'Host key fingerprint ("SHA256:..."; any other key is refused)',
      }),
    ),
    /** The remote base directory (absolute); every dataset is a file in it. */
    path: Type.String({ minLength: 1, title: 'Remote directory (absolute path)' }),
    ...formatProperties,
  },
  { additionalProperties: false },
);

export type SftpConfig = Static<typeof sftpSpec>;

function validate(config: SftpConfig): void {
  if (typeof config.host !== 'string' || !config.host) throw invalidConfig('host is required');
  if (config.port !== undefined && (!Number.isInteger(config.port) || config.port < 1 || config.port > 65535))
    throw invalidConfig('port must be an integer from 1 to 65535');
  if (typeof config.username !== 'string' || !config.username) throw invalidConfig('username is required');
  if (!config.password && !config.private_key) throw invalidConfig('give a password or a private_key');
  if (
    config.host_key_sha256 !== undefined &&
    !/^SHA256:[A-Za-z0-9+/]{43}$/.test(normalizeFingerprint(config.host_key_sha256))
  ) {
    throw invalidConfig(
      'host_key_sha256 must be a fingerprint as ssh-keygen -l prints it: "SHA256:" and 43 base64 characters',
    );
  }
  if (typeof config.path !== 'string' || !posix.isAbsolute(config.path))
    throw invalidConfig('path must be an absolute remote directory path');
  validateFormatOptions(config);
}

/** One SFTP connection per handle: opened on first use, ended by close(). */
export function openSftp(config: SftpConfig, context: ConnectorContext): ConnectorHandle {
  return openDirectoryHandle({
    dir: config.path,
    options: config,
    context,
    validate: () => validate(config),
    connect: async () => new SftpStore(await connectSftp(config, context)),
  });
}

export const sftpConnector: ConnectorDefinition<typeof sftpSpec> = {
  kind: 'sftp',
  title: 'Files over SFTP',
  version: 1,
  spec: sftpSpec,
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite'] },
  async open(config, context) {
    return openSftp(config, context);
  },
};
