export { registerReportRoutes, type ReportRouteContext } from './routes.js';
export { createReportWorker, REPORTS_CHANNEL, type ReportWorker, type ReportWorkerOptions } from './worker.js';
export { createReportGenerator, CONTENT_TYPES, reportFileName, type ReportGenerator } from './generate.js';
export { buildReportDocument } from './data/index.js';
export { renderCsv, CSV_COLUMNS, UTF8_BOM } from './render/csv.js';
export type { ReportDocument, Section, Table } from './document.js';
