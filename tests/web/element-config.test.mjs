// The elements' configuration reading (web/element-config.js), in plain Node: attribute text,
// typed cell values, and how the core's error paths are reworded in
// terms of the attribute an author wrote.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CORE_CHOICES, ConfigError, DEFAULT_STEPS, STEPS, describeInputError, formatMatrix, formatTokens, parseIndex,
  parseCoreChoice, parseMatrix, parseNumberText, parseSteps, parseTokens, resolveIndex,
} from '../../web/elements/element-config.js';

function assertConfigError(fn, attribute, pattern) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof ConfigError, `a ConfigError, got ${error}`);
    assert.equal(error.attribute, attribute);
    assert.ok(error.message.startsWith(`${attribute} attribute: `), error.message);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes('\n'), 'one line');
    assert.ok(error.message.length < 200, `short: ${error.message}`);
    return true;
  });
}

describe('parseTokens', () => {
  it('splits words on any white space and keeps their text as it is', () => {
    assert.deepEqual(parseTokens('the cat'), ['the', 'cat']);
    assert.deepEqual(parseTokens('  the\n\tcat  sat '), ['the', 'cat', 'sat']);
    assert.deepEqual(parseTokens('<img src=x onerror=alert(1)>'), ['<img', 'src=x', 'onerror=alert(1)>']);
    assert.deepEqual(parseTokens('Ünïcødé 猫'), ['Ünïcødé', '猫']);
    assert.deepEqual(parseTokens('   '), [], 'the core then says a token is needed');
  });

  it('reads a JSON list of strings, for tokens that hold spaces', () => {
    assert.deepEqual(parseTokens('["New York", "is"]'), ['New York', 'is']);
    assert.deepEqual(parseTokens('["<img src=x onerror=alert(1)>"]'), ['<img src=x onerror=alert(1)>']);
    assertConfigError(() => parseTokens('["a", 2]'), 'tokens', /only strings/);
    assertConfigError(() => parseTokens('["a"'), 'tokens', /not a JSON list/);
  });

  it('formatTokens writes what parseTokens reads back', () => {
    for (const tokens of [['the', 'cat'], ['New York', 'is'], ['[x]', 'y'], ['']]) {
      assert.deepEqual(parseTokens(formatTokens(tokens)), tokens);
    }
    assert.equal(formatTokens(['the', 'cat']), 'the cat');
  });
});

describe('parseMatrix', () => {
  it('reads a JSON array of rows', () => {
    assert.deepEqual(parseMatrix('q', '[[0.3, -0.2], [1.1, -8e-1]]'), [[0.3, -0.2], [1.1, -0.8]]);
    assert.deepEqual(parseMatrix('q', ' [ [1] ,[ 2 ] ] '), [[1], [2]]);
    assert.deepEqual(parseMatrix('q', '[]'), []);
  });

  it('lets NaN and infinities through, so that the core names their cell', () => {
    const m = parseMatrix('k', '[[NaN, Infinity], [-Infinity, 1]]');
    assert.ok(Number.isNaN(m[0][0]));
    assert.equal(m[0][1], Infinity);
    assert.equal(m[1][0], -Infinity);
  });

  it('keeps ragged rows and strange nesting for the core to judge', () => {
    assert.deepEqual(parseMatrix('v', '[[1,2],[3]]'), [[1, 2], [3]]);
    assert.deepEqual(parseMatrix('v', '[1,2]'), [1, 2]);
    assert.deepEqual(parseMatrix('v', '[[[1]]]'), [[[1]]]);
  });

  it('says where the JSON goes wrong, naming the attribute', () => {
    assertConfigError(() => parseMatrix('q', '[[1, 2]'), 'q', /expected "," or "]" at character 8, the text ends/);
    assertConfigError(() => parseMatrix('q', '[[1, x]]'), 'q', /expected a number or "\[" at character 6, found "x\]\]"/);
    assertConfigError(() => parseMatrix('k', '1, 2'), 'k', /expected "\[" at character 1/);
    assertConfigError(() => parseMatrix('k', ''), 'k', /the text ends/);
    assertConfigError(() => parseMatrix('v', '[[1]] x'), 'v', /expected nothing more at character 7/);
    assertConfigError(() => parseMatrix('v', '[["1"]]'), 'v', /expected a number/);
    assertConfigError(() => parseMatrix('v', '[[01]]'), 'v', /expected "," or "]"/);
    assertConfigError(() => parseMatrix('q', '[[[[1]]]]'), 'q', /expected a number at character 4/);
  });

  it('formatMatrix writes what parseMatrix reads back', () => {
    const m = [[0.3, -0.2, 1e-7], [NaN, -Infinity, 12345.678]];
    const back = parseMatrix('q', formatMatrix(m));
    assert.deepEqual(back.map((r) => r.map(String)), m.map((r) => r.map(String)));
  });
});

