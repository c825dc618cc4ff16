// The KV-cache bill as tables: one column per bill (a toy layer, a published model, a shape the
// reader typed), one row per quantity of kvBill's answer, each figure with the working that
// leads to it. The formula and its working for the bytes per token and layer are the core's
// own text; the other workings set the core's figures into the formulas kv_bill.h documents.
// Nothing is computed here.

import { formatBinaryUnit, formatCount } from '../sequel-format.js';
import { counted } from '../format.js';
import { figureTable, paragraph, tableGroup } from './tables.js';
import { element } from '../page-slots.js';

const count = (value) => formatCount(value);
// Which layers a sliding window applies to: "on 2 of 4 layers", "on all 4 layers", "on its one layer".
const windowedLayers = (local, layers) => {
  if (layers === 1) return 'on its one layer';
  return local === layers ? `on all ${count(layers)} layers` : `on ${count(local)} of ${count(layers)} layers`;
};
const GIB = 1073741824;  // 2^30 bytes, written into the working of the GPU's memory

/** A byte count: the exact figure, and the binary unit beside it when it is 1 KiB or more. */
export function bytesCell(value, working) {
  return { text: count(value), unit: value >= 1024 ? formatBinaryUnit(value) : undefined, working };
}

// A bill's name in a working: what its column is headed (shown_as), else the model's label.
const named = (bill) => bill.shown_as ?? bill.label ?? `a ${bill.attention} shape`;

/**
 * The rows of a bill table. Each row's `cell(bill)` is that bill's cell.
 * @param {object} sample  a bill (to word the rows)
 * @param {{toy?: boolean}} [options]  toy: only the rows that matter for one toy layer
 */
