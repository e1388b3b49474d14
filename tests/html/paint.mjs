// Time to first paint of HTML pages in Debian's headless chromium (playwright-core), each page
// loaded RUNS times in a fresh tab: first-contentful-paint (the Paint Timing API), the time the
// table's rows exist, and for the report the time one sort click takes on its data.
//
// Usage: node paint.mjs RUNS NAME=FILE.html ...
// Prints one JSON line per page: {"name", "bytes", "fcp_ms", "rows_ms", "sort_ms"} (medians).
import { statSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [runs, ...pages] = process.argv.slice(2);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  for (const spec of pages) {
    const [name, file] = spec.split('=');
    const fcp = [], rows = [], sort = [];
    for (let i = 0; i < Number(runs); i++) {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      await page.waitForSelector('table tbody tr');
      const t = await page.evaluate(() => new Promise((resolve) => {
        // The page's script is inline and synchronous: its rows exist when `load` ends.
        const rows = performance.getEntriesByType('navigation')[0].loadEventEnd;
        new PerformanceObserver((list) => {
          const e = list.getEntries().find((x) => x.name === 'first-contentful-paint');
          if (e) resolve({ fcp: e.startTime, rows });
        }).observe({ type: 'paint', buffered: true });
      }));
      fcp.push(t.fcp);
      rows.push(t.rows);
      const s = await page.evaluate(() => {
        const th = document.querySelector('#pairs th[data-key="score"]');
        if (!th) return null;
        const start = performance.now();
        th.click();
        return performance.now() - start;
      });
      if (s !== null) sort.push(s);
      await page.close();
    }
    console.log(JSON.stringify({
      name, bytes: statSync(file).size, fcp_ms: Math.round(median(fcp)),
      rows_ms: Math.round(median(rows)), sort_ms: sort.length ? Math.round(median(sort)) : null,
    }));
  }
} finally {
  await browser.close();
}
