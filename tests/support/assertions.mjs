// Assertions the suites of the module's API share.
import assert from 'node:assert/strict';

// Nested arrays of numbers equal within `tolerance` relative to (1 + |expected|); -Infinity
// only where -Infinity is expected.
export function assertClose(actual, expected, tolerance, what) {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${what}: expected an array, got ${actual}`);
    assert.equal(actual.length, expected.length, `${what}: length`);
    expected.forEach((x, i) => assertClose(actual[i], x, tolerance, `${what}[${i}]`));
    return;
  }
  if (expected === -Infinity) {
    assert.equal(actual, -Infinity, what);
    return;
  }
  assert.ok(Math.abs(actual - expected) <= tolerance * (1 + Math.abs(expected)),
    `${what} = ${actual}, float64 says ${expected}`);
}

// call() throws one line, an Error whose message starts with the path at fault (and mentions
// `fragment`, when given).
export function assertThrowsNaming(call, path, fragment) {
  assert.throws(call, (error) => {
    assert.ok(error instanceof Error, `an Error, got ${error}`);
    assert.ok(error.message.startsWith(`${path}: `), `message starts with "${path}: ": ${error.message}`);
    assert.ok(!error.message.includes('\n'), 'one line');
    if (fragment) assert.ok(error.message.includes(fragment), `"${error.message}" mentions "${fragment}"`);
    return true;
  });
}
