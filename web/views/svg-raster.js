// Turns one of the page's exported SVG files (svg-export.js) into a PNG, in the browser, with a
// canvas. The obvious way, loading the SVG into an <img> from a blob: URL, is blocked by the
// page's Content-Security-Policy (images only from 'self'), so the SVG is parsed and painted
// element by element instead. Only what the exported files use is supported: <g>, <rect>,
// <line>, <path>, <text>, and <pattern> fills; presentation attributes, no CSS, no transforms
// other than a pattern's rotate().

const INHERITED = ['fill', 'fill-opacity', 'stroke', 'stroke-opacity', 'stroke-width', 'stroke-linecap',
  'font-family', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline'];
const DEFAULTS = {
  fill: '#000000', 'fill-opacity': '1', stroke: 'none', 'stroke-opacity': '1', 'stroke-width': '1',
  'stroke-linecap': 'butt', 'font-family': 'sans-serif', 'font-size': '16', 'font-weight': '400',
  'text-anchor': 'start', 'dominant-baseline': 'auto',
};

const number = (element, name, fallback = 0) => {
  const value = Number.parseFloat(element.getAttribute(name) ?? '');
  return Number.isFinite(value) ? value : fallback;
};

function inheritedStyle(element, parent) {
  const style = { ...parent };
  for (const name of INHERITED) {
    const value = element.getAttribute(name);
    if (value !== null) style[name] = value;
  }
  return style;
}

// A paint for fill or stroke: a colour, a pattern (url(#id)), or null for none.
function paintOf(context, value, patterns) {
  if (!value || value === 'none') return null;
  const reference = /^url\(#([^)]+)\)$/u.exec(value);
  if (reference) return patterns.get(reference[1]) ?? null;
  return value;
}

function drawShape(context, style, patterns, { fill, stroke }) {
  const fillPaint = paintOf(context, style.fill, patterns);
  if (fillPaint && fill) {
    context.globalAlpha = Number(style['fill-opacity']);
    context.fillStyle = fillPaint;
    fill();
  }
  const strokePaint = paintOf(context, style.stroke, patterns);
  if (strokePaint && stroke) {
    context.globalAlpha = Number(style['stroke-opacity']);
    context.strokeStyle = strokePaint;
    context.lineWidth = Number(style['stroke-width']);
    context.lineCap = style['stroke-linecap'];
    stroke();
  }
  context.globalAlpha = 1;
}

const ALIGN = { start: 'left', middle: 'center', end: 'right' };
const BASELINE = { central: 'middle', middle: 'middle', auto: 'alphabetic', hanging: 'hanging' };

function paintElement(context, element, parentStyle, patterns) {
  const tag = element.localName;
  if (tag === 'title' || tag === 'desc' || tag === 'defs' || tag === 'pattern') return;
  const style = inheritedStyle(element, parentStyle);
  switch (tag) {
    case 'svg':
    case 'g':
      for (const child of element.children) paintElement(context, child, style, patterns);
      return;
    case 'rect': {
      const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((name) => number(element, name));
      drawShape(context, style, patterns, {
        fill: () => context.fillRect(x, y, w, h),
        stroke: () => context.strokeRect(x, y, w, h),
      });
      return;
    }
    case 'line': {
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((name) => number(element, name));
      drawShape(context, { ...style, fill: 'none' }, patterns, {
        stroke: () => {
          context.beginPath();
          context.moveTo(x1, y1);
          context.lineTo(x2, y2);
          context.stroke();
        },
      });
      return;
    }
    case 'path': {
      const path = new Path2D(element.getAttribute('d') ?? '');
      drawShape(context, style, patterns, {
        fill: () => context.fill(path),
        stroke: () => context.stroke(path),
      });
      return;
    }
    case 'text': {
      const family = style['font-family'];
      context.font = `${style['font-weight']} ${Number.parseFloat(style['font-size'])}px ${family}`;
      context.textAlign = ALIGN[style['text-anchor']] ?? 'left';
      context.textBaseline = BASELINE[style['dominant-baseline']] ?? 'alphabetic';
      const x = number(element, 'x');
      const y = number(element, 'y');
      drawShape(context, style, patterns, { fill: () => context.fillText(element.textContent ?? '', x, y) });
      return;
    }
    default:
      // Anything else is not part of the exported files; skipping it beats failing the PNG.
  }
}

// Each <pattern> painted once into a small canvas and turned into a CanvasPattern.
function buildPatterns(context, root) {
  const patterns = new Map();
  for (const pattern of root.querySelectorAll('pattern[id]')) {
    const width = number(pattern, 'width', 1);
    const height = number(pattern, 'height', 1);
    const tile = new OffscreenCanvas(Math.ceil(width), Math.ceil(height));
    const tileContext = tile.getContext('2d');
    for (const child of pattern.children) paintElement(tileContext, child, { ...DEFAULTS }, new Map());
    const canvasPattern = context.createPattern(tile, 'repeat');
    const rotation = /rotate\(\s*(-?[\d.]+)\s*\)/u.exec(pattern.getAttribute('patternTransform') ?? '');
    if (rotation && canvasPattern) canvasPattern.setTransform(new DOMMatrix().rotate(Number(rotation[1])));
    if (canvasPattern) patterns.set(pattern.getAttribute('id'), canvasPattern);
  }
  return patterns;
}

/**
 * Paints an SVG document (text) onto a canvas `scale` times its size and returns the PNG.
 * @param {string} svgText
 * @param {{scale?: number}} [options]
 * @returns {Promise<Blob>}
 */
export async function svgToPng(svgText, { scale = 2 } = {}) {
  const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.localName !== 'svg' || parsed.querySelector('parsererror')) {
    throw new Error('the SVG to turn into a PNG does not parse');
  }
  const [, , width, height] = (root.getAttribute('viewBox') ?? '').split(/\s+/u).map(Number);
  const canvas = new OffscreenCanvas(Math.ceil(width * scale), Math.ceil(height * scale));
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  paintElement(context, root, { ...DEFAULTS }, buildPatterns(context, root));
  return canvas.convertToBlob({ type: 'image/png' });
}
