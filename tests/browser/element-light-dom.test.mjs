// Pieces drawn into the page (fixtures/light-dom.html): with `light-dom` an <attention-step>
// puts its frame in its own light children, where the host page's stylesheet styles it and
// document.querySelector finds its cells (the walkthrough is composed of such steps); without
// it the same step stays in its shadow root, out of reach of both. The numbers against a
// float64 reference, `tools` (the Copy table menu and arrow-key cells), typing into an editable
// light-dom step (a refusal, Escape), and switching the attribute off and on again.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellField } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, assertTable, readShadowTable, referenceAttention, THREE, withFixturePage,
} from './embed-harness.mjs';

const HOST_COLOUR = 'rgb(1, 2, 3)';   // light-dom.css colours the page's table cells

let page;
withFixturePage('light-dom.html', (shown) => {
  page = shown.page;
});

// Where element `id` drew its weights table, and how the host page's CSS reached it.
function placement(id) {
  return page.evaluate((hostId) => {
    const host = document.getElementById(hostId);
    const inDocument = document.querySelector(`#${hostId} table[data-table="weights"]`);
    const inShadow = host.shadowRoot.querySelector('table[data-table="weights"]');
    const table = inDocument ?? inShadow;
    return {
      inDocument: inDocument !== null,
      inShadow: inShadow !== null,
      colour: table && getComputedStyle(table.querySelector('td[data-row]')).color,
      lightChildren: [...host.children].map((child) => child.className),
      fallbackShown: host.textContent.includes('fallback'),
      tools: [...(inDocument ? host : host.shadowRoot).querySelectorAll('.table-tools summary')].map((s) => s.textContent),
      navigable: table?.classList.contains('navigable') ?? false,
    };
  }, id);
}

describe('light-dom on a piece', { timeout: TEST_TIMEOUT }, () => {
  it('draws the table into the page, where the page styles it and finds it, with the right numbers', async () => {
    const light = await placement('light');
    assert.deepEqual(
      { inDocument: light.inDocument, inShadow: light.inShadow, colour: light.colour, lightChildren: light.lightChildren },
      { inDocument: true, inShadow: false, colour: HOST_COLOUR, lightChildren: ['frame'] });
    assert.equal(light.fallbackShown, false, 'the author\u2019s fallback text is replaced, as a shadow root would hide it');
    const reference = referenceAttention(THREE);
    assertTable(await readShadowTable(page, 'light', 'weights', { light: true }), reference.weights, 4, 'light weights');
  });

  it('leaves a piece without it in its shadow root, out of the page CSS\u2019s reach', async () => {
    const shadowed = await placement('shadowed');
    assert.equal(shadowed.inDocument, false);
    assert.equal(shadowed.inShadow, true);
    assert.notEqual(shadowed.colour, HOST_COLOUR);
    assert.deepEqual(shadowed.tools, [], 'no Copy table menu without `tools`');
    assert.equal(shadowed.navigable, false);
    const reference = referenceAttention(THREE);
    assertTable(await readShadowTable(page, 'shadowed', 'weights'), reference.weights, 4, 'shadowed weights');
  });

  it('gives a table the Copy table menu and arrow-key cells with `tools`', async () => {
    const light = await placement('light');
    assert.deepEqual(light.tools, ['Copy table']);
    assert.equal(light.navigable, true);
  });

  it('takes a reader\u2019s edit in an editable light-dom table, and every piece follows', async () => {
    const input = cellField(page, '#light-q', 2, 0);
    await input.fill('1');
    const edited = { ...THREE, q: THREE.q.map((row, i) => (i === 2 ? [1, ...row.slice(1)] : row)) };
    const reference = referenceAttention(edited);
    assertTable(await readShadowTable(page, 'light', 'weights', { light: true }), reference.weights, 4, 'light weights after the edit');
    assertTable(await readShadowTable(page, 'shadowed', 'weights'), reference.weights, 4, 'shadowed weights after the edit');
    await input.fill('x');
    const message = await page.evaluate(() => {
      const box = document.querySelector('#light-q .edit-message');
      return box.hidden ? null : box.textContent;
    });
    assert.match(message ?? '', /q0 of \u201csat\u201d: \u201cx\u201d is not a number, so it was not used\. The cell keeps 1 /);
    assert.equal(await input.getAttribute('aria-describedby'), await page.locator('#light-q .edit-message').getAttribute('id'));
    // Escape puts the good value back and ends the refusal, as on the walkthrough page.
    await input.press('Escape');
    assert.equal(await input.inputValue(), '1');
    assert.equal(await input.getAttribute('aria-invalid'), null);
    assert.equal(await page.locator('#light-q .edit-message').isHidden(), true);
  });

  it('moves the frame back into the shadow root when the attribute goes, and out again', async () => {
    await page.evaluate(() => { document.getElementById('light').lightDom = false; });
    let light = await placement('light');
    assert.deepEqual([light.inDocument, light.inShadow, light.lightChildren], [false, true, []]);
    assert.notEqual(light.colour, HOST_COLOUR);
    await page.evaluate(() => document.getElementById('light').setAttribute('light-dom', ''));
    light = await placement('light');
    assert.deepEqual([light.inDocument, light.inShadow, light.colour], [true, false, HOST_COLOUR]);
  });
});
