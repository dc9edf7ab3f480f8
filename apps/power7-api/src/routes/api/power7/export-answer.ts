import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { SessionRow } from '../../../modules/sessions/state';
import {
  csvToXlsx,
  parameterLines,
  withParameterBlock,
  XLSX_TYPE,
  type XlsxSheet,
} from '../../../modules/exports/exports';
import { attachment, sendCsv } from './common';

/** `format` and `params` of every download (docs/reference/power7-api.md "Downloads"). */
export const exportQuery = {
  format: z
    .enum(['csv', 'xlsx'], { error: 'The format must be "csv" or "xlsx".' })
    .default('csv')
    .meta({ description: '`xlsx`: a workbook with typed cells and a Parameters sheet' }),
  params: z
    .enum(['0', '1'], { error: 'params must be 0 or 1.' })
    .optional()
    .meta({ description: '`1`: a CSV starts with the session parameters as `# ` lines' }),
};

export interface ExportAnswer {
  row: SessionRow;
  /** The file name without its extension. */
  name: string;
  /** What is exported, for the parameter block ("winners of 1-2-3-4-5-6-7, 6 matches"). */
  what: string;
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string>;
  format: 'csv' | 'xlsx';
  params?: '0' | '1' | undefined;
  sheet: Omit<XlsxSheet, 'parameters'>;
}

/** Sends an export as CSV (with the parameter block when asked) or as an XLSX workbook. */
export function sendExport(reply: FastifyReply, answer: ExportAnswer) {
  const lines = parameterLines(answer.row, answer.what);
  if (answer.format === 'xlsx') {
    return reply
      .type(XLSX_TYPE)
      .header('content-disposition', attachment(`${answer.name}.xlsx`))
      .send(csvToXlsx(answer.chunks, { ...answer.sheet, parameters: lines }));
  }
  const chunks = answer.params === '1' ? withParameterBlock(lines, answer.chunks) : answer.chunks;
  return sendCsv(reply, `${answer.name}.csv`, chunks);
}
