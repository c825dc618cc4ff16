// The native command-line tool, run as a user would run it: the walkthrough with no arguments,
// the trace of any input with --json, and bad input refused with exit code 2 and one line on
// stderr that names the field.
//
// Run after the native build: node --test tests/cli/cli.test.mjs
// (ATTENTION_BY_HAND may name another build of the tool.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headF64 } from '../support/attention-f64.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const tool = process.env.ATTENTION_BY_HAND ?? join(repoRoot, 'build', 'native', 'attention-by-hand');

function run(args, stdin = '') {
  assert.ok(existsSync(tool), `${tool} is missing: build it with cmake --preset native && cmake --build --preset native`);
  const result = spawnSync(tool, args, { input: stdin, encoding: 'utf8', timeout: 30_000 });
  assert.equal(result.error, undefined, `could not run ${tool}: ${result.error}`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

// The article's two words, as its Q, K and V tables print them.
const article = {
  tokens: ['the', 'cat'],
  q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2, 0.3]],
  k: [[-0.4, -0.3, 0.2, 1.2], [1.6, -0.7, -0.4, -0.5]],
  v: [[-0.5, -0.4, 0.1, 1.1], [1.2, -0.3, -0.2, -0.6]],
  mask: 'causal',
};

// The core writes a non-finite number as this tagged object (never null, which means absent).
const MINUS_INFINITY = { non_finite: '-Infinity' };

function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  expected.forEach((row, i) => {
    assert.equal(actual[i].length, row.length, `${what}[${i}]: length`);
    row.forEach((x, j) => {
      const y = actual[i][j];
      if (x === -Infinity) {
        assert.deepEqual(y, MINUS_INFINITY, `${what}[${i}][${j}] is masked: tagged -Infinity in JSON`);
      } else {
        assert.ok(typeof y === 'number' && Math.abs(y - x) <= tolerance * (1 + Math.abs(x)),
          `${what}[${i}][${j}] = ${y}, float64 says ${x}`);
      }
    });
  });
}

function traceOf(input) {
  const result = run(['--json', '-'], JSON.stringify(input));
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  return JSON.parse(result.stdout);
}

function seededRandom(seed) {
  // mulberry32: a small deterministic generator, so failures reproduce.
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomInput(T, d, mask, seed) {
  const random = seededRandom(seed);
  const matrix = () => Array.from({ length: T }, () => Array.from({ length: d }, () => Math.fround(random() * 4 - 2)));
  return { tokens: Array.from({ length: T }, (_, t) => `w${t}`), q: matrix(), k: matrix(), v: matrix(), mask };
}

test('no arguments: prints the walkthrough and checks the article, exit 0', () => {
  const { code, stdout, stderr } = run([]);
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  for (const printed of ['0.160', '2.090', '1.045', '-inf', '1.1052', '2.8434', '3.9486', '0.2799', '0.7201',
    '0.7242', '-0.3280', '-0.1160', '-0.1242', '0.784', '0.216', '55%']) {
    assert.ok(stdout.includes(printed), `the walkthrough prints ${printed}`);
  }
  assert.match(stdout, /all match/);
});

test('--help prints the usage, exit 0', () => {
  const { code, stdout, stderr } = run(['--help']);
  assert.equal(code, 0);
  assert.match(stdout, /usage/);
  assert.match(stdout, /--json/);
  assert.equal(stderr, '');
});

test('--json -: a token\u2019s invisible formatting is written as escapes, and reads back the same', () => {
  // A right-to-left override left open would turn around the rest of the line in a terminal
  // that applies bidi, numbers included; Hebrew letters are text and stay as they are.
  const tokens = ['\u202eevil', '\u05e9\u05dc\u05d5\u05dd', 'zero\u200bwidth'];
  const input = { tokens, q: [[1, 0], [0, 1], [1, 1]], k: [[1, 0], [0, 1], [1, 1]], v: [[1, 0], [0, 1], [1, 1]] };
  const { code, stdout, stderr } = run(['--json', '-'], JSON.stringify(input));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stdout, /[\u200b\u202e]/u, 'no raw formatting character in the output');
  assert.ok(stdout.includes('"\\u202eevil"') && stdout.includes('"zero\\u200bwidth"'), stdout.slice(0, 80));
  assert.ok(stdout.includes('\u05e9\u05dc\u05d5\u05dd'), 'letters as they are');
  assert.deepEqual(JSON.parse(stdout).tokens, tokens);
});