export function billRows(sample, { toy = false } = {}) {
  const all = [
    { key: 'attention', label: 'attention', cell: (b) => ({ text: b.attention, number: false }) },
    { key: 'layers', label: 'layers', cell: (b) => ({ text: count(b.layers) }) },
    {
      key: 'cached_values_per_token_per_layer',
      label: 'values cached per token and layer',
      cell: (b) => ({ text: count(b.cached_values_per_token_per_layer) }),
    },
    {
      key: 'cache_type',
      label: 'each cached value',
      cell: (b) => ({
        text: b.kv_bits === null ? `${b.dtype_bytes} bytes` : `${b.kv_bits} bits`,
        unit: b.kv_bits === null ? undefined : `+ a ${b.scale_bytes}-byte scale per vector`,
      }),
    },
    { key: 'formula', label: 'bytes per token and layer, the formula', cell: (b) => ({ text: b.formula, number: false }) },
    {
      key: 'bytes_per_token_per_layer',
      label: 'bytes per token and layer',
      cell: (b) => bytesCell(b.bytes_per_token_per_layer, () => ({
        title: `bytes per token and layer, ${named(b)}`, lines: [b.formula, b.working],
      })),
    },
    {
      key: 'bytes_per_token',
      label: 'bytes per token, all layers',
      cell: (b) => bytesCell(b.bytes_per_token, () => ({
        title: `bytes per token, all layers, ${named(b)}`,
        lines: ['bytes per token and layer \u00b7 layers', `${count(b.bytes_per_token_per_layer)} \u00b7 ${count(b.layers)}`, count(b.bytes_per_token)],
      })),
    },
    { key: 'context_length', label: toy ? 'tokens (the context)' : 'context length, tokens', cell: (b) => ({ text: count(b.context_length) }) },
    {
      key: 'sliding_window',
      label: 'sliding window, tokens',
      cell: (b) => (b.sliding_window === null
        ? { text: 'none', number: false }
        : { text: count(b.sliding_window), unit: windowedLayers(b.local_layers, b.layers) }),
    },
    {
      key: 'bytes_per_sequence',
      label: toy ? 'bytes for these tokens' : 'bytes per sequence',
      cell: (b) => bytesCell(b.bytes_per_sequence, () => ({
        title: `bytes per sequence, ${named(b)}`,
        lines: b.sequence_formula
          ? [b.sequence_formula, b.sequence_working]
          : ['bytes per token \u00b7 context length', `${count(b.bytes_per_token)} \u00b7 ${count(b.context_length)}`, count(b.bytes_per_sequence)],
      })),
    },
    { key: 'batch', label: 'sequences in the batch', cell: (b) => ({ text: count(b.batch) }) },
    {
      key: 'cache_bytes',
      label: 'the batch\u2019s cache, bytes',
      cell: (b) => bytesCell(b.cache_bytes, () => ({
        title: `the batch\u2019s cache, ${named(b)}`,
        lines: ['bytes per sequence \u00b7 batch', `${count(b.bytes_per_sequence)} \u00b7 ${count(b.batch)}`, count(b.cache_bytes)],
      })),
    },
    { key: 'parameters', label: 'parameters', cell: (b) => ({ text: count(b.parameters) }) },
    {
      key: 'weight_bytes',
      label: 'weights, bytes',
      cell: (b) => bytesCell(b.weight_bytes, () => ({
        title: `the weights, ${named(b)}`,
        lines: ['parameters \u00b7 bytes per parameter', `${count(b.parameters)} \u00b7 ${count(b.weight_dtype_bytes)}`, count(b.weight_bytes)],
      })),
    },
    {
      key: 'gpu_bytes',
      label: 'GPU memory, bytes',
      cell: (b) => bytesCell(b.gpu_bytes, () => ({
        title: 'the GPU\u2019s memory',
        lines: ['GiB \u00b7 2\u00b3\u2070 bytes', `${count(b.gpu_memory_gib)} \u00b7 ${count(GIB)}`, count(b.gpu_bytes)],
      })),
    },
    {
      key: 'fits',
      label: 'weights and cache fit',
      cell: (b) => ({
        text: b.fits ? 'yes' : 'no',
        number: false,
        className: b.fits ? 'yes' : 'no',
        working: () => ({
          title: `do the weights and this batch\u2019s cache fit, ${named(b)}?`,
          lines: [`weights ${count(b.weight_bytes)} + cache ${count(b.cache_bytes)} \u2264 memory ${count(b.gpu_bytes)}?`, b.fits ? 'yes' : 'no'],
        }),
      }),
    },
    {
      key: 'concurrent_sequences',
      label: 'sequences that fit next to the weights',
      cell: (b) => ({
        text: count(b.concurrent_sequences),
        working: () => ({
          title: `sequences of ${counted(b.context_length, 'token', 'tokens', count)} that fit, ${named(b)}`,
          lines: [
            '\u230a(GPU memory \u2212 weights) \u00f7 bytes per sequence\u230b',
            `\u230a(${count(b.gpu_bytes)} \u2212 ${count(b.weight_bytes)}) \u00f7 ${count(b.bytes_per_sequence)}\u230b`,
            count(b.concurrent_sequences),
          ],
        }),
      }),
    },
    {
      key: 'max_context_tokens',
      label: 'longest context that fits, tokens',
      cell: (b) => (b.max_context_tokens === null || b.max_context_tokens === undefined
        ? { text: 'any', number: false, working: b.max_context_working ? () => ({ title: `longest context, ${named(b)}`, lines: [b.max_context_working] }) : undefined }
        : {
          text: count(b.max_context_tokens),
          working: () => ({ title: `the longest context of ${counted(b.batch, 'sequence', 'sequences', count)} that fits, ${named(b)}`, lines: [b.max_context_working] }),
        }),
    },
  ];
  const toyKeys = ['cached_values_per_token_per_layer', 'cache_type', 'formula', 'bytes_per_token_per_layer', 'context_length', 'bytes_per_sequence'];
  return toy ? all.filter((row) => toyKeys.includes(row.key)) : all;
}

function billTable(doc, registry, { name, caption, columns, columnKeys, bills, toy = false }) {
  const rows = billRows(bills[0], { toy }).map((row) => ({ label: row.label, key: row.key, cells: bills.map((bill) => row.cell(bill)) }));
  return figureTable(doc, registry, { name, caption, corner: 'quantity', columns, columnKeys, rows });
}

function link(doc, href, text) {
  const a = element(doc, 'a', undefined, text);
  a.href = href;
  a.rel = 'noopener';
  return a;
}

function citationOf(doc, preset) {
  const item = element(doc, 'li');
  item.dataset.preset = preset.name;
  item.append(element(doc, 'strong', undefined, preset.label), ': ', link(doc, preset.citation, preset.citation),
    `. Parameters: ${preset.parameters_source}.`);
  if (preset.note) item.append(` ${preset.note.charAt(0).toUpperCase()}${preset.note.slice(1)}.`);
  return item;
}

/**
 * The toy layers' bills side by side: one column per variant.
 * @param {{mha: object, gqa: object, mqa: object, mla: object}} toys  bills
 */
export function renderVariantBills(doc, registry, toys) {
  const bills = Object.values(toys);
  const table = billTable(doc, registry, {
    name: 'bill-variants',
    caption: `The toy layers\u2019 cache, per variant (${counted(bills[0].context_length, 'token', 'tokens')}, one layer, ${bills[0].dtype_bytes}-byte values)`,
    columns: bills.map((bill) => bill.attention),
    columnKeys: Object.keys(toys),
    bills: bills.map((bill) => ({ ...bill, shown_as: `the toy ${bill.attention} layer` })),
    toy: true,
  });
  return tableGroup(doc, { key: 'variants', title: 'Each variant\u2019s cache on the toy\u2019s tokens', tables: [table] });
}

