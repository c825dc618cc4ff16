// What <attention-quantised-cache> shows of quantisedCache's answers: for each bit width the
// bytes a token's key and value take and the error the rounding causes in K, V, the attention
// weights and the output; the same figures with the rotation switched the other way, to see
// what it buys at this head size; and, for one bit width, every table in between (the rotated
// rows, the integer codes and their scales, the rows read back). Every number is the core's.

import { counted, fixed, formatFixed } from '../format.js';
import { renderWorking } from '../step-views.js';
import { formatCount, formatSignificant } from '../sequel-format.js';
import {
  SEQUEL_DECIMALS as D, dotWorking, figureTable, labels, matrixBlock, paragraph, tableGroup,
} from './tables.js';
import { element } from '../page-slots.js';
import { quotedToken } from '../token-text.js';

const sig = (value) => formatSignificant(value, 3);
const errorCell = (figure) => ({ text: sig(figure) });

function levelsTable(doc, registry, cache) {
  const rows = cache.levels.map((level) => ({
    label: `${level.bits} bits`,
    key: `bits-${level.bits}`,
    cells: [
      { text: formatCount(level.levels_each_side) },
      {
        text: formatCount(level.bytes_per_token),
        working: () => ({
          title: `bytes per token of this head\u2019s key and value at ${level.bits} bits`,
          lines: ['2 \u00b7 (\u2308head_dim \u00b7 bits \u00f7 8\u2309 + 4-byte scale)', `2 \u00b7 (\u2308${cache.head_dim} \u00b7 ${level.bits} \u00f7 8\u2309 + 4)`, formatCount(level.bytes_per_token)],
        }),
      },
      errorCell(level.k_error.max_abs),
      errorCell(level.v_error.max_abs),
      errorCell(level.weights_error.max_abs),
      errorCell(level.weights_error.relative),
      errorCell(level.out_error.max_abs),
      errorCell(level.out_error.relative),
    ],
  }));
  return figureTable(doc, registry, {
    name: 'quant-levels',
    caption: `Rotation ${cache.rotation === 'random' ? 'on' : 'off'}: bytes and errors per bit width (head_dim ${cache.head_dim}; `
      + `${formatCount(cache.unquantised_bytes_per_token)} bytes per token unquantised)`,
    corner: 'cache',
    columns: ['levels each side', 'bytes per token', 'K error, largest', 'V error, largest', 'weights error, largest',
      'weights error, relative', 'output error, largest', 'output error, relative'],
    rows,
  });
}

function rotationTable(doc, cache, other) {
  const rotated = cache.rotation === 'random' ? cache : other;
  const plain = cache.rotation === 'random' ? other : cache;
  const rows = rotated.levels.map((level, n) => ({
    label: `${level.bits} bits`,
    key: `bits-${level.bits}`,
    cells: [
      errorCell(level.out_error.relative), errorCell(plain.levels[n].out_error.relative),
      errorCell(level.weights_error.relative), errorCell(plain.levels[n].weights_error.relative),
    ],
  }));
  const table = figureTable(doc, null, {
    name: 'quant-rotation',
    caption: `With and without the rotation (relative errors, head_dim ${cache.head_dim})`,
    corner: 'cache',
    columns: ['output, rotated', 'output, not rotated', 'weights, rotated', 'weights, not rotated'],
    columnKeys: ['out-rotated', 'out-plain', 'weights-rotated', 'weights-plain'],
    rows,
  });
  // Comparing two of the core's figures decides the wording; nothing is computed from them.
  const helped = rotated.levels.filter((level, n) => level.out_error.relative < plain.levels[n].out_error.relative).length;
  const verdict = paragraph(doc, 'verdict rotation-verdict',
    `Here the rotation gives a smaller output error at ${helped} of ${counted(rotated.levels.length, 'bit width', 'bit widths')}. `
    + `With only ${cache.head_dim} coordinates per vector there is little for a rotation to even out; it is meant for real `
    + 'heads of 64 or 128 coordinates, where a few large coordinates would otherwise set a coarse scale for all the rest.');
  verdict.dataset.helped = String(helped);
  verdict.dataset.levels = String(rotated.levels.length);
  const group = tableGroup(doc, { key: 'rotation', title: 'What the rotation buys at this size', tables: [table], working: false });
  group.append(verdict);
  return group;
}

