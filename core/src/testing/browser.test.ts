import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { browserTest } from './browser.js';

// Proves the browser tooling itself: Debian's Chromium starts under playwright-core, loads a page from
// loopback, runs its script and takes a click.
await browserTest(t, 'chromium renders a loopback page and takes a click', async (t, page) => {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<title>probe</title><button id=b onclick="this.textContent=\'clicked\'">press</button>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  await page.goto(`http://127.0.0.1:${port}/`);
  t.equal(await page.title(), 'probe');
  await page.click('#b');
  t.equal(await page.textContent('#b'), 'clicked');
});
