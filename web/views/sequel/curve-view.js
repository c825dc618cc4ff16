// The bill's curve: the cache of one sequence against the context length, one line per toy
// variant and per chosen model, with the GPU memory left after each model's weights and where
// its line crosses it. Drawn with uPlot (log x, log y), with the same figures in a real table
// behind it (copyable) and an SVG/PNG download. Every figure is the core's (kvBill's curve).

import uPlot from '../../vendor/uplot.js';
import { downloadButtons, tableTools } from '../table-tools.js';
import { escapeXml } from '../svg-export.js';
import { formatBinaryUnit, formatCompactCount, formatCount } from '../sequel-format.js';
import { element } from '../page-slots.js';
import { figureTable, paragraph } from './tables.js';

// Colours that keep 3:1 against a light page (and the SVG's white), and their light
// counterparts against a dark one; told apart by dash too.
const COLOURS = ['#1f5fbf', '#b3401a', '#2b7a3d', '#7a3fa3', '#8a6d00', '#0f7c86', '#a3325f', '#555b66'];
const DARK_COLOURS = ['#7fb0f0', '#f08a5d', '#6fcf7f', '#c39af0', '#e0c050', '#4fd0d8', '#f07fae', '#b8bec9'];
const DASHES = [[], [6, 3], [2, 3], [8, 3, 2, 3]];

// Each line has its own points (its window and its crossing are among them): the table and the
// plot run over all of them, a line without a point at a context leaving that cell empty.
function contextsOf(lines) {
  return [...new Set(lines.flatMap(({ curve }) => curve.context_tokens))].sort((a, b) => a - b);
}
const valueAt = (curve, T) => {
  const n = curve.context_tokens.indexOf(T);
  return n < 0 ? null : curve.bytes_per_sequence[n];
};

/** @param {{name: string, curve: object}[]} lines  one per line, in order */
export function curveTable(doc, registry, lines) {
  const rows = contextsOf(lines).map((T) => ({
    label: formatCount(T),
    key: String(T),
    cells: lines.map(({ curve }) => {
      const bytes = valueAt(curve, T);
      return bytes === null ? { text: '\u2014', hidden: 'not a point of this line' } : { text: formatCount(bytes), unit: formatBinaryUnit(bytes) };
    }),
  }));
  return figureTable(doc, registry, {
    name: 'kv-curve', caption: 'One sequence\u2019s cache, bytes, by context length', corner: 'context, tokens',
    columns: lines.map(({ name }) => name), columnKeys: lines.map(({ key }) => key), rows,
  });
}

// Where a model's line meets its level, in words: one sequence alone, or its share of a batch.
export function crossingText(name, curve) {
  if (curve.memory_left_bytes <= 0) return `${name}: the weights alone fill the GPU’s memory; not one sequence fits.`;
  const left = formatBinaryUnit(curve.memory_left_bytes);
  const where = curve.crossing_tokens === null ? 'never, in this range' : `at ${formatCount(curve.crossing_tokens)} tokens`;
  if (curve.batch === 1) {
    return curve.crossing_tokens === null
      ? `${name}: one sequence never fills the ${left} left after the weights in this range.`
      : `${name}: one sequence fills the ${left} left after the weights at ${formatCount(curve.crossing_tokens)} tokens.`;
  }
  return `${name}: a batch of ${formatCount(curve.batch)} shares the ${left} left after the weights, `
    + `${formatBinaryUnit(curve.memory_left_per_sequence_bytes)} a sequence; each fills its share ${where}.`;
}

function crossings(doc, lines) {
  const list = element(doc, 'ul', 'crossings');
  for (const { key, name, curve, models } of lines) {
    if (!models) continue;
    const item = element(doc, 'li', undefined, crossingText(name, curve));
    item.dataset.key = key;
    list.append(item);
  }
  return list;
}

// The level a model's line meets: the memory left after the weights, a sequence's share of it.
const levelOf = (curve) => curve.memory_left_per_sequence_bytes;

