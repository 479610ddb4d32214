/** Building blocks of the configuration table: one entry per SVC_ variable. */
export interface Entry<T> {
  env: string;
  doc: string;
  default: T;
  parse: (raw: string) => T;
}

export function entry<T>(env: string, parse: (raw: string) => T, defaultValue: T, doc: string): Entry<T> {
  return { env, parse, default: defaultValue, doc };
}

export function optionalEntry<T>(env: string, parse: (raw: string) => T, doc: string): Entry<T | undefined> {
  return { env, parse, default: undefined, doc };
}

export const text = () => (raw: string) => raw;

export function integer({ min, max }: { min?: number; max?: number } = {}) {
  return (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Error(`expected an integer, got "${raw}"`);
    const value = Number(raw);
    if (min !== undefined && value < min) throw new Error(`must be at least ${min}, got ${value}`);
    if (max !== undefined && value > max) throw new Error(`must be at most ${max}, got ${value}`);
    return value;
  };
}

export function bool() {
  return (raw: string): boolean => {
    const value = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    throw new Error(`expected true/false (or 1/0, yes/no, on/off), got "${raw}"`);
  };
}

export function oneOf<const T extends readonly string[]>(values: T) {
  return (raw: string): T[number] => {
    if (!values.includes(raw)) throw new Error(`expected one of ${values.join(', ')}, got "${raw}"`);
    return raw as T[number];
  };
}

export function url(protocols: string[]) {
  return (raw: string): string => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error('not a valid URL');
    }
    if (!protocols.includes(parsed.protocol)) {
      throw new Error(`expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return raw;
  };
}
