// How messages quote text a reader or an author wrote (web/state/quote-text.js), and that the
// readers of the page's hash, of attributes and of typed cells quote through it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { excerpt, quoteText, quoteTyped } from '../../web/state/quote-text.js';
import { parseStateHash } from '../../web/state/page-state.js';
import { parseEmbedHash } from '../../web/state/embed-hash.js';
import { parseMatrix } from '../../web/elements/element-config.js';
import { notANumber } from '../../web/elements/cell-editing.js';
import { ConfigError } from '../../web/elements/element-config.js';

const RTL_OVERRIDE = '\u202e';
const BIDI_AND_INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/u;

describe('quoteText', () => {
  it('quotes ordinary text as JSON does, and cuts long text after the limit', () => {
    for (const text of ['cat', 'a "quoted" word', 'back\\slash', 'two\nlines', 'tab\there', 'bell\u0007', 'ünïcödé']) {
      assert.equal(quoteText(text), JSON.stringify(text));
    }
    assert.equal(quoteText('x'.repeat(30)), JSON.stringify(`${'x'.repeat(24)}\u2026`));
    assert.equal(quoteText('x'.repeat(24)), JSON.stringify('x'.repeat(24)));
    assert.equal(quoteText('abcdef', 3), '"abc\u2026"');
  });

  it('cuts between characters, never inside an emoji', () => {
    const emoji = '\u{1F600}'.repeat(30);
    const quoted = quoteText(emoji);
    assert.ok(quoted.isWellFormed(), 'no half of a surrogate pair');
    assert.equal(quoted, `"${'\u{1F600}'.repeat(24)}\u2026"`);
    assert.equal(excerpt(`a${'\u{1F600}'.repeat(3)}`, 3), `a${'\u{1F600}'.repeat(2)}\u2026`);
  });

  it('writes the invisible formatting characters as escapes, so none can turn the message around', () => {
    assert.equal(quoteText(`ab${RTL_OVERRIDE}cd`), '"ab\\u202ecd"');
    assert.equal(quoteText('zero\u200bwidth\ufeff'), '"zero\\u200bwidth\\ufeff"');
    assert.equal(quoteText('\u2066isolate\u2069'), '"\\u2066isolate\\u2069"');
  });

  it('reads a long text only as far as it quotes it', () => {
    assert.equal(quoteText('y'.repeat(1_000_000), 5), '"yyyyy\u2026"');
  });
});

describe('quoteTyped', () => {
  it('trims what was typed, quotes it in curly quotes and cuts it after the limit', () => {
    assert.equal(quoteTyped('  0.5x  '), '\u201c0.5x\u201d');
    assert.equal(quoteTyped('1'.repeat(30)), `\u201c${'1'.repeat(24)}\u2026\u201d`);
  });

  it('writes control and invisible characters as escapes', () => {
    assert.equal(quoteTyped(`1\u0007${RTL_OVERRIDE}2`), '\u201c1\\u0007\\u202e2\u201d');
    assert.equal(quoteTyped('\u{1F600}'.repeat(25)).length, 2 + 24 * 2 + 1);
  });
});

describe('the readers quote through it', () => {
  it('a refused page link names the bad value with its override made visible', () => {
    const { problem } = parseStateHash(`#x${encodeURIComponent(RTL_OVERRIDE)}=1`);
    assert.ok(problem.includes('unknown key "x\\u202e"'), problem);
    assert.ok(!BIDI_AND_INVISIBLE.test(problem), problem);
  });

  it('the embed page warns about an unknown key with it made visible', () => {
    const { warnings } = parseEmbedHash(`#tokens=the&${encodeURIComponent(`k${RTL_OVERRIDE}`)}=1`);
    assert.equal(warnings.length, 1);
    assert.ok(warnings[0].includes('\\u202e'), warnings[0]);
    assert.ok(!BIDI_AND_INVISIBLE.test(warnings[0]), warnings[0]);
  });

  it('an attribute that does not parse is quoted with whole characters', () => {
    let error;
    try {
      parseMatrix('q', `x${'\u{1F600}'.repeat(20)}`);
    } catch (caught) {
      error = caught;
    }
    assert.ok(error instanceof ConfigError, String(error));
    assert.ok(error.message.isWellFormed(), error.message);
    assert.ok(error.message.endsWith(`found "x${'\u{1F600}'.repeat(7)}\u2026"`), error.message);
  });

  it('a typed cell that is no number is quoted with its invisible characters shown', () => {
    const message = notANumber(`1${RTL_OVERRIDE}5`);
    assert.equal(message, '\u201c1\\u202e5\u201d is not a number');
  });
});
