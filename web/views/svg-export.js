// The weight grid and the arrows view as standalone SVG files, for a reader to download. A
// downloaded file cannot use the page's stylesheet, so every colour is written onto the
// elements (the light theme's colours, whatever theme the page shows). gridSvg() is pure:
// it draws what a grid table shows (its printed numbers, masking and shading), read by
// gridFromTable(); standaloneArrowsSvg() copies the arrows view that is on screen.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The light theme's colours (base.css, style.css), which exported files always use. */
export const EXPORT_PALETTE = Object.freeze({
  paper: '#ffffff',
  text: '#1d2330',
  muted: '#59606e',
  rule: '#1d2330',
  accent: '#1f5fa8',
  maskedFill: '#f1f2f4',
  maskedText: '#4a505c',
  // Lightest to darkest; the two darkest bands carry white text.
  shades: Object.freeze(['#eff5fc', '#cfe0f3', '#9fc1e6', '#2f6aad', '#163b6b']),
  shadeText: Object.freeze(['#1d2330', '#1d2330', '#1d2330', '#ffffff', '#ffffff']),
});

const FONT_FAMILY = 'system-ui, -apple-system, Segoe UI, Roboto, Noto Sans, Arial, sans-serif';

/** Text made safe inside SVG markup, as element content or an attribute value. */
export function escapeXml(text) {
  return String(text).replace(/[&<>"']/gu, (char) => ({
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;',
  })[char]);
}

/**
 * @typedef {{text: string, masked: boolean, zeroed: boolean, shade: number | null}} GridCell
 * @typedef {{caption: string, corner: string, columns: string[], rows: {label: string, cells: GridCell[]}[]}} GridData
 */

/**
 * What a rendered grid table shows: per body cell its printed value, whether the mask hid it
 * (−∞, hatched), whether it was hidden with 0 instead (the FAQ's leak) and its shade band.
 * @param {HTMLTableElement} table
 * @returns {GridData}
 */
export function gridFromTable(table) {
  const headCells = Array.from(table.tHead.rows[0].cells, (cell) => cell.textContent.trim());
  return {
    caption: table.caption?.textContent.trim() ?? '',
    corner: headCells[0] ?? '',
    columns: headCells.slice(1),
    rows: Array.from(table.tBodies[0].rows, (row) => ({
      label: row.cells[0].textContent.trim(),
      cells: Array.from(row.cells).slice(1).map((cell) => ({
        text: (cell.querySelector('.value') ?? cell).textContent.trim(),
        masked: cell.dataset.masked === 'true',
        zeroed: cell.dataset.zeroed === 'true',
        shade: cell.dataset.shade === undefined ? null : Number(cell.dataset.shade),
      })),
    })),
  };
}

// Sizes in SVG user units (px). Widths are estimated from the number of characters, since
// nothing can be measured in a file that is only written.
const CHAR_WIDTH = 8.2;
const CELL_HEIGHT = 32;
const HEADER_HEIGHT = 30;
const CAPTION_HEIGHT = 30;
const PAD = 12;

const textWidth = (text) => [...text].length * CHAR_WIDTH;

/**
 * The grid as a standalone SVG document (text).
 * @param {GridData} grid
 * @returns {string}
 */