/**
 * The toy's bill next to a model's.
 * @param {object} toy    the toy layer's bill
 * @param {object} model  kvBill's answer for the model
 * @param {object[]} presets  modelPresets()
 */
export function renderComparison(doc, registry, toy, model, presets, modelName = model.label ?? 'your shape') {
  const table = billTable(doc, registry, {
    name: 'bill-compare',
    caption: `The same formula for the toy and for ${modelName}`,
    columns: [`toy ${toy.attention} layer`, modelName],
    columnKeys: ['toy', 'model'],
    bills: [{ ...toy, shown_as: `the toy ${toy.attention} layer` }, { ...model, shown_as: modelName }],
  });
  const notes = [];
  const preset = presets.find((entry) => entry.name === model.preset);
  if (preset) {
    const source = paragraph(doc, 'note citation', modelName === preset.label
      ? `${preset.label}\u2019s shape is from its public configuration: `
      : `Your shape starts from ${preset.label}\u2019s public configuration: `,
      link(doc, preset.citation, preset.citation), '.');
    notes.push(source);
  }
  const after = paragraph(doc, 'note', 'Only the weights and the cache are counted. Activations, the serving '
    + 'framework\u2019s own memory and fragmentation are left out, so a real server fits somewhat fewer sequences.');
  const group = tableGroup(doc, { key: 'compare', title: 'The toy and a real model, side by side', tables: [table], notes });
  group.append(after);
  return group;
}

/**
 * Every preset's bill at its published context, with where its figures come from.
 * @param {{preset: object, bill: object}[]} entries
 */
export function renderPresetBills(doc, registry, entries) {
  const rows = entries.map(({ preset, bill }) => ({
    label: preset.label,
    key: preset.name,
    cells: [
      { text: bill.attention, number: false },
      { text: count(bill.layers) },
      { text: count(bill.n_heads) },
      { text: bill.n_kv_heads === null ? '\u2014' : count(bill.n_kv_heads), hidden: bill.n_kv_heads === null ? 'does not apply' : undefined },
      { text: bill.head_dim === null ? '\u2014' : count(bill.head_dim), hidden: bill.head_dim === null ? 'does not apply' : undefined },
      { text: bill.d_latent === null ? '\u2014' : `${count(bill.d_latent)} + ${count(bill.rope_dim)}`, hidden: bill.d_latent === null ? 'does not apply' : undefined },
      { text: count(bill.parameters) },
      bill.sliding_window === null
        ? { text: '\u2014', hidden: 'no window' }
        : { text: count(bill.sliding_window), unit: windowedLayers(bill.local_layers, bill.layers) },
      bytesCell(bill.bytes_per_token_per_layer, () => ({ title: `bytes per token and layer, ${preset.label}`, lines: [bill.formula, bill.working] })),
      { text: count(bill.context_length) },
      bytesCell(bill.bytes_per_sequence, () => ({
        title: `one sequence of ${counted(bill.context_length, 'token', 'tokens', count)}, ${preset.label}`,
        lines: [bill.sequence_formula, bill.sequence_working],
      })),
      {
        text: count(bill.concurrent_sequences),
        working: () => ({
          title: `sequences that fit on ${count(bill.gpu_memory_gib)} GiB, ${preset.label}`,
          lines: ['\u230a(GPU memory \u2212 weights) \u00f7 bytes per sequence\u230b',
            `\u230a(${count(bill.gpu_bytes)} \u2212 ${count(bill.weight_bytes)}) \u00f7 ${count(bill.bytes_per_sequence)}\u230b`, count(bill.concurrent_sequences)],
        }),
      },
    ],
  }));
  const gib = entries[0] ? count(entries[0].bill.gpu_memory_gib) : '';
  const table = figureTable(doc, registry, {
    name: 'bill-presets',
    caption: `Published models at their full context (weights and cache on one ${gib} GiB GPU)`,
    corner: 'model',
    columns: ['attention', 'layers', 'query heads', 'K/V heads', 'head_dim', 'latent + RoPE key', 'parameters', 'sliding window',
      'bytes per token and layer', 'context, tokens', 'bytes per sequence', `sequences that fit on ${gib} GiB`],
    rows,
  });
  const list = element(doc, 'ol', 'citations');
  list.append(...entries.map(({ preset }) => citationOf(doc, preset)));
  const group = tableGroup(doc, { key: 'presets', title: 'Published shapes, and where their figures come from', tables: [table] });
  group.append(list);
  return group;
}
