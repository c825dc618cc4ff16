// What <attention-variant> shows of one layer the core ran (groupedAttention for MHA, GQA and
// MQA, latentAttention for MLA): which query heads share which K/V head, what the cache keeps,
// the projection tables, each head's queries, weights and output, the layer's output, and the
// bill of its cache. Every number is the core's; the workings only lay its numbers out.

import { counted, fixed, formatFixed, formatProduct, formatSignedTerms } from '../format.js';
import { renderWorking } from '../step-views.js';
import { billRows } from './bill-view.js';
import { formatCount } from '../sequel-format.js';
import {
  SEQUEL_DECIMALS as D, dotWorking, figureTable, labels, listWords, matrixBlock, paragraph, tableGroup,
} from './tables.js';
import { element } from '../page-slots.js';
import { tokenText } from '../token-text.js';

const isMasked = (trace) => (i, j) => trace.masked[i][j] === -Infinity;

const columnOf = (matrix, c) => matrix.map((row) => row[c]);

/** out[i][c] of one head: the weighted values added up (the core's products). */
function headOutWorking(trace, i, c) {
  const visible = trace.tokens.map((_, j) => j).filter((j) => trace.masked[i][j] !== -Infinity);
  return {
    title: `output ${c} of ${tokenText(trace.tokens[i])}: weight \u00d7 value, added up`,
    lines: [
      visible.map((j) => formatProduct(trace.weights[i][j], trace.v[j][c], 3)).join(' + '),
      formatSignedTerms(visible.map((j) => trace.weighted_values[i][j][c]), D.out),
      formatFixed(trace.out[i][c], D.out),
    ],
  };
}

function xTable(doc, registry, layer) {
  return matrixBlock(doc, registry, layer.x, {
    name: 'x', caption: `X \u00b7 the token vectors (d_model ${layer.d_model})`, corner: 'token',
    rowLabels: layer.tokens, columnLabels: labels('x', layer.d_model), format: fixed(D.matrix),
  });
}

function projectionWorking(layer, weights, what, letter) {
  return (i, c, result) => dotWorking(`${letter}${c} of ${tokenText(layer.tokens[i])} = ${what}`, layer.x[i], columnOf(weights, c), result);
}

function sharingPart(doc, layer) {
  const rows = layer.heads.map((head, h) => ({
    label: `query head ${h}`,
    key: `q${h}`,
    cells: [
      { text: String(head.kv_head) },
      { text: listWords(layer.kv_heads[head.kv_head].query_heads.filter((other) => other !== h)) || 'none', number: false },
    ],
  }));
  const table = figureTable(doc, null, {
    name: 'sharing',
    caption: `Which K/V head each query head reads (${layer.variant})`,
    corner: 'query head',
    columns: ['reads K/V head', 'shares it with query heads'],
    rows,
  });
  return tableGroup(doc, { key: 'sharing', title: 'What is shared', tables: [table], working: false });
}

// "this key table and this value table are", "these 2 key tables and 2 value tables are": one
// K and one V per K/V head, so MQA's single head keeps exactly two tables.
function keptTables(kvHeads) {
  if (kvHeads === 1) return 'this key table and this value table are';
  const count = formatCount(kvHeads);
  return `these ${count} key tables and ${count} value tables are`;
}

function groupedCachePart(doc, registry, layer) {
  const groups = layer.kv_heads.map((kv, g) => {
    const readers = `read by query head${kv.query_heads.length === 1 ? '' : 's'} ${listWords(kv.query_heads)}`;
    const tables = ['k', 'v'].map((letter) => matrixBlock(doc, registry, kv[letter], {
      name: `cache-${letter}-${g}`,
      caption: `${letter.toUpperCase()} of K/V head ${g} = X \u00b7 W_${letter.toUpperCase()}[${g}] (cached)`,
      corner: 'token', rowLabels: layer.tokens, columnLabels: labels(letter, layer.head_dim), format: fixed(D.matrix),
      working: (i, c) => projectionWorking(layer, kv[`w_${letter}`], `x \u00b7 W_${letter.toUpperCase()}[${g}]`, letter)(i, c, kv[letter][i][c]),
    }));
    const title = [`K/V head ${g}`, element(doc, 'span', 'badge', 'cached'), ` ${readers}`];
    return tableGroup(doc, { className: 'head-group', key: `kv-${g}`, title, tables });
  });
  const part = element(doc, 'div', 'part');
  part.dataset.part = 'cache';
  part.append(paragraph(doc, 'part-title', 'What is cached'),
    paragraph(doc, 'note', `While generating, only ${keptTables(layer.n_kv_heads)} kept: `
      + `${counted(layer.bill.cached_values_per_token_per_layer, 'number', 'numbers', formatCount)} per token. The queries are used once and thrown away.`),
    ...groups);
  return part;
}