test('--json -: the article input gives one JSON object that matches float64', () => {
  const { code, stdout, stderr } = run(['--json', '-'], JSON.stringify(article));
  assert.equal(code, 0, stderr);
  assert.equal(stderr, '');
  assert.equal(stdout.trim().split('\n').length, 1, 'one line of JSON');
  const trace = JSON.parse(stdout);
  assert.equal(typeof trace, 'object');
  assert.ok(!Array.isArray(trace));
  for (const key of ['tokens', 'mask', 'token_count', 'head_dim', 'q', 'k', 'v', 'score_terms', 'scores',
    'scale_divisor', 'scaled', 'masked', 'exponentials', 'row_max', 'row_shifted', 'row_totals', 'weights',
    'weight_sums', 'weighted_values', 'out']) {
    assert.ok(key in trace, `key ${key}`);
  }
  assert.deepEqual(trace.tokens, ['the', 'cat']);
  assert.equal(trace.mask, 'causal');
  assert.equal(trace.token_count, 2);
  assert.equal(trace.head_dim, 4);
  assert.equal(trace.scale_divisor, 2);

  const ref = headF64(article);
  assertClose(trace.scores, ref.scores, 1e-5, 'scores');
  assertClose(trace.scaled, ref.scaled, 1e-5, 'scaled');
  assertClose(trace.masked, ref.masked, 1e-5, 'masked');
  assertClose(trace.weights, ref.weights, 1e-5, 'weights');
  assertClose(trace.out, ref.out, 1e-5, 'out');
  assert.deepEqual(trace.masked[0][1], MINUS_INFINITY, 'masked above the diagonal is tagged -Infinity');
  assert.equal(trace.weights[0][1], 0);
  assert.equal(trace.exponentials[0][1], 0);
  assert.deepEqual(trace.row_shifted, [false, false]);
  assert.deepEqual(trace.weight_sums.map((x) => x.toFixed(4)), ['1.0000', '1.0000']);

  // The article's printed numbers, at the article's precision.
  assert.equal(trace.exponentials[1][0].toFixed(4), '1.1052');
  assert.equal(trace.exponentials[1][1].toFixed(4), '2.8434');
  assert.equal(trace.row_totals[1].toFixed(4), '3.9486');
  assert.equal(trace.weights[1][0].toFixed(4), '0.2799');
  assert.equal(trace.weights[1][1].toFixed(4), '0.7201');
  assert.deepEqual(trace.out[1].map((x) => x.toFixed(4)), ['0.7242', '-0.3280', '-0.1160', '-0.1242']);
  assert.deepEqual(trace.score_terms[1][1].map((x) => x.toFixed(2)), ['1.76', '0.56', '-0.08', '-0.15']);
  assert.deepEqual(trace.weighted_values[1][0].map((x) => x.toFixed(4)), ['-0.1399', '-0.1120', '0.0280', '0.3079']);
});

test('--json FILE reads the file and prints the same trace as stdin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attention-cli-'));
  try {
    const file = join(dir, 'the cat.json');
    writeFileSync(file, JSON.stringify(article, null, 2));
    const fromFile = run(['--json', file]);
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.equal(fromFile.stderr, '');
    const fromStdin = run(['--json', '-'], JSON.stringify(article));
    assert.equal(fromFile.stdout, fromStdin.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--json: mask "none" has only numbers and every weight is positive', () => {
  const trace = traceOf({ ...article, mask: 'none' });
  assert.equal(trace.mask, 'none');
  for (const row of trace.masked) for (const x of row) assert.equal(typeof x, 'number');
  for (const row of trace.weights) for (const w of row) assert.ok(w > 0);
  assertClose(trace.weights, headF64({ ...article, mask: 'none' }).weights, 1e-5, 'weights');
  assertClose(trace.out, headF64({ ...article, mask: 'none' }).out, 1e-5, 'out');
});

test('--json: the mask defaults to causal', () => {
  const { mask, ...withoutMask } = article;
  const trace = traceOf(withoutMask);
  assert.equal(trace.mask, 'causal');
  assert.deepEqual(trace.masked[0][1], MINUS_INFINITY);
});

