// An exercise from a practice link (web/practice/exercise.js): its blanks and its answer key.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { answerKey, checkAnswer, exerciseBlanks } from '../../web/practice/exercise.js';
import { judgeAnswer } from '../../web/practice/answer-judge.js';
import { readAnswer } from '../../web/practice/answer-reader.js';
import { cellValue, practiceKind } from '../../web/practice/practice-cells.js';
import { roundBlanks, roundInputs } from '../../web/practice/rounds.js';
import { parsePracticeHash } from '../../web/state/practice-hash.js';
import { createSiteAttention } from '../support/site-module.mjs';

let attention;
before(async () => {
  attention = await createSiteAttention();
});

describe('an exercise from a link', () => {
  it('takes the link\u2019s blanks, else the round\u2019s, else none', () => {
    const { settings } = parsePracticeHash('#round=step1&round_seed=4');
    const trace = attention.run(roundInputs(attention, { seed: settings.seed }));
    assert.deepEqual(exerciseBlanks(settings, { trace }), roundBlanks('step1', trace));
    const chosen = parsePracticeHash('#practice=weights:2.0,totals:1&round=softmax&round_seed=4').settings;
    assert.deepEqual(exerciseBlanks(chosen, { trace }).map((c) => `${c.kind}:${c.index.join('.')}`), ['weights:2.0', 'totals:1']);
    assert.deepEqual(exerciseBlanks({}, { trace }), []);
    assert.throws(() => exerciseBlanks({ round: 'mix' }, {}), /run\(\)/u);
  });

  it('prints an answer key whose answers are judged right and whose working ends at them', () => {
    const trace = attention.run(roundInputs(attention, { seed: 11, level: 'hard' }));
    const cells = roundBlanks('all', trace);
    const key = answerKey(cells, { trace });
    assert.equal(key.length, cells.length);
    key.forEach((entry, n) => {
      const cell = cells[n];
      const value = cellValue(cell, { trace });
      assert.equal(entry.id, `${cell.kind}:${cell.index.join('.')}`);
      assert.equal(judgeAnswer(readAnswer(entry.answer), value, practiceKind(cell.kind).decimals).verdict, 'right', entry.id);
      assert.ok(entry.working.at(-1).endsWith(entry.answer), `${entry.id}: ${entry.working.at(-1)}`);
    });
    assert.equal(answerKey(cells.slice(0, 1), { trace }, { working: false })[0].working, undefined);
    assert.equal(key[0].table, 'scores');
  });
});

describe('checkAnswer', () => {
  it('reads and judges with the kind\u2019s decimals, refusing what is not a number', () => {
    const trace = attention.run(roundInputs(attention, { seed: 2 }));
    const bill = attention.kvBill({ preset: attention.modelPresets()[0].name });
    const answers = { trace, bill };
    const weight = { kind: 'weights', index: [1, 0] };
    const value = trace.weights[1][0];
    assert.equal(checkAnswer(value.toFixed(4).replace('.', ','), weight, answers).verdict, 'right');
    assert.equal(checkAnswer(String(value + 0.01), weight, answers).verdict, 'off');
    const refused = checkAnswer('0.3*2', weight, answers);
    assert.equal(refused.ok, false);
    assert.equal(refused.reason, 'expression');
    const line = { kind: 'bill', index: ['cache_bytes'] };
    assert.equal(checkAnswer(String(bill.cache_bytes), line, answers).verdict, 'right');
    assert.equal(checkAnswer(String(bill.cache_bytes + 1), line, answers).verdict, 'off', 'whole bytes are exact');
    const masked = checkAnswer('0', { kind: 'masked', index: [0, 1] }, answers);
    assert.equal(masked.note, 'mask-is-minus-infinity');
    assert.throws(() => checkAnswer('1', { kind: 'scores', index: [9, 9] }, answers), RangeError);
  });
});
