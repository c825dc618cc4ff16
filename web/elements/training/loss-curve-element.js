// <attention-loss-curve>: the training and held-out loss of every recorded step, with the
// unigram and bigram baselines drawn across, and a line at the step the trainer shows (drawn
// with uPlot, through web/vendor/uplot.js). The picture has a text alternative and a written
// summary of the same numbers; the legend is the element's own list.

import uPlot from '../../vendor/uplot.js';
import { TrainingPiece } from './training-base.js';
import { formatLoss } from './training-format.js';
import { counted } from '../../views/format.js';

const HEIGHT = 240;

export class AttentionLossCurveElement extends TrainingPiece {
  #plot = null;
  #holder;
  #summary;
  #legend;
  #history = null;
  #columns = null;   // uPlot's data: step, training, held-out, unigram, bigram
  #shownStep = 0;
  #resize = null;

  constructor() {
    super();
    this.#holder = this.make('div', 'curve');
    this.#holder.setAttribute('role', 'img');
    this.#legend = this.make('ul', 'legend');
    this.#summary = this.make('p', 'curve-summary');
    this.#summary.setAttribute('aria-live', 'off');
  }

  connectedCallback() {
    super.connectedCallback();
    if (typeof ResizeObserver === 'function' && !this.#resize) {
      this.#resize = new ResizeObserver(() => this.#plot?.setSize({ width: this.#width(), height: HEIGHT }));
      this.#resize.observe(this);
    }
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.#resize?.disconnect();
    this.#resize = null;
  }

  #width() {
    return Math.max(200, Math.floor(this.body.clientWidth || this.clientWidth || 600));
  }

  #colours() {
    const style = getComputedStyle(this.body);
    const read = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
    return {
      text: read('--text', '#1d2330'),
      muted: read('--muted', '#59606e'),
      rule: read('--rule', '#d9dde4'),
      train: read('--accent', '#1f5fa8'),
      heldOut: read('--attention-alert-rule', '#b35c00'),
    };
  }

  draw({ view, run }) {
    const { history, state } = run;
    const { unigram, bigram } = state.baselines;
    // One plot for the element's life: a new run (a reset) only brings new data, so a reset
    // costs the page no new canvas, axes and layout.
    if (!this.#plot) this.#create();
    if (this.#history !== history || history.length < this.#columns[0].length) {
      this.#history = history;
      this.#columns = [[], [], [], [], []];
    }
    this.#shownStep = view.step;
    const columns = this.#columns;
    if (history.length !== columns[0].length) {
      // The columns grow by the steps taken since the last frame: a long run costs the page no
      // new arrays of every step each frame (uPlot redraws the same arrays).
      for (let i = columns[0].length; i < history.length; i += 1) {
        const { step, loss, heldOutLoss } = history[i];
        columns[0].push(step);
        columns[1].push(loss);
        columns[2].push(heldOutLoss);
        columns[3].push(unigram);
        columns[4].push(bigram);
      }
      this.#plot.setData(columns);
    } else {
      this.#plot.redraw(false, false);
    }
    const latest = history[history.length - 1];
    const text = `Loss at step ${view.step}: training ${formatLoss(view.loss)}, held-out ${formatLoss(view.heldOutLoss)}; `
      + `baselines: unigram ${formatLoss(unigram)}, bigram ${formatLoss(bigram)} (nats per word, ${counted(latest.step, 'step', 'steps')} so far).`;
    this.#summary.textContent = text;
    this.#holder.setAttribute('aria-label', `Loss curve. ${text}`);
  }

  #create() {
    const c = this.#colours();
    const axis = { stroke: c.text, grid: { stroke: c.rule, width: 1 }, ticks: { stroke: c.rule, width: 1 } };
    const series = [
      { label: 'training loss', stroke: c.train, width: 2 },
      { label: 'held-out loss', stroke: c.heldOut, width: 2 },
      { label: `unigram baseline`, stroke: c.muted, width: 1.5, dash: [8, 5] },
      { label: `bigram baseline`, stroke: c.muted, width: 1.5, dash: [2, 4] },
    ];
    this.#plot = new uPlot({
      width: this.#width(),
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false }, y: { range: (u, low, high) => [0, Math.max(high, 0.5) * 1.05] } },
      axes: [{ ...axis, label: 'step' }, { ...axis, label: 'loss (nats)', size: 56 }],
      series: [{}, ...series.map((s) => ({ ...s, points: { show: false } }))],
      hooks: { draw: [(u) => this.#marker(u, c.text)] },
    }, [[0], [null], [null], [null], [null]], this.#holder);
    this.#legend.replaceChildren(...series.map((s) => {
      const item = this.make('li');
      const swatch = this.make('span', `swatch${s.dash ? ' dashed' : ''}`);
      swatch.style.color = s.stroke;
      item.append(swatch, s.label);
      return item;
    }));
    this.body.replaceChildren(this.#holder, this.#legend, this.#summary);
  }

  // The step the trainer shows, as a vertical line (where the slider is).
  #marker(u, colour) {
    const x = u.valToPos(this.#shownStep, 'x', true);
    if (!Number.isFinite(x)) return;
    const { ctx } = u;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  }
}
