import type { ReactNode, TdHTMLAttributes } from 'react';
import { Button } from 'react-aria-components';
import { QueryState } from './QueryState';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Attributes of the column's cells (a class, role="status" for a cell that announces changes). */
  cellProps?: (row: T) => TdHTMLAttributes<HTMLTableCellElement>;
}

/** A read of a list (a query): its items, whether it is still under way, and its error. */
export interface ListRead<T> {
  data?: { items: T[] };
  isPending: boolean;
  error: unknown;
}

/** A paged read (an infinite query): the button under the table fetches its next page. */
export interface PagedRead {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * A list as a table: its loading, error and empty states, then (once there are rows) a scrollable,
 * keyboard-reachable table with a caption for screen readers, and a button for the next page.
 * `rows` is undefined while nothing was read; `empty` is shown when the read found no rows. A row's
 * buttons (`actions`) come last, in a column whose header only screen readers hear. `read` gives the
 * rows, the pending state and the first error of a list query in one; a row's key is its id unless
 * `rowKey` says otherwise.
 */
export function DataTable<T>(props: {
  caption: ReactNode;
  columns: Array<Column<T>>;
  rows?: T[] | undefined;
  read?: ListRead<T>;
  rowKey?: (row: T) => string;
  rowProps?: (row: T) => { 'aria-current'?: 'true'; 'aria-selected'?: boolean };
  actions?: (row: T) => ReactNode;
  /** The class of the actions cell ("row": the buttons side by side). */
  actionsClassName?: string;
  pending?: boolean;
  error?: unknown;
  empty?: ReactNode;
  /** The paged read the rows come from, and the label of its next-page button ("More users"). */
  more?: PagedRead;
  moreLabel?: string;
}) {
  const { columns, more, read } = props;
  const rows = props.rows ?? read?.data?.items;
  const rowKey = props.rowKey ?? ((row: T) => (row as { id: string }).id);
  return (
    <>
      <QueryState
        pending={props.pending ?? read?.isPending}
        error={read?.error ?? props.error}
        empty={rows && rows.length === 0 ? props.empty : undefined}
      />
      {rows?.length ? (
        <div className="table-wrap" tabIndex={0}>
          <table>
            <caption className="visually-hidden">{props.caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.header} scope="col">
                    {column.header}
                  </th>
                ))}
                {props.actions ? (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)} {...props.rowProps?.(row)}>
                  {columns.map((column) => (
                    <td key={column.header} {...column.cellProps?.(row)}>
                      {column.cell(row)}
                    </td>
                  ))}
                  {props.actions ? <td className={props.actionsClassName}>{props.actions(row)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {more?.hasNextPage ? (
        <Button className="secondary" onPress={() => void more.fetchNextPage()} isDisabled={more.isFetchingNextPage}>
          {props.moreLabel}
        </Button>
      ) : null}
    </>
  );
}
