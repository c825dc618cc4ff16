// The curve on pages opened afresh: a link's models come back as the same lines and ticked boxes,
// bad model names in the link or an attribute are refused naming each one (the names it knows,
// or else its default models, drawn meanwhile), the plot follows a dark colour scheme (lines of
// a palette that keeps 3:1 against the page, axes in the page's text colour, no white panel) with
// no axe-core violation in light or dark and its SVG and PNG still offered, and it fits a 360 px
// screen.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { COLOUR_RULES, WCAG_TAGS } from './browser-harness.mjs';
import { AXE_TIMEOUT, TEST_TIMEOUT, openSequel, readTable, settle, useSequelPage } from './sequel-harness.mjs';

const sequel = useSequelPage({ open: false });

async function withPage(options, body) {
  const opened = await openSequel(sequel.browser, sequel.server, options);
  try {
    return await body(opened.page, opened);
  } finally {
    await opened.close();
  }
}

const curveState = (page) => page.evaluate(() => {
  const host = document.getElementById('kv-curve');
  const root = host.shadowRoot;
  return {
    checked: [...root.querySelectorAll('input[type="checkbox"]')].filter((box) => box.checked).map((box) => box.value),
    problem: host.problem,
    message: root.querySelector('.message')?.hidden ? null : root.querySelector('.message')?.textContent ?? null,
    fieldMessage: root.querySelector('.field-message')?.textContent ?? null,
  };
});

// Whether the element shows its body, with a drawn plot in it.
const drawn = (page) => page.evaluate(() => {
  const root = document.getElementById('kv-curve').shadowRoot;
  const canvas = root.querySelector('.body .uplot canvas');
  return { body: !root.querySelector('.body').hidden, canvas: Boolean(canvas && canvas.width > 100) };
});

