// The one rule by which numbers cross the JSON boundary (web/api/core-json.js): non-finite
// numbers go into the core as strings it can name, and come back from it as the tagged object
// {"non_finite": ...}, revived wherever it sits; null keeps meaning "absent".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseCoreJson, reviveNonFinite, toJson, unwrap } from '../../web/api/core-json.js';
import { createAttention } from '../../web/api/attention-api.js';

describe('core-json.js', () => {
  it('revives every tagged non-finite number, at any depth, and leaves null alone', () => {
    const answer = parseCoreJson(
      '{"masked":[[1,{"non_finite":"-Infinity"}]],"steps":[{"max_before":[{"non_finite":"-Infinity"}],'
      + '"loss":{"non_finite":"NaN"},"top":{"non_finite":"Infinity"},"scores":null}]}',
    );
    assert.deepEqual(answer.masked, [[1, -Infinity]]);
    assert.deepEqual(answer.steps[0].max_before, [-Infinity]);
    assert.ok(Number.isNaN(answer.steps[0].loss));
    assert.equal(answer.steps[0].top, Infinity);
    assert.equal(answer.steps[0].scores, null);
  });

  it('revives nothing else: a token spelt "NaN", an object with other keys or another spelling', () => {
    const answer = parseCoreJson(
      '{"tokens":["NaN","-Infinity"],"a":{"non_finite":"-Infinity","x":1},"b":{"non_finite":"-inf"},'
      + '"c":{"non_finite":null}}',
    );
    assert.deepEqual(answer.tokens, ['NaN', '-Infinity']);
    assert.deepEqual(answer.a, { non_finite: '-Infinity', x: 1 });
    assert.deepEqual(answer.b, { non_finite: '-inf' });
    assert.deepEqual(answer.c, { non_finite: null });
    assert.equal(reviveNonFinite('k', 'NaN'), 'NaN');
  });

  it('sends non-finite numbers to the core as strings it can name, and unwraps refusals', () => {
    assert.equal(toJson({ q: [[NaN, -Infinity, Infinity, 1]] }, 'input'), '{"q":[["NaN","-Infinity","Infinity",1]]}');
    assert.equal(toJson(undefined, 'input'), 'null');
    const cyclic = {};
    cyclic.self = cyclic;
    assert.throws(() => toJson(cyclic, 'input'), /^Error: input: cannot be read as JSON/);
    assert.throws(() => unwrap({ ok: false, error: 'q[0][1]: must be a finite number' }), /^Error: q\[0\]\[1\]: must be/);
    assert.deepEqual(unwrap({ ok: true, json: '[{"non_finite":"-Infinity"}]' }), [-Infinity]);
  });

  it('gives −∞ where the core masked, through run(), the sequel and the trainer alike', async () => {
    const attention = await createAttention();
    const trace = attention.run({ tokens: ['the', 'cat'], q: [[1, 0], [0, 1]], k: [[1, 0], [0, 1]], v: [[1, 2], [3, 4]] });
    assert.equal(trace.masked[0][1], -Infinity);
    assert.equal(typeof trace.masked[1][0], 'number');
    const tiles = attention.flashTiles({});
    const first = tiles.steps.find((step) => !step.skipped);
    assert.ok(first.max_before.every((x) => x === -Infinity), 'nothing seen before the first tile');
    assert.ok(tiles.steps.some((step) => step.skipped && step.scores === null), 'a skipped tile stays null');
    const layer = attention.groupedAttention({});
    assert.equal(layer.heads[0].trace.masked[0][1], -Infinity);
  });
});
