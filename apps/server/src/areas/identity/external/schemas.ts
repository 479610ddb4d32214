import { Type, type TSchema } from 'typebox';
import { Timestamp, Uuid } from '../../../platform/schemas.js';

const Mappings = Type.Optional(
  Type.Array(
    Type.Object(
      { group: Type.String({ minLength: 1 }), project_id: Uuid, role: Type.String({ minLength: 1 }) },
      { additionalProperties: false },
    ),
    {
      description: 'A member of `group` gets `role` in `project_id` at each sign-in',
    },
  ),
);
export const OidcConfig = Type.Object(
  {
    issuer: Type.String({ format: 'uri', description: 'Issuer URL; its /.well-known/openid-configuration is read' }),
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Write-only: encrypted at rest, never returned; omitted in a PATCH keeps it',
        writeOnly: true,
      }),
    ),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Default openid, email, profile' })),
    username_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default preferred_username' })),
    email_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default email' })),
    groups_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default groups' })),
    allowed_email_domains: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: 'When set, only these e-mail domains may sign in' }),
    ),
    group_mappings: Mappings,
  },
  { additionalProperties: false },
);
export const LdapConfig = Type.Object(
  {
    url: Type.String({ pattern: '^ldaps?://', description: 'ldap://host:port or ldaps://host:port' }),
    start_tls: Type.Boolean({ description: 'Upgrade an ldap:// connection with StartTLS' }),
    ca_pem: Type.Optional(
      Type.String({ description: 'PEM of the CA to trust (else the system CAs); certificates are always verified' }),
    ),
    bind_dn: Type.Optional(Type.String({ minLength: 1, description: 'Service account that searches for users' })),
    bind_password: Type.Optional(
      Type.String({ minLength: 1, description: 'Write-only: encrypted at rest, never returned', writeOnly: true }),
    ),
    user_base_dn: Type.String({ minLength: 1 }),
    user_filter: Type.String({ minLength: 1, description: 'e.g. (uid={username}); the login name is escaped' }),
    username_attribute: Type.String({ minLength: 1 }),
    email_attribute: Type.String({ minLength: 1 }),
    group_base_dn: Type.Optional(
      Type.String({ minLength: 1, description: "Groups are searched here by member; else the user's memberOf" }),
    ),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
    group_mappings: Mappings,
  },
  { additionalProperties: false },
);
export const Provider = Type.Object({
  id: Uuid,
  kind: Type.Union([Type.Literal('oidc'), Type.Literal('ldap')]),
  name: Type.String(),
  enabled: Type.Boolean(),
  position: Type.Integer(),
  config: Type.Record(Type.String(), Type.Unknown()),
  secrets_set: Type.Array(Type.String(), { description: 'Secret fields that hold a value (never the value)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** The body that creates a provider of a kind, from the schema of its configuration. */
export const ProviderBody = <C extends TSchema>(config: C) =>
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      enabled: Type.Optional(Type.Boolean()),
      position: Type.Optional(Type.Integer({ minimum: 0, description: 'LDAP: the order providers are tried in' })),
      config,
    },
    { additionalProperties: false },
  );
/** The body that changes a provider of a kind. */
export const ProviderPatch = <C extends TSchema>(config: C) =>
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      enabled: Type.Optional(Type.Boolean()),
      position: Type.Optional(Type.Integer({ minimum: 0 })),
      config: Type.Optional(config),
    },
    { additionalProperties: false, minProperties: 1 },
  );
export const LdapTestResult = Type.Object({
  ok: Type.Boolean(),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});
export const SsoDiscovery = Type.Object({
  providers: Type.Array(Type.Object({ id: Uuid, name: Type.String(), start_path: Type.String() })),
});
export const SsoStartQuery = Type.Object(
  {
    redirect_to: Type.Optional(
      Type.String({ maxLength: 2000, description: 'A path of this service to land on afterwards (default /)' }),
    ),
  },
  { additionalProperties: false },
);
export const SsoCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    error_description: Type.Optional(Type.String()),
    iss: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
