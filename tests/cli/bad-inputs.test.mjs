// The table of bad inputs (tests/support/bad-inputs.mjs) through the native CLI's --json -:
// a valid input exits 0 with a trace that matches float64 (masked scores written as {"non_finite":"-Infinity"}); a
// bad one exits 2 with one line on stderr naming the field, and nothing on stdout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BAD_INPUTS, assertNames, checkTrace, cliText, coreOutcome } from '../support/bad-inputs.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tool = process.env.ATTENTION_BY_HAND ?? join(repoRoot, 'build', 'native', 'attention-by-hand');

function runTool(stdin) {
  assert.ok(existsSync(tool), `${tool} is missing: build it with cmake --preset native && cmake --build --preset native`);
  const result = spawnSync(tool, ['--json', '-'], { input: stdin, encoding: 'utf8', timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  assert.equal(result.error, undefined, `could not run ${tool}: ${result.error}`);
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

describe('the CLI, every entry of the bad-input table', () => {
  for (const entry of BAD_INPUTS) {
    const outcome = coreOutcome(entry);
    if (outcome === null) continue;
    it(`${entry.name}: ${outcome === 'valid' ? 'a trace that matches float64' : `exit 2 naming ${outcome.error}`}`, () => {
      const { code, signal, stdout, stderr } = runTool(cliText(entry));
      assert.equal(signal, null, 'no crash');
      if (outcome === 'valid') {
        assert.equal(code, 0, `exit 0 (stderr: ${stderr.slice(0, 200)})`);
        assert.equal(stderr, '');
        const trace = JSON.parse(stdout);
        const tagged = (x) => x !== null && typeof x === 'object' && x.non_finite === '-Infinity';
        trace.masked = trace.masked.map((row) => row.map((x) => (tagged(x) ? -Infinity : x)));
        checkTrace(trace, entry.input, entry.name);
      } else {
        assert.equal(code, 2, `exit 2 (stdout ${stdout.slice(0, 80)})`);
        assert.equal(stdout, '', 'nothing on stdout');
        assert.equal(stderr.trimEnd().split('\n').length, 1, `one line on stderr: ${stderr.slice(0, 300)}`);
        assertNames(stderr.trimEnd(), outcome.error, entry.name);
        assert.ok(stderr.length < 400, `a short line: ${stderr.length} characters`);
      }
    });
  }

  it('still works after all of them', () => {
    const { code, stdout } = runTool(cliText(BAD_INPUTS.find((e) => e.name === 'mask none')));
    assert.equal(code, 0);
    assert.equal(JSON.parse(stdout).token_count, 3);
  });
});
