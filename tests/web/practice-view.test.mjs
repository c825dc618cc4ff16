// The parts of pencil mode's screen that need no DOM: the blanks a page sets when the switch is
// turned on without a list (one cell of each step, all on part one's tables), the tally in words,
// and what a blank is called for screen readers.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { defaultBlankItems, exerciseBlanks } from '../../web/practice/exercise.js';
import { KIND_NAMES } from '../../web/practice/practice-cells.js';
import { emptyTally } from '../../web/practice/tally.js';
import { formatBlankList, parseBlankList } from '../../web/state/practice-hash.js';
import { describeBlank } from '../../web/views/blank-cell.js';
import { tallyText } from '../../web/views/practice-view.js';
import { createSiteAttention } from '../support/site-module.mjs';
import { mixedTally } from '../support/tally-fixture.mjs';

let attention;
before(async () => { attention = await createSiteAttention(); });

describe('defaultBlankItems', () => {
  it('names one cell of each step of run(), in the last row, and the mask\u2019s first hidden cell', () => {
    const trace = attention.run(attention.article().four_words);
    const items = defaultBlankItems(trace);
    const last = trace.token_count - 1;
    assert.deepEqual(items.map((item) => item.kind), KIND_NAMES.filter((name) => !name.startsWith('flash') && name !== 'bill'));
    for (const item of items.filter((entry) => entry.kind !== 'masked')) assert.equal(item.index[0], last, item.kind);
    const [i, j] = items.find((item) => item.kind === 'masked').index;
    assert.equal(trace.hidden[i][j], true, 'the masked blank is a hidden cell: its \u2212\u221e is the point');
    // Every item is a cell of the example, and the list reads back through the link's grammar.
    assert.equal(exerciseBlanks({ blanks: items }, { trace }).length, items.length);
    assert.deepEqual(parseBlankList(formatBlankList(items)), items);
  });

  it('falls back to the last row\u2019s first masked cell when the mask hides nothing', () => {
    const input = { ...attention.article().two_words, mask: 'none', scale: 'sqrt_d' };
    const trace = attention.run(input);
    assert.deepEqual(defaultBlankItems(trace).find((item) => item.kind === 'masked').index, [trace.token_count - 1, 0]);
  });
});

describe('tallyText', () => {
  it('counts right at the first try without a hint, hints, solved, and rounded apart', () => {
    // One right at the first try, two right later, one rounded at the first try, three hints.
    assert.equal(tallyText(mixedTally(), 8),
      'Right at the first try: 1 of 8 \u00b7 hints used: 3 \u00b7 solved: 3 of 8 \u00b7 rounded differently at the first try: 1');
    assert.equal(tallyText(emptyTally(), 3), 'Right at the first try: 0 of 3 \u00b7 hints used: 0 \u00b7 solved: 0 of 3');
  });
});

describe('describeBlank', () => {
  it('says what the cell is and where, counting rows and columns from 1', () => {
    const tokens = ['the', 'cat'];
    assert.equal(describeBlank({ kind: 'weights', index: [1, 0] }, tokens), 'weight of \u201ccat\u201d on \u201cthe\u201d, row 2, column 1');
    assert.equal(describeBlank({ kind: 'totals', index: [1] }, tokens), 'total of the e^x in the row of \u201ccat\u201d, row 2');
    assert.equal(describeBlank({ kind: 'mix', index: [1, 0, 2] }, tokens), 'weight \u00d7 value of \u201ccat\u201d on \u201cthe\u201d, component 2');
    assert.equal(describeBlank({ kind: 'bill', index: ['bytes_per_token'] }), 'bill line bytes per token');
  });
});
