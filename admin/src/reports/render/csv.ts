// The CSV form of a report: one header row and one row per figure, in long form (section, row, label,
// metric, value) so that every section fits one table and a spreadsheet pivots it back. RFC 4180
// quoting by csv-stringify. The same figures as the PDF: both render the same document.
import { stringify } from 'csv-stringify/sync';
import type { ReportDocument } from '../document.js';

export const CSV_COLUMNS = ['section', 'row', 'label', 'metric', 'value'] as const;
/** Excel reads a UTF-8 CSV without it as the local code page (Cyrillic turns to mojibake). */
export const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export function renderCsv(doc: ReportDocument): Buffer {
  const rows: Array<Array<string | number>> = [];
  const r = doc.report;
  for (const [metric, value] of [
    ['type', r.type],
    ['period_start', r.period_start],
    ['period_end', r.period_end],
    ['tenant', doc.scope],
    ['generated_at', doc.generatedAt],
  ] as const) {
    rows.push(['report', '', '', metric, value]);
  }
  for (const section of doc.sections) {
    for (const f of section.figures ?? []) rows.push([section.id, '', f.label, f.key, f.value ?? '']);
    const table = section.table;
    if (!table) continue;
    const [labelColumn, ...valueColumns] = table.columns;
    table.rows.forEach((row, i) => {
      const label = labelColumn ? String(row[labelColumn.key] ?? '') : '';
      for (const c of valueColumns) rows.push([section.id, i + 1, label, c.key, row[c.key] ?? '']);
    });
  }
  return Buffer.from(stringify(rows, { header: true, columns: [...CSV_COLUMNS], record_delimiter: '\r\n' }), 'utf8');
}