function cacheTables(doc, registry, cache, level, letter) {
  const tokens = cache.reference.tokens;
  const d = cache.head_dim;
  const upper = letter.toUpperCase();
  const rows = level[letter];
  const rotatedRows = cache[`${letter}_rotated`];
  const original = cache.reference[letter];
  const codesWithScale = rows.codes.map((codes, i) => [...codes, rows.scales[i]]);
  return [
    matrixBlock(doc, registry, rotatedRows, {
      name: `quant-${letter}-rotated`, caption: `${upper} \u00b7 R: the rows to store`, corner: 'token',
      rowLabels: tokens, columnLabels: labels('y', d), format: fixed(D.matrix),
      working: (i, c) => dotWorking(`y${c} of ${quotedToken(tokens[i])} = ${letter} \u00b7 R`, original[i], cache.rotation_matrix.map((r) => r[c]), rotatedRows[i][c]),
    }),
    matrixBlock(doc, registry, codesWithScale, {
      name: `quant-${letter}-codes`, caption: `${upper} stored: ${level.bits}-bit codes (\u2212${level.levels_each_side} to ${level.levels_each_side}) and one scale per row`,
      corner: 'token', rowLabels: tokens, columnLabels: [...labels('code', d), 'scale'],
      format: [...Array(d).fill((value) => formatFixed(value, 0)), (value) => formatFixed(value, 4)],
      working: (i, c) => (c === d
        ? { title: `scale of ${quotedToken(tokens[i])}`, lines: [`largest |y| \u00f7 ${level.levels_each_side}`, formatFixed(rows.scales[i], 4)] }
        : { title: `code ${c} of ${quotedToken(tokens[i])}`, lines: [`round(y \u00f7 scale) = round(${formatFixed(rotatedRows[i][c], 3)} \u00f7 ${formatFixed(rows.scales[i], 4)})`, formatFixed(rows.codes[i][c], 0)] }),
    }),
    matrixBlock(doc, registry, rows.restored, {
      name: `quant-${letter}-restored`, caption: `${upper} read back: (code \u00b7 scale) \u00b7 R\u1d40`, corner: 'token',
      rowLabels: tokens, columnLabels: labels(letter, d), format: fixed(D.matrix),
      working: (i, c) => dotWorking(`${letter}${c} of ${quotedToken(tokens[i])} read back`, rows.dequantised[i], cache.rotation_matrix[c], rows.restored[i][c]),
    }),
    matrixBlock(doc, registry, original, {
      name: `quant-${letter}`, caption: `${upper} as computed, for comparison`, corner: 'token',
      rowLabels: tokens, columnLabels: labels(letter, d), format: fixed(D.matrix),
    }),
  ];
}

function levelPart(doc, registry, cache, level) {
  const { reference } = cache;
  const tokens = reference.tokens;
  const masked = (trace) => (i, j) => trace.masked[i][j] === -Infinity;
  const groups = [];
  if (cache.rotation === 'random') {
    groups.push(tableGroup(doc, {
      key: 'rotation-matrix', title: 'The rotation R (orthogonal: R \u00b7 R\u1d40 = I)',
      tables: [matrixBlock(doc, registry, cache.rotation_matrix, {
        name: 'quant-r', caption: `R, a random rotation of ${cache.head_dim} coordinates (seed ${cache.seed})`, corner: '',
        rowLabels: labels('r', cache.head_dim), columnLabels: labels('c', cache.head_dim), format: fixed(D.matrix),
      })],
      working: false,
    }));
  }
  groups.push(tableGroup(doc, { key: 'k', title: 'Keys', tables: cacheTables(doc, registry, cache, level, 'k') }));
  groups.push(tableGroup(doc, { key: 'v', title: 'Values', tables: cacheTables(doc, registry, cache, level, 'v') }));
  groups.push(tableGroup(doc, {
    key: 'effect',
    title: 'What attention does with them',
    tables: [
      matrixBlock(doc, registry, level.trace.weights, {
        name: 'quant-weights', caption: `Weights from the ${level.bits}-bit cache`, corner: 'query \u2193 key \u2192',
        rowLabels: tokens, columnLabels: tokens, format: fixed(D.weight), isMasked: masked(level.trace),
        working: (i, j) => renderWorking(doc, level.trace, { row: i, col: j, of: 'weight' }),
      }),
      matrixBlock(doc, registry, reference.weights, {
        name: 'quant-weights-reference', caption: 'Weights from the unquantised cache', corner: 'query \u2193 key \u2192',
        rowLabels: tokens, columnLabels: tokens, format: fixed(D.weight), isMasked: masked(reference),
      }),
      matrixBlock(doc, registry, level.trace.out, {
        name: 'quant-out', caption: `Output from the ${level.bits}-bit cache`, corner: 'token',
        rowLabels: tokens, columnLabels: labels('o', cache.head_dim), format: fixed(D.out),
      }),
      matrixBlock(doc, registry, reference.out, {
        name: 'quant-out-reference', caption: 'Output from the unquantised cache', corner: 'token',
        rowLabels: tokens, columnLabels: labels('o', cache.head_dim), format: fixed(D.out),
      }),
    ],
  }));
  const part = element(doc, 'div', 'part');
  part.dataset.part = 'level';
  part.dataset.bits = String(level.bits);
  part.append(paragraph(doc, 'part-title', `Every table at ${level.bits} bits, rotation ${cache.rotation === 'random' ? 'on' : 'off'}`), ...groups);
  return part;
}

/**
 * @param {Document} doc
 * @param {import('./working.js').WorkingRegistry} registry
 * @param {object} cache  quantisedCache's answer as asked for
 * @param {object} other  the same with the rotation the other way
 * @param {number} levelBits  the bit width whose tables are shown
 * @returns {Node[]}
 */
export function renderQuantisedCache(doc, registry, cache, other, levelBits) {
  const level = cache.levels.find((entry) => entry.bits === levelBits) ?? cache.levels[0];
  const source = cache.source?.kind === 'seeded_head'
    ? `Head ${cache.source.head} of the seeded layer (d_model ${cache.source.d_model}, ${counted(cache.source.n_heads, 'head', 'heads')}, seed ${cache.source.seed}). `
    : '';
  return [
    paragraph(doc, 'intro', `${source}The scheme: ${cache.scheme}.`),
    tableGroup(doc, { key: 'levels', title: 'Bits against error', tables: [levelsTable(doc, registry, cache)] }),
    rotationTable(doc, cache, other),
    levelPart(doc, registry, cache, level),
  ];
}
