// Part one printed from a teacher's link (site/explore-print.js, <attention-worksheet>): the
// page printed to PDF by Chromium (page.pdf(), its print to PDF) as the worksheet and, after
// "Print answer key", as the key; the PDF's text read back with pdf.js and held against a
// float64 computation of the round (tests/support/practice-f64.mjs): the inputs' numbers, each
// step's instruction, the blanks, no answer on the worksheet and every answer with its working
// in the key. A4 and Letter, no table wider than the printable width, no navigation or control
// on paper; on screen axe-core in light and dark, the strict CSP, 360 px and the keyboard. A
// malformed link is refused with the link module's message and prints no worksheet; a cell the
// worksheet cannot print, with the element's.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  COLOUR_RULES, PAGE_CSP, SITE_ROOT, WCAG_TAGS, launchBrowser, openPage, startStaticServer,
} from './browser-harness.mjs';
import { cellInput } from './explore-harness.mjs';
import { stepInstructions } from '../../web/practice/worksheet.js';
import { parsePracticeHash } from '../../web/state/practice-hash.js';
import {
  blankF64, headStepsF64, printed, printedCandidates, roundBlankIdsF64, roundInputsF64,
} from '../support/practice-f64.mjs';

const TEST_TIMEOUT = 90_000;
const SEED = 7;
const LEVEL = 'hard';  // four tokens: the widest tables a round prints
const LINK = `#round=all&round_seed=${SEED}&level=${LEVEL}`;
const TOKENS = ['the', 'cat', 'sat', 'on'];  // the rounds' first words (page-state.js NEW_TOKEN_WORDS)
// Margins of 15 mm: A4's printable width is 180 mm, 680 CSS px; Letter's (8.5 in) is wider.
const MARGIN = { top: '15mm', bottom: '15mm', left: '15mm', right: '15mm' };
const A4_PRINTABLE_PX = Math.floor(((210 - 30) / 25.4) * 96);

// One page load for every check: the later links are opened by changing the hash.
let browser;
let server;
let opened;
before(async () => {
  browser = await launchBrowser();
  server = await startStaticServer({ root: SITE_ROOT, port: 0, csp: PAGE_CSP });
  opened = await openPage(browser, `${server.url}index.html${LINK}`, {
    waitForResult: false,
    // The browser's print dialog cannot run headless: the buttons' call is counted instead,
    // and page.pdf() prints what the dialog would.
    initScript: 'window.__printCalls = 0; window.print = () => { window.__printCalls += 1; };',
  });
});
after(async () => {
  await opened?.close();
  await browser?.close();
  await server?.close();
});

// The text of every page of a PDF, each item as pdf.js reads it, separated by spaces.
async function pdfText(bytes) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => item.str).join(' '));
  }
  await pdf.destroy();
  return { pages: pdf.numPages, text: pages.join(' ').replace(/\s+/gu, ' ') };
}

const squash = (text) => text.replace(/\s+/gu, '');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
// How often `word` stands alone (between spaces) in a text.
const countWord = (text, word) => text.split(' ').filter((part) => part === word).length;

const printPdf = (page, format) => page.pdf({ format, margin: MARGIN, printBackground: true });

