// What a generated report says, independent of its format: a cover and sections of headline figures,
// tables and a chart of one table. The PDF and the CSV renderers both read this, so the two formats
// carry the same figures.
import type { Report } from '@palisade/core';

export type Cell = string | number | null;

export interface Column {
  key: string;
  label: string;
  /** Right-aligned, thousands-separated in the PDF. */
  numeric?: boolean;
  /** Relative width among the text columns (default 1). */
  weight?: number;
  /** Long text shown on its own line under the row, across the table (a prompt excerpt). */
  detail?: boolean;
}

export interface Table {
  columns: Column[];
  rows: Array<Record<string, Cell>>;
}

export interface Chart {
  kind: 'bar' | 'line';
  /** The column giving the category (bar) or x value (line). */
  labelKey: string;
  /** One series per column. */
  valueKeys: string[];
}

export interface Section {
  /** Stable identifier, the CSV's `section` column. */
  id: string;
  title: string;
  note?: string;
  figures?: Array<{ key: string; label: string; value: Cell }>;
  table?: Table;
  chart?: Chart;
}

export interface ReportDocument {
  title: string;
  report: Report;
  /** "acme", or "all tenants". */
  scope: string;
  generatedAt: string;
  sections: Section[];
}

export const TITLES: Record<Report['type'], string> = {
  PII_DLP: 'PII / DLP report',
  INCIDENTS: 'Security incidents report',
  LLM_USAGE: 'LLM usage report',
};
