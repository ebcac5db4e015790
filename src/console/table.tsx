/** A table of items: a caption, a header row, one row per item (cells given by `cells`), a line when there is none. */
import type { ComponentChildren } from 'preact';
import { itemsOf } from './api';
import { Loading, useLoad } from './ui';

export interface TableProps<T> {
  caption: string;
  headers: string[];
  items: T[];
  keyOf: (item: T) => string | number;
  cells: (item: T) => ComponentChildren[];
  empty?: string;
  /** A row shown under an item's own (an edit form), or nothing. */
  below?: (item: T) => ComponentChildren;
  className?: string;
}

export function Table<T>({ caption, headers, items, keyOf, cells, empty, below, className }: TableProps<T>) {
  return (
    <table class={className}>
      <caption>{caption}</caption>
      {headers.length > 0 ? (
        <thead>
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
      ) : null}
      <tbody>
        {items.length === 0 && empty ? (
          <tr>
            <td colSpan={Math.max(1, headers.length)}>{empty}</td>
          </tr>
        ) : null}
        {items.map((item) => {
          const extra = below?.(item);
          return [
            <tr key={keyOf(item)}>
              {cells(item).map((cell, at) => (
                <td key={at}>{cell}</td>
              ))}
            </tr>,
            extra ? (
              <tr key={`${keyOf(item)}-below`}>
                <td colSpan={headers.length}>{extra}</td>
              </tr>
            ) : null,
          ];
        })}
      </tbody>
    </table>
  );
}

/** A table of what `load` answers (an array or a page of `Items`), loaded again when `version` changes. */
export function LoadedTable<T>({
  load,
  version = 0,
  ...table
}: Omit<TableProps<T>, 'items'> & { load: () => Promise<T[] | { Items?: T[] | null }>; version?: number }) {
  const loaded = useLoad(() => load().then(itemsOf), [version]);
  return <Loading loaded={loaded}>{(items) => <Table {...table} items={items} />}</Loading>;
}
