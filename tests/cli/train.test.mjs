// The native trainer (attention-by-hand --train STEPS --seed S) against the wasm build's: after
// 100 steps every parameter agrees within 1e-5 relative. The two builds run the same float32
// arithmetic in the same order; only the C libraries' exp and log may differ in the last bit.
//
// Run after the native and wasm builds: node --test tests/cli/train.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importExplainer } from '../support/site-module.mjs';
import { flatParameters } from '../support/trainer-f64.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tool = process.env.ATTENTION_BY_HAND ?? join(repoRoot, 'build', 'native', 'attention-by-hand');

function run(args) {
  assert.ok(existsSync(tool), `${tool} is missing: build it with cmake --preset native && cmake --build --preset native`);
  const result = spawnSync(tool, args, { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
  assert.equal(result.error, undefined, `could not run ${tool}: ${result.error}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

for (const seed of [1, 7]) {
  test(`--train 100 --seed ${seed} agrees with the wasm trainer within 1e-5 relative`, async () => {
    const native = run(['--train', '100', '--seed', String(seed)]);
    assert.equal(native.code, 0, native.stderr);
    const nativeState = JSON.parse(native.stdout);

    const { createAttention } = await importExplainer();
    const trainer = (await createAttention()).trainer({ seed });
    trainer.step(100);
    const wasmState = trainer.state();
    trainer.dispose();

    assert.equal(nativeState.step, 100);
    assert.deepEqual(nativeState.vocabulary, wasmState.vocabulary);
    assert.deepEqual(nativeState.corpus, wasmState.corpus);
    const a = flatParameters(nativeState.parameters);
    const b = flatParameters(wasmState.parameters);
    assert.equal(a.length, b.length);
    let worst = 0;
    for (let n = 0; n < a.length; n += 1) {
      // Relative to the entry, with a floor of 1e-3 (the scale of the smallest trained weights)
      // so that an entry near 0 is not held to a relative error of its own tiny size.
      const relative = Math.abs(a[n] - b[n]) / Math.max(Math.abs(b[n]), 1e-3);
      worst = Math.max(worst, relative);
    }
    assert.ok(worst <= 1e-5, `largest relative difference ${worst}`);
    assert.ok(Math.abs(nativeState.loss - wasmState.loss) <= 1e-5 * wasmState.loss);
  });
}

test('--train refuses bad steps and seeds with exit code 2 and the field at fault', () => {
  for (const [args, start] of [
    [['--train', '0'], 'error: --train: steps: '],
    [['--train', 'many'], 'error: --train: '],
    [['--train', '5', '--seed', '-1'], 'error: --seed: must be a whole number'],
    [['--train', '5', '--seed', '1,"d_model":8'], 'error: --seed: must be a whole number'],
  ]) {
    const result = run(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.ok(result.stderr.startsWith(start), `${args.join(' ')}: ${result.stderr}`);
  }
});