describe('parseSteps', () => {
  it('reads names separated by commas or spaces, once each', () => {
    assert.deepEqual(parseSteps('scores,masked,weights,out'), ['scores', 'masked', 'weights', 'out']);
    assert.deepEqual(parseSteps(' q, k  v,q '), ['q', 'k', 'v']);
    assert.ok(DEFAULT_STEPS.every((step) => STEPS.includes(step)));
  });

  it('refuses an unknown step or an empty list, listing the steps', () => {
    assertConfigError(() => parseSteps('scores,softmaxx'), 'steps', /unknown step "softmaxx"; the steps are q, k, v, scores/);
    assertConfigError(() => parseSteps(' , '), 'steps', /names no step/);
    assertConfigError(() => parseSteps('weights,<b>', { attribute: 'step' }), 'step', /unknown step "<b>"/);
  });
});

describe('parseIndex and resolveIndex', () => {
  it('reads a token position and resolves negatives from the end', () => {
    assert.equal(parseIndex('row', ' 2 '), 2);
    assert.equal(resolveIndex('row', parseIndex('row', '-1'), 4, 0), 3);
    assert.equal(resolveIndex('row', null, 4, 3), 3);
    assert.equal(resolveIndex('col', 0, 1, 0), 0);
  });

  it('names the attribute when the position is not one', () => {
    assertConfigError(() => parseIndex('row', 'last'), 'row', /"last" is not a whole number/);
    assertConfigError(() => parseIndex('col', '1.5'), 'col', /not a whole number/);
    assertConfigError(() => resolveIndex('row', 4, 4, 0), 'row', /no token 4: the tokens are numbered 0 to 3/);
    assertConfigError(() => resolveIndex('col', -5, 4, 0), 'col', /no token -5/);
  });
});

describe('parseNumberText', () => {
  it('reads what a reader types', () => {
    const cases = [['0.5', 0.5], [' -1.25 ', -1.25], ['\u22120.8', -0.8], ['+3', 3], ['.5', 0.5], ['-.5', -0.5],
      ['1.', 1], ['1e-3', 0.001], ['2E2', 200], ['0,75', 0.75], ['\u22120,5', -0.5], ['1e15', 1e15]];
    for (const [text, value] of cases) assert.equal(parseNumberText(text), value, text);
  });

  it('refuses anything that is not one finite number', () => {
    for (const text of ['', ' ', '-', '.', 'abc', '1.2.3', '1 2', 'NaN', 'Infinity', '1e999', '0x10', '1,2,3', '--1', '1e']) {
      assert.equal(parseNumberText(text), null, JSON.stringify(text));
    }
  });
});

describe('describeInputError', () => {
  it('rewords the core\u2019s path as the attribute, counting rows and columns from 1', () => {
    const cell = describeInputError('q[1][3]: must be a finite number, got "NaN"');
    assert.deepEqual(cell, {
      attribute: 'q', path: 'q[1][3]', detail: 'must be a finite number, got "NaN"',
      text: 'q attribute, row 2, column 4: must be a finite number, got "NaN"',
    });
    assert.equal(describeInputError('k[0]: has 3 values but q[0] has 4 (head_dim)').text,
      'k attribute, row 1: has 3 values but q[0] has 4 (head_dim)');
    assert.equal(describeInputError('tokens[1]: must not be empty').text, 'tokens attribute, token 2: must not be empty');
    assert.equal(describeInputError('tokens: has 65 tokens; the limit is 64').attribute, 'tokens');
    assert.equal(describeInputError('mask: must be "causal" or "none", got "diag"').text,
      'mask attribute: must be "causal" or "none", got "diag"');
  });

  it('says when the field at fault was not set (the article\u2019s value was used)', () => {
    const problem = describeInputError('q: has 2 rows but there are 3 tokens (one row per token)', {
      configured: (field) => field === 'tokens',
    });
    assert.equal(problem.attribute, 'q');
    assert.match(problem.text, /^q attribute: has 2 rows but there are 3 tokens .*q is not set, so the article's example is used/);
  });

  it('keeps a message it cannot place as a configuration problem', () => {
    assert.equal(describeInputError('input: must be an object').attribute, 'configuration');
    assert.equal(describeInputError('something odd').text, 'configuration: something odd');
  });
});

describe('parseCoreChoice', () => {
  it('reads the core attribute: absent is the embed build, "full" the build createAttention() loads', () => {
    assert.equal(parseCoreChoice(null), CORE_CHOICES.embed);
    assert.equal(parseCoreChoice('embed'), 'embed');
    assert.equal(parseCoreChoice(' full '), 'simd');
  });

  it('names the attribute and the value it cannot read', () => {
    assertConfigError(() => parseCoreChoice('fast'), 'core', /must be "embed" or "full", got "fast"/);
    assertConfigError(() => parseCoreChoice(''), 'core', /got ""/);
  });
});
