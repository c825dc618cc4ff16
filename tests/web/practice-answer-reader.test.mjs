// Reading a typed answer (web/practice/answer-reader.js): every typing variant of a number is
// read as that number, everything else is refused with a message saying what is accepted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACCEPTED_FORMS, MAX_ANSWER_LENGTH, readAnswer } from '../../web/practice/answer-reader.js';

function accepted(text, value, decimals = null) {
  const result = readAnswer(text);
  assert.equal(result.ok, true, `${JSON.stringify(text)} should be read: ${result.message}`);
  assert.equal(result.value, value, `${JSON.stringify(text)} reads as ${value}`);
  assert.equal(result.decimals, decimals, `${JSON.stringify(text)}: decimals typed`);
  return result;
}

function refused(text, reason, fragment) {
  const result = readAnswer(text);
  assert.equal(result.ok, false, `${JSON.stringify(text)} should be refused, read as ${result.value}`);
  assert.equal(result.reason, reason, `${JSON.stringify(text)}: ${result.message}`);
  assert.ok(result.message.endsWith(`Accepted: ${ACCEPTED_FORMS}.`), `says what is accepted: ${result.message}`);
  if (fragment) assert.ok(result.message.includes(fragment), `${result.message} mentions ${fragment}`);
  assert.ok(!result.message.includes('\n'), 'one line');
  return result;
}

describe('readAnswer accepts a number however it is typed', () => {
  it('reads plain decimals and counts the decimals typed', () => {
    accepted('0.595', 0.595, 3);
    accepted('3', 3, 0);
    accepted('0.60', 0.6, 2);
    accepted('.5', 0.5, 1);
    accepted('5.', 5, 0);
    accepted('+0.25', 0.25, 2);
  });

  it('ignores surrounding and inner spaces of every width', () => {
    accepted('  0.5 ', 0.5, 1);
    accepted('\u2212 0.5', -0.5, 1);
    accepted('- 0.5', -0.5, 1);
    accepted('\u00a00.25\u202f', 0.25, 2);
    accepted('\t1.5\n', 1.5, 1);
  });

  it('reads every dash a keyboard or phone produces as a minus', () => {
    for (const dash of ['-', '\u2212', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\ufe63', '\uff0d', '\u02d7']) {
      accepted(`${dash}0.75`, -0.75, 2);
    }
    accepted('\uff0b0.75', 0.75, 2);
  });

  it('reads a decimal comma', () => {
    accepted('0,5', 0.5, 1);
    accepted('\u22120,125', -0.125, 3);
    accepted('1,23', 1.23, 2);
    accepted('2,5000', 2.5, 4);
  });

  it('reads digits grouped in threes by spaces, as the bill prints bytes', () => {
    accepted('1 234', 1234, 0);
    accepted('1\u202f073\u202f741\u202f824', 1073741824, 0);
    accepted('\u2212 1 234,5', -1234.5, 1);
    accepted('12 345.25', 12345.25, 2);
  });

  it('reads fullwidth digits', () => {
    accepted('\uff12.\uff15', 2.5, 1);
  });

  it('reads exponent forms as exact values', () => {
    assert.equal(accepted('1e-3', 0.001).form, 'exponent');
    accepted('1E-3', 0.001);
    accepted('\u22122.5e+2', -250);
    accepted('1.5 \u00d7 10^-3', 0.0015);
    accepted('1.5\u00b710\u207b\u00b3', 0.0015);
    accepted('5.96 \u00d7 10\u207b\u2078', 5.96e-8);
    accepted('3e+21', 3e21);
  });

  it('reads a fraction of two numbers', () => {
    assert.equal(accepted('1/2', 0.5).form, 'fraction');
    accepted('\u22123/4', -0.75);
    accepted('3 / \u22124', -0.75);
    accepted('1.5/3', 0.5);
    accepted('1\u00f74', 0.25);
    accepted('1\u20444', 0.25);
  });

  it('reads the infinities a masked score is written as', () => {
    for (const text of ['\u2212\u221e', '-\u221e', '-inf', '-Infinity', '\u2212 INF', '- infinity']) {
      assert.equal(accepted(text, -Infinity).form, 'infinity');
    }
    accepted('\u221e', Infinity);
    accepted('+inf', Infinity);
  });
});

describe('readAnswer refuses what is not one number, saying why', () => {
  it('refuses nothing typed', () => {
    refused('', 'empty');
    refused('   ', 'empty');
    refused('\u00a0\u202f', 'empty');
    refused(undefined, 'empty');
  });

  it('refuses expressions', () => {
    for (const text of ['0.3*2', '1+2', '1 + 2', 'e^0.5', '2(3)', '0.5\u00d72', '2^3', '1/2/3', 'exp(0.5)', '--1', '1-2', '3*10']) {
      refused(text, 'expression', 'work it out');
    }
  });

  it('refuses a division by zero', () => {
    refused('1/0', 'division-by-zero', 'divides by zero');
    refused('\u22123/0.0', 'division-by-zero');
  });

  it('refuses separators that leave the number ambiguous, and says why', () => {
    refused('1,234.5', 'ambiguous', 'both a comma and a point');
    refused('1.234,5', 'ambiguous', 'thousands separator');
    refused('1,234,567', 'ambiguous', 'more than one comma');
    const comma = refused('1,234', 'ambiguous', '1.234');
    assert.ok(comma.message.includes('1234'), comma.message);
    refused('\u221212,345', 'ambiguous', '\u221212.345');
    refused('12 34', 'ambiguous', 'space inside the number');
    refused('1 2', 'ambiguous');
    refused('1 234 5', 'ambiguous');
    refused('0. 5', 'ambiguous');
  });

  it('refuses words and stray signs', () => {
    for (const text of ['abc', 'half', 'NaN', '-', '.', '1e', 'five apples', '0x10', '∞∞']) refused(text, 'not-a-number');
    refused('1e999', 'not-a-number', 'too large');
  });

  it('refuses text longer than any number needs, before reading it', () => {
    refused('1'.repeat(MAX_ANSWER_LENGTH + 1), 'too-long');
    accepted(`0.${'5'.repeat(MAX_ANSWER_LENGTH - 2)}`, Number(`0.${'5'.repeat(MAX_ANSWER_LENGTH - 2)}`), MAX_ANSWER_LENGTH - 2);
  });

  it('never reads a typing variant as a different number from the plain form', () => {
    const variants = [['\u22120,5', '-0.5'], [' + 0.25 ', '0.25'], ['\u2013 3/4', '-0.75'], ['1,5e-3', '0.0015']];
    for (const [variant, plain] of variants) {
      assert.equal(readAnswer(variant).value, readAnswer(plain).value, `${variant} and ${plain}`);
    }
  });
});
