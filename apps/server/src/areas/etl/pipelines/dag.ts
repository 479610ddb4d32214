/** The dependency graph between a project's pipelines (shared with warehouse models: platform/dag.ts). */
export { downstreamOf, findCycle, type GraphNode } from '../../../platform/dag.js';