// WCAG's contrast ratio of two "rgb(r, g, b)" colours.
function contrast(a, b) {
  const luminance = (colour) => {
    const [r, g, bl] = colour.match(/\d+(\.\d+)?/gu).slice(0, 3).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('the curve in the page\u2019s link', () => {
  it('a link\u2019s models come back: the same boxes ticked, the same lines', { timeout: TEST_TIMEOUT }, async () => {
    const hash = await withPage({}, async (page) => {
      for (const name of ['falcon-7b', 'deepseek-v3']) await page.locator(`#kv-curve input[value="${name}"]`).click();
      await settle(page);
      return page.evaluate(() => location.hash);
    });
    // In the order of the boxes (the presets'): Falcon 7B ticked, DeepSeek-V3 unticked.
    assert.match(decodeURIComponent(hash), /curve\.models=llama-3-8b,falcon-7b,mistral-7b-v0\.1,gemma-3-27b(&|$)/u);
    await withPage({ hash }, async (page) => {
      const state = await curveState(page);
      assert.deepEqual(state.checked.sort(), ['falcon-7b', 'gemma-3-27b', 'llama-3-8b', 'mistral-7b-v0.1']);
      assert.equal(state.problem, null);
      const table = await readTable(page, 'kv-curve', 'kv-curve');
      // Llama 3 8B is the bill's model: drawn once, as the bill's line.
      assert.deepEqual(table.columnKeys, ['toy-mha', 'toy-gqa', 'toy-mqa', 'toy-mla', 'bill', 'falcon-7b', 'mistral-7b-v0.1', 'gemma-3-27b']);
    });
  });

  it('refuses model names it does not know, naming each one', { timeout: TEST_TIMEOUT }, async () => {
    await withPage({ hash: '#curve.models=llama-3-8b,gpt-9,falcon-7b,mystery' }, async (page, opened) => {
      const state = await curveState(page);
      assert.match(state.problem, /^models attribute: "gpt-9", "mystery" are not models this page knows; the models are llama-2-7b, llama-3-8b,/u);
      const said = state.fieldMessage ?? state.message;
      assert.ok(said && said.includes('"gpt-9"') && said.includes('"mystery"'), `the reader is told: ${said}`);
      assert.deepEqual(state.checked.sort(), ['falcon-7b', 'llama-3-8b'], 'the names it knows stay ticked');
      // and are drawn meanwhile: no blank where the plot was to be.
      assert.deepEqual(await drawn(page), { body: true, canvas: true }, 'the plot is drawn');
      assert.deepEqual((await readTable(page, 'kv-curve', 'kv-curve')).columnKeys, ['toy-mha', 'toy-gqa', 'toy-mqa', 'toy-mla', 'bill', 'falcon-7b'],
        'the lines of the names it knows (Llama 3 8B as the bill\u2019s)');
      assert.ok(opened.record.warnings.some((text) => text.includes('gpt-9')), 'and the console names them');
      // Ticking a box draws again from the good names.
      await page.locator('#kv-curve input[value="deepseek-v3"]').click();
      await settle(page);
      assert.equal((await curveState(page)).problem, null);
      assert.ok((await readTable(page, 'kv-curve', 'kv-curve')).columnKeys.includes('deepseek-v3'));
    });
    // Not one name it knows: the element's default models are drawn, and ticked, instead.
    await withPage({ hash: '#curve.models=gpt-9' }, async (page) => {
      const state = await curveState(page);
      assert.match(state.problem, /^models attribute: "gpt-9" is not a model this page knows;/u);
      assert.ok((state.fieldMessage ?? state.message).includes('"gpt-9"'));
      assert.deepEqual(await drawn(page), { body: true, canvas: true }, 'the plot is drawn');
      assert.deepEqual(state.checked.sort(), ['gemma-3-27b', 'llama-3-8b'], 'the drawn models are the ticked ones');
      assert.deepEqual((await readTable(page, 'kv-curve', 'kv-curve')).columnKeys, ['toy-mha', 'toy-gqa', 'toy-mqa', 'toy-mla', 'bill', 'gemma-3-27b']);
    });
    await withPage({}, async (page) => {
      await page.evaluate(() => document.getElementById('kv-curve').setAttribute('models', 'gemma-3-27b nope'));
      await settle(page);
      assert.match((await curveState(page)).problem, /^models attribute: "nope" is not a model this page knows/u);
      await page.evaluate(() => document.getElementById('kv-curve').setAttribute('bill', 'no-such-bill'));
      await page.evaluate(() => document.getElementById('kv-curve').setAttribute('models', 'gemma-3-27b'));
      await settle(page);
      assert.match((await curveState(page)).problem, /^bill attribute: "no-such-bill" is not the id of an <attention-kv-bill>/u);
    });
  });
});

describe('the curve in light and dark', () => {
  // One page, opened light and then switched to the dark scheme (the element draws again when the
  // scheme changes): each scheme's look and exports are checked; axe-core runs every WCAG 2 A/AA
  // rule on the curve in light mode and the colour rules in dark mode, where only colours change.
  it('follows a light and then a dark scheme, with no axe-core violation, and exports', { timeout: AXE_TIMEOUT }, async () => {
    await withPage({ colorScheme: 'light' }, async (page) => {
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await settle(page);
        const look = await page.evaluate(() => {
          const host = document.getElementById('kv-curve');
          const root = host.shadowRoot;
          const canvas = root.querySelector('.uplot canvas');
          const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
          let light = 0;
          let dark = 0;
          for (let n = 0; n < pixels.length; n += 4) {
            if (pixels[n + 3] < 200) continue;
            const level = (pixels[n] + pixels[n + 1] + pixels[n + 2]) / 3;
            if (level > 200) light += 1;
            if (level < 60) dark += 1;
          }
          return {
            page: getComputedStyle(document.body).backgroundColor,
            panel: getComputedStyle(root.querySelector('.curve-plot')).backgroundColor,
            swatches: [...root.querySelectorAll('.curve-key .swatch')].map((swatch) => getComputedStyle(swatch).borderTopColor),
            light,
            dark,
          };
        });
        assert.equal(look.panel, 'rgba(0, 0, 0, 0)', 'no panel of its own: the plot lies on the page');
        assert.ok(look.swatches.length >= 8);
        for (const colour of look.swatches) assert.ok(contrast(colour, look.page) >= 3, `${colour} against ${look.page}`);
        // The axes' text is drawn in the page's text colour: light on a dark page, dark on a light one.
        if (colorScheme === 'dark') assert.ok(look.light > 200 && look.dark === 0, `light ${look.light}, dark ${look.dark}`);
        else assert.ok(look.dark > 200 && look.light === 0, `light ${look.light}, dark ${look.dark}`);
        const axe = new AxeBuilder({ page }).include('#kv-curve');
        const results = await (colorScheme === 'light' ? axe.withTags(WCAG_TAGS) : axe.withRules(COLOUR_RULES)).analyze();
        assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], colorScheme);
        assert.ok(results.passes.length >= 1, `axe ran its checks (${colorScheme})`);
        for (const kind of ['svg', 'png']) {
          const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`#kv-curve button[data-download="${kind}"]`).click()]);
          const bytes = await readFile(await download.path());
          assert.equal(download.suggestedFilename(), `kv-cache-curve.${kind}`);
          if (kind === 'svg') assert.match(bytes.toString('utf8'), /^<svg[^>]*>.*<polyline/su);
          else assert.deepEqual([...bytes.subarray(1, 4)], [0x50, 0x4e, 0x47], 'a PNG');
        }
      }
    });
  });

  it('fits a 360 px screen: the boxes wrap, the plot scrolls inside its own box', { timeout: TEST_TIMEOUT }, async () => {
    await withPage({ viewport: { width: 360, height: 740 } }, async (page) => {
      const sizes = await page.evaluate(() => {
        const host = document.getElementById('kv-curve');
        const group = host.shadowRoot.querySelector('[role="group"]').getBoundingClientRect();
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, host: host.getBoundingClientRect().right, group: group.right };
      });
      assert.ok(sizes.page <= 0, `the page is ${sizes.page}px wider than the screen`);
      assert.ok(sizes.host <= 360 && sizes.group <= 360, JSON.stringify(sizes));
    });
  });
});
