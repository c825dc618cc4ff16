// The exercise's part of the URL hash and the `practice` attribute (web/state/practice-hash.js):
// exact round trips, refusals naming the key, and keys that never collide with the page's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../web/elements/element-config.js';
import { HASH_ATTRIBUTE_KEYS, parseEmbedHash } from '../../web/state/embed-hash.js';
import { parseStateHash } from '../../web/state/page-state.js';
import {
  PRACTICE_KEYS, PRACTICE_LIMITS, cellId, formatBlankList, formatPracticeHash, parseBlankList, parsePracticeHash,
} from '../../web/state/practice-hash.js';
import { KIND_NAMES } from '../../web/practice/practice-cells.js';
import { LEVEL_NAMES, ROUND_NAMES } from '../../web/practice/rounds.js';

const STATE_HASH = 'tokens=the%20cat&q=[[1,2],[3,4]]&mask=none&scale=d&seed=3&step=2';

describe('the blank list (the practice attribute)', () => {
  it('reads a kind, a row, a cell and a bill line', () => {
    assert.deepEqual(parseBlankList('scores,weights:3,mix:3.0.1,flash-max:2.3,bill:bytes_per_token'), [
      { kind: 'scores', index: [] },
      { kind: 'weights', index: [3] },
      { kind: 'mix', index: [3, 0, 1] },
      { kind: 'flash-max', index: [2, 3] },
      { kind: 'bill', index: ['bytes_per_token'] },
    ]);
    assert.deepEqual(parseBlankList(''), []);
    assert.deepEqual(parseBlankList('  scores ,  totals:1 '), [{ kind: 'scores', index: [] }, { kind: 'totals', index: [1] }]);
  });

  it('round-trips exactly', () => {
    for (const text of ['scores', 'weights:3.1,out:0,masked', 'bill:cache_bytes,flash-sum:0.0', '']) {
      assert.equal(formatBlankList(parseBlankList(text)), text);
    }
    for (const name of KIND_NAMES.filter((kind) => kind !== 'bill')) {
      const items = [{ kind: name, index: [] }, { kind: name, index: [1] }];
      assert.deepEqual(parseBlankList(formatBlankList(items)), items);
    }
    assert.equal(cellId({ kind: 'weights', index: [3, 1] }), 'weights:3.1');
  });

  it('refuses a malformed list with a ConfigError naming the item and what is accepted', () => {
    const cases = [
      ['softmax', 'not a kind of cell; known: scores'],
      ['weights:', 'is not kind, kind:row'],
      ['weights:3.1.2', 'has 3 indices; a weights cell has 2'],
      ['totals:1.2', 'a totals cell has 1'],
      ['weights:01', 'is not a whole number'],
      ['weights:1000', 'from 0 to 999'],
      ['weights:-1', 'is not kind, kind:row'],
      ['weights:a', 'is not a whole number'],
      ['bill:fits', "the bill's lines are"],
      ['scores,,weights', 'empty item'],
      ['scores,', 'empty item'],
      ['weights:1,weights:1', 'twice'],
      ['Scores', 'is not kind'],
      ['scores weights', 'is not kind'],
      ['scores,'.repeat(PRACTICE_LIMITS.maxItems) + 'out', 'at most 256'],
      ['x'.repeat(PRACTICE_LIMITS.maxTextLength + 1), 'characters long'],
    ];
    for (const [text, fragment] of cases) {
      assert.throws(() => parseBlankList(text), (error) => {
        assert.ok(error instanceof ConfigError, `${text}: ${error}`);
        assert.equal(error.attribute, 'practice');
        assert.ok(error.message.startsWith('practice attribute: '), error.message);
        assert.ok(error.detail.includes(fragment), `${text}: ${error.detail}`);
        return true;
      });
    }
  });
});

