// trained-input.js: Q, K and V for tokens alone, from the trained head. A link into part one,
// or an <attention-explainer>, that gives tokens but no q, k or v shows part one on the head of
// part three's default run: the trainer's defaults (seed 1, d_model 16, one head, learning rate
// 0.03, the default corpus) trained for its default 200 steps. That run is trained on demand,
// once per page, in the training worker (training-channel.js), so the page stays responsive
// while it trains; callers hear its progress. Every number comes from the core: the head's
// trace of the tokens, whose q, k and v are handed on as they are (float32 values, written
// shortest). Tokens outside the model's vocabulary are refused with the core's message, which
// names the word and the nearest words of the vocabulary.

import { createAttention } from './attention-api.js';
import { openTrainingChannel } from './training-channel.js';
import { ChannelTrainingRun } from './training-client.js';

/** The run whose head answers: the trainer's defaults, trained for its default steps. */
export const TRAINED_HEAD_RUN = Object.freeze({ seed: 1, options: Object.freeze({}) });

let trained = null;        // Promise of the trained run
let progress = { step: 0, steps: null };
const listeners = new Set();
const answers = new Map();  // tokens (JSON) -> { tokens, q, k, v, step } or { error }

let started = null;         // Promise of the run at step 0

function startDefaultRun() {
  started ??= openTrainingChannel(() => createAttention())
    .then((channel) => ChannelTrainingRun.start(channel, { ...TRAINED_HEAD_RUN.options, seed: TRAINED_HEAD_RUN.seed }, ['the']))
    .catch((error) => {
      started = null;
      throw error;
    });
  return started;
}

// The words' refusal by the model (a TrainedInputError), or null when it takes them.
async function checkWords(tokens) {
  const run = await startDefaultRun();
  try {
    await run.attend(tokens);
    return null;
  } catch (error) {
    return new TrainedInputError(String(error?.message ?? error), run.state.vocabulary);
  }
}

function trainDefaultRun() {
  trained ??= (async () => {
    const run = await startDefaultRun();
    progress = { step: run.latest.step, steps: run.state.default_steps };
    run.onChange = () => {
      progress = { step: run.latest.step, steps: run.state.default_steps };
      for (const listener of listeners) listener(progress);
    };
    await run.trainTo(run.state.default_steps);
    return run;
  })().catch((error) => {
    trained = null;
    throw error;
  });
  return trained;
}

/**
 * A refusal of the tokens (the core's message, naming the word and the nearest words), with the
 * words the model knows (`vocabulary`, null when the refusal came after training).
 */
export class TrainedInputError extends Error {
  constructor(message, vocabulary = null) {
    super(message);
    this.vocabulary = vocabulary;
  }
}

/**
 * The trained head's input for `tokens`: resolves to { tokens, q, k, v, step } (step: how long
 * the head trained), or rejects with a TrainedInputError whose message is the core's
 * ('tokens[1]: "cta" is not in the vocabulary of 38 words; nearest: cat, ...').
 * onProgress({ step, steps }) is called as the default run trains (not at all once trained).
 * @param {string[]} tokens
 * @param {{onProgress?: (progress: {step: number, steps: number}) => void}} [options]
 */
export async function trainedHeadInput(tokens, { onProgress } = {}) {
  const key = JSON.stringify(tokens);
  const known = answers.get(key);
  if (known) {
    if (known.error) throw known.error;
    return structuredClone(known);
  }
  // The untrained run checks the words at once (vocabulary, count), so a refusal never waits
  // for the training.
  const refusal = await checkWords(tokens);
  if (refusal) {
    answers.set(key, { error: refusal });
    throw refusal;
  }
  if (onProgress) listeners.add(onProgress);
  let run;
  try {
    run = await trainDefaultRun();
  } finally {
    listeners.delete(onProgress);
  }
  let answer;
  try {
    const layer = await run.attend(tokens);
    const { q, k, v } = layer.heads[0].trace;
    answer = { tokens: layer.tokens, q, k, v, step: run.latest.step };
  } catch (error) {
    answer = { error: new TrainedInputError(String(error?.message ?? error)) };
  }
  answers.set(key, answer);
  if (answer.error) throw answer.error;
  return structuredClone(answer);
}

/** The answer for `tokens` when it is already known (trained and asked before), else null. */
export function knownTrainedHeadInput(tokens) {
  const known = answers.get(JSON.stringify(tokens));
  if (!known) return null;
  return known.error ? { error: known.error } : structuredClone(known);
}

/** How far the default run has trained: { step, steps } (steps null before it starts). */
export function trainedHeadProgress() {
  return { ...progress };
}

/** The sentence that says the head is training, for a status line. */
export function describeTraining({ step, steps }) {
  const of = steps === null ? '' : ` of ${steps}`;
  return `Training the head these tokens use (part three's default run, seed ${TRAINED_HEAD_RUN.seed}): step ${step}${of}\u2026`;
}

/**
 * What a page does with a link that gives tokens only: says that the head is training (step
 * by step), then proposes the link's settings with the trained head's q, k and v, and says
 * where they came from; a refusal (a word outside the vocabulary) is handed to `ignored`.
 * Nothing happens once the page has moved to another link (isCurrent() false).
 * @param {{tokens: string[]}} settings the link's parsed settings
 * @param {{isCurrent: () => boolean, propose: (settings: object) => string | null,
 *          say: (text: string | null) => void, ignored: (problem: string) => void}} page
 */
export function applyTrainedHead(settings, { isCurrent, propose, say, ignored }) {
  trainedHeadInput(settings.tokens, { onProgress: (progress) => { if (isCurrent()) say(describeTraining(progress)); } }).then(
    ({ tokens, q, k, v, step }) => {
      if (!isCurrent()) return;
      const problem = propose({ ...settings, tokens, q, k, v });
      if (problem) ignored(problem);
      else say(`This link gives tokens only: Q, K and V are those of part three's trained head on them (seed ${TRAINED_HEAD_RUN.seed}, ${step} steps).`);
    },
    (error) => { if (isCurrent()) ignored(String(error?.message ?? error)); },
  );
}
