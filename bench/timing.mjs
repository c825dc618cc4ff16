// How the benchmark times a call, the same in Node and in a browser page: the clock, a sink that
// keeps every output observable (so no engine can drop a call whose result nobody reads), the
// mean time of a batch of calls, the median of the samples, and a failure's message cut to one
// line.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const now = () => performance.now();

let sink = 0;  // keeps every output observable

/** Adds `value` to the sink, so the call that produced it cannot be optimised away. */
export function keepObservable(value) {
  sink += value;
}

/** Whether every output added to the sink was finite (reported in the result document). */
export function sinkIsFinite() {
  return Number.isFinite(sink);
}

/** Mean milliseconds per call over `calls` calls of a prepared contender on `inputs`. */
export async function timeCalls(contender, prepared, inputs, calls) {
  const { q, k, v } = inputs;
  const start = now();
  if (contender.sync) {
    for (let n = 0; n < calls; n += 1) sink += prepared.call(q, k, v)[0];
  } else {
    for (let n = 0; n < calls; n += 1) sink += (await prepared.call(q, k, v))[0];
  }
  return (now() - start) / calls;
}

/** The first line of an error, with source paths (of a peer's own build) cut to file:line. */
export function describeError(error) {
  return String(error?.message ?? error).split('\n')[0]
    .replace(/(?:\/[\w.+-]+)+\/([\w.+-]+:\d+)/g, '$1')
    .slice(0, 300);
}
