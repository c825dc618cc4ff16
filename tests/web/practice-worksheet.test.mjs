// A worksheet's layout (web/practice/worksheet.js): the element's attributes read with the
// practice link's rules, the blanks a worksheet of part one can print, and the tables, each
// blank empty wherever its value would be printed, every other cell the core's value, held
// against a float64 computation of the round's numbers (tests/support/practice-f64.mjs).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  WORKSHEET_STEPS, readWorksheetAttributes, stepInstructions, worksheetBlanks, worksheetLayout,
} from '../../web/practice/worksheet.js';
import { roundInputs } from '../../web/practice/rounds.js';
import { parsePracticeHash } from '../../web/state/practice-hash.js';
import { createSiteAttention } from '../support/site-module.mjs';
import {
  blankF64, headStepsF64, printed, printedCandidates, roundBlankIdsF64, roundInputsF64,
} from '../support/practice-f64.mjs';

let attention;
before(async () => {
  attention = await createSiteAttention();
});

const attributes = (map) => (name) => (Object.hasOwn(map, name) ? map[name] : null);
const allCells = (layout) => layout.steps.flatMap((step) => step.tables.flatMap((table) => [
  ...table.rows.flatMap((row) => row.cells), ...(table.footer?.cells ?? []),
]));

function roundLayout(hash, options = {}) {
  const { settings } = parsePracticeHash(hash);
  const trace = attention.run(roundInputs(attention, { seed: settings.seed, level: settings.level }));
  const cells = worksheetBlanks(settings, trace);
  return { settings, trace, cells, layout: worksheetLayout(trace, cells, { ...settings, ...options }) };
}

