/**
 * Settings with write-only secret fields (notification channels, audit destinations, SMTP servers):
 * validated against a JSON Schema whose secret properties carry `x-secret: true`, split into plain
 * fields (stored and shown) and secrets (encrypted at rest with the instance's secret box, never
 * shown: responses list the names of those set). A change that leaves a secret out keeps it.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TObject } from 'typebox';
import { validationFailed, type FieldError } from './errors/index.js';
import type { SecretBox } from './secrets.js';

/** The failed fields of an ajv validation, each named from `prefix` ("config.port", "config.to"). */
export function schemaFieldErrors(errors: ErrorObject[] | null | undefined, prefix: string): FieldError[] {
  return (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra =
      e.keyword === 'additionalProperties' ? `.${(e.params as { additionalProperty: string }).additionalProperty}` : '';
    return {
      path: `${prefix}${e.instancePath.replaceAll('/', '.')}${missing}${extra}`,
      message: e.message ?? 'is invalid',
    };
  });
}

export interface Sealed {
  plain: Record<string, unknown>;
  /** Field -> ciphertext. */
  secrets: Record<string, string>;
}

export function secretFieldsOf(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => (property as Record<string, unknown>)['x-secret'] === true)
    .map(([name]) => name);
}

/** A sealer for the kinds of one resource (a schema per kind), named `prefix` in validation errors. */
export function createSealer(box: SecretBox, prefix: string) {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  addFormats.default(ajv);
  const validators = new Map<TObject, ValidateFunction>();
  const validatorOf = (schema: TObject) => {
    let validate = validators.get(schema);
    if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  const unsealSecrets = (secrets: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(secrets).map(([field, ciphertext]) => [field, JSON.parse(box.decrypt(ciphertext))]),
    );

  return {
    /**
     * Validates the whole configuration (`previous` secrets filling in those left out) and seals it.
     * A secret given as null is removed.
     */
    seal(schema: TObject, config: Record<string, unknown>, previous: Record<string, string> = {}): Sealed {
      const secretNames = new Set(secretFieldsOf(schema));
      const kept = unsealSecrets(
        Object.fromEntries(Object.entries(previous).filter(([field]) => secretNames.has(field) && !(field in config))),
      );
      const candidate: Record<string, unknown> = structuredClone({ ...kept, ...config });
      for (const [field, value] of Object.entries(candidate)) if (value === null) delete candidate[field];
      const validate = validatorOf(schema);
      if (!validate(candidate)) throw validationFailed(schemaFieldErrors(validate.errors, prefix));
      const sealed: Sealed = { plain: {}, secrets: {} };
      for (const [field, value] of Object.entries(candidate)) {
        if (secretNames.has(field)) {
          if (value !== undefined && value !== '') sealed.secrets[field] = box.encrypt(JSON.stringify(value));
        } else sealed.plain[field] = value;
      }
      return sealed;
    },
    /** The whole configuration, secrets decrypted: for sending, never for a response. */
    unseal(plain: Record<string, unknown>, secrets: Record<string, string> | null): Record<string, unknown> {
      return { ...plain, ...unsealSecrets(secrets ?? {}) };
    },
  };
}

/** Secrets as stored in one text column (JSON of field -> ciphertext). */
export const secretsColumn = {
  write: (secrets: Record<string, string>): string | null =>
    Object.keys(secrets).length ? JSON.stringify(secrets) : null,
  read: (text: string | null): Record<string, string> => (text ? (JSON.parse(text) as Record<string, string>) : {}),
};
