// Sharing and exporting in Chromium: the whole state in the URL hash (a link reproduces the
// page, back and forward retrace the reader's changes, a bad or oversized hash is ignored with
// a message), tables copied as Markdown, CSV and LaTeX (checked cell by cell against the table
// on screen), and the grid and the arrows view downloaded as SVG and PNG.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  MINUS, TEST_TIMEOUT, articleOf, assertWalkthroughMatches, cellInput, piecesDrawn, readExample, readTable,
  snapshotTables, startExploring, twoFrames,
} from './explore-harness.mjs';

let explorer;
before(async () => { explorer = await startExploring(); });
after(async () => { await explorer?.close(); });

const radio = (page, kind, value) => page.locator(`.explore-controls fieldset[data-choice="${kind}"] input[value="${value}"]`);

// What the page shows, in full: the example, the choices, the step and every table's cells.
async function pageState(page) {
  return {
    example: await readExample(page),
    mask: await page.locator('.explore-controls fieldset[data-choice="mask"] input:checked').getAttribute('value'),
    scale: await page.locator('.explore-controls fieldset[data-choice="scale"] input:checked').getAttribute('value'),
    seed: await page.locator('.seed-shown').textContent(),
    walking: await page.locator('.walk-toggle').getAttribute('aria-pressed'),
    tables: await snapshotTables(page),
  };
}

