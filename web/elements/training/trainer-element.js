// <attention-trainer>: owns one training run and its controls: train, pause, one step, reset,
// speed, learning rate, the reader's sentence and a slider that scrubs back through the
// recorded steps. The pieces (the loss curve, the weights, the grid, the report) follow its
// `attention-change` events and draw `view`, the step the slider shows. A step whose snapshot
// the page no longer holds is asked of the engine, which replays it from its nearest checkpoint
// (api/checkpoint-ladder.js); until it comes, the step shown before stays, and the slider says
// which step is coming.
//
// Training never blocks the page: the optimiser steps run in a module Web Worker
// (api/training-worker.js, through api/training-channel.js), which hands every step over; the
// page records them (api/training-client.js) and draws at most once an animation frame. Where
// no worker can start, the same engine runs on the page in slices of 12 ms. Each trainer has a
// worker of its own (the engine holds one run).
//
// Attributes: seed (whole number, default 1), learning-rate (default 0.03), sentence (words of
// the vocabulary, default "the cat that sat on the mat purrs"), autoplay (start training).

import { loadFullAttention } from '../core-load.js';
import { TrainingElement } from './training-base.js';
import { announceChange } from '../change-event.js';
import { DEFAULT_SENTENCE } from '../../api/training-run.js';
import { ChannelTrainingRun } from '../../api/training-client.js';
import { formatLoss } from './training-format.js';

/** The speeds a reader picks from (the engine's PACES: the time between steps). */
export const SPEEDS = {
  slow: { label: 'Slow (about 6 steps a second)' },
  steady: { label: 'Steady (up to 60 steps a second)' },
  fast: { label: 'Fast (as fast as the trainer goes)' },
};

/** A training engine of its own for one trainer (an engine holds one run): a worker, or the
 * engine on the page where no worker starts, with the core's full build (not in the embed one). */
export function openTrainerChannel() {
  return import('../../api/training-channel.js')
    .then(({ openTrainingChannel }) => openTrainingChannel(loadFullAttention));
}

export class AttentionTrainerElement extends TrainingElement {
  /** @type {ChannelTrainingRun | null} */
  run = null;
  #shown = null;     // the snapshot shown, or null for the latest
  #wanted = null;    // a step asked of the engine, not here yet
  #fetching = false;
  #frame = 0;
  #playing = false;
  #channel = null;
  #resets = 0;
  #nodes = {};
  #markStarted;
  #started = new Promise((resolve) => { this.#markStarted = resolve; });
  #playAsked = false;  // play() was called before the run started

  static get observedAttributes() { return ['seed', 'learning-rate', 'sentence']; }

  constructor() {
    super();
    this.#build();
  }

  /** Resolves once the run has started or the core failed to load (said); asks wait for it. */
  get ready() {
    return this.#started;
  }

  /** Whether the slider is on the latest step (the pieces then follow training live). */
  get live() {
    return this.#shown === null && this.#wanted === null;
  }

  /** The snapshot of the step the pieces show. */
  get view() {
    if (!this.run) return null;
    return this.#shown ?? this.run.latest;
  }

