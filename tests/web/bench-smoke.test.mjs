// A tiny run of the benchmark (not a measurement): T = 4 and 64, d = 64, one round, our kernels
// and plain JS. Checks that every implementation passes its float64 check and that the JSON the
// benchmark writes has the fields the report and the site's benchmark page read. No timing is
// asserted. The full benchmark is scripts/bench.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { plainAttention } from '../../bench/peers/plain-js.mjs';
import { checkOutput, makeInputs, referenceRows, rowsToCheck } from '../../bench/correctness-gate.mjs';
import { usefulFlops } from '../../bench/suite.mjs';
import { markdownReport } from '../../bench/report.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

test('the correctness gate accepts plain JS and rejects a wrong, short or non-finite output', () => {
  const t = 300;
  const d = 8;
  const inputs = makeInputs(t, d);
  const rows = rowsToCheck(t);
  assert.ok(rows.length < t && rows.includes(0) && rows.includes(t - 1), 'large T checks a sample of rows');
  const reference = referenceRows(inputs, t, d, 'causal', rows);
  // Row 0 sees only token 0, so its output is v[0].
  assert.deepEqual(Array.from(reference[0]), Array.from(inputs.v.subarray(0, d)));

  const out = plainAttention(inputs.q, inputs.k, inputs.v, t, d, 'causal');
  const good = checkOutput(out, t, d, rows, reference);
  assert.equal(good.ok, true, good.problem);
  assert.ok(good.relative_error < 1e-5);

  const wrong = out.slice();
  wrong[(t - 1) * d + 3] += 0.01;
  assert.equal(checkOutput(wrong, t, d, rows, reference).ok, false);
  const nonFinite = out.slice();
  nonFinite[5] = Number.NaN;
  assert.match(checkOutput(nonFinite, t, d, rows, reference).problem, /non-finite/);
  assert.match(checkOutput(out.subarray(1), t, d, rows, reference).problem, /values, expected/);
  // Without the mask the same output is wrong.
  const unmasked = referenceRows(inputs, t, d, 'none', rows);
  assert.equal(checkOutput(out, t, d, rows, unmasked).ok, false);
});

test('a smoke run of bench/run-node.mjs writes checked results with every documented field', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-smoke-'));
  try {
    const out = path.join(dir, 'results.json');
    const { stdout } = await run(process.execPath, [
      'bench/run-node.mjs', '--quick', '--sizes', '4,64', '--d', '64', '--reps', '1',
      '--only', 'ours,plain-js', '--out', out,
    ], { cwd: ROOT, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
    const doc = JSON.parse(await readFile(out, 'utf8'));

    assert.equal(doc.schema, 'attention-by-hand/benchmark@1');
    assert.equal(doc.environment.name, 'node');
    assert.deepEqual(doc.options.sizes, [4, 64]);
    assert.deepEqual(doc.options.dims, [64]);
    assert.equal(doc.options.reps, 1);
    assert.match(doc.flops.useful_causal, /T·\(T\+1\)/);
    assert.ok(doc.peak.gflops > 0 && doc.peak.configurations.length > 0);
    assert.deepEqual(doc.peers, ['plain-js']);
    assert.equal(doc.notes.length, 0, `notes: ${doc.notes.join('; ')}`);
    assert.ok(Array.isArray(doc.warnings));  // a busy machine is reported there, not asserted on
    assert.ok(doc.peak.before_gflops > 0 && doc.peak.after_gflops > 0 && doc.peak.variation >= 0);
    assert.equal(doc.environment.load_average.before.length, 3);

    const kernelIds = doc.implementations.filter((i) => i.id.startsWith('ours:')).map((i) => i.id);
    assert.ok(kernelIds.length >= 2, 'every registered kernel is a contender');
    assert.ok(doc.implementations.some((i) => i.id === 'ours-scalar-build'));
    for (const impl of doc.implementations) {
      assert.equal(typeof impl.label, 'string');
      assert.ok(['ours', 'peer'].includes(impl.group));
    }
    assert.equal(doc.cases.length, 2);
    for (const c of doc.cases) assert.ok(kernelIds.includes(`ours:${c.default_kernel}`), c.default_kernel);

    const expected = [...kernelIds, 'ours-scalar-build', 'plain-js'];
    for (const t of [4, 64]) {
      for (const id of expected) {
        const r = doc.results.find((x) => x.t === t && x.implementation === id);
        assert.ok(r, `a result for ${id} at T=${t}`);
        assert.equal(r.status, 'ok', `${id} at T=${t}: ${r.error}`);
        assert.equal(r.d, 64);
        assert.equal(r.mask, 'causal');
        assert.equal(r.checked_rows, t);
        assert.ok(r.relative_error <= doc.options.error_budget, `${id} at T=${t}: error ${r.relative_error}`);
        assert.equal(r.samples_ms.length, 1);
        assert.ok(r.time_ms > 0 && r.calls_per_sample >= 1);
        assert.ok(Math.abs(r.useful_gflops - usefulFlops(t, 64, 'causal') / (r.time_ms * 1e6)) < 1e-9);
        assert.ok(r.dense_gflops > r.useful_gflops);
        assert.ok(r.peak_share > 0);
        assert.ok(r.speedup['plain-js'] > 0);
        if (id.startsWith('ours')) assert.ok(r.heap_bytes > 0, `${id} reports its wasm heap`);
      }
    }
    // The complete trace, typed (ours:trace) and as JSON (ours:run-json), each against every call.
    for (const id of ['ours:trace', 'ours:run-json']) {
      assert.deepEqual(doc.trace.filter((r) => r.implementation === id).map((r) => r.t), [2, 4], id);
    }
    for (const r of doc.trace) {
      assert.equal(r.status, 'ok', `${r.implementation} ${r.what}: ${r.error}`);
      assert.ok(r.us_per_call > 0 && r.trace_speedup > 0 && r.run_json_speedup > 0);
    }
    for (const t of [2, 4]) {
      const row = (id) => doc.trace.find((r) => r.implementation === id && r.t === t);
      assert.equal(row('ours:trace').trace_speedup, 1);
      assert.equal(row('ours:run-json').run_json_speedup, 1);
      const plain = row('plain-js');
      assert.ok(Math.abs(plain.trace_speedup - plain.us_per_call / row('ours:trace').us_per_call) < 1e-9);
      assert.ok(Math.abs(plain.run_json_speedup - plain.us_per_call / row('ours:run-json').us_per_call) < 1e-9);
    }
    assert.match(stdout, /vs `ours:trace` \| vs `ours:run-json`/);

    assert.match(stdout, /## Benchmark — node/);
    assert.equal(stdout, `${markdownReport(doc)}\n`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