describe('the state in the URL hash', { timeout: TEST_TIMEOUT }, () => {
  it('reproduces the page from a link: cells, tokens, head_dim, mask, scale, seed and step', async () => {
    const first = await explorer.open();
    let link;
    let shown;
    try {
      const { page } = first;
      assert.equal(new URL(page.url()).hash, '', "the article's example needs no hash");
      await page.getByRole('button', { name: 'Draw new numbers' }).click();
      await page.getByRole('button', { name: /^Add a token/ }).click();
      await page.locator('.token-input').nth(0).fill('New York');
      await cellInput(page, 'v', 2, 1).fill('-12.5');
      await page.locator('.head-dim-input').fill('5');
      await page.locator('.head-dim-input').press('Enter');
      await radio(page, 'mask', 'none').check();
      await radio(page, 'scale', 'd').check();
      await page.locator('.walk-toggle').click();
      await page.locator('.step-next').click();
      link = page.url();
      shown = await pageState(page);
      assert.match(new URL(link).hash, /^#tokens=.*&mask=none&scale=d&seed=2&step=1$/);
    } finally {
      await first.close();
    }
    const second = await explorer.open(new URL(link).hash);
    try {
      assert.deepEqual(await pageState(second.page), shown);
      assert.equal(await second.page.locator('#link-problem').isVisible(), false);
      assert.equal(await second.page.locator('[data-walk="mask"]').isVisible(), false, 'the step-through is at step 1');
      assert.deepEqual(second.problems.pageErrors, []);
    } finally {
      await second.close();
    }
  });

  it('steps back and forward through the reader\'s changes', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      const article = await articleOf(page);
      const states = [await pageState(page)];
      await cellInput(page, 'q', 0, 0).fill('0.4');
      await cellInput(page, 'q', 0, 0).fill('0.45');  // the same edit: one history entry
      await cellInput(page, 'q', 0, 0).press('Tab');
      states.push(await pageState(page));
      await radio(page, 'mask', 'causal_zero').check();
      states.push(await pageState(page));
      await page.getByRole('button', { name: /^Add a token/ }).click();
      states.push(await pageState(page));

      for (let n = states.length - 2; n >= 0; n -= 1) {
        await page.goBack();
        await page.waitForFunction((tokens) => document.querySelectorAll('.token-input').length === tokens, states[n].example.tokens.length);
        assert.deepEqual(await pageState(page), states[n], `back to state ${n}`);
      }
      assert.equal(new URL(page.url()).hash, '');
      assert.match(await page.locator('#verify-status').textContent(), /all 77 numbers/);
      await page.goForward();
      await page.goForward();
      await page.waitForFunction(() => document.querySelector('.explore-controls input[value="causal_zero"]').checked);
      assert.deepEqual(await pageState(page), states[2], 'forward twice');
      const input = structuredClone(article.two_words);
      input.q[0][0] = 0.45;
      await assertWalkthroughMatches(page, { ...input, mask: 'causal_zero' });
      assert.deepEqual(opened.problems.pageErrors, []);
    } finally {
      await opened.close();
    }
  });

  it('ignores a malformed, refused or oversized hash with a message and shows the article', async () => {
    const cases = [
      ['#q=[[1,2]', /q: is not a JSON array of rows/],
      // Tokens alone go to part three's trained head, which does not know "b".
      ['#tokens=a%20b%20c', /tokens\[1\]: "b" is not in the vocabulary of 38 words; nearest: /],
      ['#mask=sideways', /mask: must be one of/],
      ['#colour=red', /could not be used \(unknown key "colour" \(this page reads tokens, q, k, v, mask, scale, seed, step\)\), so/],
      ['#tokens=%E0%A4%A', /not valid percent-encoding/],
      ['#q=[[1,2,3,4],[1,2,3,1e30]]', /q\[1\]\[3\]: is 1e30, outside the allowed range of ±1e15/],
      [`#tokens=${Array.from({ length: 17 }, (_, n) => `w${n}`).join('%20')}&q=${JSON.stringify(Array(17).fill([0]))}` +
        `&k=${JSON.stringify(Array(17).fill([0]))}&v=${JSON.stringify(Array(17).fill([0]))}`, /this page shows 1 to 16 tokens, not 17/],
      [`#tokens=${'x'.repeat(40_000)}`, /characters long; the page reads at most 32768/],
    ];
    for (const [hash, pattern] of cases) {
      const opened = await explorer.open(hash);
      try {
        const { page } = opened;
        const message = page.locator('#link-problem');
        // The trained head's refusal comes once its worker has checked the words.
        await message.filter({ hasText: /could not be used/ }).waitFor({ timeout: 120_000 });
        assert.equal(await message.isVisible(), true, `a message for ${hash.slice(0, 40)}`);
        assert.match(await message.textContent(), /^The settings in this link could not be used \(/);
        assert.match(await message.textContent(), pattern, hash.slice(0, 40));
        assert.match(await message.textContent(), /shows the article’s example instead\.$/);
        const weights = await readTable(page, 'weights');
        assert.deepEqual(weights.rows[1].cells.slice(0, 2).map((c) => c.text), ['0.2799', '0.7201'], 'the article is on screen');
        assert.match(await page.locator('#verify-status').textContent(), /all 77 numbers/);
        assert.deepEqual(opened.problems.pageErrors, []);
        assert.deepEqual(opened.problems.consoleErrors, []);
      } finally {
        await opened.close();
      }
    }
  });

  it('follows a hash edited by hand, and ignores a bad one without touching the page', async () => {
    const opened = await explorer.open();
    try {
      const { page } = opened;
      await page.evaluate(() => { window.location.hash = '#mask=none'; });
      await page.waitForFunction(() => document.querySelector('.explore-controls input[value="none"]').checked);
      const before = await snapshotTables(page);
      await page.evaluate(() => { window.location.hash = '#mask=nope'; });
      await page.waitForFunction(() => !document.getElementById('link-problem').hidden);
      assert.deepEqual(await snapshotTables(page), before, 'a bad hash while reading changes nothing');
    } finally {
      await opened.close();
    }
  });

  it('with q0 = 123456789 prints no digit a float32 does not hold', async () => {
    const opened = await explorer.open('#q=[[123456789,0.3,0.5,0.1],[1.1,-0.8,0.2,0.3]]');
    try {
      const { page } = opened;
      assert.equal(await page.locator('#link-problem').isVisible(), false);
      let large = 0;
      for (const [table, cells] of await snapshotTables(page)) {
        for (const text of cells) {
          const value = Number(text.replace(MINUS, '-'));
          // From 2^24 on float32s are at least 2 apart: a decimal point there is false precision.
          if (!Number.isFinite(value) || Math.abs(value) < 2 ** 24) continue;
          large += 1;
          assert.doesNotMatch(text, /\./u, `${table}: ${text}`);
        }
      }
      assert.ok(large > 0, 'the large scores are on the page');
      assert.deepEqual(opened.problems.pageErrors, []);
    } finally {
      await opened.close();
    }
  });

  it('with one token, the mask step does not say the token comes after itself', async () => {
    const opened = await explorer.open('#tokens=solo&q=[[1,2]]&k=[[3,4]]&v=[[5,6]]&mask=causal');
    try {
      const { page } = opened;
      assert.equal(await page.locator('#link-problem').isVisible(), false);
      // As a reader reads it: on screen. A section away from the screen is laid out only in the
      // frame after it comes near (site/styles/offscreen.css), and until then the text Chromium
      // renders of it is empty.
      const paragraph = page.locator('[data-walk="mask"] p[data-when-mask="causal"]');
      await paragraph.scrollIntoViewIfNeeded();
      await twoFrames(page);
      const sentence = (await paragraph.innerText()).replace(/\s+/gu, ' ');
      assert.doesNotMatch(sentence, /comes after it/u);
      assert.match(sentence, /^solo is the only token, so the causal mask forbids nothing here/u);
      assert.deepEqual(opened.problems.pageErrors, []);
    } finally {
      await opened.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

// The cells of a table as the export writes them: the printed value, or an input's value (once
// every table shows the reader's edit: one far off screen draws it when idle or near).
async function exportedRows(page, name) {
  await piecesDrawn(page);
  return page.$eval(`table[data-table="${name}"]`, (table) => {
    const text = (cell) => (cell.querySelector('input')?.value ?? (cell.querySelector('.value') ?? cell).textContent).trim();
    const rows = (section) => Array.from(section?.rows ?? [], (row) => Array.from(row.cells, text));
    return { caption: table.caption.textContent, header: rows(table.tHead)[0], body: rows(table.tBodies[0]), footer: rows(table.tFoot) };
  });
}

async function copyAs(page, name, format) {
  const block = page.locator(`.table-block:has(> .table-scroll > table[data-table="${name}"])`);
  if (!(await block.locator('details').evaluate((details) => details.open))) await block.locator('summary').click();
  const button = block.locator(`button[data-format="${format}"]`);
  await button.click();
  await block.locator('.table-tools-status', { hasText: `Copied as ${await button.textContent()}.` }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

describe('copying tables', { timeout: TEST_TIMEOUT }, () => {
  let opened;
  let page;
  before(async () => {
    opened = await explorer.open();
    page = opened.page;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: explorer.server.url });
    await cellInput(page, 'q', 1, 1).fill('-0.75');  // an edited table exports what is on screen
  });
  after(async () => opened?.close());

  it('makes a menu\u2019s buttons when it first opens: closed, it holds its summary alone', async () => {
    const block = page.locator('.table-block:has(> .table-scroll > table[data-table="scaled"])');
    const contents = () => block.locator('details.table-tools').evaluate((details) => ({
      open: details.open, children: [...details.children].map((child) => child.localName),
    }));
    assert.deepEqual(await contents(), { open: false, children: ['summary'] });
    await block.locator('summary').click();
    await block.locator('button[data-format="csv"]').waitFor();
    assert.deepEqual(await contents(), { open: true, children: ['summary', 'div', 'span'] });
    assert.deepEqual(await block.locator('button.copy-format').evaluateAll((buttons) => buttons.map((b) => b.dataset.format)),
      ['markdown', 'csv', 'latex']);
    await block.locator('summary').click();  // closed again, it keeps them
    assert.deepEqual(await contents(), { open: false, children: ['summary', 'div', 'span'] });
  });

  for (const name of ['softmax', 'masked', 'q']) {
    it(`copies the ${name} table as Markdown, CSV and LaTeX, cell for cell`, async () => {
      const { caption, header, body, footer } = await exportedRows(page, name);
      const rows = [header, ...body, ...footer];
      assert.ok(body.length >= 2 && header.length >= 3, `${name} has cells`);

      const markdown = await copyAs(page, name, 'markdown');
      const mdLines = markdown.split('\n');
      assert.equal(mdLines[0], `Table: ${caption}`);
      assert.equal(mdLines[2], `| ${header.join(' | ')} |`);
      assert.equal(mdLines[3], `| :-- | ${header.slice(1).map(() => '--:').join(' | ')} |`);
      assert.deepEqual(mdLines.slice(4, -1), [...body, ...footer].map((cells) => `| ${cells.join(' | ')} |`));

      const csv = await copyAs(page, name, 'csv');
      const plain = (text) => text.replace(new RegExp(`^${MINUS}\u221e$`), '-inf').replace(new RegExp(`^${MINUS}(?=\\d)`), '-');
      assert.equal(csv, `${rows.map((cells) => cells.map(plain).join(',')).join('\r\n')}\r\n`);
      if (name === 'q') assert.match(csv, /^cat,1\.1,-0\.75,0\.2,0\.3\r$/m);
      if (name === 'masked') assert.match(csv, /^the,0\.080,-inf\r$/m);

      const latex = await copyAs(page, name, 'latex');
      const math = (text) => (/^\u2212?(\d+(\.\d+)?|\u221e)$/.test(text)
        ? `$${text.replace(MINUS, '-').replace('\u221e', '\\infty')}$` : null);
      const lines = latex.split('\n');
      assert.equal(lines[0], '\\begin{table}');
      assert.equal(lines[3], `\\begin{tabular}{l${'r'.repeat(header.length - 1)}}`);
      const bodyLines = lines.slice(7, 7 + body.length);
      body.forEach((cells, r) => {
        const written = bodyLines[r].replace(/ \\\\$/, '').split(' & ');
        assert.equal(written.length, cells.length, `LaTeX row ${r}`);
        cells.forEach((cell, c) => {
          const expected = math(cell) ?? cell.replace(/×/g, '$\\times$').replace(/·/g, '$\\cdot$').replace(/_/g, '\\_');
          assert.equal(written[c], expected, `LaTeX ${r}/${c}`);
        });
      });
      assert.equal(lines.at(-2), '\\end{table}');
    });
  }
});

// ---------------------------------------------------------------------------------------------

async function downloadFrom(page, scope, kind) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(scope).locator(`button[data-download="${kind}"]`).first().click(),
  ]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

// Parses an SVG in the page with the browser's XML parser and reads what the tests need.
function parseSvgInPage(page, text) {
  return page.evaluate((svgText) => {
    const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
    const root = doc.documentElement;
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: root.localName,
      namespace: root.namespaceURI,
      viewBox: root.getAttribute('viewBox'),
      title: root.querySelector(':scope > title')?.textContent ?? null,
      cells: Array.from(doc.querySelectorAll('g.cell'), (g) => ({
        row: Number(g.getAttribute('data-row')),
        col: Number(g.getAttribute('data-col')),
        text: g.querySelector('text').textContent,
        fill: g.querySelector('rect').getAttribute('fill'),
      })),
      arrows: Array.from(doc.querySelectorAll('g.arrow'), (g) => [Number(g.getAttribute('data-from')), Number(g.getAttribute('data-to'))]),
      tokens: Array.from(doc.querySelectorAll('text.token'), (t) => t.textContent),
      strokes: Array.from(doc.querySelectorAll('.arrow-line'), (p) => p.getAttribute('stroke')),
    };
  }, text);
}

function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('downloading the grid and the arrows view', { timeout: TEST_TIMEOUT }, () => {
  it('writes the live grid as an SVG holding every cell, and as a PNG', async () => {
    const opened = await explorer.open('#mask=causal_zero');
    try {
      const { page } = opened;
      const grid = await readTable(page, 'live-grid');
      const svg = await downloadFrom(page, '[data-slot="faq-grid"]', 'svg');
      assert.equal(svg.name, 'attention-grid.svg');
      const parsed = await parseSvgInPage(page, svg.bytes.toString('utf8'));
      assert.equal(parsed.error, null);
      assert.equal(parsed.root, 'svg');
      assert.equal(parsed.namespace, 'http://www.w3.org/2000/svg');
      assert.equal(parsed.title, grid.caption);
      assert.equal(parsed.cells.length, grid.rows.length * grid.columns.length);
      for (const cell of parsed.cells) {
        assert.equal(cell.text, grid.rows[cell.row].cells[cell.col].text, `cell ${cell.row}/${cell.col}`);
      }
      // Under causal_zero the hidden cell is not −∞-hatched: it is shaded and carries the leak's pattern.
      assert.notEqual(parsed.cells.find((c) => c.row === 0 && c.col === 1).fill, 'url(#hatch)');
      assert.match(svg.bytes.toString('utf8'), /<g class="cell zeroed" data-row="0" data-col="1">/);

      const png = await downloadFrom(page, '[data-slot="faq-grid"]', 'png');
      assert.equal(png.name, 'attention-grid.png');
      const size = pngSize(png.bytes);
      const [, , width, height] = parsed.viewBox.split(' ').map(Number);
      assert.deepEqual(size, { width: Math.ceil(width * 2), height: Math.ceil(height * 2) }, 'twice the SVG\'s size');
      assert.ok(png.bytes.length > 2000, 'the PNG has content');
      assert.deepEqual(opened.problems.pageErrors, []);
      assert.deepEqual((await opened.collectViolations()).cspViolations, [], 'no CSP violation on the way');
    } finally {
      await opened.close();
    }
  });

  it('writes the arrows view as a standalone SVG with an arrow per visible pair, and as a PNG', async () => {
    const opened = await explorer.open('#mask=none');
    try {
      const { page } = opened;
      const svg = await downloadFrom(page, '[data-slot="faq-arrows"]', 'svg');
      assert.equal(svg.name, 'attention-arrows.svg');
      const parsed = await parseSvgInPage(page, svg.bytes.toString('utf8'));
      assert.equal(parsed.error, null);
      assert.deepEqual(parsed.tokens, ['the', 'cat']);
      assert.deepEqual(parsed.arrows.sort(), [[0, 0], [0, 1], [1, 0], [1, 1]], 'no mask: every pair');
      assert.ok(parsed.strokes.every((stroke) => /^#[0-9a-f]{6}$/.test(stroke)), 'colours written onto the arrows');
      const png = await downloadFrom(page, '[data-slot="faq-arrows"]', 'png');
      assert.equal(png.name, 'attention-arrows.png');
      assert.ok(pngSize(png.bytes).width > 100);
      const fromGrid = await downloadFrom(page, '[data-slot="grid"]', 'svg');
      assert.equal(fromGrid.name, 'attention-grid-article.svg', 'the article\'s four-token grid downloads too');
      assert.equal((await parseSvgInPage(page, fromGrid.bytes.toString('utf8'))).cells.length, 4 * 5);
    } finally {
      await opened.close();
    }
  });
});
