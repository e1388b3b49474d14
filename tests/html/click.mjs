// Drive a `bench --html` report in Debian's headless chromium with playwright-core (the npm
// package: no browser download, it launches /usr/bin/chromium) and check what a reader does:
// sort by a header click, filter, expand a row, see the highlighted subterms and the path.
//
// Usage: node click.mjs REPORT.html EXPECT.json [SCREENSHOT.png]
// EXPECT (written by tests/html_report.rs from the dataset): {"pairs": n, "labelled_false": n,
//   "pair": {"id", "ref_marks": [...], "cand_marks": [...], "difference": "..."},
//   "path": null | {"id", "step": "..."}, "screenshot_id": the pair expanded in the screenshot}
// Exit 0: every check held ("OK: ..." on stdout); 1: a check failed (the message says which).
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const [report, expectFile, screenshot] = process.argv.slice(2);
const expect = JSON.parse(readFileSync(expectFile, 'utf8'));

function check(condition, message) {
  if (!condition) {
    console.log(`FAIL: ${message}`);
    process.exit(1);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  // Self-contained: any request but the file itself is a failure.
  const fetched = [];
  page.on('request', (r) => { if (!r.url().startsWith('file://')) fetched.push(r.url()); });
  await page.goto(`file://${report}`);
  await page.waitForSelector('#pairs tbody tr.pair');
  const shown = () => page.locator('#shown').textContent();
  check((await shown()).startsWith(`${expect.pairs} of ${expect.pairs} pairs`), `shown: ${await shown()}`);

  // Sort by score: one click ascending, a second descending (pairs without a score last).
  const scores = async () => (await page.locator('#pairs tbody tr.pair td:nth-child(3)').allTextContents())
    .filter((t) => t !== '').map(Number);
  const header = page.locator('#pairs th[data-key="score"]');
  await header.click();
  let s = await scores();
  check(s.length > 1 && s.every((x, i) => i === 0 || s[i - 1] <= x), 'scores not ascending after one click');
  check((await header.getAttribute('class')) === 'sorted-1', 'the sorted header is not marked');
  await header.click();
  s = await scores();
  check(s.every((x, i) => i === 0 || s[i - 1] >= x), 'scores not descending after a second click');
  check(s[0] > s[s.length - 1], 'all scores equal: the sort was not exercised');

  // Filter by label: only the pairs labelled false remain, and the count says so.
  await page.selectOption('#f-label', 'false');
  const labels = await page.locator('#pairs tbody tr.pair td:nth-child(2)').allTextContents();
  check(labels.length === expect.labelled_false && labels.every((l) => l === 'false'),
    `label filter: ${labels.length} rows, expected ${expect.labelled_false} all 'false'`);
  check((await shown()).startsWith(`${expect.labelled_false} of ${expect.pairs}`), `shown: ${await shown()}`);
  // Filter by verdict: the evidence-based verdict column, "equivalent" or "not shown" only.
  await page.selectOption('#f-label', 'any');
  const verdicts = async () => page.locator('#pairs tbody tr.pair td:nth-child(4)').allTextContents();
  await page.selectOption('#f-verdict', 'equivalent');
  const equivalent = await verdicts();
  check(equivalent.every((v) => v === 'equivalent'), `verdict filter: ${JSON.stringify(equivalent)}`);
  check(equivalent.length === expect.shown_equivalent,
    `${equivalent.length} rows shown equivalent, expected ${expect.shown_equivalent}`);
  await page.selectOption('#f-verdict', 'not shown');
  const notShown = await verdicts();
  check(notShown.length === expect.pairs - expect.shown_equivalent && notShown.every((v) => v === 'not shown'),
    `verdict filter 'not shown': ${notShown.length} rows`);
  await page.selectOption('#f-verdict', 'any');
  // The threshold decision is its own column, named for the default threshold.
  const thresholdHeader = await page.locator('#pairs th[data-key="t"]').textContent();
  check(thresholdHeader === `score ≥ ${expect.default_threshold}`, `threshold column: ${thresholdHeader}`);
  // Filter by error: none of these pairs failed.
  await page.selectOption('#f-label', 'any');
  await page.selectOption('#f-error', 'yes');
  check((await page.locator('#pairs tbody tr.pair').count()) === 0, 'error filter kept rows');
  await page.selectOption('#f-error', 'any');

  // Expand one pair: both statements side by side, the differing subterms marked.
  const openPair = async (id) => {
    await page.fill('#f-id', id);
    const row = page.locator('#pairs tbody tr.pair', { hasText: id }).first();
    await row.click();
    return page.locator('#pairs tbody tr.detail').first();
  };
  const detail = await openPair(expect.pair.id);
  const marks = async (side) => detail.locator(`.${side} pre.statement mark.diff`).allTextContents();
  const refMarks = await marks('reference');
  const candMarks = await marks('candidate');
  check(JSON.stringify(refMarks) === JSON.stringify(expect.pair.ref_marks),
    `reference highlights ${JSON.stringify(refMarks)}, expected ${JSON.stringify(expect.pair.ref_marks)}`);
  check(JSON.stringify(candMarks) === JSON.stringify(expect.pair.cand_marks),
    `candidate highlights ${JSON.stringify(candMarks)}, expected ${JSON.stringify(expect.pair.cand_marks)}`);
  const sides = await detail.locator('.sides').boundingBox();
  const left = await detail.locator('.reference').boundingBox();
  const right = await detail.locator('.candidate').boundingBox();
  check(left && right && sides && left.x < right.x && Math.abs(left.y - right.y) < 2,
    'the statements are not side by side');
  const differences = await detail.locator('ul.differences li').allTextContents();
  check(differences.includes(expect.pair.difference), `differences: ${JSON.stringify(differences)}`);
  // A second click folds it.
  await page.locator('#pairs tbody tr.pair').first().click();
  check((await page.locator('#pairs tbody tr.detail').count()) === 0, 'a second click did not fold the row');

  if (expect.path) {
    const d = await openPair(expect.path.id);
    const steps = await d.locator('ol.path li').allTextContents();
    check(steps.includes(expect.path.step), `rewrite path: ${JSON.stringify(steps)}`);
  } else {
    check((await page.locator('ol.path').count()) === 0, 'a path shown for a metric without one');
  }

  if (screenshot) {
    // The figures at the top, then the table narrowed to the pair and that pair expanded.
    await openPair(expect.screenshot_id || expect.pair.id);
    await page.screenshot({ path: screenshot, fullPage: true });
  }
  check(fetched.length === 0, `the page fetched ${fetched.join(', ')}`);
  console.log(`OK: sorted, filtered, expanded ${expect.pair.id}${expect.path ? ` and ${expect.path.id}` : ''}`);
} finally {
  await browser.close();
}
