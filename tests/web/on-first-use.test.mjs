// Code the elements load on first use (web/elements/on-first-use.js): loaded once whoever asks,
// the element drawn again when it has arrived, a failed load said naming what failed and tried
// again on the next draw.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { codeFor, loadForAttribute, onFirstUse, practiceCode } from '../../web/elements/on-first-use.js';

function fakeElement() {
  return {
    renders: 0,
    problems: [],
    scheduleRender() { this.renders += 1; },
    showProblem(problem) { this.problems.push(problem.text); },
  };
}

describe('onFirstUse and codeFor', () => {
  it('loads once for every element, and draws each asker again when the code is there', async () => {
    let imports = 0;
    const code = onFirstUse('the test code', async () => { imports += 1; return { answer: 42 }; });
    const [a, b] = [fakeElement(), fakeElement()];
    assert.equal(codeFor(a, code), null);
    assert.equal(codeFor(b, code), null);
    await code.load();
    await Promise.resolve();
    assert.equal(imports, 1);
    assert.deepEqual([a.renders, b.renders], [1, 1]);
    assert.deepEqual(codeFor(a, code), { answer: 42 });
    assert.equal(a.renders, 1, 'no further draw once loaded');
  });

  it('says what failed to load, and tries again on the next draw', async () => {
    let attempts = 0;
    const code = onFirstUse('the test code', async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('404 Not Found');
      return { fine: true };
    });
    const element = fakeElement();
    assert.equal(codeFor(element, code), null);
    await code.load().catch(() => {});
    await new Promise((resolve) => { setTimeout(resolve, 0); });
    assert.deepEqual(element.problems, ['the test code could not be loaded: 404 Not Found']);
    assert.equal(element.renders, 0);
    assert.equal(codeFor(element, code), null, 'a second try');
    await code.load();
    await Promise.resolve();
    assert.equal(attempts, 2);
    assert.deepEqual(codeFor(element, code), { fine: true });
  });

  it('starts pencil mode\u2019s load when an element is given `practice`, and only then', async () => {
    const ticks = (n) => new Promise((resolve) => { setTimeout(resolve, n * 5); });
    loadForAttribute('steps', 'scores');
    loadForAttribute('practice', null);
    await ticks(20);
    assert.equal(practiceCode.loaded, null, 'not loaded for another attribute or a removed one');
    loadForAttribute('practice', '');
    for (let n = 0; n < 200 && !practiceCode.loaded; n += 1) await ticks(1);
    assert.equal(typeof practiceCode.loaded?.ElementPractice, 'function');
  });
});