function latentCachePart(doc, registry, layer) {
  const table = matrixBlock(doc, registry, layer.latent, {
    name: 'latent', caption: `C = X \u00b7 W_DKV: the latent (d_latent ${layer.d_latent}), cached`,
    corner: 'token', rowLabels: layer.tokens, columnLabels: labels('c', layer.d_latent), format: fixed(D.matrix),
    working: (i, l) => dotWorking(`c${l} of ${tokenText(layer.tokens[i])} = x \u00b7 W_DKV`, layer.x[i], columnOf(layer.w_dkv, l), layer.latent[i][l]),
  });
  const note = paragraph(doc, 'note', `Per token the cache keeps ${counted(layer.bill.cached_values_per_token_per_layer, 'number', 'numbers', formatCount)}, `
    + 'the latent row, whatever the number of heads; every head rebuilds its keys and values from it.');
  const pe = paragraph(doc, 'note positional', `Positional encoding is ${layer.positional_encoding}.`);
  return tableGroup(doc, { key: 'cache', title: 'What is cached', tables: [table], notes: [note, pe] });
}

function weightTable(doc, registry, matrix, { name, caption, rowPrefix, colPrefix }) {
  return matrixBlock(doc, registry, matrix, {
    name, caption, corner: '', rowLabels: labels(rowPrefix, matrix.length),
    columnLabels: labels(colPrefix, matrix[0]?.length ?? 0), format: fixed(2),
  });
}

function weightTables(doc, registry, layer) {
  const tables = [];
  if (layer.variant === 'MLA') {
    tables.push(weightTable(doc, registry, layer.w_dkv, { name: 'w-dkv', caption: 'W_DKV: the down-projection to the latent', rowPrefix: 'x', colPrefix: 'c' }));
    layer.heads.forEach((head, h) => {
      tables.push(weightTable(doc, registry, head.w_uk, { name: `w-uk-${h}`, caption: `W_UK[${h}]: latent to keys of head ${h}`, rowPrefix: 'c', colPrefix: 'k' }));
      tables.push(weightTable(doc, registry, head.w_uv, { name: `w-uv-${h}`, caption: `W_UV[${h}]: latent to values of head ${h}`, rowPrefix: 'c', colPrefix: 'v' }));
    });
  } else {
    layer.kv_heads.forEach((kv, g) => {
      tables.push(weightTable(doc, registry, kv.w_k, { name: `w-k-${g}`, caption: `W_K[${g}]`, rowPrefix: 'x', colPrefix: 'k' }));
      tables.push(weightTable(doc, registry, kv.w_v, { name: `w-v-${g}`, caption: `W_V[${g}]`, rowPrefix: 'x', colPrefix: 'v' }));
    });
  }
  layer.heads.forEach((head, h) => {
    tables.push(weightTable(doc, registry, head.w_q, { name: `w-q-${h}`, caption: `W_Q[${h}]`, rowPrefix: 'x', colPrefix: 'q' }));
  });
  tables.push(weightTable(doc, registry, layer.w_o, { name: 'w-o', caption: 'W_O: mixes the heads', rowPrefix: 'h', colPrefix: 'out' }));
  return tables;
}

function weightsPart(doc, registry, layer) {
  const details = element(doc, 'details', 'part');
  details.dataset.part = 'weights';
  const summary = element(doc, 'summary', undefined, layer.variant === 'MLA'
    ? 'The projection tables: W_Q, W_DKV, W_UK, W_UV and W_O (seeded)'
    : 'The projection tables: W_Q, W_K, W_V and W_O (seeded)');
  // The tables are many and folded away: they are built when the reader first opens them.
  const row = element(doc, 'div', 'tables');
  details.append(summary, row);
  details.addEventListener('toggle', () => {
    if (details.open && row.childElementCount === 0) row.append(...weightTables(doc, registry, layer));
  });
  return details;
}

function headGroup(doc, registry, layer, head, h) {
  const { trace } = head;
  const latent = layer.variant === 'MLA';
  const tables = [
    matrixBlock(doc, registry, trace.q, {
      name: `q-${h}`, caption: `Q of head ${h} = X \u00b7 W_Q[${h}]`, corner: 'token',
      rowLabels: trace.tokens, columnLabels: labels('q', trace.head_dim), format: fixed(D.matrix),
      working: (i, c) => dotWorking(`q${c} of ${tokenText(trace.tokens[i])} = x \u00b7 W_Q[${h}]`, layer.x[i], columnOf(head.w_q, c), trace.q[i][c]),
    }),
  ];
  if (latent) {
    for (const letter of ['k', 'v']) {
      const up = head[`w_u${letter}`];
      tables.push(matrixBlock(doc, registry, trace[letter], {
        name: `${letter}-${h}`, caption: `${letter.toUpperCase()} of head ${h} = C \u00b7 W_U${letter.toUpperCase()}[${h}] (rebuilt, not cached)`,
        corner: 'token', rowLabels: trace.tokens, columnLabels: labels(letter, trace.head_dim), format: fixed(D.matrix),
        working: (i, c) => dotWorking(`${letter}${c} of ${tokenText(trace.tokens[i])} = c \u00b7 W_U${letter.toUpperCase()}[${h}]`,
          layer.latent[i], columnOf(up, c), trace[letter][i][c]),
      }));
    }
  }
  tables.push(
    matrixBlock(doc, registry, trace.weights, {
      name: `weights-${h}`, caption: `Weights of head ${h}: softmax of q \u00b7 k \u00f7 \u221a${trace.head_dim}`,
      corner: 'query \u2193 key \u2192', rowLabels: trace.tokens, columnLabels: trace.tokens, format: fixed(D.weight),
      isMasked: isMasked(trace), working: (i, j) => renderWorking(doc, trace, { row: i, col: j, of: 'weight' }),
    }),
    matrixBlock(doc, registry, trace.out, {
      name: `out-${h}`, caption: `Output of head ${h}: weights \u00b7 V`, corner: 'token',
      rowLabels: trace.tokens, columnLabels: labels('o', trace.head_dim), format: fixed(D.out),
      working: (i, c) => headOutWorking(trace, i, c),
    }),
  );
  const title = latent
    ? `Head ${h}: its own queries, keys and values rebuilt from the latent`
    : [`Query head ${h}`, ` reads K/V head ${head.kv_head}`];
  return tableGroup(doc, { className: 'head-group', key: `head-${h}`, title, tables });
}

