import type { ReactNode } from 'react';

/** A cell's text: nulls and JSON shown as such. */
export const cellText = (value: unknown) =>
  value === null || value === undefined ? '∅' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** Rows read from somewhere (a preview), their columns with their types, in a scrollable table. */
export function RowsTable(props: {
  caption: ReactNode;
  columns: Array<{ name: string; type: string }>;
  rows: Array<Record<string, unknown>>;
  empty: ReactNode;
}) {
  return (
    <div className="table-wrap" tabIndex={0}>
      <table>
        <caption>{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th scope="col" key={c.name}>
                {c.name} <span className="muted">{c.type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row, i) => (
            <tr key={i}>
              {props.columns.map((c) => (
                <td key={c.name}>{cellText(row[c.name])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {props.rows.length === 0 ? <p className="empty">{props.empty}</p> : null}
    </div>
  );
}
