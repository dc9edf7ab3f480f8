import '@tanstack/react-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the generics must match TanStack's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of this column's header and cells. */
    className?: string;
    /** The column's name in the "Columns" menu. */
    label?: string;
  }
}
