// The PDF form of a report (pdfkit): a cover with the period, tenant and generation time, then each
// section with its headline figures, its chart and its table; page numbers on every page. Text is set
// in DejaVu Sans, embedded from the dejavu-fonts-ttf package, so Cyrillic (and most scripts) render.
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import type { Cell, ReportDocument, Section, Table } from '../document.js';
import { chartHeight, drawChart, PALETTE } from './pdf-charts.js';

type Doc = PDFKit.PDFDocument;

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const MARGIN = 48;
const TEXT = '#111827';
const MUTED = '#6b7280';
const ROW_H = 15;

export const formatCell = (v: Cell): string => (v === null ? '' : typeof v === 'number' ? v.toLocaleString('en-US') : v);
const human = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

function cover(doc: Doc, d: ReportDocument): void {
  const w = doc.page.width;
  doc.rect(0, 0, w, 230).fill('#1e3a8a');
  doc.fillColor('#bfdbfe').font('bold').fontSize(12).text('PALISADE', MARGIN, 70, { characterSpacing: 3 });
  doc.fillColor('#ffffff').fontSize(30).text(d.title, MARGIN, 100, { width: w - 2 * MARGIN });
  const facts: Array<[string, string]> = [
    ['Period', `${human(d.report.period_start)}  —  ${human(d.report.period_end)}`],
    ['Tenant', d.scope],
    ['Generated', human(d.generatedAt)],
    ['Requested by', d.report.created_by],
    ['Report id', d.report.id],
  ];
  let y = 280;
  for (const [label, value] of facts) {
    doc.fillColor(MUTED).font('regular').fontSize(10).text(label, MARGIN, y, { width: 110 });
    doc.fillColor(TEXT).font('bold').fontSize(11).text(value, MARGIN + 110, y - 1, { width: w - 2 * MARGIN - 110 });
    y += 26;
  }
  const summary = d.sections.find((s) => s.figures);
  if (summary) figures(doc, summary, y + 30);
  doc.fillColor(MUTED).font('regular').fontSize(8).text('Personal data appears in masked form only. Times are UTC.', MARGIN, doc.page.height - 90, { width: w - 2 * MARGIN });
}

/** Headline figures as cards, four per row; returns the y below them. */
function figures(doc: Doc, section: Section, y: number): number {
  const list = section.figures ?? [];
  const perRow = 4;
  const gap = 8;
  const cardW = (doc.page.width - 2 * MARGIN - gap * (perRow - 1)) / perRow;
  list.forEach((f, i) => {
    const x = MARGIN + (i % perRow) * (cardW + gap);
    const top = y + Math.floor(i / perRow) * 54;
    doc.roundedRect(x, top, cardW, 46, 4).fill('#f3f4f6');
    doc.rect(x, top, 3, 46).fill(PALETTE[0]!);
    doc.fillColor(MUTED).font('regular').fontSize(7.5).text(f.label, x + 9, top + 7, { width: cardW - 14, lineBreak: false, ellipsis: true, height: 10 });
    doc.fillColor(TEXT).font('bold').fontSize(15).text(formatCell(f.value), x + 9, top + 20, { width: cardW - 14, lineBreak: false, ellipsis: true, height: 20 });
  });
  return y + Math.ceil(list.length / perRow) * 54;
}

const NUMERIC_W = 56;
const HEADER_H = 24;

/** Numbers get a fixed width, text columns share the rest by weight; detail columns take none. */
function columnWidths(table: Table, width: number): number[] {
  const inline = table.columns.filter((c) => !c.detail);
  const numeric = inline.filter((c) => c.numeric).length;
  const weights = inline.filter((c) => !c.numeric).reduce((sum, c) => sum + (c.weight ?? 1), 0);
  const numericW = weights > 0 ? NUMERIC_W : width / Math.max(1, numeric);
  const perWeight = weights > 0 ? (width - numeric * numericW) / weights : 0;
  return table.columns.map((c) => (c.detail ? 0 : c.numeric ? numericW : perWeight * (c.weight ?? 1)));
}

