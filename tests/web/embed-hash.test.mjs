// The embed page's hash (web/embed-hash.js), in plain Node: the keys it reads, what it ignores
// with a warning, and that formatting a hash and reading it back round-trips.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HEIGHT_MESSAGE_TYPE, formatEmbedHash, parseEmbedHash } from '../../web/state/embed-hash.js';

it('names the height message the embed page posts', () => {
  assert.equal(HEIGHT_MESSAGE_TYPE, 'attention-by-hand:height');
});

describe('the embed hash', () => {
  it('reads attributes, editable and hide, percent-decoded', () => {
    const settings = parseEmbedHash('#tokens=the%20cat&q=[[1,2],[3,4]]&mask=none&steps=scores,out&hide=controls,footer&editable=0');
    assert.deepEqual(settings.attributes, { tokens: 'the cat', q: '[[1,2],[3,4]]', mask: 'none', steps: 'scores,out' });
    assert.equal(settings.editable, false);
    assert.deepEqual(settings.hide, ['controls', 'footer']);
    assert.deepEqual(settings.warnings, []);
    assert.equal(parseEmbedHash('tokens=a+b').attributes.tokens, 'a b');
    assert.equal(parseEmbedHash('').editable, true);
    assert.equal(parseEmbedHash('#editable').editable, true);
  });

  it('ignores what it does not know, with a warning, and never throws', () => {
    const settings = parseEmbedHash('#bogus=1&tokens=%E0%A4%A&hide=everything&editable=maybe&q=[[1]]');
    assert.deepEqual(settings.attributes, { q: '[[1]]' });
    assert.equal(settings.warnings.length, 4);
    assert.match(settings.warnings.join('\n'), /unknown key "bogus"/);
    assert.match(settings.warnings.join('\n'), /not valid percent-encoding/);
    assert.match(settings.warnings.join('\n'), /hide="everything" is unknown/);
    assert.match(settings.warnings.join('\n'), /editable="maybe"/);
  });

  it('keeps the first of a key given twice, and says so', () => {
    const settings = parseEmbedHash('#tokens=the%20cat&mask=none&tokens=a%20dog&editable=0&editable=1&hide=controls&hide=footer');
    assert.deepEqual(settings.attributes, { tokens: 'the cat', mask: 'none' });
    assert.equal(settings.editable, false);
    assert.deepEqual(settings.hide, ['controls']);
    assert.deepEqual(settings.warnings, ['tokens', 'editable', 'hide'].map((key) => `hash: ${key}: given twice; ignored`));
  });

  it('formatEmbedHash writes what parseEmbedHash reads back', () => {
    const settings = {
      attributes: { tokens: '["New York", "&=#"]', q: '[[1,-2.5e-3]]', mask: 'none', row: '-1' },
      editable: false,
      hide: ['footer'],
    };
    const hash = formatEmbedHash(settings);
    assert.match(hash, /^#tokens=/);
    assert.match(hash, /q=\[\[1,-2\.5e-3\]\]/, 'JSON stays readable in the link');
    const back = parseEmbedHash(hash);
    assert.deepEqual({ attributes: back.attributes, editable: back.editable, hide: back.hide }, settings);
    assert.equal(formatEmbedHash({}), '');
  });
});
