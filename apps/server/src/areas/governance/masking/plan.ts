/**
 * Which policy masks which column, for one principal: the policies that apply (the principal is not
 * exempt from them) are matched to the columns by name or by tag, and where several cover one column
 * the most restrictive wins (`RESTRICTIVENESS`; between two `partial` masks the one keeping fewer
 * characters; then the policy created first). docs/masking.md states the rule.
 */
import type { CanonicalType, Value } from '@svc/engine';
import { maskFunction, RESTRICTIVENESS, type MaskingMethod, type MethodOptions, type ValueMask } from './methods.js';

export interface AppliedPolicy {
  id: string;
  name: string;
  method: MaskingMethod;
  options: MethodOptions;
  /** Column names (compared without regard to case). */
  columns: string[];
  /** Catalog tags of columns. */
  tags: string[];
  created_at: Date;
}

export interface MaskColumn {
  name: string;
  type: CanonicalType;
  /** The column's catalog tags, when known. */
  tags?: string[];
}

const kept = (p: AppliedPolicy) => (p.options.keep_first ?? 0) + (p.options.keep_last ?? 4);

/** Negative when `a` is more restrictive than `b`. */
export function compareRestrictiveness(a: AppliedPolicy, b: AppliedPolicy): number {
  const byMethod = RESTRICTIVENESS[b.method] - RESTRICTIVENESS[a.method];
  if (byMethod !== 0) return byMethod;
  if (a.method === 'partial') {
    const byKept = kept(a) - kept(b);
    if (byKept !== 0) return byKept;
  }
  return a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id);
}

/** The policy that masks the column, or undefined when none covers it. */
export function winningPolicy(policies: AppliedPolicy[], column: MaskColumn): AppliedPolicy | undefined {
  const name = column.name.toLowerCase();
  const tags = new Set((column.tags ?? []).map((t) => t.toLowerCase()));
  const matching = policies.filter(
    (p) => p.columns.some((c) => c.toLowerCase() === name) || p.tags.some((t) => tags.has(t.toLowerCase())),
  );
  return matching.sort(compareRestrictiveness)[0];
}

/** Masks rows of these columns (row-major arrays, the engine's batches). */
export interface RowMask {
  /** Which column is masked by which policy (only the masked ones). */
  masked: Record<string, { policy: string; method: MaskingMethod }>;
  row(values: Value[]): Value[];
}

export function planMask(policies: AppliedPolicy[], columns: MaskColumn[], key: () => Buffer): RowMask | null {
  const masks: (ValueMask | null)[] = [];
  const masked: RowMask['masked'] = {};
  for (const column of columns) {
    const policy = winningPolicy(policies, column);
    if (!policy) {
      masks.push(null);
      continue;
    }
    masked[column.name] = { policy: policy.name, method: policy.method };
    masks.push(maskFunction(policy.method, policy.options, column.type, key));
  }
  if (Object.keys(masked).length === 0) return null;
  return {
    masked,
    row(values) {
      const out = values.slice();
      for (let i = 0; i < masks.length; i++) {
        const mask = masks[i];
        if (mask) out[i] = mask(values[i] ?? null);
      }
      return out;
    },
  };
}
