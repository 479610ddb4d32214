/**
 * Declarative row transforms: the same steps run in process over record batches or pushed down into
 * one PostgreSQL SELECT, with the same results (docs/transforms.md).
 */
export {
  TRANSFORM_TYPES,
  TransformError,
  type MaskMethod,
  type TransformProblem,
  type TransformStep,
} from './steps.js';
export { validateSteps } from './validate.js';
export { planTransforms, type PlanOptions, type TransformPlan } from './plan.js';
export { maskRule } from './casts.js';
export { columnLineage, type ColumnLineageEntry, type ColumnTransformation } from './lineage.js';
