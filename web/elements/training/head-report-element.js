// <attention-head-report>: what the head learned at the step the trainer shows, measured by
// running the model with that step's parameters on every held-out sentence (in the training
// engine, off the page's thread: the latest step directly, an earlier one by replaying the run
// from its nearest checkpoint, which gives that step's parameters bit for bit) and folding the
// weights with head-report.js. Measured whenever the trainer pauses, takes a single step or is scrubbed;
// while it trains, the last measurement stays, marked with its step.

import { TrainingPiece } from './training-base.js';
import { describeHead, foldHeadReport } from './head-report.js';

export class AttentionHeadReportElement extends TrainingPiece {
  #wanted = null;     // { run, step } being measured
  #measured = null;   // { run, step } shown
  #reports = new WeakMap();  // run -> Map(step -> folded report)
  #body;
  #status;

  constructor() {
    super();
    this.#status = this.make('p', 'note');
    this.#status.setAttribute('role', 'status');
    this.#body = this.make('ul', 'report');
    this.body.append(this.#body, this.#status);
  }

  /** The folded numbers of the measurement shown (null before the first). */
  report = null;

  /** The step the report shown describes (null before the first). */
  get step() {
    return this.#measured?.step ?? null;
  }

  draw({ run, trainer, view, live }) {
    if (trainer.playing && live) {
      this.#wanted = null;
      this.#status.textContent = this.report
        ? `Measured at step ${this.#measured.step}; measured again when training pauses.`
        : 'Measured when training pauses.';
      return;
    }
    const { step } = view;
    if (this.#measured?.run === run && this.#measured.step === step) return;
    if (this.#wanted?.run === run && this.#wanted.step === step) return;
    const known = this.#reports.get(run)?.get(step);
    if (known) {
      this.#show(run, step, known);
      return;
    }
    this.#wanted = { run, step };
    const sentences = run.state.corpus.held_out.map((sentence) => sentence.split(' '));
    this.#status.textContent = step === run.latest.step
      ? `Measuring step ${step} on ${sentences.length} held-out sentences\u2026`
      : `Measuring step ${step} on ${sentences.length} held-out sentences (replaying the run to that step)\u2026`;
    run.measure(step, sentences).then(({ runs }) => {
      const report = foldHeadReport(runs);
      if (!this.#reports.has(run)) this.#reports.set(run, new Map());
      this.#reports.get(run).set(step, report);
      if (this.#wanted?.run === run && this.#wanted.step === step) this.#show(run, step, report);
    }, (error) => {
      if (this.#wanted?.run !== run || this.#wanted.step !== step) return;
      this.#wanted = null;
      this.#status.textContent = `Could not measure step ${step}: ${error?.message ?? error}`;
    });
  }

  #show(run, step, report) {
    this.#wanted = null;
    this.#measured = { run, step };
    this.report = report;
    const items = report.heads.map((_, h) => {
      const prefix = report.heads.length > 1 ? `Head ${h + 1}: ` : '';
      return this.make('li', '', prefix + describeHead(report, h));
    });
    this.#body.replaceChildren(...items);
    this.#status.textContent = `Measured at step ${step}, on the held-out sentences the model never trained on.`;
    this.dispatchEvent(new CustomEvent('attention-report', { bubbles: true, composed: true, detail: { report, step } }));
  }
}
