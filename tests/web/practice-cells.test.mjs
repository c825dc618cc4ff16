// The vocabulary of blanks (web/practice/practice-cells.js): each kind's value is the core's
// (held against float64 written here), its table is one the views name, and a hint's steps end
// at the cell's printed value. Runs on the wasm core (the wasm build writes web/generated/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import {
  BILL_LINES, KIND_NAMES, PRACTICE_KINDS, allPositions, cellTable, cellValue, expandBlanks, hintSteps, practiceKind,
} from '../../web/practice/practice-cells.js';
import { DECIMALS, formatFixed } from '../../web/views/format.js';
import { formatCount } from '../../web/views/sequel-format.js';
import { headF64 } from '../support/attention-f64.mjs';
import { createSiteAttention, repoRoot } from '../support/site-module.mjs';

const input = {
  tokens: ['the', 'cat', 'sat', 'on'],
  q: [[0.3, -0.2, 0.5], [1.1, -0.8, 0.2], [-0.4, 0.6, 0.1], [0.7, 0.2, -0.9]],
  k: [[-0.4, -0.3, 0.2], [1.6, -0.7, -0.4], [0.5, 0.5, -0.1], [-0.2, 0.9, 0.3]],
  v: [[0.2, 0.4, -0.6], [-0.5, 0.1, 0.8], [0.9, -0.3, 0.0], [0.1, 0.7, -0.2]],
};
const tolerance = 2e-6;

let attention;
let answers;
let reference;
before(async () => {
  attention = await createSiteAttention();
  answers = { trace: attention.run(input), flash: attention.flashTiles({}), bill: attention.kvBill({}) };
  const f64 = headF64(input);
  const exponentials = f64.masked.map((row) => row.map(Math.exp));
  reference = {
    ...f64,
    exponentials,
    row_totals: exponentials.map((row) => row.reduce((a, b) => a + b, 0)),
    weighted_values: f64.weights.map((w) => w.map((wj, j) => input.v[j].map((x) => wj * x))),
  };
});

const close = (actual, expected, what) => {
  if (expected === -Infinity) assert.equal(actual, -Infinity, what);
  else assert.ok(Math.abs(actual - expected) <= tolerance * (1 + Math.abs(expected)), `${what} = ${actual}, float64 ${expected}`);
};

describe('the kinds of blank', () => {
  it('name tables the views render, with the decimals they print', () => {
    // The step tables are described in step-tables.js and placed by step-views.js.
    const stepViews = ['step-views.js', 'step-tables.js'].map((file) => readFileSync(`${repoRoot}web/views/${file}`, 'utf8')).join('\n');
    for (const kind of PRACTICE_KINDS.filter((k) => k.source === 'trace')) {
      assert.ok(stepViews.includes(`name: '${kind.table}'`) || stepViews.includes(`name = '${kind.table}'`),
        `the step views render a table "${kind.table}"`);
      assert.equal(kind.decimals, ['scores', 'scaled', 'masked'].includes(kind.name) ? DECIMALS.matrix : DECIMALS.softmax);
    }
    const flashView = readFileSync(`${repoRoot}web/views/sequel/flash-view.js`, 'utf8');
    assert.ok(flashView.includes('name: `tile-${index}-running`'));
    assert.ok(flashView.includes('format: fixed(d), working: runningWorking') && flashView.includes(`const d = ${DECIMALS.softmax};`));
    const variantView = readFileSync(`${repoRoot}web/views/sequel/variant-view.js`, 'utf8');
    assert.ok(variantView.includes("name: 'bill'"));
    const billView = readFileSync(`${repoRoot}web/views/sequel/bill-view.js`, 'utf8');
    for (const line of BILL_LINES) assert.ok(billView.includes(`key: '${line}'`), `the bill lists ${line}`);
  });

  it('cover part one\u2019s computed tables, the flash tile\u2019s running figures and the bill', () => {
    assert.deepEqual(KIND_NAMES, ['scores', 'scaled', 'masked', 'exponentials', 'totals', 'weights', 'mix', 'out',
      'flash-max', 'flash-rescale', 'flash-sum', 'bill']);
    for (const kind of PRACTICE_KINDS) {
      assert.ok(kind.hint.length >= 2, `${kind.name} reveals its working in steps`);
      assert.ok(Object.isFrozen(kind) && Object.isFrozen(kind.hint));
    }
    assert.equal(practiceKind('nothing'), undefined);
    assert.deepEqual(practiceKind('weights').hint, ['exponential', 'total', 'division']);
  });
});

