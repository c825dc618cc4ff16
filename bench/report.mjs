// Markdown tables from a result document of suite.mjs (any environment).

const MiB = 1024 * 1024;

function fixed(value, digits) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

function time(ms) {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 0.01) return `${(ms * 1000).toFixed(2)} µs`;
  if (ms < 1) return `${(ms * 1000).toFixed(1)} µs`;
  if (ms < 1000) return `${ms.toPrecision(4)} ms`;
  return `${(ms / 1000).toPrecision(4)} s`;
}

function ratio(value) {
  if (!Number.isFinite(value)) return '—';
  return `${value < 0.1 ? value.toPrecision(2) : value.toFixed(value < 10 ? 2 : 1)}×`;
}

function percent(value) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(0)} %` : '—';
}

function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

function shortName(doc, id) {
  return doc.implementations.find((i) => i.id === id)?.short ?? id;
}

/** One heading line per document: where it ran and the peak. */
export function describeEnvironment(doc) {
  const env = doc.environment;
  return `${env.name}: ${env.runtime}${env.cpu ? `, ${env.cpu}` : ''}, one thread, mask ${doc.options.mask}`;
}

/** The whole report of one run as Markdown. */
export function markdownReport(doc) {
  const out = [];
  out.push(`## Benchmark — ${describeEnvironment(doc)}`);
  out.push('');
  out.push(`Useful flops: ${doc.options.mask === 'causal' ? doc.flops.useful_causal : doc.flops.useful_none}. ` +
    `Dense flops: ${doc.flops.dense}. ${doc.flops.note}.`);
  out.push(`WebAssembly SIMD128 peak measured in this run: **${fixed(doc.peak.gflops, 1)} GFLOP/s** ` +
    `(${doc.peak.best_chains} independent f32x4 mul+add chains; before the kernels ` +
    `${fixed(doc.peak.before_gflops, 1)}, after ${fixed(doc.peak.after_gflops, 1)}).`);
  for (const warning of doc.warnings ?? []) out.push(`**Warning:** ${warning}.`);
  const load = doc.environment.load_average;
  if (load) {
    out.push(`Load average (1 min) of the machine: ${fixed(load.before[0], 2)} at the start, ` +
      `${fixed(load.after[0], 2)} at the end, on ${doc.environment.logical_cpus ?? '?'} logical CPUs.`);
  }
  out.push(`Each figure is the median of ${doc.options.reps} interleaved rounds (${doc.options.largeReps} from ` +
    'T = 4096), after warm-up; every implementation was checked against a float64 reference first ' +
    `(relative error budget ${doc.options.error_budget}).`);
  out.push('');
  out.push('Implementations:');
  for (const impl of doc.implementations) out.push(`- \`${impl.id}\`: ${impl.label}`);
  for (const note of doc.notes ?? []) out.push(`- note: ${note}`);
  out.push('');

  const peers = doc.peers ?? [];
  const ok = doc.results.filter((r) => r.status === 'ok');
  const dims = [...new Set(doc.results.map((r) => r.d))];
  for (const d of dims) {
    const ofD = ok.filter((r) => r.d === d);
    const sizes = [...new Set(ofD.map((r) => r.t))].sort((a, b) => a - b);
    const ids = doc.implementations.map((i) => i.id).filter((id) => ofD.some((r) => r.implementation === id));
    out.push(`### d = ${d}: useful GFLOP/s`);
    out.push('');
    out.push(table(['implementation', ...sizes.map((t) => `T=${t}`)], ids.map((id) => [
      `\`${id}\``,
      ...sizes.map((t) => fixed(ofD.find((r) => r.implementation === id && r.t === t)?.useful_gflops, 2)),
    ])));
    out.push('');
    out.push(`### d = ${d}: details`);
    out.push('');
    const header = ['T', 'implementation', 'median time', 'useful GFLOP/s', 'dense GFLOP/s', 'share of peak',
      ...peers.map((p) => `vs \`${shortName(doc, p)}\``), 'wasm heap', 'rel. error'];
    const rows = [];
    for (const t of sizes) {
      for (const id of ids) {
        const r = ofD.find((x) => x.implementation === id && x.t === t);
        if (!r) continue;
        rows.push([String(t), `\`${id}\``, time(r.time_ms), fixed(r.useful_gflops, 2), fixed(r.dense_gflops, 2),
          percent(r.peak_share), ...peers.map((p) => (p === id ? '1×' : ratio(r.speedup?.[p]))),
          Number.isFinite(r.heap_bytes) ? `${(r.heap_bytes / MiB).toFixed(0)} MiB` : '—',
          r.relative_error === undefined ? '—' : r.relative_error.toExponential(1)]);
      }
    }
    out.push(table(header, rows));
    out.push('');
    out.push('"vs X" is X\'s median time divided by this row\'s: above 1× this row is faster. ' +
      '"wasm heap" is the size of that implementation\'s WebAssembly memory after this size ran ' +
      '(a wasm memory never shrinks, so it also reflects the largest size run before).');
    out.push('');
  }

  const failed = doc.results.filter((r) => r.status !== 'ok');
  if (failed.length) {
    out.push('### Not measured');
    out.push('');
    out.push(table(['T', 'd', 'implementation', 'why'],
      failed.map((r) => [String(r.t), String(r.d), `\`${r.implementation}\``, (r.error ?? r.status).replace(/\|/g, '\\|')])));
    out.push('');
  }

  if (doc.trace?.length) {
    out.push('### Complete trace vs one call of each implementation');
    out.push('');
    out.push('Both `ours:` rows compute every intermediate the page shows (score terms, scores, scaled, ' +
      'masked, exponentials, row maxima and totals, weights and their sums, weighted values, output), ' +
      'recomputed on every call. `ours:trace` is a tracer (`attention.tracer({ t, d, mask }).run({ q, k, v })`): ' +
      'Float32Arrays copied into the module\'s memory, the trace handed back as typed-array views. ' +
      '`ours:run-json` is `attention.run(input)`: the same trace as JSON both ways. The others compute ' +
      'the output only.');
    out.push('');
    out.push(table(['input', 'T', 'd', 'implementation', 'µs per call', 'vs `ours:trace`', 'vs `ours:run-json`'],
      doc.trace.map((r) => [
        r.what, String(r.t), String(r.d), `\`${r.implementation}\``,
        r.status === 'ok' ? fixed(r.us_per_call, r.us_per_call < 10 ? 2 : 1) : `failed: ${r.error}`,
        r.status === 'ok' ? ratio(r.trace_speedup) : '—',
        r.status === 'ok' ? ratio(r.run_json_speedup) : '—',
      ])));
    out.push('');
    out.push('"vs X" is that row\'s time divided by X\'s: above 1× the trace X is faster than that call.');
    out.push('');
  }
  return out.join('\n');
}
