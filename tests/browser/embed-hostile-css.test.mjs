// The elements against a host page whose CSS is hostile (tests/browser/fixtures/hostile.css:
// universal rules with !important, table rules, an odd font, right-to-left direction, rules
// aimed at the class names used inside the shadow root). What the reader sees inside the box
// must be exactly what a clean page shows, the page's own table must keep the page's style,
// and the theming interface (custom properties, ::part) must still reach in.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PAGE_CSP, launchBrowser } from './browser-harness.mjs';
import {
  TEST_TIMEOUT, openHostPage, readShadowTable, requireBuiltSite, startHostServer, waitForElements,
} from './embed-harness.mjs';

let browser;
let server;
let clean;
let hostile;

// What the reader sees of an explainer: the computed style of sample nodes inside its shadow
// root, its laid-out size and its text.
function inspect(page, id) {
  return page.evaluate((hostId) => {
    const root = document.getElementById(hostId).shadowRoot;
    const style = (node, names) => {
      const computed = getComputedStyle(node);
      return Object.fromEntries(names.map((name) => [name, computed.getPropertyValue(name)]));
    };
    const text = ['font-family', 'font-size', 'font-style', 'color', 'letter-spacing', 'word-spacing',
      'line-height', 'text-align', 'text-transform', 'white-space', 'direction'];
    const box = ['display', 'border-top-width', 'border-top-style', 'padding-top', 'margin-top',
      'background-color', 'visibility'];
    const frame = root.querySelector('.frame');
    const table = root.querySelector('table[data-table="scores"]');
    const cell = table.querySelector('td.num');
    const masked = root.querySelector('table[data-table="masked"] td.masked');
    const header = table.querySelector('tbody th');
    const caption = table.querySelector('caption');
    return {
      frame: style(frame, [...text, ...box]),
      table: style(table, ['display', 'border-collapse', 'border-spacing', 'font-size', 'width', 'border-top-width']),
      cell: style(cell, [...text, ...box]),
      masked: style(masked, ['background-image', 'background-color']),
      header: style(header, [...text, ...box]),
      caption: style(caption, ['display', 'text-align', 'font-weight']),
      size: { width: frame.getBoundingClientRect().width, height: frame.getBoundingClientRect().height },
      text: frame.innerText,
    };
  }, id);
}

before(async () => {
  requireBuiltSite();
  browser = await launchBrowser();
  server = await startHostServer({ csp: PAGE_CSP });
  clean = await openHostPage(browser, server.fixture('strict-csp.html'));
  hostile = await openHostPage(browser, server.fixture('hostile.html'));
  await waitForElements(clean.page);
  await waitForElements(hostile.page);
});

after(async () => {
  await clean?.close();
  await hostile?.close();
  await browser?.close();
  await server?.close();
});

describe('an explainer on a page with hostile global CSS', { timeout: TEST_TIMEOUT }, () => {
  it('the hostile rules are really in force on the host page', async () => {
    const host = await hostile.page.evaluate(() => {
      const p = getComputedStyle(document.querySelector('p'));
      return { font: p.fontFamily, direction: p.direction, color: p.color, transform: p.textTransform };
    });
    assert.match(host.font, /Comic Sans/);
    assert.equal(host.direction, 'rtl');
    assert.equal(host.color, 'rgb(255, 0, 255)');
    assert.equal(host.transform, 'uppercase');
    assert.deepEqual(hostile.record.pageErrors, []);
    assert.deepEqual(await hostile.cspViolations(), []);
  });

  it('inside the box, everything looks exactly as on a clean page', async () => {
    const expected = await inspect(clean.page, 'article-example');
    const actual = await inspect(hostile.page, 'article-example');
    for (const part of ['frame', 'table', 'cell', 'masked', 'header', 'caption']) {
      assert.deepEqual(actual[part], expected[part], `computed style of the ${part}`);
    }
    assert.equal(actual.text, expected.text, 'the same text, not upper-cased or reordered');
    assert.equal(actual.size.height, expected.size.height, 'the same layout height');
    assert.equal(actual.frame.direction, 'ltr');
    assert.equal(actual.cell['text-align'], 'right');
    assert.doesNotMatch(actual.frame['font-family'], /Comic Sans/);
  });

  it('the numbers are unaffected: the same printed values in both pages', async () => {
    for (const name of ['scores', 'weights', 'out']) {
      assert.deepEqual(await readShadowTable(hostile.page, 'article-example', name),
        await readShadowTable(clean.page, 'article-example', name), name);
    }
  });

  it('the page\u2019s own table keeps the page\u2019s style: nothing leaks out of the shadow root', async () => {
    const own = await hostile.page.evaluate(() => {
      const cell = getComputedStyle(document.querySelector('#host-table td'));
      const table = getComputedStyle(document.getElementById('host-table'));
      return { align: cell.textAlign, background: cell.backgroundColor, border: table.borderTopColor, display: table.display };
    });
    // The page hides .matrix and centres td: its rules, not ours (ours would right-align a td.num).
    assert.deepEqual(own, { align: 'center', background: 'rgb(255, 255, 0)', border: 'rgb(0, 255, 0)', display: 'none' });
  });

  it('the arrows view is drawn although the page hides every svg', async () => {
    const arrows = await hostile.page.evaluate(() => {
      const svg = document.getElementById('host-arrows').shadowRoot.querySelector('svg');
      return { display: getComputedStyle(svg).display, width: svg.getBoundingClientRect().width, arrows: svg.querySelectorAll('.arrow').length };
    });
    assert.equal(arrows.display, 'block');
    assert.ok(arrows.width > 50);
    assert.equal(arrows.arrows, 3, 'the→the, cat→the, cat→cat');
  });

  it('custom properties and ::part() theme it from outside', async () => {
    const themed = await hostile.page.evaluate(() => {
      const root = document.getElementById('themed').shadowRoot;
      const table = root.querySelector('table');
      // An editable cell's printed box, which takes the look of the field that moves into it.
      const input = root.querySelector('[part~="input"]');
      const darkest = root.querySelector('td.shade-4');
      return {
        font: getComputedStyle(root.querySelector('.frame')).fontFamily,
        outline: getComputedStyle(table).outlineColor,
        outlineWidth: getComputedStyle(table).outlineWidth,
        caption: getComputedStyle(table.caption).fontStyle,
        inputBorder: getComputedStyle(input).borderTopColor,
        shade: darkest ? getComputedStyle(darkest).backgroundColor : null,
      };
    });
    assert.equal(themed.font, 'monospace');
    assert.equal(themed.outline, 'rgb(0, 128, 0)');
    assert.equal(themed.outlineWidth, '2px');
    assert.equal(themed.caption, 'italic');
    assert.equal(themed.inputBorder, 'rgb(0, 0, 255)');
    assert.equal(themed.shade, 'rgb(0, 90, 0)', 'the weight 1 cell takes the themed darkest shade');
  });
});
