/**
 * The framework database's tables, as Kysely sees them. Each area adds its own tables to this
 * interface by declaration merging in its repository module, so that no area edits another's types.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Database {}
