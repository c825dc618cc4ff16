// Above the fold, before any scrolling, the reader sees the head at work: the arrows of the
// page's own example, drawn from the core's weights (checked against float64), and they follow
// an edit further down the page. The page gets there in few requests, and one core.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEST_TIMEOUT, cellInput, readExample, referenceAttention, startExploring } from './explore-harness.mjs';

let session;
let opened;

before(async () => {
  session = await startExploring();
  opened = await session.open('', { viewport: { width: 1280, height: 800 } });
});

after(async () => {
  await opened?.close();
  await session?.close();
});

// Every arrow of the hero figure: from, to, and the weight its title prints.
function heroArrows(page) {
  return page.$$eval('[data-slot="hero-arrows"] svg.arrows g.arrow', (groups) => groups.map((group) => ({
    from: Number(group.dataset.from),
    to: Number(group.dataset.to),
    weight: Number(group.querySelector('title').textContent.split('weight ')[1].replace('\u2212', '-')),
  })));
}

function assertMatchesReference(arrows, input) {
  const reference = referenceAttention(input);
  const visible = [];
  for (let i = 0; i < input.tokens.length; i += 1) {
    for (let j = 0; j <= i; j += 1) visible.push([i, j]);  // the causal mask's visible cells
  }
  assert.deepEqual(arrows.map(({ from, to }) => [from, to]).sort(), visible.sort(), 'one arrow per visible pair');
  for (const { from, to, weight } of arrows) {
    // Printed with four decimals: half a unit of the last place, plus float32's own error.
    assert.ok(Math.abs(weight - reference.weights[from][to]) <= 5e-5 + 1e-6,
      `${from}\u2192${to}: ${weight} against ${reference.weights[from][to]}`);
  }
}

describe('the live example above the fold', { timeout: TEST_TIMEOUT }, () => {
  it('is on screen without scrolling, and its arrows carry the core\u2019s weights', async () => {
    const { page } = opened;
    const box = await page.locator('[data-slot="hero-arrows"] svg.arrows').boundingBox();
    assert.ok(box, 'the arrows are drawn');
    const viewport = page.viewportSize();
    assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `the figure spans ${box.y}..${box.y + box.height} of ${viewport.height} px`);
    assertMatchesReference(await heroArrows(page), await readExample(page));
  });

  it('loads in at most ten requests and starts the core once, with a teacher\u2019s exercise link too', async () => {
    for (const hash of ['', '#practice=weights:1.0&round=softmax&round_seed=7']) {
      const requests = [];
      const record = async (page) => { page.on('request', (request) => requests.push(new URL(request.url()).pathname)); };
      const { page, close } = await session.open(hash, { route: record });
      try {
        // The worksheet of the link computed too: every module the page needs has been asked for.
        await page.waitForFunction(() => !location.hash || document.querySelector('attention-worksheet')?.layout);
        assert.ok(requests.length <= 10, `${hash || 'no hash'}: ${requests.length} requests: ${requests.join(' ')}`);
        assert.equal(requests.filter((url) => url.endsWith('.wasm')).length, 1, requests.join(' '));
        assert.equal(new Set(requests).size, requests.length, `nothing fetched twice: ${requests.join(' ')}`);
      } finally {
        await close();
      }
    }
  });

  it('follows an edit of a cell further down', async () => {
    const { page } = opened;
    const before = await heroArrows(page);
    const titlesBefore = (await page.$$eval('[data-slot="hero-arrows"] g.arrow title', (ts) => ts.map((t) => t.textContent))).join('|');
    await cellInput(page, 'q', 1, 0).fill('3');
    await page.waitForFunction((old) => {
      const figure = document.querySelector('[data-slot="hero-arrows"] attention-arrows')?.shadowRoot;
      const titles = [...(figure?.querySelectorAll('g.arrow title') ?? [])].map((t) => t.textContent);
      return titles.join('|') !== old;
    }, titlesBefore);
    const afterEdit = await heroArrows(page);
    assert.notDeepEqual(afterEdit, before);
    assertMatchesReference(afterEdit, await readExample(page));
  });
});