describe('cellValue and hintSteps on run()', () => {
  it('give the core\u2019s value of every cell, as float64 has it, and a working that ends at its printed value', () => {
    for (const kind of PRACTICE_KINDS.filter((k) => k.source === 'trace')) {
      const positions = allPositions(kind.name, answers);
      const expectedCount = { totals: 4, mix: 4 * 4 * 3, out: 4 * 3 }[kind.name] ?? 16;
      assert.equal(positions.length, expectedCount, `${kind.name} cells`);
      for (const index of positions) {
        const cell = { kind: kind.name, index };
        const value = cellValue(cell, answers);
        close(value, index.reduce((table, i) => table[i], reference[kind.key]), `${kind.name}[${index}]`);
        const steps = hintSteps(cell, answers);
        assert.deepEqual(steps.map((step) => step.step), kind.hint);
        assert.ok(steps.every((step) => typeof step.text === 'string' && step.text.length > 0));
        assert.ok(steps.at(-1).text.endsWith(formatFixed(value, kind.decimals)), `${kind.name}[${index}]: ${steps.at(-1).text}`);
      }
    }
  });

  it('work a weight from the row\u2019s e^x and total, and a masked cell from the mask', () => {
    const weight = hintSteps({ kind: 'weights', index: [3, 1] }, answers).map((step) => step.text);
    const e = formatFixed(answers.trace.exponentials[3][1], 4);
    const total = formatFixed(answers.trace.row_totals[3], 4);
    assert.ok(weight[0].includes(e) && weight[1].includes(total) && weight[2].startsWith(`${e} \u00f7 ${total} = `), weight.join(' | '));
    const hidden = hintSteps({ kind: 'masked', index: [0, 2] }, answers).map((step) => step.text);
    assert.ok(hidden[0].includes('hidden') && hidden[1].includes('\u2212\u221e'), hidden.join(' | '));
    const score = hintSteps({ kind: 'scores', index: [1, 0] }, answers)[0].text;
    assert.ok(score.includes('(1.100 \u00d7 \u22120.400)'), score);
  });

  it('name the cell a table shows it in', () => {
    assert.equal(cellTable({ kind: 'exponentials', index: [3, 0] }), 'softmax');
    assert.equal(cellTable({ kind: 'flash-sum', index: [2, 3] }), 'tile-2-running');
  });

  it('refuse a cell outside the answer or an answer that is missing', () => {
    assert.throws(() => cellValue({ kind: 'scores', index: [4, 0] }, answers), /scores:4\.0 is outside/u);
    assert.throws(() => cellValue({ kind: 'scores', index: [0, 0] }, { flash: answers.flash }), /run\(\)/u);
    assert.throws(() => cellValue({ kind: 'nope', index: [] }, answers), /known: scores/u);
    assert.throws(() => hintSteps({ kind: 'out', index: [0, 9] }, answers), RangeError);
  });
});

describe('the flash tile\u2019s running figures and the bill', () => {
  it('follow their definitions, in float64, on every computed tile', () => {
    const positions = allPositions('flash-sum', answers);
    const computed = answers.flash.steps.filter((step) => !step.skipped);
    assert.equal(positions.length, computed.reduce((n, step) => n + step.row_end - step.row_begin, 0));
    for (const [tile, query] of positions) {
      const step = answers.flash.steps[tile];
      const r = query - step.row_begin;
      const max = cellValue({ kind: 'flash-max', index: [tile, query] }, answers);
      const rescale = cellValue({ kind: 'flash-rescale', index: [tile, query] }, answers);
      const sum = cellValue({ kind: 'flash-sum', index: [tile, query] }, answers);
      close(max, Math.max(step.max_before[r], step.tile_max[r]), 'running max');
      close(rescale, Math.exp(step.max_before[r] - max), 'rescale');
      close(sum, step.sum_before[r] * rescale + step.exponentials[r].reduce((a, b) => a + b, 0), 'running sum');
      for (const kind of ['flash-max', 'flash-rescale', 'flash-sum']) {
        const steps = hintSteps({ kind, index: [tile, query] }, answers);
        assert.ok(steps.at(-1).text.includes(formatFixed(cellValue({ kind, index: [tile, query] }, answers), 4)));
      }
    }
    const skipped = answers.flash.steps.findIndex((step) => step.skipped);
    assert.ok(skipped >= 0, 'the default tiles skip one');
    assert.throws(() => cellValue({ kind: 'flash-max', index: [skipped, 0] }, answers), /skipped/u);
  });

  it('take a bill line\u2019s value and working from kvBill()', () => {
    const bill = answers.bill;
    assert.equal(cellValue({ kind: 'bill', index: ['bytes_per_token'] }, answers), bill.bytes_per_token_per_layer * bill.layers);
    assert.equal(cellValue({ kind: 'bill', index: ['cache_bytes'] }, answers), bill.bytes_per_sequence * bill.batch);
    const steps = hintSteps({ kind: 'bill', index: ['bytes_per_token_per_layer'] }, answers);
    assert.deepEqual(steps.map((step) => step.text), [bill.formula, bill.working]);
    for (const line of BILL_LINES) {
      const last = hintSteps({ kind: 'bill', index: [line] }, answers).at(-1).text;
      assert.ok(last.endsWith(formatCount(bill[line])), last);
    }
    assert.throws(() => cellValue({ kind: 'bill', index: ['fits'] }, answers), /bill line/u);
  });
});

describe('expandBlanks', () => {
  it('expands a kind, a row and a cell, each cell once, in the order named', () => {
    const cells = expandBlanks([
      { kind: 'weights', index: [1] }, { kind: 'weights', index: [1, 0] }, { kind: 'totals', index: [] },
      { kind: 'bill', index: ['bytes_per_token'] },
    ], answers);
    assert.deepEqual(cells.map((c) => `${c.kind}:${c.index.join('.')}`), [
      'weights:1.0', 'weights:1.1', 'weights:1.2', 'weights:1.3', 'totals:0', 'totals:1', 'totals:2', 'totals:3',
      'bill:bytes_per_token',
    ]);
  });

  it('refuses an item past the example, naming it', () => {
    assert.throws(() => expandBlanks([{ kind: 'scores', index: [7] }], answers), /scores:7 names no cell/u);
  });
});