describe('a practice link printed from part one', { timeout: TEST_TIMEOUT }, () => {
  it('prints the worksheet and, on request, its answer key, checked against float64', async () => {
    const { page } = opened;
    await page.waitForFunction(() => document.documentElement.dataset.printWorksheet === 'worksheet', undefined, { timeout: 30_000 });
    const input = roundInputsF64(SEED, LEVEL);
    const steps = headStepsF64(input);
    const ids = roundBlankIdsF64('all', steps);
    const d = input.q[0].length;
    const trace = {  // what stepInstructions reads, from the float64 computation
      head_dim: d, scale: 'sqrt_d', scale_divisor: steps.divisor, mask: 'causal',
      hidden: steps.hidden, masked: steps.masked, row_shifted: TOKENS.map(() => false),
    };
    const instructions = Object.values(stepInstructions(trace));
    assert.ok(instructions[1].includes(`\u221a${d} = ${Math.sqrt(d)}`));

    // The worksheet, on A4.
    const sheet = await pdfText(await printPdf(page, 'A4'));
    const { text } = sheet;
    assert.match(text, /WORKSHEET/u);
    assert.ok(text.includes(`${ids.length} blanks.`), `${ids.length} blanks announced`);
    for (const [name, matrix] of Object.entries(input)) {
      matrix.forEach((row, i) => {
        const line = `${TOKENS[i]} ${row.map((x) => printed(x, 3)).join(' ')}`;
        assert.ok(text.includes(line), `${name} row ${i}: ${line}`);
      });
    }
    for (const instruction of instructions) assert.ok(squash(text).includes(squash(instruction)), instruction);
    for (let n = 1; n <= ids.length; n += 1) assert.ok(countWord(text, String(n)) >= 1, `blank ${n} is numbered`);
    // No answer on the worksheet: a blank's printed value appears only as often as the cells
    // and words given anyway (the inputs, the zeros of hidden keys, −∞ in an instruction).
    const givenWords = [
      ...Object.values(input).flatMap((matrix) => matrix.flat().map((x) => printed(x, 3))),
      ...Array(steps.hidden.flat().filter(Boolean).length * (2 + d)).fill('0.0000'),
      ...instructions.flatMap((line) => line.split(' ')),
    ];
    const answers = ids.map((id) => {
      const { value, decimals } = blankF64(id, steps);
      return { id, value, decimals, candidates: printedCandidates(value, decimals) };
    });
    for (const { id, candidates } of answers) {
      for (const word of candidates) {
        assert.equal(countWord(text, word), countWord(givenWords.join(' '), word), `${id}: ${word} is not printed on the worksheet`);
      }
    }
    for (const off of ['Part one: one head by hand', 'Skip to the walkthrough', 'Print answer key', 'Show the worksheet', 'What attention does']) {
      assert.ok(!text.includes(off), `"${off}" is not printed`);
    }
    const letter = await pdfText(await printPdf(page, 'Letter'));
    const words = (all) => all.split(' ').sort();
    assert.deepEqual(words(letter.text), words(text), 'Letter prints the same words');

    // Print media at A4's printable width: no table is cut off, none breaks across pages.
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: A4_PRINTABLE_PX, height: 1000 });
    const fit = await page.locator('attention-worksheet').evaluate((host) => {
      const right = host.getBoundingClientRect().right;
      const tables = [...host.shadowRoot.querySelectorAll('table')];
      return {
        tables: tables.length,
        overflowing: tables.filter((table) => table.getBoundingClientRect().right > right + 0.5).map((t) => t.dataset.table),
        breaking: tables.filter((table) => getComputedStyle(table).breakInside !== 'avoid').length,
        border: getComputedStyle(host.shadowRoot.querySelector('.write-in-box')).borderTopColor,
        pageWidth: document.documentElement.scrollWidth,
      };
    });
    assert.ok(fit.tables >= 3 + 3 + TOKENS.length * 2 + 1, `${fit.tables} tables`);
    assert.deepEqual(fit.overflowing, [], 'every table fits the printable width');
    assert.equal(fit.breaking, 0, 'no page break inside a table');
    assert.equal(fit.border, 'rgb(0, 0, 0)', 'the boxes print black');
    assert.ok(fit.pageWidth <= A4_PRINTABLE_PX, `the page is ${fit.pageWidth} px wide`);
    await page.emulateMedia({ media: null });  // page.pdf() prints with the print media again
    await page.setViewportSize({ width: 1100, height: 900 });

    // The answer key, from the keyboard.
    await page.getByRole('button', { name: 'Print answer key' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__printCalls === 1, undefined, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.printWorksheet), 'answers');
    const key = (await pdfText(await printPdf(page, 'A4'))).text;
    assert.match(key, /ANSWER KEY/u);
    for (const { id, candidates } of answers) {
      const entry = new RegExp(`${escape(id)} \\((\\S+)\\) = (\\S+)`, 'u').exec(key);
      assert.ok(entry, `${id} is in the key`);
      assert.ok(candidates.includes(entry[2]), `${id}: ${entry[2]}, float64 gives ${candidates.join(' or ')}`);
      assert.ok(candidates.some((word) => countWord(key, word) > countWord(givenWords.join(' '), word)), `${id}: its box is filled`);
    }
    // The working: the division of each weight and the product of each weight × value.
    const s = (x) => printed(x, 4);
    for (const { id } of answers.filter((a) => a.id.startsWith('weights:'))) {
      const [i, j] = id.slice(8).split('.').map(Number);
      const line = `${s(steps.exponentials[i][j])} \u00f7 ${s(steps.totals[i])} = ${s(steps.weights[i][j])}`;
      assert.ok(key.includes(line), `${id}: ${line}`);
    }
    for (const { id } of answers.filter((a) => a.id.startsWith('mix:'))) {
      const [i, j, c] = id.slice(4).split('.').map(Number);
      const line = `${s(steps.weights[i][j])} \u00d7 ${printed(input.v[j][c], 3)} = ${s(steps.mix[i][j][c])}`;
      assert.ok(key.includes(line), `${id}: ${line}`);
    }
    for (let i = 0; i < TOKENS.length; i += 1) {
      const row = steps.exponentials[i].map(s);
      assert.ok(key.includes(`${row.join(' + ')} = ${s(steps.totals[i])}`), `totals:${i}'s sum`);
    }
    const problems = await opened.collectViolations();
    assert.deepEqual(problems.cspViolations, []);
    assert.deepEqual(problems.pageErrors, []);
    assert.deepEqual(problems.consoleErrors, []);
  });

  it('shows a link\u2019s worksheet on the walkthrough\u2019s inputs, with no axe-core violation in light or dark, at 360 px too', async () => {
    const { page } = opened;
    await page.evaluate(() => { window.location.hash = '#practice=weights:1,mix:1.0&answers=1'; });
    await page.waitForFunction(() => document.querySelector('attention-worksheet')?.layout?.blankCount === 2 + 4, undefined, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.printWorksheet), 'answers');
    assert.equal(await page.locator('attention-worksheet').evaluate((host) => host.layout.title), 'One attention head by hand');
    await page.getByRole('button', { name: 'Show the worksheet' }).click();
    const show = page.locator('[data-show-worksheet]');
    assert.equal(await show.textContent(), 'Hide the worksheet');
    assert.equal(await show.getAttribute('aria-expanded'), 'true');
    assert.ok(await page.locator('attention-worksheet table').first().isVisible());
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      const axe = new AxeBuilder({ page }).include('.practice-print');
      const results = await (colorScheme === 'dark' ? axe.withRules(COLOUR_RULES) : axe.withTags(WCAG_TAGS)).analyze();
      assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], colorScheme);
    }
    await page.setViewportSize({ width: 360, height: 800 });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'no sideways scroll at 360 px');
    assert.deepEqual((await opened.collectViolations()).cspViolations, []);
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('refuses a malformed link with the link module\u2019s message and prints no worksheet', async () => {
    const hash = '#round=softmax&round_seed=07';
    const { problem } = parsePracticeHash(hash);
    assert.ok(problem);
    const { page } = opened;
    await page.evaluate((link) => { window.location.hash = link; }, hash);
    const alert = page.locator('.practice-print-problem');
    await alert.waitFor({ state: 'visible', timeout: 30_000 });
    assert.ok((await alert.textContent()).includes(problem), await alert.textContent());
    assert.equal(await page.locator('attention-worksheet').count(), 0);
    assert.equal(await page.locator('.practice-print-controls').isVisible(), false);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.printWorksheet), undefined);
    const { text } = await pdfText(await printPdf(page, 'A4'));
    assert.ok(!/WORKSHEET|ANSWER KEY/u.test(text), 'no worksheet on paper');
    assert.ok(!text.includes(problem), 'the message is not printed either');

    // A well-formed link the worksheet cannot print (a cell of part two's) is refused by the
    // element, naming the attribute, and again no worksheet is left to print.
    await page.evaluate(() => { window.location.hash = '#practice=flash-max:0.0'; });
    await page.waitForFunction(() => /could not be made/u.test(document.querySelector('.practice-print-problem').textContent));
    assert.match(await alert.textContent(), /practice: flash-max cells are part two's/u);
    assert.equal(await alert.getAttribute('role'), 'alert');
    assert.equal(await page.locator('attention-worksheet').count(), 0);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.printWorksheet), undefined);

    // The page writes a reader's changes with the History API (no hashchange) and announces
    // them: the box follows the exercise the address now names, the reader's own.
    await page.uncheck('#practice-toggle');
    assert.equal(await page.locator('[data-practice-print]').isVisible(), false, 'no exercise, no box');
    await page.check('#practice-toggle');
    await page.waitForFunction(() => document.querySelector('attention-worksheet')?.layout?.blankCount === 8, undefined, { timeout: 10_000 });
    assert.match(await page.evaluate(() => window.location.hash), /practice=scores:/u);
    assert.equal(await alert.isVisible(), false);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.printWorksheet), 'worksheet');
    // A number edited: the worksheet prints the page's new inputs.
    await cellInput(page, 'q', 0, 0).fill('0.5');
    await page.waitForFunction(() => document.querySelector('attention-worksheet')?.getAttribute('q')?.startsWith('[[0.5,'), undefined, { timeout: 10_000 });
  });
});
