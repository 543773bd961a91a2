// Vector charts drawn with pdfkit's path API: horizontal bars for rankings and breakdowns, lines for
// series over days. Hand-drawn because no maintained chart library draws into a pdfkit document
// without a browser or a raster step; these are a few rectangles and polylines.
import type { Chart, Table } from '../document.js';

type Doc = PDFKit.PDFDocument;

export const PALETTE = ['#2563eb', '#f97316', '#16a34a', '#9333ea', '#dc2626'];
const AXIS = '#9ca3af';
const TEXT = '#374151';

const compact = (n: number) => (Math.abs(n) >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : Math.abs(n) >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : n.toLocaleString('en-US'));
const numberAt = (row: Record<string, unknown>, key: string) => (typeof row[key] === 'number' ? (row[key] as number) : 0);

function legend(doc: Doc, table: Table, keys: string[], x: number, y: number): void {
  let at = x;
  keys.forEach((key, i) => {
    const label = table.columns.find((c) => c.key === key)?.label ?? key;
    doc.rect(at, y + 2, 8, 8).fill(PALETTE[i % PALETTE.length]!);
    doc.fillColor(TEXT).fontSize(8).text(label, at + 11, y + 1, { lineBreak: false });
    at += 11 + doc.widthOfString(label) + 14;
  });
}

/** Bars for at most 12 categories; returns the height used. */
function barChart(doc: Doc, table: Table, chart: Chart, x: number, y: number, width: number): number {
  const rows = table.rows.slice(0, 12);
  const keys = chart.valueKeys;
  const barH = keys.length > 1 ? 6 : 10;
  const rowH = barH * keys.length + 8;
  const labelW = Math.min(150, width * 0.3);
  const plotW = width - labelW - 50;
  const max = Math.max(1, ...rows.flatMap((r) => keys.map((k) => numberAt(r, k))));
  legend(doc, table, keys, x + labelW, y);
  let top = y + 16;
  for (const row of rows) {
    doc.fillColor(TEXT).fontSize(8).text(String(row[chart.labelKey] ?? ''), x, top + rowH / 2 - 5, { width: labelW - 8, align: 'right', lineBreak: false, ellipsis: true, height: 10 });
    keys.forEach((key, i) => {
      const value = numberAt(row, key);
      const w = Math.max(value > 0 ? 1 : 0, (value / max) * plotW);
      const by = top + 4 + i * barH;
      if (w > 0) doc.rect(x + labelW, by, w, barH - 1).fill(PALETTE[i % PALETTE.length]!);
      doc.fillColor(TEXT).fontSize(7).text(compact(value), x + labelW + w + 4, by + (barH - 8) / 2, { lineBreak: false });
    });
    top += rowH;
  }
  doc.moveTo(x + labelW, y + 14).lineTo(x + labelW, top).strokeColor(AXIS).lineWidth(0.5).stroke();
  return top - y + 6;
}

/** The smallest 1, 2 or 5 × 10^k step (at least 1) that fits `max` in four gridlines. */
function gridStep(max: number): number {
  const raw = Math.max(1, max / 4);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw)!;
}

/** Lines over the table's rows in order (days); returns the height used. */
function lineChart(doc: Doc, table: Table, chart: Chart, x: number, y: number, width: number): number {
  const height = 130;
  const rows = table.rows;
  const keys = chart.valueKeys;
  const left = x + 40;
  const plotW = width - 50;
  const top = y + 18;
  const bottom = top + height - 30;
  const max = gridStep(Math.max(1, ...rows.flatMap((r) => keys.map((k) => numberAt(r, k))))) * 4;
  legend(doc, table, keys, left, y);
  for (let g = 0; g <= 4; g++) {
    const gy = bottom - ((bottom - top) * g) / 4;
    doc.moveTo(left, gy).lineTo(left + plotW, gy).strokeColor(g === 0 ? AXIS : '#e5e7eb').lineWidth(0.5).stroke();
    doc.fillColor(TEXT).fontSize(7).text(compact((max * g) / 4), x, gy - 4, { width: 36, align: 'right', lineBreak: false });
  }
  const xAt = (i: number) => (rows.length === 1 ? left + plotW / 2 : left + (plotW * i) / (rows.length - 1));
  keys.forEach((key, k) => {
    const color = PALETTE[k % PALETTE.length]!;
    rows.forEach((row, i) => {
      const py = bottom - ((bottom - top) * numberAt(row, key)) / max;
      if (i === 0) doc.moveTo(xAt(i), py);
      else doc.lineTo(xAt(i), py);
    });
    if (rows.length > 1) doc.strokeColor(color).lineWidth(1.5).stroke();
    if (rows.length <= 40) rows.forEach((row, i) => doc.circle(xAt(i), bottom - ((bottom - top) * numberAt(row, key)) / max, 1.8).fill(color));
  });
  // First, middle and last x labels: enough to read the dates without overlap.
  const marks = [...new Set([0, Math.floor((rows.length - 1) / 2), rows.length - 1])].filter((i) => i >= 0);
  for (const i of marks) doc.fillColor(TEXT).fontSize(7).text(String(rows[i]?.[chart.labelKey] ?? ''), xAt(i) - 30, bottom + 4, { width: 60, align: 'center', lineBreak: false });
  return height;
}

/** Draws the chart of a table at (x, y); returns the height used (0 when there is nothing to draw). */
export function drawChart(doc: Doc, table: Table, chart: Chart, x: number, y: number, width: number): number {
  if (table.rows.length === 0) return 0;
  return chart.kind === 'bar' ? barChart(doc, table, chart, x, y, width) : lineChart(doc, table, chart, x, y, width);
}

/** The height drawChart will use, to break the page before it. */
export function chartHeight(table: Table, chart: Chart): number {
  if (table.rows.length === 0) return 0;
  if (chart.kind === 'line') return 130;
  return 22 + Math.min(12, table.rows.length) * ((chart.valueKeys.length > 1 ? 6 : 10) * chart.valueKeys.length + 8);
}
