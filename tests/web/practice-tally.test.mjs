// The tally (web/practice/tally.js): first-try right per blank, hints used, as a pure state.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyTally, isSolved, tallySummary, withAnswer, withHint } from '../../web/practice/tally.js';
import { MIXED_SUMMARY, mixedTally } from '../support/tally-fixture.mjs';

describe('the tally', () => {
  it('starts empty', () => {
    assert.deepEqual(tallySummary(emptyTally()), {
      attempted: 0, firstTryRight: 0, rightLater: 0, firstTryRounded: 0, unsolved: 0, hintsUsed: 0,
    });
  });

  it('counts right at the first try only without a hint before it', () => {
    const tally = mixedTally();
    assert.deepEqual(tallySummary(tally), MIXED_SUMMARY);
    assert.equal(isSolved(tally, 'weights:1.0'), true);
    assert.equal(isSolved(tally, 'weights:1.1'), false);
    assert.equal(isSolved(tally, 'nothing'), false);
    assert.equal(tally.cells['weights:1.1'].hintsBeforeFirst, 0, 'hints after an answer are not before the first');
  });

  it('a right answer after a hint is not a first-try right', () => {
    const tally = withAnswer(withHint(emptyTally(), 'a'), 'a', 'right');
    assert.equal(tallySummary(tally).firstTryRight, 0);
    assert.equal(tallySummary(tally).rightLater, 1);
    assert.equal(tallySummary(withHint(emptyTally(), 'b')).attempted, 0, 'a hint alone is no attempt');
  });

  it('never changes a tally in place', () => {
    const before = emptyTally();
    const after = withAnswer(before, 'x', 'right');
    assert.deepEqual(before.cells, {});
    assert.ok(Object.isFrozen(after) && Object.isFrozen(after.cells) && Object.isFrozen(after.cells.x));
    assert.throws(() => { after.cells.x.verdicts.push('off'); }, TypeError);
  });

  it('refuses a verdict it does not know and a blank without a name', () => {
    assert.throws(() => withAnswer(emptyTally(), 'x', 'wrong'), /verdict must be one of right, rounded, off/u);
    assert.throws(() => withAnswer(emptyTally(), '', 'right'), RangeError);
    assert.throws(() => withHint(emptyTally(), undefined), RangeError);
  });
});
