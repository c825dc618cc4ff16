// The arrows view: every token on one line, and from each token an arrow to every token it
// can see, as thick as the weight the core gave that pair. A token's arrow to itself curls
// round above it. Arrows to earlier tokens arc above the line and arrows to later ones (only
// possible without the causal mask) arc below, so the causal mask reads at a glance: nothing
// below the line. Built as SVG with the `doc` it is handed; token text goes in as text. Only
// geometry is worked out here; every weight arrives from the core's trace.

import { formatFixed } from './format.js';
import { tokenText } from './token-text.js';

const SVG = 'http://www.w3.org/2000/svg';

/** Stroke width of an arrow of weight w: 0.75 + 7.25 w (so weight 1 draws 8 units wide). */
export const arrowWidth = (weight) => 0.75 + 7.25 * weight;

const LABEL_HEIGHT = 28;
const MARGIN = 10;

function svg(doc, tag, attributes = {}) {
  const node = doc.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

const round = (x) => Math.round(x * 100) / 100;

/**
 * Where the tokens sit: one slot per token, wide enough for the longest one (estimated from
 * its length, since nothing is measured before the SVG is on screen).
 * @param {string[]} tokens
 */
export function arrowLayout(tokens) {
  const longest = Math.max(...tokens.map((token) => [...token].length));
  const slot = Math.min(160, Math.max(84, longest * 8.5 + 28));
  const x = tokens.map((_, i) => MARGIN + slot * (i + 0.5));
  return { slot, x, width: 2 * MARGIN + slot * tokens.length };
}

// The height of an arc between slots `distance` apart; a curl (distance 0) is small.
function arcHeight(distance, slot) {
  return distance === 0 ? 34 : Math.min(30 + distance * slot * 0.32, 30 + 6 * slot * 0.32);
}

// Everything the arrows view draws for `trace`, as plain data: the picture's size, each arrow's
// class, title and paths, each token label's place. renderArrows builds it; updateArrows writes
// it into a picture already on screen.
function arrowPicture(trace, { row = null, weightDecimals = 4 } = {}) {
  const { tokens } = trace;
  const count = tokens.length;
  const { slot, x, width } = arrowLayout(tokens);
  const rows = row === null ? tokens.map((_, i) => i) : [row];

  // Which pairs get an arrow: every pair the mask leaves visible.
  const pairs = [];
  for (const i of rows) {
    for (let j = 0; j < count; j += 1) {
      if (trace.masked[i][j] !== -Infinity) pairs.push([i, j]);
    }
  }
  const tallest = (below) => Math.max(0, ...pairs
    .filter(([i, j]) => (below ? j > i : j <= i))
    .map(([i, j]) => arcHeight(Math.abs(i - j), slot) + arrowWidth(trace.weights[i][j]) * 2));
  const above = tallest(false) + MARGIN;
  const belowHeight = tallest(true);
  const below = belowHeight > 0 ? belowHeight + MARGIN : MARGIN;
  const lineTop = above;                    // arrows above the line end here
  const lineBottom = above + LABEL_HEIGHT;  // and arrows below it start here
  const height = lineBottom + below;

  const arrows = pairs.map(([i, j]) => {
    const weight = trace.weights[i][j];
    const strokeWidth = arrowWidth(weight);
    const head = 5 + strokeWidth * 1.1;   // arrowhead length
    const distance = Math.abs(i - j);
    const rise = arcHeight(distance, slot);
    const goesBelow = j > i;
    const sign = goesBelow ? 1 : -1;      // -1: upwards from the line
    const y0 = goesBelow ? lineBottom : lineTop;
    const inset = slot * 0.14;
    let d;
    let tipX;
    if (distance === 0) {
      // A curl: leaves the left of the token, loops over it, comes down on its right.
      const from = x[i] - inset;
      tipX = x[i] + inset;
      d = `M ${round(from)} ${round(y0)} C ${round(from - 16)} ${round(y0 - rise)} ` +
        `${round(tipX + 16)} ${round(y0 - rise)} ${round(tipX)} ${round(y0 - head)}`;
    } else {
      const from = x[i] + (goesBelow ? inset : -inset);
      tipX = x[j] + (goesBelow ? -inset : inset);
      d = `M ${round(from)} ${round(y0)} C ${round(from)} ${round(y0 + sign * rise)} ` +
        `${round(tipX)} ${round(y0 + sign * rise)} ${round(tipX)} ${round(y0 + sign * head)}`;
    }
    return {
      from: String(i),
      to: String(j),
      className: `arrow${distance === 0 ? ' self' : goesBelow ? ' forward' : ' backward'}`,
      title: `${tokenText(tokens[i])} \u2192 ${tokenText(tokens[j])}: weight ${formatFixed(weight, weightDecimals)}`,
      line: d,
      strokeWidth: String(round(strokeWidth)),
      head: `M ${round(tipX)} ${round(y0)} L ${round(tipX - head * 0.6)} ${round(y0 + sign * head)} ` +
        `L ${round(tipX + head * 0.6)} ${round(y0 + sign * head)} Z`,
    };
  });
  const labels = tokens.map((token, i) => ({
    token,
    x: String(round(x[i])),
    y: String(round(lineTop + LABEL_HEIGHT / 2)),
    className: row === i ? 'token focus' : 'token',
  }));
  const summary = row === null
    ? `Arrows from each token to the tokens it can see, thicker for a larger weight.`
    : `Arrows from ${tokenText(tokens[row])} to the tokens it can see, thicker for a larger weight.`;
  return { width: String(round(width)), height: String(round(height)), summary, arrows, labels };
}

/**
 * @param {Document} doc
 * @param {object} trace  the core's trace
 * @param {{row?: number | null, weightDecimals?: number}} [options]
 *        row: only the arrows of that query token (null: every token's)
 * @returns {SVGSVGElement}
 */
export function renderArrows(doc, trace, options = {}) {
  const picture = arrowPicture(trace, options);
  const root = svg(doc, 'svg', {
    viewBox: `0 0 ${picture.width} ${picture.height}`,
    width: picture.width,
    height: picture.height,
    class: 'arrows',
    role: 'img',
    part: 'arrows',
  });
  root.setAttribute('aria-label', picture.summary);

  const arrows = svg(doc, 'g', { class: 'arrow-set' });
  for (const arrow of picture.arrows) {
    const group = svg(doc, 'g', { class: arrow.className, 'data-from': arrow.from, 'data-to': arrow.to });
    const title = svg(doc, 'title');
    title.textContent = arrow.title;
    group.append(
      title,
      svg(doc, 'path', { class: 'arrow-line', d: arrow.line, 'stroke-width': arrow.strokeWidth }),
      svg(doc, 'path', { class: 'arrow-head', d: arrow.head }),
    );
    arrows.append(group);
  }
  root.append(arrows);

  const labels = svg(doc, 'g', { class: 'arrow-tokens' });
  picture.labels.forEach((spot, i) => {
    const label = svg(doc, 'text', {
      x: spot.x,
      y: spot.y,
      'text-anchor': 'middle',
      'dominant-baseline': 'central',
      class: spot.className,
      'data-token': i,
    });
    label.textContent = spot.token;
    labels.append(label);
  });
  root.append(labels);
  return root;
}

function setAttributeIfChanged(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * Brings an arrows view made by renderArrows up to `trace` in place, when it draws the same
 * arrows between the same tokens (a changed number moves and thickens arrows, nothing more).
 * Returns false, touching nothing, when the arrows or tokens differ: build a new view then.
 * @param {SVGSVGElement} root
 * @param {object} trace
 * @param {{row?: number | null, weightDecimals?: number}} [options]  as for renderArrows
 */
export function updateArrows(root, trace, options = {}) {
  const picture = arrowPicture(trace, options);
  const groups = root.querySelectorAll('g.arrow');
  const labels = root.querySelectorAll('text.token');
  if (groups.length !== picture.arrows.length || labels.length !== picture.labels.length) return false;
  const sameArrows = picture.arrows.every((arrow, n) => groups[n].getAttribute('data-from') === arrow.from &&
    groups[n].getAttribute('data-to') === arrow.to && groups[n].getAttribute('class') === arrow.className);
  const sameLabels = picture.labels.every((spot, n) => labels[n].textContent === spot.token &&
    labels[n].getAttribute('class') === spot.className);
  if (!sameArrows || !sameLabels) return false;
  setAttributeIfChanged(root, 'viewBox', `0 0 ${picture.width} ${picture.height}`);
  setAttributeIfChanged(root, 'width', picture.width);
  setAttributeIfChanged(root, 'height', picture.height);
  setAttributeIfChanged(root, 'aria-label', picture.summary);
  picture.arrows.forEach((arrow, n) => {
    const [title, line, head] = groups[n].children;
    if (title.textContent !== arrow.title) title.textContent = arrow.title;
    setAttributeIfChanged(line, 'd', arrow.line);
    setAttributeIfChanged(line, 'stroke-width', arrow.strokeWidth);
    setAttributeIfChanged(head, 'd', arrow.head);
  });
  picture.labels.forEach((spot, n) => {
    setAttributeIfChanged(labels[n], 'x', spot.x);
    setAttributeIfChanged(labels[n], 'y', spot.y);
  });
  return true;
}
