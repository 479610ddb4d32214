/** Pieces of the JSON shapes many resources share, shown the same way everywhere. */

/** Who created a resource, when, and when it last changed. */
export const authorship = (row: { created_by: string | null; created_at: Date; updated_at: Date }) => ({
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
