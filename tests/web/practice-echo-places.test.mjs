// Where else a blank's answer is printed (web/practice/echo-places.js), without a DOM: a
// running figure is carried to the next computed tile holding its query, else to the final
// table; the weight's places are its copies and the mix table's row; the bill's whole bytes are
// hidden grouped and ungrouped. The sequel page's reading of a link's exercise
// (site/sequel-practice.js) hands each element its own cells and refuses part one's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoPlaces, printedAnswers } from '../../web/practice/echo-places.js';
import { readSequelPractice } from '../../site/sequel-practice.js';

// Two query tiles of two rows against three key tiles: tile 2 (queries 0–1 against keys 4–5)
// is skipped, as the causal mask would hide it.
const step = (rows, cols, skipped = false) => ({ row_begin: rows[0], row_end: rows[1], col_begin: cols[0], col_end: cols[1], skipped });
const FLASH = { steps: [step([0, 2], [0, 2]), step([0, 2], [2, 4], true), step([2, 4], [0, 2]), step([2, 4], [2, 4])] };

describe('echoPlaces', () => {
  it('carries a running max or sum to the next computed tile holding the query, else to the final m and l', () => {
    assert.deepEqual(echoPlaces({ kind: 'flash-max', index: [2, 3] }, { flash: FLASH }),
      ['table[data-table="tile-3-running"] tbody td.num[data-row="1"][data-col="1"]:not(.extra)']);
    assert.deepEqual(echoPlaces({ kind: 'flash-sum', index: [2, 2] }, { flash: FLASH }),
      ['table[data-table="tile-3-running"] tbody td.num[data-row="0"][data-col="4"]:not(.extra)']);
    // Query 1's only computed tile is 0 (tile 1 is skipped): its figures end in the final table.
    assert.deepEqual(echoPlaces({ kind: 'flash-max', index: [0, 1] }, { flash: FLASH }),
      ['table[data-table="flash-final"] tbody td.num[data-row="1"][data-col="0"]:not(.extra)']);
    assert.deepEqual(echoPlaces({ kind: 'flash-rescale', index: [0, 1] }, { flash: FLASH }), []);
  });

  it('names a weight\u2019s copies and the mix table\u2019s row, and out\u2019s two tables', () => {
    const places = echoPlaces({ kind: 'weights', index: [2, 1] }, {});
    assert.ok(places.includes('table[data-table="softmax"][data-row="2"] tbody td.num[data-row="1"][data-col="2"]:not(.extra)'));
    assert.ok(places.includes('table[data-table="mix"][data-row="2"] tbody tr:nth-child(2)'));
    assert.ok(places.includes('table[data-table="weights"] tbody td.num[data-row="2"][data-col="1"]:not(.extra)'));
    assert.deepEqual(echoPlaces({ kind: 'out', index: [1, 0] }, {}), [
      'table[data-table="out"] tbody td.num[data-row="1"][data-col="0"]:not(.extra)',
      'table[data-table="mix"][data-row="1"] tfoot td.num[data-col="0"]',
    ]);
    assert.deepEqual(echoPlaces({ kind: 'scores', index: [0, 0] }, {}), []);
  });

  it('prints a bill line grouped, as the table does, and plain, as the core\u2019s workings do', () => {
    assert.deepEqual(printedAnswers({ kind: 'bill', index: ['cache_bytes'] }, { bill: { cache_bytes: 1073741824 } }),
      ['1\u202f073\u202f741\u202f824', '1073741824']);
    assert.deepEqual(printedAnswers({ kind: 'bill', index: ['bytes_per_token'] }, { bill: { bytes_per_token: 512 } }), ['512']);
  });
});

describe('readSequelPractice', () => {
  it('takes the exercise out before the page\u2019s keys and hands each element its cells', () => {
    const read = readSequelPractice('#flash.block-rows=2&practice=flash-max:3.2,bill:cache_bytes,flash-sum:3.2');
    assert.equal(read.rest, 'flash.block-rows=2');
    assert.deepEqual(read.warnings, []);
    assert.deepEqual(read.lists, {
      flash: [{ kind: 'flash-max', index: [3, 2] }, { kind: 'flash-sum', index: [3, 2] }],
      bill: [{ kind: 'bill', index: ['cache_bytes'] }],
    });
  });

  it('refuses part one\u2019s cells, rounds and a malformed list as a whole, keeping the rest', () => {
    for (const [hash, message] of [
      ['seed=3&practice=flash-max:1.0,weights:1.0', /^practice: weights is a cell of part one; /u],
      ['seed=3&round=softmax', /^round: rounds and answer keys are part one\u2019s/u],
      ['seed=3&practice=flash-max:01.0', /^practice: /u],
    ]) {
      const read = readSequelPractice(hash);
      assert.deepEqual(read.lists, {}, hash);
      assert.equal(read.rest, 'seed=3', hash);
      assert.equal(read.warnings.length, 1, hash);
      assert.match(read.warnings[0], message, hash);
    }
  });
});
