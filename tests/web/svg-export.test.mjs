// The weight grid as an SVG file (web/svg-export.js), in plain Node: every cell's printed number
// is in it, masked cells are hatched by a pattern (so they read as masked without colour),
// shaded cells take the ramp's colour with a text colour that reads on it, and text is escaped.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { EXPORT_PALETTE, escapeXml, gridSvg } from '../../web/views/svg-export.js';

const cell = (text, { masked = false, zeroed = false, shade = null } = {}) => ({ text, masked, zeroed, shade });
const grid = {
  caption: 'Causal mask \u00b7 attention weights for \u201cthe <cat>\u201d',
  corner: 'query \u2193 key \u2192',
  columns: ['the', '<cat>', 'row sum'],
  rows: [
    { label: 'the', cells: [cell('1.0000', { shade: 4 }), cell('0.0000', { masked: true }), cell('1.0000')] },
    { label: '<cat>', cells: [cell('0.2799', { shade: 1 }), cell('0.7201', { shade: 3 }), cell('1.0000')] },
  ],
};

// The cells of the file: [row, col, fill, text, text colour], read with regular expressions (no
// XML parser in Node); the browser tests parse downloaded files with the browser's own.
function cellsOf(svg) {
  return [...svg.matchAll(/<g class="cell[^"]*" data-row="(\d+)" data-col="(\d+)">\n<rect [^>]*fill="([^"]+)"\/>\n(?:<rect [^>]*\/>\n)?<text [^>]*fill="([^"]+)">([^<]*)<\/text>/gu)]
    .map((m) => ({ row: Number(m[1]), col: Number(m[2]), fill: m[3], ink: m[4], text: m[5] }));
}

describe('the grid as SVG', () => {
  const svg = gridSvg(grid);

  it('is a standalone SVG document with a size and a title', () => {
    assert.match(svg, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+(\.\d+)?" height="\d+(\.\d+)?" viewBox="0 0 /u);
    assert.match(svg, /<title>Causal mask · attention weights for “the &lt;cat&gt;”<\/title>/u);
    assert.match(svg, /<\/svg>\n$/u);
    assert.doesNotMatch(svg, /class="[^"]*"[^>]*style=/u, 'no style attributes: colours are presentation attributes');
  });

  it('holds every cell with its printed number, masked cells hatched, shaded cells coloured', () => {
    const cells = cellsOf(svg);
    assert.equal(cells.length, 6);
    const at = (row, col) => cells.find((c) => c.row === row && c.col === col);
    assert.deepEqual(at(0, 0), { row: 0, col: 0, fill: EXPORT_PALETTE.shades[4], ink: '#ffffff', text: '1.0000' });
    assert.deepEqual(at(0, 1), { row: 0, col: 1, fill: 'url(#hatch)', ink: EXPORT_PALETTE.maskedText, text: '0.0000' });
    assert.deepEqual(at(1, 0), { row: 1, col: 0, fill: EXPORT_PALETTE.shades[1], ink: EXPORT_PALETTE.text, text: '0.2799' });
    assert.deepEqual(at(1, 2), { row: 1, col: 2, fill: EXPORT_PALETTE.paper, ink: EXPORT_PALETTE.text, text: '1.0000' });
    assert.match(svg, /<pattern id="hatch"[^>]*>.*<line /u, 'the hatch is drawn with lines');
    assert.match(svg, /<g class="cell masked" data-row="0" data-col="1">/u);
  });

  it('writes labels as escaped text', () => {
    assert.match(svg, />&lt;cat&gt;<\/text>/u);
    assert.doesNotMatch(svg, /<cat>/u);
    assert.equal(escapeXml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });

  it('marks cells hidden with 0 by a second pattern over their shade', () => {
    const leaky = gridSvg({ ...grid, rows: [{ label: 'the', cells: [cell('0.5100', { shade: 2 }), cell('0.4900', { zeroed: true, shade: 2 }), cell('1.0000')] }] });
    assert.match(leaky, /<g class="cell zeroed" data-row="0" data-col="1">\n<rect [^>]*fill="#9fc1e6"\/>\n<rect [^>]*fill="url\(#zero-hatch\)"\/>/u);
  });

  it('uses the light theme\'s colours of the page (site/base.css, site/style.css), so a file looks like the page', async () => {
    // The light tokens: the shared ones in base.css, the walkthrough's shading in style.css,
    // read through its @imports (each resolved relative to the sheet that names it), so the
    // check follows the colours to whichever piece holds them.
    const readThroughImports = async (url) => {
      const css = await readFile(url, 'utf8');
      const parts = [];
      for (const [, href] of css.matchAll(/@import url\("([^"]+)"\);/gu)) parts.push(await readThroughImports(new URL(href, url)));
      return `${parts.join('\n')}\n${css}`;
    };
    const lightTokens = async (file) => {
      const css = await readThroughImports(new URL(`../../site/${file}`, import.meta.url));
      return css.slice(css.indexOf(':root {'), css.indexOf('@media (prefers-color-scheme: dark)'));
    };
    const light = (await lightTokens('base.css')) + (await lightTokens('style.css'));
    const variable = (name) => new RegExp(`--${name}: (#[0-9a-f]{6});`, 'u').exec(light)?.[1];
    assert.deepEqual(EXPORT_PALETTE.shades, [0, 1, 2, 3, 4].map((n) => variable(`shade-${n}`)));
    assert.deepEqual(EXPORT_PALETTE.shadeText, [0, 1, 2, 3, 4].map((n) => variable(`shade-${n}-text`)));
    assert.equal(EXPORT_PALETTE.text, variable('text'));
    assert.equal(EXPORT_PALETTE.accent, variable('accent'));
    assert.equal(EXPORT_PALETTE.maskedFill, variable('masked-bg'));
    assert.equal(EXPORT_PALETTE.maskedText, variable('masked-text'));
  });
});
