// What <attention-flash-tiles> shows of flashTiles' answer: the grid of scores cut into tiles
// (skipped tiles marked), then every tile in the order FlashAttention visits it with its scores,
// the running max, the rescale factor, the running sum and the partial output, and at the end
// the tiled output next to the untiled one at the same printed precision. Every number is the
// core's; the workings only set its numbers side by side.

import { counted, fixed, formatCompact, formatFixed, formatProduct, NEG_INFINITY } from '../format.js';
import { formatSignificant } from '../sequel-format.js';
import { WORKING_HINT, labels, listWords, matrixBlock, paragraph, tableGroup } from './tables.js';
import { element } from '../page-slots.js';
import { WorkingRegistry } from './working.js';
import { quotedToken } from '../token-text.js';

const RUNNING_COLUMNS = ['tile max', 'm before', 'm after', 'rescale', 'l before', 'l after'];

function span(tokens, begin, end) {
  const slice = tokens.slice(begin, end);
  return slice.length === 1 ? `\u201c${slice[0]}\u201d` : `\u201c${slice[0]}\u201d to \u201c${slice.at(-1)}\u201d`;
}

function tileMap(doc, f, registry) {
  const name = Array.from({ length: f.token_count }, () => Array(f.token_count).fill(''));
  const kind = Array.from({ length: f.token_count }, () => Array(f.token_count).fill(''));
  f.steps.forEach((step) => {
    for (let i = step.row_begin; i < step.row_end; i += 1) {
      for (let j = step.col_begin; j < step.col_end; j += 1) {
        name[i][j] = step.skipped ? 'skipped' : `Q${step.query_tile}\u00b7K${step.key_tile}`;
        const parity = (step.query_tile + step.key_tile) % 2 === 0 ? 'tile-even' : 'tile-odd';
        const hidden = !step.skipped && step.scores[i - step.row_begin][j - step.col_begin] === -Infinity;
        kind[i][j] = step.skipped ? 'skipped' : hidden ? `${parity} masked` : parity;
      }
    }
  });
  const block = matrixBlock(doc, registry, name, {
    name: 'tile-map',
    caption: `The ${f.token_count} \u00d7 ${f.token_count} scores in tiles of ${counted(f.block_rows, 'query', 'queries')} \u00d7 ${counted(f.block_cols, 'key', 'keys')}`,
    className: 'tile-map',
    corner: 'query \u2193 key \u2192',
    rowLabels: f.tokens,
    columnLabels: f.tokens,
    format: (value) => value,
  });
  for (const cell of block.querySelectorAll('tbody td[data-row][data-col]')) {
    const classes = kind[Number(cell.dataset.row)][Number(cell.dataset.col)].split(' ').filter(Boolean);
    cell.classList.add(...classes);
    if (classes.includes('skipped')) {
      cell.dataset.skipped = 'true';
      cell.append(element(doc, 'span', 'visually-hidden', ', never loaded'));
    } else if (classes.includes('masked')) {
      cell.dataset.masked = 'true';
      cell.append(element(doc, 'span', 'visually-hidden', ', hidden by the mask'));
    }
  }
  return block;
}

