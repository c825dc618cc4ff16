// The training worker's TextDecoder (web/api/heap-string-decoder.js) gives what the platform's
// TextDecoder gives, for every input the glue or anyone else can hand it: ASCII of any length
// (across the pieces it decodes in), UTF-8 with other characters, a byte-order mark, invalid
// bytes with and without `fatal`, every kind of BufferSource, a stream split inside a
// character, and other encodings. Node's TextDecoder is the reference.
//
// Run: node --test tests/web/heap-string-decoder.test.mjs
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HeapStringDecoder } from '../../web/api/heap-string-decoder.js';

const encode = (text) => new TextEncoder().encode(text);

// ASCII of `length` characters, every printable character in turn (and a few controls).
function asciiText(length) {
  let text = '';
  for (let i = 0; i < length; i += 1) text += String.fromCharCode(i % 11 === 0 ? 10 : 32 + (i % 95));
  return text;
}

function bothDecode(bytes, label, options, decodeOptions) {
  const ours = new HeapStringDecoder(label, options);
  const platform = new TextDecoder(label, options);
  const run = (decoder) => {
    try {
      return { text: decoder.decode(bytes, decodeOptions) };
    } catch (error) {
      return { error: error.constructor.name };
    }
  };
  return { ours: run(ours), platform: run(platform) };
}

describe('HeapStringDecoder', () => {
  it('decodes ASCII of any length as the platform does, across its pieces', () => {
    for (const length of [0, 1, 17, 8191, 8192, 8193, 16384, 100_000]) {
      const text = asciiText(length);
      const { ours, platform } = bothDecode(encode(text));
      assert.deepEqual(ours, platform, `length ${length}`);
      assert.equal(ours.text, text, `length ${length}`);
    }
  });

  it('decodes the core\u2019s kind of answer: JSON with numbers, words and tags', () => {
    const json = JSON.stringify({ ok: true, loss: 3.1415926535, words: ['the', 'cat'], w: [[-1e-7, 2.5e10]], tag: { non_finite: '-Infinity' } });
    assert.equal(new HeapStringDecoder().decode(encode(json)), json);
  });

  it('gives other characters, a byte-order mark and invalid bytes to the platform', () => {
    const cases = [
      encode('caf\u00e9 na\u00efve \u{1f408} purrs'),
      encode(`${asciiText(8190)}\u00e9${asciiText(20)}`),  // a two-byte character across a piece's end
      new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x62]),       // a byte-order mark, then "ab"
      new Uint8Array([0x61, 0xff, 0x62]),                   // an invalid byte
      new Uint8Array([0x61, 0xe2, 0x82]),                   // a character cut short
    ];
    for (const bytes of cases) {
      for (const options of [{}, { fatal: true }, { ignoreBOM: true }]) {
        const { ours, platform } = bothDecode(bytes, 'utf-8', options);
        assert.deepEqual(ours, platform, `${[...bytes.slice(0, 4)]}… with ${JSON.stringify(options)}`);
      }
    }
  });

  it('reads every kind of BufferSource, and nothing as the empty string', () => {
    const text = asciiText(300);
    const padded = new Uint8Array(310);
    padded.set(encode(text), 5);
    const inputs = [
      encode(text).buffer,
      new DataView(padded.buffer, 5, 300),
      padded.subarray(5, 305),
      new Uint16Array(encode('abcd').buffer),
    ];
    for (const input of inputs) {
      const { ours, platform } = bothDecode(input);
      assert.deepEqual(ours, platform, input.constructor.name);
    }
    assert.equal(new HeapStringDecoder().decode(), new TextDecoder().decode());
    assert.equal(new HeapStringDecoder().decode(), '');
  });

  it('keeps a stream whole: a character split between calls, then ASCII', () => {
    const bytes = encode('ab\u20acde');
    const decode = (decoder) => [
      decoder.decode(bytes.subarray(0, 3), { stream: true }),
      decoder.decode(bytes.subarray(3, 5), { stream: true }),
      decoder.decode(bytes.subarray(5)),
      decoder.decode(encode('plain')),
    ];
    assert.deepEqual(decode(new HeapStringDecoder()), decode(new TextDecoder()));
  });

  it('names the platform\u2019s encoding and settings, and leaves other encodings to it', () => {
    const ours = new HeapStringDecoder('utf8', { fatal: true, ignoreBOM: true });
    assert.deepEqual([ours.encoding, ours.fatal, ours.ignoreBOM], ['utf-8', true, true]);
    const utf16 = new Uint8Array([0x68, 0x00, 0x69, 0x00, 0xac, 0x20]);
    for (const label of ['utf-16le', 'latin1']) {
      const { ours: text, platform } = bothDecode(utf16, label);
      assert.deepEqual(text, platform, label);
      assert.equal(new HeapStringDecoder(label).encoding, new TextDecoder(label).encoding);
    }
    assert.throws(() => new HeapStringDecoder('no-such-encoding'), RangeError);
  });
});
