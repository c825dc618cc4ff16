// What <attention-flash-traffic> shows of flashTraffic's answer: the bytes moved between the
// GPU's large slow memory (HBM) and its small fast one (on-chip SRAM) by attention computed the
// naive way (the whole score table written out and read back) and by FlashAttention's tiles,
// move by move, with the core's formula and working for each total. Nothing is computed here.

import { formatBinaryUnit, formatCount, formatSignificant } from '../sequel-format.js';
import { counted } from '../format.js';
import { bytesCell } from './bill-view.js';
import { figureTable, paragraph, tableGroup } from './tables.js';

const count = (value) => formatCount(value);
const SCHEDULES = [['naive', 'naive attention'], ['tiled', 'FlashAttention\u2019s tiles']];

function movesTable(doc, registry, t, key, name) {
  const schedule = t[key];
  const rows = schedule.moves.map((move, index) => ({
    label: `${move.direction === 'read' ? 'read' : 'write'} ${move.what}`,
    key: `${key}-${index}`,
    cells: [
      { text: move.direction, number: false },
      { text: count(move.values) },
      bytesCell(move.bytes, () => ({
        title: `${move.direction} ${move.what}, ${name}`,
        lines: ['values \u00b7 bytes per value', `${count(move.values)} \u00b7 ${count(t.dtype_bytes)}`, count(move.bytes)],
      })),
    ],
  }));
  rows.push({
    label: 'all moves',
    key: `${key}-total`,
    cells: [
      { text: `${formatBinaryUnit(schedule.read_bytes)} read, ${formatBinaryUnit(schedule.written_bytes)} written`, number: false },
      { text: '' },
      bytesCell(schedule.total_bytes, () => ({ title: `bytes moved, ${name}`, lines: [schedule.formula, schedule.working] })),
    ],
  });
  return figureTable(doc, registry, {
    name: `traffic-${key}`,
    caption: `${name[0].toUpperCase()}${name.slice(1)}: what moves between the slow memory and the fast one`,
    corner: 'move',
    columns: ['direction', 'values', 'bytes'],
    columnKeys: ['direction', 'values', 'bytes'],
    rows,
  });
}

/**
 * @param {Document} doc
 * @param {import('./working.js').WorkingRegistry} registry
 * @param {object} t  flashTraffic's answer
 * @returns {Node[]}
 */
export function renderFlashTraffic(doc, registry, t) {
  const tiles = t.tiles_chosen === 'given'
    ? `tiles of ${counted(t.block_rows, 'query', 'queries')} \u00d7 ${counted(t.block_cols, 'key', 'keys')}`
    : `tiles of ${counted(t.block_rows, 'query', 'queries')} \u00d7 ${counted(t.block_cols, 'key', 'keys')}, the largest that fit`;
  const intro = paragraph(doc, 'intro',
    `${counted(t.token_count, 'token', 'tokens', count)}, head_dim ${t.head_dim}, ${t.dtype_bytes}-byte values, mask \u201c${t.mask}\u201d; ${tiles}: `
    + `${counted(t.computed_tiles, 'tile', 'tiles', count)} computed, ${count(t.skipped_tiles)} skipped.`);
  const nodes = [intro];
  if (t.sram_bytes !== null) {
    nodes.push(paragraph(doc, 'note footprint',
      `On-chip memory: ${count(t.sram_bytes)} bytes. One tile step needs ${t.footprint_formula} = ${t.footprint_working} bytes `
      + '(the tiles in the values\u2019 width; the scores, running max and sum in 4-byte floats).'));
  }
  const tables = SCHEDULES.map(([key, name]) => movesTable(doc, registry, t, key, name));
  const group = tableGroup(doc, { key: 'traffic', title: 'Bytes moved, naive against tiled', tables });
  const verdict = paragraph(doc, 'verdict',
    `The tiles move ${count(t.tiled.total_bytes)} bytes where naive attention moves ${count(t.naive.total_bytes)}: `
    + `${formatSignificant(t.ratio)} times fewer. The score table of ${count(t.token_count)}\u00b2 values is never written out.`);
  verdict.dataset.ratio = String(t.ratio);
  group.append(verdict);
  nodes.push(group);
  return nodes;
}