describe('the practice hash', () => {
  it('round-trips every setting exactly', () => {
    const settings = [
      { blanks: [{ kind: 'weights', index: [3, 1] }, { kind: 'scores', index: [] }] },
      { round: 'softmax', seed: 7, level: 'hard', answerKey: true },
      { blanks: [{ kind: 'bill', index: ['bytes_per_sequence'] }], round: 'step1', seed: 0 },
      { round: 'all' },
      {},
    ];
    for (const setting of settings) {
      const text = formatPracticeHash(setting);
      const parsed = parsePracticeHash(`#${text}`);
      assert.equal(parsed.problem, null, text);
      assert.deepEqual(parsed.settings, setting, text);
      assert.equal(formatPracticeHash(parsed.settings), text);
    }
    for (const round of ROUND_NAMES) {
      for (const level of LEVEL_NAMES) {
        const text = `round=${round}&round_seed=4294967295&level=${level}&answers=1`;
        assert.equal(formatPracticeHash(parsePracticeHash(text).settings), text);
      }
    }
    assert.equal(parsePracticeHash('answers=0').settings.answerKey, false);
  });

  it('leaves the page\u2019s own keys for the page\u2019s parser, which reads them as before', () => {
    const combined = `#${STATE_HASH}&practice=weights:1&round=mix&round_seed=9`;
    const parsed = parsePracticeHash(combined);
    assert.equal(parsed.problem, null);
    assert.equal(parsed.rest, STATE_HASH);
    assert.deepEqual(parsed.settings, { blanks: [{ kind: 'weights', index: [1] }], round: 'mix', seed: 9 });
    const state = parseStateHash(parsed.rest);
    assert.equal(state.problem, null);
    assert.deepEqual(state.settings.tokens, ['the', 'cat']);
    assert.equal(state.settings.seed, 3);
    assert.deepEqual(parsePracticeHash(STATE_HASH), { settings: {}, problem: null, rest: STATE_HASH });
  });

  it('has keys that are no key of the page or of the embed page', () => {
    const embedKeys = [...HASH_ATTRIBUTE_KEYS, 'editable', 'hide'];
    for (const key of PRACTICE_KEYS) {
      assert.ok(!embedKeys.includes(key), `${key} is an embed key`);
      assert.match(parseStateHash(`${key}=1`).problem ?? '', /^unknown key/u, `the page does not read ${key}`);
      assert.ok(parseEmbedHash(`${key}=1`).warnings[0]?.includes('unknown key'), `the embed page does not read ${key}`);
    }
    for (const key of ['tokens', 'q', 'k', 'v', 'mask', 'scale', 'seed', 'step', ...embedKeys]) {
      assert.ok(!PRACTICE_KEYS.includes(key), key);
      assert.deepEqual(parsePracticeHash(`${key}=1`).settings, {}, `${key} is left to the page`);
    }
  });

  it('refuses a malformed value with a message naming the key', () => {
    const cases = [
      ['practice=weights:x', 'practice: '],
      ['practice=nothing', 'practice: '],
      ['round=step9', 'round: "step9" is not one of step1'],
      ['round=softmax&round_seed=-1', 'round_seed: '],
      ['round=softmax&round_seed=4294967296', 'round_seed: '],
      ['round=softmax&round_seed=07', 'round_seed: '],
      ['round=softmax&round_seed=', 'round_seed: '],
      ['round=softmax&level=medium', 'level: "medium" is not one of easy, hard'],
      ['round_seed=3', 'round_seed: belongs to a round'],
      ['level=hard', 'level: belongs to a round'],
      ['answers=2', 'answers: "2" should be 1'],
      ['answers', 'answers: '],
      ['round=mix&round=all', 'round: given twice'],
      ['practice=%E0%A4%A', 'practice: is not valid percent-encoding'],
    ];
    for (const [hash, start] of cases) {
      const parsed = parsePracticeHash(`#tokens=a&${hash}`);
      assert.ok(parsed.problem?.startsWith(start), `${hash}: ${parsed.problem}`);
      assert.deepEqual(parsed.settings, {}, 'a refused exercise sets nothing');
      assert.equal(parsed.rest, 'tokens=a');
    }
  });
});
