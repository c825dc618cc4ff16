// The table of bad inputs (tests/support/bad-inputs.mjs) through run(), attend() and tracer() of
// the built module: each gives either a result that matches float64 or an Error whose message
// starts with the path of the field at fault, and the module works as before afterwards.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  BAD_INPUTS, assertNames, attendCase, checkAttendOutput, checkTrace, checkTracerTrace, coreOutcome, tracerCase,
} from '../support/bad-inputs.mjs';
import { assertSameAsRun, traceOnce } from '../support/tracer.mjs';
import { createSiteAttention } from '../support/site-module.mjs';

let attention;
before(async () => { attention = await createSiteAttention(); });

// A small input every check ends with: the module still computes correctly.
const probe = { tokens: ['the', 'cat'], q: [[0.3, -0.2], [1.1, -0.8]], k: [[-0.4, -0.3], [1.6, -0.7]], v: [[-0.5, 0.1], [1.2, -0.3]] };

function assertThrowsNamingPath(call, path, what) {
  let thrown;
  try {
    call();
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof Error, `${what}: throws an Error (got ${thrown})`);
  assertNames(thrown.message, path, what);
}

describe('run(), every entry of the bad-input table', () => {
  for (const entry of BAD_INPUTS) {
    const outcome = coreOutcome(entry);
    if (outcome === null) continue;
    it(`${entry.name}: ${outcome === 'valid' ? 'matches float64' : `throws naming ${outcome.error}`}`, () => {
      if (outcome === 'valid') checkTrace(attention.run(entry.input), entry.input, entry.name);
      else assertThrowsNamingPath(() => attention.run(entry.input), outcome.error, entry.name);
      checkTrace(attention.run(probe), probe, 'the probe afterwards');
    });
  }
});

describe('attend(), every entry of the bad-input table', () => {
  // Some entries have no attend() form (attend() takes no tokens, and a Float32Array cannot hold
  // a string or a null): they are not tests here, and each says why.
  it('every entry either has an attend() form or a reason it has none', () => {
    const without = BAD_INPUTS.map(attendCase).filter((shown) => shown.skip);
    for (const shown of without) assert.ok(typeof shown.skip === 'string' && shown.skip.length > 0);
    assert.ok(without.length < BAD_INPUTS.length / 2, `${without.length} of ${BAD_INPUTS.length} without a form`);
  });
  for (const entry of BAD_INPUTS) {
    const shown = attendCase(entry);
    if (shown.skip) continue;
    const { outcome } = shown;
    it(`${entry.name}: ${outcome === 'valid' ? 'matches float64' : `throws naming ${outcome.error}`}`, () => {
      const { input } = attendCase(entry);  // built here: some are large
      if (outcome === 'valid') checkAttendOutput(attention.attend(input), input, entry.name);
      else assertThrowsNamingPath(() => attention.attend(input), outcome.error, entry.name);
      const small = { q: Float32Array.from(probe.q.flat()), k: Float32Array.from(probe.k.flat()), v: Float32Array.from(probe.v.flat()), t: 2, d: 2 };
      checkAttendOutput(attention.attend(small), small, 'the probe afterwards');
    });
  }

  it('the same table with every kernel that supports the shape', () => {
    const kernels = attention.kernels().map((k) => k.name);
    let runs = 0;
    for (const entry of BAD_INPUTS) {
      const shown = attendCase(entry);
      if (shown.skip || entry.attend) continue;
      const { input, outcome } = shown;
      for (const kernel of kernels) {
        if (/4x8/u.test(kernel) && input.d % 4 !== 0) continue;
        const what = `${entry.name} with ${kernel}`;
        if (outcome === 'valid') checkAttendOutput(attention.attend({ ...input, kernel }), input, what);
        else assertThrowsNamingPath(() => attention.attend({ ...input, kernel }), outcome.error, what);
        runs += 1;
      }
    }
    assert.ok(runs > 50, `${runs} runs`);
  });
});

describe('tracer(), every entry of the bad-input table', () => {
  // The probe as tracer() takes it, and run()'s trace of it: every run afterwards must match.
  const probeArrays = { q: Float32Array.from(probe.q.flat()), k: Float32Array.from(probe.k.flat()), v: Float32Array.from(probe.v.flat()), t: 2, d: 2 };

  it('every entry either has a tracer() form or a reason it has none', () => {
    const without = BAD_INPUTS.map(tracerCase).filter((shown) => shown.skip);
    for (const shown of without) assert.ok(typeof shown.skip === 'string' && shown.skip.length > 0);
    assert.ok(without.length < BAD_INPUTS.length / 2, `${without.length} of ${BAD_INPUTS.length} without a form`);
  });
  for (const entry of BAD_INPUTS) {
    const shown = tracerCase(entry);
    if (shown.skip) continue;
    const { input, outcome } = shown;
    it(`${entry.name}: ${outcome === 'valid' ? 'matches float64 and run()' : `throws naming ${outcome.error}`}`, () => {
      if (outcome === 'valid') {
        const trace = traceOnce(attention, input);
        checkTracerTrace(trace, input, entry.name);
        // And run() of the same input (when it has one of the same numbers) gives the same trace.
        if (entry.input?.tokens && coreOutcome(entry) === 'valid') assertSameAsRun(trace, attention.run(entry.input), entry.name);
      } else {
        assertThrowsNamingPath(() => traceOnce(attention, input), outcome.error, entry.name);
      }
      assertSameAsRun(traceOnce(attention, probeArrays), attention.run(probe), 'the probe afterwards');
    });
  }
});
