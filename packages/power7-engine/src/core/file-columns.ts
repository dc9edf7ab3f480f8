import { detectColumns, noNumberColumnsMessage, type ColumnMap } from '@pa/contracts/power7-file';
import { EngineError } from './errors';

export type { ColumnMap } from '@pa/contracts/power7-file';

/** The shared header rules (`@pa/contracts/power7-file`); throws NO_NUMBER_COLUMNS naming what was found. */
export function recogniseColumns(header: string[]): ColumnMap {
  const columns = detectColumns(header);
  if (!columns) throw new EngineError('NO_NUMBER_COLUMNS', noNumberColumnsMessage(header));
  return columns;
}