describe('the worksheet element\u2019s attributes', () => {
  it('read an exercise as the link\u2019s keys do, and the answers switch', () => {
    const read = readWorksheetAttributes(attributes({ round: 'softmax', 'round-seed': '7', level: 'hard', answers: '' }));
    assert.equal(read.problem, null);
    assert.deepEqual(read.settings, { round: 'softmax', seed: 7, level: 'hard' });
    assert.equal(read.answers, true);
    assert.equal(readWorksheetAttributes(attributes({ practice: 'weights:1', answers: '0' })).answers, false);
    assert.deepEqual(readWorksheetAttributes(attributes({ practice: 'weights:1.0' })).settings.blanks, [{ kind: 'weights', index: [1, 0] }]);
  });

  it('refuse a malformed value naming the attribute, as the hash names its key', () => {
    const cases = [
      [{ round: 'softmax', 'round-seed': '07' }, /^round-seed: "07" is not a whole number/u],
      [{ 'round-seed': '3' }, /^round-seed: belongs to a round/u],
      [{ practice: 'weights:1,weights:1' }, /^practice: names "weights:1" twice/u],
      [{ round: 'nope' }, /^round: "nope" is not one of step1/u],
      [{ practice: 'weights', answers: 'yes' }, /^answers: "yes" should be present/u],
      [{ round: 'mix', tokens: 'a b' }, /^tokens: a round draws its own inputs/u],
      [{}, /^practice: names no blanks and round names no round/u],
    ];
    for (const [given, message] of cases) {
      const read = readWorksheetAttributes(attributes(given));
      assert.match(read.problem ?? '', message, JSON.stringify(given));
      assert.deepEqual(read.settings, {});
    }
  });

  it('refuse the sequel\u2019s kinds, a cell past the example and an empty list', () => {
    const trace = attention.run(attention.article().two_words);
    assert.throws(() => worksheetBlanks({ blanks: [{ kind: 'flash-max', index: [] }] }, trace), /flash-max cells are part two's/u);
    assert.throws(() => worksheetBlanks({ blanks: [{ kind: 'weights', index: [5] }] }, trace), /weights:5 names no cell/u);
    assert.throws(() => worksheetBlanks({ blanks: [] }, trace), /names no cell to leave blank/u);
  });
});

describe('a worksheet\u2019s layout', () => {
  it('boxes every blank of a round, gives every other cell, and prints the steps up to the last blank', () => {
    const { layout, trace } = roundLayout('round=all&round_seed=21&level=hard');
    const steps = headStepsF64(roundInputsF64(21, 'hard'));
    const ids = roundBlankIdsF64('all', steps);
    assert.equal(layout.blankCount, ids.length);
    const cells = allCells(layout);
    const blanks = cells.filter((cell) => cell.blank !== undefined);
    assert.deepEqual([...new Set(blanks.map((cell) => cell.blank))].sort((a, b) => a - b), ids.map((_, n) => n + 1));
    assert.deepEqual([...new Set(blanks.map((cell) => cell.id))].sort(), [...ids].sort());
    assert.ok(blanks.every((cell) => cell.answer === undefined), 'the worksheet prints no answer');
    // The cells left filled in a round are the ones the mask zeroes: e^x, weight, weight × value.
    const given = cells.filter((cell) => cell.blank === undefined && cell.text !== '');
    assert.ok(given.length > 0);
    for (const cell of given) assert.ok(['0.0000', '\u2212\u221e'].includes(cell.text), cell.text);
    assert.deepEqual(layout.steps.map((step) => step.number), WORKSHEET_STEPS.map((step) => step.number));
    const input = roundInputsF64(21, 'hard');
    layout.inputs.tables.forEach((table, n) => {
      const matrix = input[['q', 'k', 'v'][n]];
      assert.deepEqual(table.rows.map((row) => row.cells.map((cell) => cell.text)), matrix.map((row) => row.map((x) => printed(x, 3))));
    });
    assert.deepEqual(layout.inputs.tokens, trace.tokens);
  });

  it('fills the key with the core\u2019s values as printed, each within a float64 computation\u2019s rounding', () => {
    const { layout } = roundLayout('round=all&round_seed=5', { answers: true });
    const steps = headStepsF64(roundInputsF64(5));
    const answered = allCells(layout).filter((cell) => cell.blank !== undefined);
    assert.ok(answered.length >= layout.blankCount);
    for (const cell of answered) {
      const { value, decimals } = blankF64(cell.id, steps);
      assert.ok(printedCandidates(value, decimals).includes(cell.answer), `${cell.id}: ${cell.answer} for ${value}`);
    }
    const key = layout.steps.flatMap((step) => step.key);
    assert.deepEqual(key.map((entry) => entry.number).sort((a, b) => a - b), key.map((_, n) => n + 1), 'each blank once');
    assert.equal(key.length, layout.blankCount);
    for (const entry of key) {
      assert.ok(entry.working.length >= 2, entry.id);
      assert.ok(entry.working.at(-1).endsWith(entry.answer), `${entry.id}: ${entry.working.at(-1)}`);
    }
  });

  it('prints only the steps up to the last blank, and a blank wherever its value would be printed', () => {
    const { settings } = parsePracticeHash('practice=weights:1.0,masked:1.1');
    const trace = attention.run(attention.article().two_words);
    const layout = worksheetLayout(trace, worksheetBlanks(settings, trace), settings);
    assert.deepEqual(layout.steps.map((step) => step.number), [1, 2, 3, 4]);
    assert.equal(layout.title, 'One attention head by hand');
    assert.equal(layout.exercise, null);
    const places = allCells(layout).filter((cell) => cell.blank !== undefined).map((cell) => cell.id);
    // masked:1.1 is in step 3's table and again as x in the softmax of row 1.
    assert.deepEqual(places.sort(), ['masked:1.1', 'masked:1.1', 'weights:1.0']);
  });

  it('prints no answer of its own blanks elsewhere: a "?" where a later table repeats one, the value in the key', () => {
    // A list with a round's numbers: the scaled score of a visible cell, then the steps after it.
    const hash = 'practice=scaled:1.0,weights:2.1&round=softmax&round_seed=5';
    const steps = headStepsF64(roundInputsF64(5));
    const answer = printedCandidates(steps.scaled[1][0], 3);
    const sheet = roundLayout(hash).layout;
    const given = allCells(sheet).filter((cell) => cell.blank === undefined);
    assert.deepEqual(given.filter((cell) => answer.includes(cell.text)), [], 'no cell prints blank 1\u2019s answer');
    // The masked table's cell and the softmax table's x of that row print it again: "?" in both.
    const echoes = given.filter((cell) => cell.echoOf !== undefined);
    assert.equal(echoes.length, 2);
    assert.ok(echoes.every((cell) => cell.echoOf === 1 && cell.text === '?'));
    const maskedTable = sheet.steps.find((step) => step.number === 3).tables[0];
    assert.equal(maskedTable.rows[1].cells[0].echoOf, 1);
    // The key prints everything, the repeated value too.
    const key = allCells(roundLayout(hash, { answers: true }).layout).filter((cell) => cell.blank === undefined);
    assert.equal(key.filter((cell) => cell.echoOf !== undefined).length, 0);
    assert.equal(key.filter((cell) => answer.includes(cell.text)).length >= 2, true);
  });

  it('says each step\u2019s instruction with this head\u2019s size and divisor', () => {
    const trace = attention.run(roundInputs(attention, { seed: 3, level: 'hard' }));
    const instructions = stepInstructions(trace);
    assert.match(instructions[1], new RegExp(`their ${trace.q[0].length} components`, 'u'));
    assert.ok(instructions[2].includes(`\u221a4 = ${Math.sqrt(4)}`), instructions[2]);
    assert.match(instructions[3], /\u2212\u221e where the causal mask hides/u);
    const unscaled = attention.run({ ...attention.article().two_words, scale: 'none', mask: 'none' });
    assert.match(stepInstructions(unscaled)[2], /does not scale/u);
    assert.match(stepInstructions(unscaled)[3], /hides nothing/u);
  });
});