function stepCard(doc, registry, f, step, index, previousOut) {
  const card = element(doc, 'section', step.skipped ? 'step-card skipped-step' : 'step-card working-host');
  card.dataset.step = String(index);
  card.dataset.skipped = String(step.skipped);
  card.setAttribute('part', 'step');
  const title = element(doc, 'h4', undefined,
    `Tile ${index + 1} (Q${step.query_tile}\u00b7K${step.key_tile}): queries ${span(f.tokens, step.row_begin, step.row_end)}, `
    + `keys ${span(f.tokens, step.col_begin, step.col_end)}`);
  card.append(title);
  if (step.skipped) {
    card.append(paragraph(doc, 'skip-note', 'Skipped. Every key of this tile comes after every query of it, so the causal '
      + 'mask would hide the whole tile: it is never loaded and nothing is computed for it.'));
    return card;
  }
  const d = 4;
  const queries = f.tokens.slice(step.row_begin, step.row_end);
  const keys = f.tokens.slice(step.col_begin, step.col_end);
  const f4 = (value) => formatFixed(value, d);
  const row = (r) => step.row_begin + r;
  const col = (c) => step.col_begin + c;
  const running = step.tile_max.map((_, r) => [
    step.tile_max[r], step.max_before[r], step.max_after[r], step.rescale[r], step.sum_before[r], step.sum_after[r],
  ]);
  const runningWorking = (r, c) => {
    const token = queries[r];
    switch (c) {
      case 2: return {
        title: `running max of ${quotedToken(token)} after this tile`,
        lines: [`max(m before, tile max) = max(${f4(step.max_before[r])}, ${f4(step.tile_max[r])})`, f4(step.max_after[r])],
      };
      case 3: return step.max_before[r] === -Infinity
        ? { title: `rescale factor of ${quotedToken(token)}`, lines: [`e^(${NEG_INFINITY} \u2212 ${f4(step.max_after[r])}): nothing was added up before this tile`, f4(step.rescale[r])] }
        : { title: `rescale factor of ${quotedToken(token)}`, lines: [`e^(m before \u2212 m after) = e^(${f4(step.max_before[r])} \u2212 ${f4(step.max_after[r])})`, f4(step.rescale[r])] };
      case 5: return {
        title: `running sum of ${quotedToken(token)} after this tile`,
        lines: [`l before \u00b7 rescale + this tile\u2019s exponentials = ${f4(step.sum_before[r])} \u00b7 ${f4(step.rescale[r])} + `
          + step.exponentials[r].map(f4).join(' + '), f4(step.sum_after[r])],
      };
      default: return null;
    }
  };
  const tables = [
    matrixBlock(doc, registry, step.scores, {
      name: `tile-${index}-scores`, caption: `Scores of tile ${index + 1}: q \u00b7 k \u00f7 ${formatCompact(f.scale_divisor, 3)}`,
      corner: 'query \u2193 key \u2192', rowLabels: queries, columnLabels: keys, format: fixed(d),
      isMasked: (r, c) => step.scores[r][c] === -Infinity,
      working: (r, c) => (step.scores[r][c] === -Infinity
        ? { title: `score of \u201c${queries[r]}\u201d on \u201c${keys[c]}\u201d`, lines: [`\u201c${keys[c]}\u201d comes after \u201c${queries[r]}\u201d: hidden by the causal mask`, NEG_INFINITY] }
        : {
          title: `score of \u201c${queries[r]}\u201d on \u201c${keys[c]}\u201d`,
          lines: [`(${f.q[row(r)].map((x, k) => formatProduct(x, f.k[col(c)][k], 3)).join(' + ')}) \u00f7 ${formatCompact(f.scale_divisor, 3)}`, f4(step.scores[r][c])],
        }),
    }),
    matrixBlock(doc, registry, running, {
      name: `tile-${index}-running`, caption: `Running max m, rescale factor and running sum l, tile ${index + 1}`,
      corner: 'query', rowLabels: queries, columnLabels: RUNNING_COLUMNS, format: fixed(d), working: runningWorking,
    }),
    matrixBlock(doc, registry, step.exponentials, {
      name: `tile-${index}-exp`, caption: `e^(score \u2212 m after), tile ${index + 1}`,
      corner: 'query \u2193 key \u2192', rowLabels: queries, columnLabels: keys, format: fixed(d),
      isMasked: (r, c) => step.scores[r][c] === -Infinity,
      working: (r, c) => ({
        title: `e^(score \u2212 m after) of \u201c${queries[r]}\u201d on \u201c${keys[c]}\u201d`,
        lines: [step.scores[r][c] === -Infinity ? `e^(${NEG_INFINITY})` : `e^(${f4(step.scores[r][c])} \u2212 ${f4(step.max_after[r])})`, f4(step.exponentials[r][c])],
      }),
    }),
    matrixBlock(doc, registry, step.partial_out, {
      name: `tile-${index}-out`, caption: `Partial output O (not yet divided by l), tile ${index + 1}`,
      corner: 'query', rowLabels: queries, columnLabels: labels('o', f.head_dim), format: fixed(d),
      working: (r, c) => {
        const before = previousOut[row(r)];
        const carried = before === null ? '0' : `${f4(before[c])} \u00b7 ${f4(step.rescale[r])}`;
        const added = step.exponentials[r].map((p, j) => formatProduct(p, f.v[col(j)][c], d)).join(' + ');
        return {
          title: `partial output ${c} of \u201c${queries[r]}\u201d`,
          lines: [`O before \u00b7 rescale + e^(score \u2212 m) \u00b7 v = ${carried} + ${added}`, f4(step.partial_out[r][c])],
        };
      },
    }),
  ];
  const row_ = element(doc, 'div', 'tables');
  row_.append(...tables);
  card.append(row_);
  card.append(WorkingRegistry.panel(doc, WORKING_HINT));
  return card;
}