export function gridSvg(grid) {
  const { paper, text, muted, rule, maskedFill, maskedText, shades, shadeText } = EXPORT_PALETTE;
  const labelWidth = Math.max(64, ...grid.rows.map((row) => textWidth(row.label) + 2 * PAD), textWidth(grid.corner) + 2 * PAD);
  const cellWidth = Math.max(72, ...grid.columns.map((label) => textWidth(label) + 2 * PAD),
    ...grid.rows.flatMap((row) => row.cells.map((cell) => textWidth(cell.text) + 2 * PAD)));
  const width = Math.max(PAD + labelWidth + cellWidth * grid.columns.length + PAD, textWidth(grid.caption) + 2 * PAD);
  const top = PAD + CAPTION_HEIGHT;
  const bodyTop = top + HEADER_HEIGHT;
  const height = bodyTop + CELL_HEIGHT * grid.rows.length + PAD;
  const columnX = (c) => PAD + labelWidth + cellWidth * c;

  const parts = [];
  parts.push(`<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="${escapeXml(FONT_FAMILY)}" font-size="14" class="grid-export">`);
  parts.push(`<title>${escapeXml(grid.caption)}</title>`);
  // Hatching drawn as lines, so that a masked cell reads as masked without colour.
  parts.push('<defs>',
    `<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
      `<rect width="6" height="6" fill="${maskedFill}"/>` +
      '<line x1="0" y1="0" x2="0" y2="6" stroke="#000000" stroke-opacity="0.3" stroke-width="1.5"/></pattern>',
    `<pattern id="zero-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">` +
      '<line x1="0" y1="0" x2="0" y2="8" stroke="#b35c00" stroke-opacity="0.8" stroke-width="2"/></pattern>',
    '</defs>');
  parts.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="${paper}"/>`);
  parts.push(`<text x="${PAD}" y="${PAD + CAPTION_HEIGHT / 2}" dominant-baseline="central" font-weight="600" fill="${text}">` +
    `${escapeXml(grid.caption)}</text>`);

  parts.push('<g class="grid-header">');
  parts.push(`<text x="${PAD + PAD / 2}" y="${top + HEADER_HEIGHT / 2}" dominant-baseline="central" fill="${muted}" font-size="12">` +
    `${escapeXml(grid.corner)}</text>`);
  grid.columns.forEach((label, c) => {
    parts.push(`<text x="${columnX(c) + cellWidth - PAD}" y="${top + HEADER_HEIGHT / 2}" text-anchor="end" ` +
      `dominant-baseline="central" font-weight="600" fill="${text}">${escapeXml(label)}</text>`);
  });
  parts.push(`<line x1="${PAD}" y1="${bodyTop}" x2="${width - PAD}" y2="${bodyTop}" stroke="${rule}" stroke-width="2"/>`);
  parts.push('</g>');

  parts.push('<g class="grid-cells">');
  grid.rows.forEach((row, r) => {
    const y = bodyTop + CELL_HEIGHT * r;
    parts.push(`<text x="${PAD + PAD / 2}" y="${y + CELL_HEIGHT / 2}" dominant-baseline="central" font-weight="600" ` +
      `fill="${text}">${escapeXml(row.label)}</text>`);
    row.cells.forEach((cell, c) => {
      const x = columnX(c);
      let fill = paper;
      let ink = text;
      if (cell.masked) {
        fill = 'url(#hatch)';
        ink = maskedText;
      } else if (cell.shade !== null && shades[cell.shade]) {
        fill = shades[cell.shade];
        ink = shadeText[cell.shade];
      }
      const state = cell.masked ? ' masked' : cell.zeroed ? ' zeroed' : '';
      parts.push(`<g class="cell${state}" data-row="${r}" data-col="${c}">`);
      parts.push(`<rect x="${x + 1}" y="${y + 1}" width="${cellWidth - 2}" height="${CELL_HEIGHT - 2}" fill="${fill}"/>`);
      if (cell.zeroed) {
        parts.push(`<rect x="${x + 1}" y="${y + 1}" width="${cellWidth - 2}" height="${CELL_HEIGHT - 2}" fill="url(#zero-hatch)"/>`);
      }
      parts.push(`<text x="${x + cellWidth - PAD}" y="${y + CELL_HEIGHT / 2}" text-anchor="end" dominant-baseline="central" ` +
        `fill="${ink}">${escapeXml(cell.text)}</text>`);
      parts.push('</g>');
    });
  });
  parts.push('</g>');
  parts.push('</svg>');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${parts.join('\n')}\n`;
}

/**
 * A copy of an arrows view (element-arrows.js) that stands on its own: colours written onto
 * the elements instead of the page's classes, a background, the namespace declared.
 * @param {SVGSVGElement} svg  the view on screen (left unchanged)
 * @param {string} title       what the file shows
 * @returns {string}
 */
export function standaloneArrowsSvg(svg, title) {
  const { paper, text, accent } = EXPORT_PALETTE;
  const copy = /** @type {SVGSVGElement} */ (svg.cloneNode(true));
  const doc = svg.ownerDocument;
  copy.setAttribute('font-family', FONT_FAMILY);
  copy.setAttribute('font-size', '15');
  for (const name of ['part', 'role', 'aria-label']) copy.removeAttribute(name);
  for (const line of copy.querySelectorAll('.arrow-line')) {
    Object.entries({ fill: 'none', stroke: accent, 'stroke-opacity': '0.7', 'stroke-linecap': 'round' })
      .forEach(([name, value]) => line.setAttribute(name, value));
  }
  for (const head of copy.querySelectorAll('.arrow-head')) {
    head.setAttribute('fill', accent);
    head.setAttribute('fill-opacity', '0.85');
  }
  for (const token of copy.querySelectorAll('.token')) {
    token.setAttribute('fill', text);
    token.setAttribute('font-weight', '600');
  }
  const [, , width, height] = (copy.getAttribute('viewBox') ?? '0 0 0 0').split(/\s+/u);
  const background = doc.createElementNS(SVG_NS, 'rect');
  Object.entries({ x: 0, y: 0, width, height, fill: paper }).forEach(([name, value]) => background.setAttribute(name, String(value)));
  const heading = doc.createElementNS(SVG_NS, 'title');
  heading.textContent = title;
  copy.prepend(heading, background);
  const markup = new (doc.defaultView.XMLSerializer)().serializeToString(copy);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${markup}\n`;
}
