// The benchmark's timing of a whole trace (every intermediate the page shows) for the article's
// inputs, the same in Node and in a browser page, next to one call of each contender at the same
// size.

import { checkOutput, referenceRows, rowsToCheck } from './correctness-gate.mjs';
import { describeError, keepObservable, median, now, timeCalls } from './timing.mjs';

export const TRACE_ID = 'ours:trace';
export const RUN_JSON_ID = 'ours:run-json';

/**
 * Times a whole trace (every intermediate the page shows) for the article's inputs, next to one
 * call of each contender at the same size, two ways: `ours:trace` through a tracer (typed arrays:
 * q, k and v copied in on every call, every intermediate recomputed, views of the result handed
 * back) and `ours:run-json` through `attention.run()` (JSON both ways).
 * @param {{run: (input) => object, article: () => object, tracer?: (options) => object}} attention
 */
export async function runTraceTiming(attention, contenders, settings, log) {
  const article = attention.article();
  const cases = [
    { what: 'article, "the cat"', input: article.two_words },
    { what: '"the cat sat on"', input: article.four_words },
  ];
  const results = [];
  for (const { what, input } of cases) {
    const mask = input.mask ?? 'causal';
    const t = input.q.length;
    const d = input.q[0].length;
    const inputs = {
      q: Float32Array.from(input.q.flat()), k: Float32Array.from(input.k.flat()),
      v: Float32Array.from(input.v.flat()),
    };
    const traceContender = {
      id: TRACE_ID, sync: true,
      // Timed: the whole trace as a page recomputing it would get it, inputs copied in on every
      // call. Checked: its output rows.
      prepare: async () => {
        if (typeof attention.tracer !== 'function') throw new Error('this build of the JS API has no tracer()');
        const tracer = attention.tracer({ t, d, mask });
        return {
          call: (q, k, v) => tracer.run({ q, k, v }).out,
          dispose: () => tracer.dispose(),
        };
      },
    };
    const runJsonContender = {
      id: RUN_JSON_ID, sync: true,
      // Timed: the whole trace through JSON, nothing else. Checked: its output rows.
      prepare: async () => ({
        call: () => { keepObservable(attention.run(input).token_count); return inputs.q; },
        output: () => Float32Array.from(attention.run(input).out.flat()),
      }),
    };
    const rows = rowsToCheck(t);
    const reference = referenceRows(inputs, t, d, mask, rows);
    const candidates = [traceContender, runJsonContender,
      ...contenders.filter((c) => c.supports({ t, d, mask, trace: true }) === true)];
    const timings = [];
    for (const contender of candidates) {
      const row = { what, t, d, mask, implementation: contender.id, status: 'ok' };
      results.push(row);
      try {
        const prepared = await contender.prepare({ t, d, mask });
        const out = prepared.output ? prepared.output() : await prepared.call(inputs.q, inputs.k, inputs.v);
        const check = checkOutput(out, t, d, rows, reference);
        if (!check.ok) throw new Error(`wrong output: ${check.problem}`);
        let perCall = await timeCalls(contender, prepared, inputs, 10);
        const warmupEnd = now() + settings.warmupMs;
        while (now() < warmupEnd) perCall = await timeCalls(contender, prepared, inputs, 100);
        const calls = Math.max(1, Math.round(settings.sampleMs / Math.max(perCall, 1e-4)));
        timings.push({ row, contender, prepared, calls, samples: [] });
      } catch (error) {
        row.status = 'failed';
        row.error = describeError(error);
        log(`  trace timing ${contender.id} ${what}: FAILED ${row.error}`);
      }
    }
    for (let round = 0; round < settings.reps; round += 1) {
      for (let n = 0; n < timings.length; n += 1) {
        const timing = timings[(n + round) % timings.length];
        timing.samples.push(await timeCalls(timing.contender, timing.prepared, inputs, timing.calls));
      }
    }
    for (const timing of timings) {
      timing.row.us_per_call = median(timing.samples) * 1000;
      await timing.prepared.dispose?.();
    }
    // Each row against each way of tracing: that row's time over the trace's (above 1 the trace
    // is faster).
    for (const [contender, key] of [[traceContender, 'trace_speedup'], [runJsonContender, 'run_json_speedup']]) {
      const traceMs = timings.find((timing) => timing.contender === contender)?.samples;
      if (!traceMs) continue;
      const traceUs = median(traceMs) * 1000;
      for (const timing of timings) timing.row[key] = timing.row.us_per_call / traceUs;
    }
  }
  return results;
}