test('--json: random heads match float64 within 1e-5, rows of weights sum to 1', () => {
  for (const [T, d, mask, seed] of [[7, 5, 'causal', 1], [16, 9, 'none', 2], [64, 3, 'causal', 3], [3, 256, 'none', 4]]) {
    const input = randomInput(T, d, mask, seed);
    const trace = traceOf(input);
    const ref = headF64(input);
    assertClose(trace.weights, ref.weights, 1e-5, `T ${T} d ${d} weights`);
    assertClose(trace.out, ref.out, 1e-5, `T ${T} d ${d} out`);
    for (const row of trace.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) <= 1e-6);
  }
});

test('--json: scores near 1e4 stay finite (shifted softmax)', () => {
  // q_i · k_j = 12288 + 192 i + j (1 + i/64), exact in float32: e^score overflows naively.
  const input = {
    tokens: ['big', 'bigger', 'biggest'],
    q: [[128], [130], [132]],
    k: [[96], [96 + 1 / 128], [96 + 2 / 128]],
    v: [[0.5], [1], [1.5]],
    mask: 'none',
  };
  const trace = traceOf(input);
  assert.deepEqual(trace.row_shifted, [true, true, true]);
  assertClose(trace.weights, headF64(input).weights, 1e-6, 'weights');
  assertClose(trace.out, headF64(input).out, 1e-5, 'out');
});

test('--json: inputs at the documented limits are accepted (64 tokens, head_dim 256, |value| 1e15)', () => {
  const at = (T, d) => JSON.parse(head(T, d));
  assert.equal(traceOf(at(64, 2)).token_count, 64);
  assert.equal(traceOf(at(2, 256)).head_dim, 256);
  const trace = traceOf({ ...article, v: [[1e15, -1e15, 0.1, 1.1], [1.2, -0.3, -0.2, -0.6]] });
  // Nine significant digits identify a float32: reading them back as float32 is exact.
  assert.equal(Math.fround(trace.v[0][0]), Math.fround(1e15));
  assert.equal(Math.fround(trace.out[0][0]), Math.fround(1e15), 'the attends only to itself');
});

const articleWith = (changes) => JSON.stringify({ ...article, ...changes });
const rows = (T, d, x = 0.5) => Array.from({ length: T }, () => Array(d).fill(x));
const head = (T, d) => JSON.stringify({
  tokens: Array.from({ length: T }, (_, t) => `w${t}`), q: rows(T, d), k: rows(T, d), v: rows(T, d),
});

// [what, stdin, the path the message must start with]
const badInputs = [
  ['not JSON', 'the cat', 'input'],
  ['empty input', '', 'input'],
  ['truncated JSON', JSON.stringify(article).slice(0, 40), 'input'],
  ['an array, not an object', '[1, 2]', 'input'],
  ['NaN (not JSON)', articleWith({ q: 'NAN' }).replace('"NAN"', '[[NaN,1,1,1],[1,1,1,1]]'), 'input'],
  ['Infinity (not JSON)', articleWith({ v: 'INF' }).replace('"INF"', '[[1,1,1,1],[1,1,1,Infinity]]'), 'input'],
  ['missing tokens', JSON.stringify({ q: article.q, k: article.k, v: article.v }), 'tokens'],
  ['missing q', JSON.stringify({ tokens: article.tokens, k: article.k, v: article.v }), 'q'],
  ['missing v', JSON.stringify({ tokens: article.tokens, q: article.q, k: article.k }), 'v'],
  ['ragged q rows', articleWith({ q: [[0.3, -0.2, 0.5, 0.1], [1.1, -0.8, 0.2]] }), 'q[1]'],
  ['a q row that is a number', articleWith({ q: [[0.3, -0.2, 0.5, 0.1], 7] }), 'q[1]'],
  ['k has three rows', articleWith({ k: rows(3, 4) }), 'k'],
  ['v rows wider than q rows', articleWith({ v: rows(2, 5) }), 'v[0]'],
  ['k rows narrower than q rows', articleWith({ k: rows(2, 3) }), 'k[0]'],
  ['three tokens for two rows', articleWith({ tokens: ['the', 'cat', 'sat'] }), 'q'],
  ['one token for two rows', articleWith({ tokens: ['the'] }), 'q'],
  ['zero tokens', JSON.stringify({ tokens: [], q: [], k: [], v: [] }), 'tokens'],
  ['head_dim 0', JSON.stringify({ tokens: ['a', 'b'], q: [[], []], k: [[], []], v: [[], []] }), 'q[0]'],
  ['a string "1" as a value', articleWith({ q: [[0.3, '1', 0.5, 0.1], [1.1, -0.8, 0.2, 0.3]] }), 'q[0][1]'],
  ['null as a value', articleWith({ k: [[-0.4, -0.3, 0.2, 1.2], [1.6, -0.7, null, -0.5]] }), 'k[1][2]'],
  ['a token that is a number', articleWith({ tokens: ['the', 2] }), 'tokens[1]'],
  ['unknown mask "diagonal"', articleWith({ mask: 'diagonal' }), 'mask'],
  ['65 tokens (limit 64)', head(65, 2), 'tokens'],
  ['head_dim 257 (limit 256)', head(2, 257), 'q[0]'],
  ['a value of 1e300', articleWith({ v: [[-0.5, -0.4, 0.1, 1.1], [1.2, -0.3, 1e300, -0.6]] }), 'v[1][2]'],
  ['a value of 1e400 (beyond double)', articleWith({ v: 'BIG' }).replace('"BIG"', '[[1,1,1,1],[1,1e400,1,1]]'), 'v[1][1]'],
  ['an unknown member', articleWith({ scale: 2 }), 'scale'],
];

