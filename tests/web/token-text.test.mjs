// How the views set a token inside a sentence (web/views/token-text.js): a token that could
// reorder the text around it goes between directional isolates; any other stays as it is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quotedToken, tokenText, tokenTexts } from '../../web/views/token-text.js';
import { describeBlank } from '../../web/views/blank-cell.js';
import { largeNumbersNote } from '../../web/views/step-tables.js';

const FSI = '\u2068';
const PDI = '\u2069';
const isolated = (text) => `${FSI}${text}${PDI}`;

describe('tokenText', () => {
  it('leaves left-to-right tokens as they are', () => {
    for (const token of ['cat', 'The', 'ünïcödé', 'кот', '猫', '12', '3.5', '<img src=x>', '\u{1F600}', '']) {
      assert.equal(tokenText(token), token);
    }
  });

  it('isolates right-to-left words, whatever else the token holds', () => {
    for (const token of ['שלום', 'مرحبا', 'cat-שלום', 'ܫܠܡܐ', 'ދިވެހި', 'ߒߞߏ', '\ufb50', '\u{10900}', '\u{1e900}']) {
      assert.equal(tokenText(token), isolated(token), JSON.stringify(token));
    }
  });

  it('isolates directional formatting, opened and left open or closed', () => {
    for (const token of ['\u202eevil', '\u202eevil\u202c', 'a\u200fb', '\u2066x\u2069', '\u061cx', 'x\u200e']) {
      assert.equal(tokenText(token), isolated(token), JSON.stringify(token));
    }
  });

  it('maps a list, and reads a non-string as its text', () => {
    assert.deepEqual(tokenTexts(['the', 'שלום']), ['the', isolated('שלום')]);
    assert.equal(tokenText(7), '7');
  });

  it('quotes a token in curly quotes, isolated inside them where it needs it', () => {
    assert.equal(quotedToken('cat'), '\u201ccat\u201d');
    assert.equal(quotedToken('\u202eevil'), `\u201c${isolated('\u202eevil')}\u201d`);
  });
});

describe('the sentences that name tokens', () => {
  it('isolate a right-to-left token and leave the others plain', () => {
    assert.equal(describeBlank({ kind: 'weights', index: [1, 0] }, ['the', '\u202ecat']),
      `weight of \u201c${isolated('\u202ecat')}\u201d on \u201cthe\u201d, row 2, column 1`);
    const trace = { tokens: ['the', 'שלום'], row_shifted: [false, true], weight_sums: [1, 1] };
    assert.match(largeNumbersNote(trace), new RegExp(`the scores of ${isolated('שלום')} are too large`, 'u'));
  });
});