  #follow() {
    this.#shown = null;
    this.#wanted = null;
  }

  get playing() {
    return this.#playing;
  }

  /** Whether a pause or a single step is still on its way back from the engine. */
  get busy() {
    return (this.run?.pending ?? 0) > 0;
  }

  connectedCallback() {
    if (this.run || this.#channel) return;
    this.#channel = openTrainerChannel();
    this.#channel.then((channel) => this.#start(channel)).catch((error) => {
      this.#channel = null;
      this.#say(`The attention core could not be loaded: ${error?.message ?? error}`);
    }).finally(() => this.#markStarted());
  }

  disconnectedCallback() {
    this.pause();
  }

  attributeChangedCallback(name, previous, value) {
    if (!this.run || previous === value) return;
    if (name === 'sentence') this.setSentence(value ?? DEFAULT_SENTENCE);
    else if (name === 'learning-rate') this.setLearningRate(value ?? '0.03');
    else if (name === 'seed') this.reset();
  }

  async #start(channel) {
    const sentence = (this.getAttribute('sentence') ?? DEFAULT_SENTENCE).trim().split(/\s+/u);
    this.#adopt(await ChannelTrainingRun.start(channel, this.#options(), sentence));
    // A bad attribute: the engine used the defaults and says what was wrong.
    if (this.run.notice) this.#say(this.run.notice);
    this.#nodes.rate.value = String(this.run.options.learning_rate ?? 0.03);
    this.#nodes.sentence.value = this.run.sentence.join(' ');
    this.#vocabulary();
    this.#changed();
    if (this.hasAttribute('autoplay')) this.play();
  }

  #adopt(run) {
    this.run = run;
    run.onChange = () => {
      if (run !== this.run) return;
      if (run.stopped && this.#playing) {
        this.#say(run.stopped);
        this.pause();
        return;
      }
      // Steps arrive as the engine takes them: drawn once an animation frame at most.
      if (!this.#frame) this.#frame = requestAnimationFrame(() => { this.#frame = 0; this.#changed(); });
    };
  }

  #options() {
    const options = {};
    const seed = this.getAttribute('seed');
    if (seed !== null) options.seed = Number(seed);
    const rate = this.getAttribute('learning-rate');
    if (rate !== null) options.learning_rate = Number(rate);
    return options;
  }

  // --- what a reader (or a script) can do

  play() {
    this.#playAsked = !this.run;  // before the start: played once started, unless paused first
    if (!this.run) {
      this.ready.then(() => { if (this.#playAsked && this.run) this.play(); });
      return;
    }
    if (this.#playing) return;
    this.#playing = true;
    this.#follow();
    this.#say(null);
    this.run.play(this.#nodes.speed.value);
    this.#syncButtons();
  }

  /** Stops training; resolves once every step the engine took is recorded. */
  async pause() {
    this.#playAsked = false;
    if (!this.#playing) return;
    this.#playing = false;
    this.#syncButtons();
    const { run } = this;
    await run.pause();
    if (run === this.run) this.#changed();
  }

  /** One optimiser step (pausing first). */
  async stepOnce() {
    await this.ready;
    if (!this.run) return;
    await this.pause();
    this.#follow();
    this.#say(null);
    const { run } = this;
    if (!(await run.step())) this.#say(run.stopped);
    if (run === this.run) this.#changed();
  }

  /** Back to the seed's initial parameters, with the learning rate in force. */
  async reset() {
    await this.ready;
    if (!this.run) return;
    await this.pause();
    const seed = this.getAttribute('seed');
    const options = { ...this.run.options, seed: seed === null ? 1 : Number(seed) };
    const previous = this.run;
    const asked = ++this.#resets;
    const fresh = await ChannelTrainingRun.start(await this.#channel, options, previous.sentence);
    if (asked !== this.#resets || previous !== this.run) {
      // A later reset (or another run) took over while this one started.
      fresh.dispose();
      return;
    }
    if (fresh.notice) {
      fresh.dispose();
      this.#say(`${fresh.notice.replace(/ The defaults are shown instead\.$/u, '')} Nothing was changed.`);
    } else {
      previous.dispose();
      this.#adopt(fresh);
      this.#follow();
      this.#say(null);
    }
    this.#changed();
  }

  /** Shows another sentence; a refused one is said, with the vocabulary, and changes nothing. */
  async setSentence(text) {
    await this.ready;
    if (!this.run) return false;
    try {
      await this.run.setSentence(text);
      this.#nodes.sentence.removeAttribute('aria-invalid');
      this.#nodes.sentence.value = this.run.sentence.join(' ');
      this.#say(null);
      this.#changed();
      return true;
    } catch (error) {
      this.#nodes.sentence.setAttribute('aria-invalid', 'true');
      this.#say(error.message);
      this.#nodes.vocabulary.open = true;
      return false;
    }
  }

  /** Changes the learning rate from the next step on; a refused one is said and changes nothing. */
  setLearningRate(text) {
    if (!this.run) {
      this.#say('The trainer is still loading: the learning rate can be changed once it shows step 0.');
      return false;
    }
    try {
      const value = this.run.setLearningRate(text);
      this.#nodes.rate.removeAttribute('aria-invalid');
      this.#nodes.rate.value = String(value);
      this.#say(null);
      return true;
    } catch (error) {
      this.#nodes.rate.setAttribute('aria-invalid', 'true');
      this.#say(error.message);
      return false;
    }
  }

  /** Shows step `index` (0 … the latest); the latest again follows training live. */
  scrubTo(index) {
    if (!this.run) return;
    const last = this.run.latest.step;
    const at = Math.max(0, Math.min(last, Math.round(Number(index)) || 0));
    if (at < last) this.pause();
    const held = at === last ? null : this.run.snapshot(at);
    if (at === last || held) {
      this.#wanted = null;
      this.#shown = held;
    } else {
      this.#wanted = at;
      this.#fetchWanted();
    }
    this.#changed();
  }

  // Asks the engine for the wanted step, one request at a time: a slider dragged far asks for
  // where it stopped, not for every step it passed.
  #fetchWanted() {
    if (this.#fetching) return;
    const { run } = this;
    const step = this.#wanted;
    this.#fetching = true;
    const arrived = (snapshot, error) => {
      this.#fetching = false;
      if (run === this.run && this.#wanted === step) {
        this.#wanted = null;
        if (snapshot) this.#shown = snapshot;
        else this.#say(`Step ${step} could not be replayed: ${error?.message ?? error}`);
        this.#changed();
      } else if (this.#wanted !== null) {
        this.#fetchWanted();
      }
    };
    run.fetchSnapshot(step).then((snapshot) => arrived(snapshot), (error) => arrived(null, error));
  }

  // --- drawing

  #changed() {
    const { run } = this;
    if (!run) return;
    const view = this.view;
    const last = run.latest.step;
    const { scrub, status, scrubLabel } = this.#nodes;
    scrub.max = String(last);
    scrub.value = String(this.#wanted ?? view.step);
    scrub.setAttribute('aria-valuetext', `step ${this.#wanted ?? view.step} of ${last}`);
    if (this.#wanted !== null) scrubLabel.textContent = `Step shown: ${view.step}; replaying the run to step ${this.#wanted}…`;
    else scrubLabel.textContent = this.live ? `Step shown: ${view.step} (the latest)` : `Step shown: ${view.step} of ${last}`;
    const heldOut = view.heldOutLoss === null ? '' : `, held-out ${formatLoss(view.heldOutLoss)}`;
    status.textContent = `Step ${view.step}: training loss ${formatLoss(view.loss)}${heldOut} (nats per word).`;
    this.#syncButtons();
    announceChange(this, { result: view, view, live: this.live });
  }

  #say(text) {
    this.showMessage(text || null);
    this.warnOnce(text || null);
  }

  #syncButtons() {
    const { toggle } = this.#nodes;
    toggle.textContent = this.#playing ? 'Pause' : 'Train';
    toggle.setAttribute('aria-pressed', String(this.#playing));
  }

  #vocabulary() {
    const list = this.make('ul');
    for (const word of this.run.state.vocabulary) list.append(this.make('li', '', word));
    this.#nodes.vocabularyList.replaceChildren(list);
  }

  #build() {
    const n = this.#nodes;
    const controls = this.make('div', 'controls');
    controls.setAttribute('part', 'controls');
    const buttons = this.make('div', 'buttons');
    buttons.setAttribute('role', 'group');
    buttons.setAttribute('aria-label', 'Training');
    n.toggle = this.make('button', '', 'Train');
    n.toggle.type = 'button';
    n.toggle.addEventListener('click', () => (this.#playing ? this.pause() : this.play()));
    const step = this.make('button', 'secondary', 'One step');
    step.type = 'button';
    step.addEventListener('click', () => this.stepOnce());
    const reset = this.make('button', 'secondary', 'Reset');
    reset.type = 'button';
    reset.addEventListener('click', () => this.reset());
    buttons.append(n.toggle, step, reset);

    n.speed = this.make('select');
    for (const [value, { label }] of Object.entries(SPEEDS)) {
      const option = this.make('option', '', label);
      option.value = value;
      n.speed.append(option);
    }
    n.speed.value = 'fast';
    n.speed.addEventListener('change', () => { if (this.#playing) this.run.play(n.speed.value); });
    const speedLabel = this.make('label', '', 'Speed ');
    speedLabel.append(n.speed);

    n.rate = this.make('input', 'rate');
    n.rate.type = 'text';
    n.rate.inputMode = 'decimal';
    n.rate.autocomplete = 'off';
    n.rate.spellcheck = false;
    n.rate.addEventListener('change', () => this.setLearningRate(n.rate.value));
    const rateLabel = this.make('label', '', 'Learning rate ');
    rateLabel.append(n.rate);
    controls.append(buttons, speedLabel, rateLabel);

    const sentenceForm = this.make('form', 'controls');
    n.sentence = this.make('input', 'sentence');
    n.sentence.type = 'text';
    n.sentence.autocomplete = 'off';
    n.sentence.spellcheck = false;
    const sentenceLabel = this.make('label', '', 'Your sentence ');
    sentenceLabel.append(n.sentence);
    const show = this.make('button', 'secondary', 'Show');
    show.type = 'submit';
    sentenceForm.append(sentenceLabel, show);
    sentenceForm.addEventListener('submit', (event) => {
      event.preventDefault();
      this.setSentence(n.sentence.value);
    });

    n.vocabulary = this.make('details', 'vocabulary');
    n.vocabulary.append(this.make('summary', '', 'The vocabulary'));
    n.vocabularyList = this.make('div');
    n.vocabulary.append(n.vocabularyList);

    n.status = this.make('p', 'status');
    n.status.setAttribute('role', 'status');
    n.status.textContent = 'Loading the trainer\u2026';
    const scrub = this.make('label', 'scrub');
    n.scrubLabel = this.make('span', '', 'Step shown');
    n.scrub = this.make('input');
    n.scrub.type = 'range';
    n.scrub.min = '0';
    n.scrub.max = '0';
    n.scrub.step = '1';
    n.scrub.addEventListener('input', () => this.scrubTo(n.scrub.value));
    scrub.append(n.scrubLabel, n.scrub);
    this.placeAtTop(controls, sentenceForm);
    this.body.append(n.vocabulary, n.status, scrub);
  }
}