for (const [what, stdin, path] of badInputs) {
  test(`--json - refuses ${what}: exit 2, nothing on stdout, one line naming ${path}`, () => {
    const { code, stdout, stderr } = run(['--json', '-'], stdin);
    assert.equal(code, 2, `exit code (stderr: ${stderr})`);
    assert.equal(stdout, '');
    const lines = stderr.split('\n');
    assert.equal(lines.length, 2, `one line on stderr, got ${JSON.stringify(stderr)}`);
    assert.equal(lines[1], '');
    assert.ok(lines[0].includes(`${path}: `), `stderr names ${path}: ${lines[0]}`);
    if (path === 'input' && stdin.trim().startsWith('{')) assert.match(lines[0], /line \d+, column \d+/);
  });
}

test('--json with a file that does not exist: exit 2 naming the file', () => {
  const missing = join(tmpdir(), 'attention-by-hand-no-such-file.json');
  const { code, stdout, stderr } = run(['--json', missing]);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.ok(stderr.includes(missing), stderr);
  assert.equal(stderr.trim().split('\n').length, 1);
  // A line break in the name is written as an escape: the message stays one line.
  const broken = run(['--json', join(tmpdir(), 'no such\nfile.json')]);
  assert.equal(broken.code, 2);
  assert.equal(broken.stderr.trim().split('\n').length, 1, broken.stderr);
  assert.ok(broken.stderr.includes('no such\\nfile.json'), broken.stderr);
});

test('an unknown flag: exit 2 naming the argument out of place, with the usage on stderr', () => {
  for (const [args, named] of [
    [['--bogus'], 'error: unknown argument "--bogus"'],
    [['--json'], 'error: --json needs a FILE (- reads standard input)'],
    [['--json', '-', 'extra'], 'error: unexpected argument "extra" after --json FILE'],
    [['-x', 'y'], 'error: unknown argument "-x"'],
    [['--help', 'me'], 'error: unexpected argument "me" after --help'],
    [['--train'], 'error: --train needs a number of STEPS'],
    [['--train', '5', '--sed', '2'], 'error: unexpected argument "--sed" after --train STEPS'],
    [['--train', '5', '--seed'], 'error: --seed needs a number'],
    [['--train', '5', '--seed', '2', 'x'], 'error: unexpected argument "x" after --train STEPS --seed S'],
    [['--seed', '2'], 'error: --seed goes after --train STEPS'],
    [['\u202e'], 'error: unknown argument "\\u202e"'],
  ]) {
    const { code, stdout, stderr } = run(args);
    assert.equal(code, 2, `args ${args.join(' ')}`);
    assert.equal(stdout, '');
    assert.equal(stderr.split('\n')[0], named, `args ${args.join(' ')}`);
    assert.match(stderr, /usage/);
  }
});
