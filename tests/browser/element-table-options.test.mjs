// A step's table as an author names it (fixtures/table-options.html): `table-name` gives the
// table another data-table name while its cells keep their step's working, `caption` replaces
// the step's caption and fills in {tokens}, {token}, {mask} and {scale} from the model as it
// changes (on <attention-arrows> too), and
// `no-legend` leaves a grid's key to its shades out. The numbers against a float64 reference.
// (The walkthrough's four-token section is made of such steps.)

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TEST_TIMEOUT, assertPrinted, assertTable, readShadowTable, referenceAttention, THREE, withFixturePage,
} from './embed-harness.mjs';

let opened;
let page;
withFixturePage('table-options.html', (shown) => {
  opened = shown;
  page = shown.page;
});

// The names of the shadow-root tables of element `id`, and whether it shows a legend.
const contents = (id) => page.evaluate((hostId) => {
  const root = document.getElementById(hostId).shadowRoot;
  return {
    tables: [...root.querySelectorAll('table[data-table]')].map((table) => table.dataset.table),
    legend: root.querySelector('[part="legend"]') !== null,
  };
}, id);

describe('a step\u2019s table named and captioned by its author', { timeout: TEST_TIMEOUT }, () => {
  const reference = referenceAttention(THREE);

  it('names the table as table-name says, with the caption filled in and the step\u2019s numbers', async () => {
    assert.deepEqual(await contents('named'), { tables: ['second-row'], legend: false });
    const table = await readShadowTable(page, 'named', 'second-row');
    assert.equal(table.caption, 'How cat divides its attention in \u201cthe cat sat\u201d');
    assert.deepEqual(table.rows.map((row) => row.label), THREE.tokens);
    table.rows.forEach((row, j) => {
      assertPrinted(row.cells[0], reference.masked[1][j], 3, `score of cat on ${row.label}`);
      assertPrinted(row.cells[1], reference.exponentials[1][j], 4, `e^x of cat on ${row.label}`);
      assertPrinted(row.cells[2], reference.weights[1][j], 4, `weight of cat on ${row.label}`);
    });
    assertPrinted(table.footer[0].cells[1], reference.totals[1], 4, 'total of the cat row');
  });

  it('works out a cell of a renamed table as its step\u2019s, from the cells of that table', async () => {
    await page.locator('#named table[data-table="second-row"] tbody td[data-row="0"][data-col="2"]').hover();
    const shown = await page.evaluate(() => {
      const root = document.getElementById('named').shadowRoot;
      return {
        working: [...root.querySelectorAll('.cell-working p')].map((p) => p.textContent.replace(/\s+/g, ' ').trim()).join(' '),
        sources: [...root.querySelectorAll('.source-cell')].map((td) => `${td.closest('tfoot') ? 'total' : td.dataset.row}/${td.dataset.col}`),
      };
    });
    const weight = reference.weights[1][0].toFixed(4);
    assert.match(shown.working, new RegExp(`^weight of cat on the = e\\^\\S+ \u00f7 \\S+ = \\S+ \u00f7 \\S+ = ${weight}$`));
    // Its e^x, and the column of e^x with its total, all in this table.
    assert.deepEqual(shown.sources.sort(), ['0/1', '1/1', '2/1', 'total/1']);
  });

  it('draws a grid without its legend with no-legend, and with it again when the attribute goes', async () => {
    assert.deepEqual(await contents('grid'), { tables: ['grid'], legend: true });
    assert.deepEqual(await contents('bare-grid'), { tables: ['grid'], legend: false });
    const bare = await readShadowTable(page, 'bare-grid', 'grid');
    assert.equal(bare.caption, 'Weights of \u201cthe cat sat\u201d');
    assertTable(bare, reference.weights, 4, 'bare grid');
    await page.evaluate(() => { document.getElementById('bare-grid').noLegend = false; });
    await page.waitForFunction(() => document.getElementById('bare-grid').shadowRoot.querySelector('[part="legend"]') !== null);
    await page.evaluate(() => { document.getElementById('bare-grid').noLegend = true; });
    await page.waitForFunction(() => document.getElementById('bare-grid').shadowRoot.querySelector('[part="legend"]') === null);
  });

  it('fills {scale} and {mask} from the trace and the core\u2019s labels, on a table and on the arrows\u2019 figure', async () => {
    const captions = () => page.evaluate(() => ({
      scaled: document.getElementById('scaled').shadowRoot.querySelector('table[data-table="scaled"] caption').textContent,
      arrows: document.getElementById('arrows').shadowRoot.querySelector('figure figcaption').textContent,
      labels: Object.fromEntries(document.getElementById('three').attentionModel.attention.vocabulary().masks.map((m) => [m.name, m.label])),
    }));
    let shown = await captions();
    // Three components: √3 = 1.732 (float64), as the captions write a divisor.
    assert.equal(shown.scaled, `Scaled (\u221ad\u2096 = ${Math.sqrt(3).toFixed(3)}), mask ${shown.labels.causal}`);
    assert.equal(shown.arrows, `Arrows of the under the mask ${shown.labels.causal}`);
    assert.notEqual(shown.labels.causal, 'causal', 'the core labels the mask');
    await page.evaluate(() => {
      const model = document.getElementById('three');
      model.setAttribute('mask', 'none');
      model.setAttribute('scale', 'd');
    });
    await page.waitForFunction(() => document.getElementById('scaled').trace?.scale === 'd');
    shown = await captions();
    assert.equal(shown.scaled, `Scaled (d\u2096 = 3), mask ${shown.labels.none}`);
    assert.equal(shown.arrows, `Arrows of the under the mask ${shown.labels.none}`);
    await page.evaluate(() => {
      const model = document.getElementById('three');
      model.removeAttribute('mask');
      model.removeAttribute('scale');
    });
  });

  it('fills the caption in again when the model\u2019s tokens change', async () => {
    await page.evaluate(() => document.getElementById('three').setAttribute('tokens', 'a dog ran'));
    await page.waitForFunction(() => document.getElementById('named').trace?.tokens[1] === 'dog');
    await page.waitForFunction(() => document.getElementById('named').shadowRoot
      .querySelector('table[data-table="second-row"] caption')?.textContent.includes('dog'));
    const table = await readShadowTable(page, 'named', 'second-row');
    assert.equal(table.caption, 'How dog divides its attention in \u201ca dog ran\u201d');
    assert.deepEqual(opened.record.pageErrors, []);
  });
  it('says under a softmax table when its row was computed shifted by its largest score, and only then', async () => {
    const note = () => page.evaluate(() => document.getElementById('named').shadowRoot.querySelector('.shift-note')?.textContent ?? null);
    assert.equal(await note(), null, 'the example\u2019s scores are small: no note');
    // The cat row times 100: its largest score (q · k of "the", ÷ √3) is past what e^x holds in float32.
    const q = THREE.q.map((row, i) => (i === 1 ? row.map((x) => x * 100) : row));
    const largest = Math.max(...referenceAttention({ ...THREE, q }).masked[1].filter(Number.isFinite));
    assert.ok(largest > Math.log(2 ** 128), `the reference row is past float32's e^x (${largest})`);
    await page.evaluate((rows) => { document.getElementById('three').q = rows; }, q);
    await page.waitForFunction(() => document.getElementById('named').shadowRoot.querySelector('.shift-note') !== null);
    const [, printed] = (await note()).match(/largest score, (\S+)\. /u);
    assertPrinted(printed, largest, 3, 'the row\u2019s largest score in the note');
    const table = await readShadowTable(page, 'named', 'second-row');
    assert.equal(table.columns[1], 'e^(x \u2212 max)', 'the table says its exponentials are shifted');
    await page.evaluate((rows) => { document.getElementById('three').q = rows; }, THREE.q);
    await page.waitForFunction(() => document.getElementById('named').shadowRoot.querySelector('.shift-note') === null);
  });
});