/**
 * @param {Document} doc
 * @param {import('./working.js').WorkingRegistry} registry
 * @param {object} f  flashTiles' answer
 * @returns {Node[]}
 */
export function renderFlashTiles(doc, registry, f) {
  const intro = paragraph(doc, 'intro',
    `${counted(f.token_count, 'token', 'tokens')}, head_dim ${f.head_dim}, mask \u201c${f.mask}\u201d: ${counted(f.query_tiles, 'query tile', 'query tiles')} `
    + `of ${f.block_rows} \u00d7 ${counted(f.key_tiles, 'key tile', 'key tiles')} of ${f.block_cols}; `
    + `${f.computed_tiles} computed, ${f.skipped_tiles} skipped.`);
  const source = f.source?.kind === 'seeded_head'
    ? paragraph(doc, 'note', `Q, K and V are head ${f.source.head} of the seeded layer (d_model ${f.source.d_model}, ${counted(f.source.n_heads, 'head', 'heads')}, seed ${f.source.seed}).`)
    : paragraph(doc, 'note', 'Q, K and V as given.');
  const map = tableGroup(doc, { key: 'tiles', title: 'The tiles', tables: [tileMap(doc, f, registry)], working: false });

  // The partial output each query row carried into a step: the row's last computed tile before it.
  const carried = Array(f.token_count).fill(null);
  const steps = element(doc, 'div', 'part');
  steps.dataset.part = 'steps';
  steps.append(paragraph(doc, 'part-title', 'Tile by tile, in the order they are visited'));
  f.steps.forEach((step, index) => {
    steps.append(stepCard(doc, registry, f, step, index, [...carried]));
    if (step.skipped) return;
    for (let r = 0; r < step.row_end - step.row_begin; r += 1) carried[step.row_begin + r] = step.partial_out[r];
  });

  const decimals = f.decimals;
  const finalRows = f.tokens.map((_, i) => [f.row_max[i], f.row_sum[i]]);
  const final = tableGroup(doc, {
    key: 'final',
    title: 'After the last tile: out = O \u00f7 l, and the untiled answer',
    tables: [
      matrixBlock(doc, registry, finalRows, {
        name: 'flash-final', caption: 'Final running max m and sum l of each query', corner: 'query',
        rowLabels: f.tokens, columnLabels: ['m', 'l'], format: fixed(4),
      }),
      matrixBlock(doc, registry, f.out, {
        name: 'flash-out', caption: `Tiled output O \u00f7 l (${decimals} decimals)`, corner: 'query',
        rowLabels: f.tokens, columnLabels: labels('o', f.head_dim), format: fixed(decimals),
        working: (i, c) => ({
          title: `tiled output ${c} of ${quotedToken(f.tokens[i])}`,
          lines: [`O \u00f7 l = ${formatFixed(carried[i][c], 4)} \u00f7 ${formatFixed(f.row_sum[i], 4)}`, formatFixed(f.out[i][c], decimals)],
        }),
      }),
      matrixBlock(doc, registry, f.untiled_out, {
        name: 'flash-untiled', caption: `Untiled output, softmax(scores) \u00b7 V (${decimals} decimals)`, corner: 'query',
        rowLabels: f.tokens, columnLabels: labels('o', f.head_dim), format: fixed(decimals),
      }),
    ],
  });
  const verdict = paragraph(doc, f.agrees_to_decimals ? 'verdict' : 'verdict differs',
    f.agrees_to_decimals
      ? `Every number of the tiled output prints exactly as the untiled one at ${decimals} decimals. `
      : `Some numbers of the tiled output print differently from the untiled ones at ${decimals} decimals. `,
    `The largest difference before rounding is ${formatSignificant(f.max_abs_difference)}, float rounding from adding in another order.`);
  verdict.dataset.agrees = String(f.agrees_to_decimals);
  final.append(verdict);
  const skippedList = f.steps.filter((step) => step.skipped).map((step) => `Q${step.query_tile}\u00b7K${step.key_tile}`);
  if (skippedList.length > 0) {
    map.append(paragraph(doc, 'note', `Hatched \u201cskipped\u201d tiles (${listWords(skippedList)}) lie wholly above the diagonal: `
      + 'the causal mask hides them, so FlashAttention never loads them. Hatched cells inside a computed tile are hidden one by one.'));
  }
  return [intro, source, map, steps, final];
}
