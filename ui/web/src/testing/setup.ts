// Component tests run in jsdom, which lacks matchMedia (Mantine reads it for the colour scheme) and
// ResizeObserver (Mantine's scroll areas and selects observe their size); the browser tests have both.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
}
if (!window.ResizeObserver) {
  // jsdom lays nothing out, so there is never a size change to report.
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
export {};