function tableHeader(doc: Doc, table: Table, widths: number[], y: number): number {
  doc.rect(MARGIN, y, doc.page.width - 2 * MARGIN, HEADER_H).fill('#1e3a8a');
  let x = MARGIN;
  table.columns.forEach((c, i) => {
    if (c.detail) return;
    // Two lines at most, so long labels wrap instead of being cut.
    doc.fillColor('#ffffff').font('bold').fontSize(7).text(c.label, x + 3, y + 4, { width: widths[i]! - 6, align: c.numeric ? 'right' : 'left', height: 18, ellipsis: true });
    x += widths[i]!;
  });
  return y + HEADER_H;
}

function drawTable(doc: Doc, table: Table, y: number): number {
  const width = doc.page.width - 2 * MARGIN;
  const widths = columnWidths(table, width);
  const details = table.columns.filter((c) => c.detail);
  const rowH = ROW_H + details.length * 12;
  const bottom = doc.page.height - MARGIN - 20;
  if (y + HEADER_H + rowH > bottom) y = newPage(doc);
  y = tableHeader(doc, table, widths, y);
  if (table.rows.length === 0) {
    doc.fillColor(MUTED).font('regular').fontSize(8).text('No data in this period.', MARGIN + 3, y + 4);
    return y + ROW_H + 6;
  }
  table.rows.forEach((row, r) => {
    if (y + rowH > bottom) y = tableHeader(doc, table, widths, newPage(doc));
    if (r % 2 === 1) doc.rect(MARGIN, y, width, rowH).fill('#f3f4f6');
    let x = MARGIN;
    table.columns.forEach((c, i) => {
      if (c.detail) return;
      doc.fillColor(TEXT).font('regular').fontSize(7.5).text(formatCell(row[c.key] ?? null), x + 3, y + 4, { width: widths[i]! - 6, align: c.numeric ? 'right' : 'left', lineBreak: false, ellipsis: true, height: 10 });
      x += widths[i]!;
    });
    details.forEach((c, d) => {
      const text = formatCell(row[c.key] ?? null);
      doc.fillColor(MUTED).font('regular').fontSize(7).text(text ? `${c.label}: ${text}` : '', MARGIN + 12, y + ROW_H + d * 12, { width: width - 16, lineBreak: false, ellipsis: true, height: 10 });
    });
    y += rowH;
  });
  return y + 10;
}

function newPage(doc: Doc): number {
  doc.addPage();
  return MARGIN;
}

function section(doc: Doc, s: Section, y: number): number {
  const width = doc.page.width - 2 * MARGIN;
  const bottom = doc.page.height - MARGIN - 20;
  const needed = 40 + (s.figures ? Math.ceil(s.figures.length / 4) * 54 : 0) + (s.chart && s.table ? chartHeight(s.table, s.chart) : 0) + 3 * ROW_H;
  if (y + Math.min(needed, 360) > bottom) y = newPage(doc);
  doc.fillColor(TEXT).font('bold').fontSize(14).text(s.title, MARGIN, y);
  doc.moveTo(MARGIN, y + 20).lineTo(MARGIN + width, y + 20).strokeColor(PALETTE[0]!).lineWidth(1).stroke();
  y += 28;
  if (s.note) {
    doc.fillColor(MUTED).font('regular').fontSize(8).text(s.note, MARGIN, y, { width });
    y += 14;
  }
  if (s.figures) y = figures(doc, s, y) + 8;
  if (s.chart && s.table) {
    doc.font('regular');
    y += drawChart(doc, s.table, s.chart, MARGIN, y, width) + 8;
  }
  if (s.table) y = drawTable(doc, s.table, y);
  return y + 14;
}

function pageNumbers(doc: Doc, d: ReportDocument): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would open a new page: lift the margin while writing the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - 32;
    doc.fillColor(MUTED).font('regular').fontSize(7.5);
    doc.text(`${d.title} · ${d.scope}`, MARGIN, y, { width: 300, lineBreak: false, ellipsis: true, height: 10 });
    doc.text(`Page ${i + 1} of ${range.count}`, doc.page.width - MARGIN - 120, y, { width: 120, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}

export function renderPdf(d: ReportDocument): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: d.title, Author: 'Palisade', CreationDate: new Date(d.generatedAt) } });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  cover(doc, d);
  let y = newPage(doc);
  for (const s of d.sections) y = section(doc, s, y);
  pageNumbers(doc, d);
  doc.end();
  return done;
}
