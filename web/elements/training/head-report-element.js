// <attention-head-report>: what the head learned, measured by running the model with the
// latest parameters on every held-out sentence (a few sentences per animation frame, so the
// page never stalls) and folding the weights with head-report.js. Measured again whenever the
// trainer pauses or takes a single step; while it trains, the last measurement stays, marked
// with its step.

import { TrainingPiece } from './training-base.js';
import { describeHead, foldHeadReport } from './head-report.js';

/** Milliseconds of held-out runs per animation frame. */
const BUDGET = 8;

export class AttentionHeadReportElement extends TrainingPiece {
  #measuring = null;  // {step, runs, next, frame}
  #measured = -1;
  #body;
  #status;

  constructor() {
    super();
    this.#status = this.make('p', 'note');
    this.#status.setAttribute('role', 'status');
    this.#body = this.make('ul', 'report');
    this.frame.append(this.#body, this.#status);
  }

  /** The folded numbers of the last completed measurement (null before the first). */
  report = null;

  draw({ run, trainer }) {
    const latest = run.latest.step;
    if (trainer.playing) {
      if (this.#measuring) this.#stop();
      this.#status.textContent = this.report
        ? `Measured at step ${this.#measured}; measured again when training pauses.`
        : 'Measured when training pauses.';
      return;
    }
    if (this.#measured === latest && this.report && run === this.run) return;
    if (this.#measuring?.step === latest && this.#measuring.run === run) return;
    this.#start(run, latest);
  }

  #start(run, step) {
    this.#stop();
    this.run = run;
    const sentences = run.state.corpus.held_out.map((sentence) => sentence.split(' '));
    this.#measuring = { run, step, sentences, runs: [], next: 0, frame: 0 };
    this.#status.textContent = `Measuring step ${step} on ${sentences.length} held-out sentences\u2026`;
    this.#measuring.frame = requestAnimationFrame(this.#slice);
  }

  #stop() {
    if (this.#measuring) cancelAnimationFrame(this.#measuring.frame);
    this.#measuring = null;
  }

  #slice = () => {
    const job = this.#measuring;
    if (!job) return;
    const start = performance.now();
    try {
      while (job.next < job.sentences.length && (job.next === 0 || performance.now() - start < BUDGET)) {
        const words = job.sentences[job.next];
        const layer = job.run.attend(words);
        job.runs.push({ words, weights: layer.heads.map((head) => head.trace.weights) });
        job.next += 1;
      }
    } catch (error) {
      this.#stop();
      this.#status.textContent = `Could not measure: ${error?.message ?? error}`;
      return;
    }
    if (job.next < job.sentences.length) {
      job.frame = requestAnimationFrame(this.#slice);
      return;
    }
    this.#measuring = null;
    this.#measured = job.step;
    this.report = foldHeadReport(job.runs);
    const items = this.report.heads.map((_, h) => {
      const prefix = this.report.heads.length > 1 ? `Head ${h + 1}: ` : '';
      return this.make('li', '', prefix + describeHead(this.report, h));
    });
    this.#body.replaceChildren(...items);
    this.#status.textContent = `Measured at step ${job.step}, on the held-out sentences the model never trained on.`;
    this.dispatchEvent(new CustomEvent('attention-report', { bubbles: true, composed: true, detail: { report: this.report, step: job.step } }));
  };
}
