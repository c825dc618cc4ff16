// The benchmark page: reads benchmark-index.json, which the build always writes, then fetches
// the result documents it names (benchmark-results-node.json, benchmark-results-chromium.json,
// written next to the site by scripts/bench) and draws them as SVG charts and tables. Reading
// the index first means a site without results makes no failed requests. The renderers are
// pure: they take the `doc` (a DOM Document) to build with and the parsed results, and return
// elements.

export const INDEX_FILE = 'benchmark-index.json';
const INDEX_SCHEMA = 'attention-by-hand/benchmark-index@1';

const SVG = 'http://www.w3.org/2000/svg';

// Our SIMD kernels in strong, distinct hues with solid or long-dashed lines; our scalar code (the
// scalar backend's kernels, the scalar build) in pale blues; each peer family in its own hue
// (onnxruntime orange, tfjs green, plain JS grey). Dashes tell series of one family apart in
// greyscale too.
const OURS_SIMD_COLOURS = ['#0b3d91', '#6a3d9a', '#0f7f8c', '#c2185b'];
const OURS_SCALAR_COLOURS = ['#7f9cc4', '#9e9ac8', '#6fa8b8', '#a7b5c9'];
const PEER_COLOURS = {
  'ort-fused': '#b35c00',
  'ort-decomposed': '#e08a2e',
  'tfjs-transposeB': '#7cb342',
  'tfjs-transpose': '#2e7d32',
  'plain-js': '#6d6d6d',
};
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

function element(doc, tag, attributes = {}, children = []) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of [].concat(children)) node.append(child);
  return node;
}

function svgElement(doc, tag, attributes = {}, children = []) {
  const node = doc.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of [].concat(children)) node.append(child);
  return node;
}