function layerPart(doc, registry, layer) {
  const tables = [
    matrixBlock(doc, registry, layer.concat, {
      name: 'concat', caption: 'The heads\u2019 outputs side by side', corner: 'token',
      rowLabels: layer.tokens, columnLabels: labels('h', layer.d_model), format: fixed(D.out),
    }),
    matrixBlock(doc, registry, layer.out, {
      name: 'layer-out', caption: `The layer\u2019s output = concat \u00b7 W_O (${layer.variant})`, corner: 'token',
      rowLabels: layer.tokens, columnLabels: labels('y', layer.d_model), format: fixed(D.out),
      working: (i, c) => dotWorking(`y${c} of ${tokenText(layer.tokens[i])} = concat \u00b7 W_O`, layer.concat[i], columnOf(layer.w_o, c),
        layer.out[i][c], 3, D.out),
    }),
  ];
  return tableGroup(doc, { key: 'layer', title: 'The layer\u2019s output', tables });
}

function billPart(doc, registry, layer) {
  const bill = { ...layer.bill, shown_as: `this ${layer.variant} layer` };
  const rows = billRows(bill, { toy: true });
  const table = figureTable(doc, registry, {
    name: 'bill',
    caption: `The cache bill of this ${layer.variant} layer (${counted(bill.layers, 'layer', 'layers')}, ${bill.dtype_bytes}-byte values, ${counted(bill.context_length, 'token', 'tokens')})`,
    corner: 'quantity',
    columns: [`toy ${layer.variant}`],
    rows: rows.map((row) => ({ ...row, cells: [row.cell(bill)] })),
  });
  return tableGroup(doc, { key: 'bill', title: 'The bill', tables: [table] });
}

/**
 * @param {Document} doc
 * @param {import('./working.js').WorkingRegistry} registry
 * @param {object} layer  groupedAttention's or latentAttention's answer
 * @param {string[]} parts  VARIANT_PARTS to show, in their order
 * @returns {Node[]}
 */
export function renderVariant(doc, registry, layer, parts) {
  const latent = layer.variant === 'MLA';
  const summary = latent
    ? `${layer.variant}: ${counted(layer.n_heads, 'head', 'heads')} of head_dim ${layer.head_dim} on d_model ${layer.d_model}; `
      + `keys and values rebuilt from a latent of ${counted(layer.d_latent, 'number', 'numbers')} per token.`
    : `${layer.variant}: ${counted(layer.n_heads, 'query head', 'query heads')} and ${counted(layer.n_kv_heads, 'K/V head', 'K/V heads')} `
      + `(${counted(layer.group_size, 'query head', 'query heads')} per K/V head), head_dim ${layer.head_dim}, d_model ${layer.d_model}.`;
  const nodes = [paragraph(doc, 'intro', summary)];
  for (const part of parts) {
    switch (part) {
      case 'x': nodes.push(tableGroup(doc, { key: 'x', title: 'The input', tables: [xTable(doc, registry, layer)] })); break;
      case 'sharing': if (!latent) nodes.push(sharingPart(doc, layer)); break;
      case 'cache': nodes.push(latent ? latentCachePart(doc, registry, layer) : groupedCachePart(doc, registry, layer)); break;
      case 'weights': nodes.push(weightsPart(doc, registry, layer)); break;
      case 'heads': {
        const headsPart = element(doc, 'div', 'part');
        headsPart.dataset.part = 'heads';
        headsPart.append(paragraph(doc, 'part-title', 'Each head'), ...layer.heads.map((head, h) => headGroup(doc, registry, layer, head, h)));
        nodes.push(headsPart);
        break;
      }
      case 'layer': nodes.push(layerPart(doc, registry, layer)); break;
      case 'bill': nodes.push(billPart(doc, registry, layer)); break;
      default: break;
    }
  }
  return nodes;
}