/** A standalone SVG of the same lines (log-log), for the download. */
export function curveSvg(lines, { width = 720, height = 420 } = {}) {
  const pad = { left: 70, right: 20, top: 20, bottom: 40 };
  const xs = contextsOf(lines);
  const ys = lines.flatMap(({ curve }) => [...curve.bytes_per_sequence, ...(levelOf(curve) > 0 ? [levelOf(curve)] : [])]);
  const [x0, x1] = [Math.log10(xs[0]), Math.log10(xs.at(-1))];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const px = (x) => pad.left + ((Math.log10(x) - x0) / (x1 - x0)) * (width - pad.left - pad.right);
  const py = (y) => height - pad.bottom - ((Math.log10(y) - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`];
  lines.forEach(({ name, curve, models }, index) => {
    const colour = COLOURS[index % COLOURS.length];
    const points = curve.context_tokens.map((x, n) => `${px(x).toFixed(1)},${py(curve.bytes_per_sequence[n]).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points}"><title>${escapeXml(name)}</title></polyline>`);
    if (models && levelOf(curve) > 0) {
      const y = py(levelOf(curve)).toFixed(1);
      parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y}" y2="${y}" stroke="${colour}" stroke-dasharray="4 4"/>`);
    }
    parts.push(`<text x="${pad.left + 8}" y="${pad.top + 14 * (index + 1)}" fill="${colour}">${escapeXml(name)}</text>`);
  });
  parts.push(`<text x="${width / 2}" y="${height - 8}" text-anchor="middle">context length, tokens (log)</text>`,
    `<text x="14" y="${height / 2}" transform="rotate(-90 14 ${height / 2})" text-anchor="middle">bytes of one sequence (log)</text></svg>`);
  return parts.join('');
}

/**
 * @param {Document} doc
 * @param {import('./working.js').WorkingRegistry} registry
 * @param {{key: string, name: string, curve: object, models: boolean}[]} lines
 * @param {number} width  the plot's width in CSS pixels
 * @param {{dark?: boolean, text?: string}} [theme]  dark: light lines for a dark page; text: the
 *   page's text colour, for the axes (the canvas cannot read CSS)
 */
export function renderCurve(doc, registry, lines, width, { dark = false, text = '#1d2330' } = {}) {
  const colours = dark ? DARK_COLOURS : COLOURS;
  const colourOf = (index) => colours[index % colours.length];
  const faint = dark ? 'rgba(255, 255, 255, 0.16)' : 'rgba(0, 0, 0, 0.1)';
  const axis = (options) => ({ stroke: text, grid: { stroke: faint, width: 1 }, ticks: { stroke: faint, width: 1 }, ...options });
  const figure = element(doc, 'figure', 'curve');
  const plotHost = element(doc, 'div', 'curve-plot');
  plotHost.setAttribute('role', 'img');
  plotHost.setAttribute('aria-label', 'The cache of one sequence against the context length, both on log scales, the context marked '
    + 'in K (thousands) and M (millions) of tokens; the table below gives the same figures exactly.');
  const xs = contextsOf(lines);
  const series = [{ label: 'context, tokens' }];
  const data = [xs];
  lines.forEach(({ name, curve, models }, index) => {
    series.push({ label: name, stroke: colourOf(index), width: 2, dash: DASHES[index % DASHES.length], spanGaps: true });
    data.push(xs.map((T) => valueAt(curve, T)));
    if (models && levelOf(curve) > 0) {
      series.push({ label: `memory left, ${name}`, stroke: colourOf(index), width: 1, dash: [4, 4] });
      data.push(xs.map(() => levelOf(curve)));
    }
  });
  const plot = new uPlot({
    width: Math.max(280, width), height: 320, series, legend: { show: false }, cursor: { show: false },
    scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
    // The context's ticks written short ("10M", not "10,000,000"): a long last label, centred on
    // the plot's right edge, would be cut off there. The table has the exact counts.
    axes: [axis({ label: 'context length, tokens', values: (u, ticks) => ticks.map((v) => (v === null ? null : formatCompactCount(v))) }), axis({ label: 'bytes of one sequence', size: 70, values: (u, ticks) => ticks.map((v) => formatBinaryUnit(v)) })],
  }, data, plotHost);
  figure.append(plotHost);
  const key = element(doc, 'ul', 'curve-key');
  lines.forEach(({ name }, index) => {
    const item = element(doc, 'li', undefined, name);
    const swatch = element(doc, 'span', 'swatch');
    swatch.style.borderTopColor = colourOf(index);
    item.prepend(swatch);
    key.append(item);
  });
  figure.append(key, element(doc, 'figcaption', undefined,
    'Dashed level lines: the GPU memory left after each model\u2019s weights (with a batch, one sequence\u2019s share of it).'));
  const table = curveTable(doc, registry, lines);
  const details = element(doc, 'details', 'curve-table');
  details.dataset.part = 'curve-table';
  details.append(element(doc, 'summary', undefined, 'The same figures as a table'), table, tableTools(doc, table));
  const downloads = downloadButtons(doc, { fileName: 'kv-cache-curve', what: 'the curve', makeSvg: () => curveSvg(lines) });
  return { nodes: [figure, crossings(doc, lines), downloads, details], plot };
}
