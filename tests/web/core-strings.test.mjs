// Strings crossing from the core (bindings/std_string_decode.js decodes them in one call of a
// TextDecoder): tokens in any script come back as given, in the full and the embed build: a
// two-byte, a three-byte and a four-byte UTF-8 character, and a NUL inside a token; and an
// error message quoting a value that is not ASCII quotes it whole.
//
// Run after the wasm build: node --test tests/web/core-strings.test.mjs
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSiteAttention } from '../support/site-module.mjs';

const TOKENS = ['the', 'chat \u00fc', '\u732b', '\u{1f408}', 'a\u0000b'];
const one = TOKENS.map((_, n) => [n, 1]);

for (const build of ['simd', 'embed']) {
  describe(`strings from the core (${build} build)`, () => {
    it('gives the tokens back as they were given', async () => {
      const attention = await createSiteAttention({ build });
      const trace = attention.run({ tokens: TOKENS, q: one, k: one, v: one });
      assert.deepEqual(trace.tokens, TOKENS);
    });

    it('quotes a value that is not ASCII whole in its error', async () => {
      const attention = await createSiteAttention({ build });
      assert.throws(() => attention.run({ tokens: TOKENS, q: one, k: one, v: one, mask: '\u00fcnknown \u{1f408}' }),
        (error) => error.message.endsWith('got "\u00fcnknown \u{1f408}"'));
    });
  });
}