function formatNumber(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

function formatTime(ms) {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs`;
  if (ms < 1000) return `${ms.toPrecision(4)} ms`;
  return `${(ms / 1000).toPrecision(4)} s`;
}

/** Colour, dash and weight of each implementation, stable within one result document. */
export function seriesStyles(results) {
  const styles = new Map();
  const counters = { simd: 0, scalar: 0, peer: 0 };
  for (const impl of results.implementations) {
    if (impl.group === 'ours') {
      const scalar = impl.isa === 'scalar' || impl.build === 'scalar';
      const kind = scalar ? 'scalar' : 'simd';
      const n = counters[kind]++;
      const colours = scalar ? OURS_SCALAR_COLOURS : OURS_SIMD_COLOURS;
      styles.set(impl.id, {
        colour: colours[n % colours.length],
        dash: scalar ? DASHES[(n % 3) + 1] : DASHES[Math.floor(n / colours.length) % DASHES.length],
        width: scalar ? 1.5 : 2.5,
      });
    } else {
      styles.set(impl.id, {
        colour: PEER_COLOURS[impl.id] ?? '#8a6d3b', dash: DASHES[(counters.peer++ % 2) + 1], width: 1.75,
      });
    }
  }
  return styles;
}

function niceStep(max) {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

/**
 * Useful GFLOP/s against T (log scale) for one head size: one line per implementation and the
 * measured peak as a dashed line.
 */
export function renderChart(doc, results, d, styles) {
  const rows = results.results.filter((r) => r.d === d && r.status === 'ok');
  const sizes = [...new Set(rows.map((r) => r.t))].sort((a, b) => a - b);
  const width = 720;
  const height = 380;
  const margin = { top: 20, right: 24, bottom: 48, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const peak = results.peak?.gflops;
  const top = Math.max(...rows.map((r) => r.useful_gflops), Number.isFinite(peak) ? peak : 0, 1);
  const step = niceStep(top * 1.05);
  const yMax = Math.ceil((top * 1.05) / step) * step;
  const logMin = Math.log2(sizes[0]);
  const logMax = Math.log2(sizes[sizes.length - 1]);
  const x = (t) => margin.left + (logMax === logMin ? plotWidth / 2 : ((Math.log2(t) - logMin) / (logMax - logMin)) * plotWidth);
  const y = (g) => margin.top + plotHeight - (g / yMax) * plotHeight;

  const titleId = `chart-${results.environment.name}-${d}-title`;
  const svg = svgElement(doc, 'svg', {
    viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': titleId, class: 'bench-chart',
  });
  svg.append(svgElement(doc, 'title', { id: titleId }, [
    `Useful GFLOP/s against sequence length T, d = ${d}, ${results.environment.name}; ` +
    `the dashed line is the measured SIMD128 peak, ${formatNumber(peak)} GFLOP/s.`,
  ]));
  const grid = svgElement(doc, 'g', { class: 'grid' });
  for (let g = 0; g <= yMax + 1e-9; g += step) {
    grid.append(svgElement(doc, 'line', { x1: margin.left, x2: margin.left + plotWidth, y1: y(g), y2: y(g) }));
    grid.append(svgElement(doc, 'text', { x: margin.left - 8, y: y(g) + 4, 'text-anchor': 'end' }, [String(+g.toFixed(6))]));
  }
  for (const t of sizes) {
    grid.append(svgElement(doc, 'line', { x1: x(t), x2: x(t), y1: margin.top, y2: margin.top + plotHeight, class: 'tick' }));
    grid.append(svgElement(doc, 'text', { x: x(t), y: margin.top + plotHeight + 18, 'text-anchor': 'middle' },
      [t >= 1024 ? `${t / 1024}Ki` : String(t)]));
  }
  grid.append(svgElement(doc, 'text', { x: margin.left + plotWidth / 2, y: height - 8, 'text-anchor': 'middle', class: 'axis-label' },
    ['sequence length T (log scale)']));
  grid.append(svgElement(doc, 'text', {
    x: 14, y: margin.top + plotHeight / 2, 'text-anchor': 'middle', class: 'axis-label',
    transform: `rotate(-90 14 ${margin.top + plotHeight / 2})`,
  }, ['useful GFLOP/s']));
  svg.append(grid);

  if (Number.isFinite(peak)) {
    svg.append(svgElement(doc, 'line', {
      x1: margin.left, x2: margin.left + plotWidth, y1: y(peak), y2: y(peak), class: 'peak-line',
    }));
    svg.append(svgElement(doc, 'text', { x: margin.left + plotWidth, y: y(peak) - 6, 'text-anchor': 'end', class: 'peak-label' },
      [`SIMD128 peak ${formatNumber(peak)} GFLOP/s`]));
  }

  for (const impl of results.implementations) {
    const points = rows.filter((r) => r.implementation === impl.id).sort((a, b) => a.t - b.t);
    if (!points.length) continue;
    const style = styles.get(impl.id);
    const series = svgElement(doc, 'g', { class: `series ${impl.group}`, 'data-implementation': impl.id });
    series.append(svgElement(doc, 'polyline', {
      points: points.map((r) => `${x(r.t).toFixed(1)},${y(r.useful_gflops).toFixed(1)}`).join(' '),
      fill: 'none', stroke: style.colour, 'stroke-width': style.width,
      ...(style.dash ? { 'stroke-dasharray': style.dash } : {}),
    }));
    for (const r of points) {
      series.append(svgElement(doc, 'circle', {
        cx: x(r.t).toFixed(1), cy: y(r.useful_gflops).toFixed(1), r: style.width + 1, fill: style.colour,
      }, [svgElement(doc, 'title', {}, [`${impl.id}, T = ${r.t}: ${formatNumber(r.useful_gflops, 2)} GFLOP/s, ${formatTime(r.time_ms)}`])]));
    }
    svg.append(series);
  }
  return svg;
}

function legend(doc, results, styles) {
  const list = element(doc, 'ul', { class: 'bench-legend' });
  for (const impl of results.implementations) {
    if (!results.results.some((r) => r.implementation === impl.id && r.status === 'ok')) continue;
    const style = styles.get(impl.id);
    const swatch = svgElement(doc, 'svg', { width: 28, height: 10, 'aria-hidden': 'true' }, [
      svgElement(doc, 'line', {
        x1: 1, x2: 27, y1: 5, y2: 5, stroke: style.colour, 'stroke-width': style.width + 0.5,
        ...(style.dash ? { 'stroke-dasharray': style.dash } : {}),
      }),
    ]);
    list.append(element(doc, 'li', {}, [swatch, element(doc, 'code', {}, [impl.id]), ` ${impl.label}`]));
  }
  return list;
}

function numbersTable(doc, results, d) {
  const rows = results.results.filter((r) => r.d === d);
  const sizes = [...new Set(rows.filter((r) => r.status === 'ok').map((r) => r.t))].sort((a, b) => a - b);
  const table = element(doc, 'table', { class: 'bench-table' });
  table.append(element(doc, 'caption', {}, [`Useful GFLOP/s (median time), d = ${d}`]));
  const head = element(doc, 'tr', {}, [element(doc, 'th', { scope: 'col' }, ['implementation'])]);
  for (const t of sizes) head.append(element(doc, 'th', { scope: 'col' }, [`T = ${t}`]));
  table.append(element(doc, 'thead', {}, [head]));
  const body = element(doc, 'tbody');
  for (const impl of results.implementations) {
    const mine = rows.filter((r) => r.implementation === impl.id);
    if (!mine.length) continue;
    const tr = element(doc, 'tr', {}, [element(doc, 'th', { scope: 'row' }, [element(doc, 'code', {}, [impl.id])])]);
    for (const t of sizes) {
      const r = mine.find((x) => x.t === t);
      let text = '';
      if (r?.status === 'ok') text = `${formatNumber(r.useful_gflops, 2)} (${formatTime(r.time_ms)})`;
      else if (r) text = 'failed';
      const cell = element(doc, 'td', {}, [text]);
      if (r && r.status !== 'ok') cell.title = r.error ?? '';
      tr.append(cell);
    }
    body.append(tr);
  }
  table.append(body);
  return element(doc, 'div', { class: 'table-scroll' }, [table]);
}

function traceTable(doc, results) {
  const table = element(doc, 'table', { class: 'bench-table' });
  table.append(element(doc, 'caption', {}, ['The complete trace of the article\'s inputs against one call of each implementation']));
  table.append(element(doc, 'thead', {}, [element(doc, 'tr', {}, ['input', 'T × d', 'implementation', 'µs per call']
    .map((label) => element(doc, 'th', { scope: 'col' }, [label])))]));
  const body = element(doc, 'tbody');
  for (const r of results.trace) {
    body.append(element(doc, 'tr', {}, [
      element(doc, 'td', {}, [r.what]),
      element(doc, 'td', {}, [`${r.t} × ${r.d}`]),
      element(doc, 'td', {}, [element(doc, 'code', {}, [r.implementation])]),
      element(doc, 'td', {}, [r.status === 'ok' ? formatNumber(r.us_per_call, r.us_per_call < 10 ? 2 : 1) : 'failed']),
    ]));
  }
  table.append(body);
  return element(doc, 'div', { class: 'table-scroll' }, [table]);
}

/** The headline of one run: our best against the best peer, at each size, for the first d. */
export function summarise(results) {
  const ok = results.results.filter((r) => r.status === 'ok');
  const ours = new Set(results.implementations.filter((i) => i.group === 'ours').map((i) => i.id));
  const lines = [];
  for (const d of [...new Set(ok.map((r) => r.d))]) {
    for (const t of [...new Set(ok.filter((r) => r.d === d).map((r) => r.t))].sort((a, b) => a - b)) {
      const here = ok.filter((r) => r.d === d && r.t === t);
      const best = (list) => list.reduce((a, b) => (b.useful_gflops > (a?.useful_gflops ?? -1) ? b : a), null);
      const bestOurs = best(here.filter((r) => ours.has(r.implementation)));
      const bestPeer = best(here.filter((r) => !ours.has(r.implementation)));
      if (bestOurs && bestPeer) {
        lines.push({ t, d, ours: bestOurs, peer: bestPeer, ratio: bestPeer.time_ms / bestOurs.time_ms });
      }
    }
  }
  return lines;
}

/** Everything the page shows for one result document. */
export function renderRun(doc, results, where) {
  const section = element(doc, 'section', { class: 'bench-run', 'aria-labelledby': `run-${results.environment.name}` });
  section.append(element(doc, 'h2', { id: `run-${results.environment.name}` }, [`In ${where}`]));
  const env = results.environment;
  section.append(element(doc, 'p', {}, [
    `${env.runtime}${env.cpu ? ` on ${env.cpu}` : ''}, one thread, mask ${results.options.mask}, ` +
    `measured ${env.started?.slice(0, 10) ?? ''}. WebAssembly SIMD128 peak in this run: `,
    element(doc, 'strong', {}, [`${formatNumber(results.peak?.gflops)} GFLOP/s`]),
    `. Medians of ${results.options.reps} rounds${results.options.quick ? ' (a quick run)' : ''}.`,
  ]));
  for (const warning of results.warnings ?? []) {
    section.append(element(doc, 'p', { class: 'bench-warning' }, [element(doc, 'strong', {}, ['Warning: ']), `${warning}.`]));
  }
  const summary = summarise(results).filter((line) => line.t >= 256);
  if (summary.length) {
    const list = element(doc, 'ul', { class: 'bench-summary' });
    for (const line of summary) {
      list.append(element(doc, 'li', {}, [
        `T = ${line.t}, d = ${line.d}: our best, `, element(doc, 'code', {}, [line.ours.implementation]),
        `, ${formatNumber(line.ours.useful_gflops)} GFLOP/s (${formatNumber(100 * (line.ours.peak_share ?? NaN), 0)} % of peak), ` +
        `${line.ratio.toFixed(2)}× the best peer, `, element(doc, 'code', {}, [line.peer.implementation]),
        ` (${formatNumber(line.peer.useful_gflops)} GFLOP/s).`,
      ]));
    }
    section.append(list);
  }
  const styles = seriesStyles(results);
  section.append(element(doc, 'h3', {}, ['Implementations']));
  section.append(legend(doc, results, styles));
  for (const d of [...new Set(results.results.map((r) => r.d))]) {
    if (!results.results.some((r) => r.d === d && r.status === 'ok')) continue;
    section.append(element(doc, 'h3', {}, [`Head size d = ${d}`]));
    section.append(element(doc, 'figure', { class: 'bench-figure' }, [renderChart(doc, results, d, styles)]));
    section.append(numbersTable(doc, results, d));
  }
  if (results.trace?.length) {
    section.append(element(doc, 'h3', {}, ['A whole trace, the way the walkthrough computes it']));
    section.append(element(doc, 'p', {}, [
      'ours:trace and ours:run-json compute every intermediate the walkthrough prints, not only the ' +
      'output: ours:trace through a tracer (attention.tracer(), typed arrays), ours:run-json through ' +
      'attention.run() (JSON).',
    ]));
    section.append(traceTable(doc, results));
  }
  if (results.notes?.length) {
    section.append(element(doc, 'ul', { class: 'bench-notes' }, results.notes.map((note) => element(doc, 'li', {}, [note]))));
  }
  return section;
}

/**
 * Fetches the result documents the index names. Resolves to { runs, problems }: a document
 * that is named but cannot be read or is not a result document is a problem, named in the page.
 * Throws when the index itself cannot be read.
 */
export async function loadResults(fetchImpl = fetch, base = import.meta.url) {
  const indexResponse = await fetchImpl(new URL(INDEX_FILE, base), { cache: 'no-cache' });
  if (!indexResponse.ok) throw new Error(`${INDEX_FILE} answered ${indexResponse.status}`);
  const index = await indexResponse.json();
  if (index?.schema !== INDEX_SCHEMA || !Array.isArray(index.runs)) {
    throw new Error(`${INDEX_FILE} is not an index of benchmark results (schema ${INDEX_SCHEMA})`);
  }
  const runs = [];
  const problems = [];
  for (const { file, where } of index.runs) {
    try {
      const response = await fetchImpl(new URL(file, base), { cache: 'no-cache' });
      if (!response.ok) throw new Error(`answered ${response.status}`);
      const results = await response.json();
      if (results?.schema !== 'attention-by-hand/benchmark@1') throw new Error('is not a benchmark result document');
      runs.push({ where, file, results });
    } catch (error) {
      problems.push(`${file}: ${error.message}`);
    }
  }
  return { runs, problems };
}

const HOW_TO_MEASURE = 'Run scripts/bench: it measures in Node and in headless Chromium and writes ' +
  'benchmark-results-node.json and benchmark-results-chromium.json next to this page.';

async function main() {
  const status = document.getElementById('load-status');
  const problem = document.getElementById('load-problem');
  const container = document.getElementById('benchmark-results');
  const { runs, problems } = await loadResults();
  if (problems.length) {
    problem.textContent = `Some results could not be read: ${problems.join('; ')}.`;
    problem.hidden = false;
  }
  if (!runs.length) {
    if (!problems.length) {
      problem.textContent = `No benchmark results here yet. ${HOW_TO_MEASURE}`;
      problem.hidden = false;
    }
    status.textContent = 'No results to show.';
    return;
  }
  for (const run of runs) container.append(renderRun(document, run.results, run.where));
  status.textContent = `Showing ${runs.map((run) => run.file).join(' and ')}.`;
  status.classList.add('done');
}

if (typeof document !== 'undefined' && document.getElementById('benchmark-results')) {
  main().catch((error) => {
    const problem = document.getElementById('load-problem');
    problem.textContent = `The results could not be shown: ${error.message}`;
    problem.hidden = false;
  });
}
