// The sequel page: loads the core's full build, registers the sequel's elements, and keeps the
// page's state in its URL hash. Each section is one element (attention-sequel-elements.js) that
// computes and draws itself, and so are the shared inputs (<attention-layer-inputs>, which hands
// the tokens, seed and token vectors to the sections its `for` attribute names); this module
// writes the hash's values into their attributes and reads them back into the hash. Every number
// comes from the core.

import { announceAllComputed } from './load-status.js';
import { SECTIONS, formatSequelHash, parseSequelHash } from './sequel-state.js';
import { createSequelPractice, readSequelPractice } from './sequel-practice.js';

const page = document;
const status = page.getElementById('load-status');
const linkProblem = page.getElementById('link-problem');

function showProblem(message) {
  const problem = page.getElementById('load-problem');
  problem.textContent = message;
  problem.hidden = false;
  status.hidden = true;
  page.documentElement.classList.add('results-unavailable');
}

async function load() {
  if (typeof globalThis.WebAssembly !== 'object' || globalThis.WebAssembly === null) {
    throw new Error('This page computes its numbers with WebAssembly, and this browser does not provide it '
      + '(it may be turned off). None of the tables could be computed.');
  }
  try {
    const { createAttention } = await import('../web/attention-sequel-elements.js');
    return await createAttention();
  } catch (error) {
    throw new Error(`The WebAssembly attention module failed to load, so none of the tables could be computed. (${error?.message ?? error})`);
  }
}

const byId = (id) => page.getElementById(id);
const inputs = byId('layer-inputs');

// The attributes each section's element has in the HTML: the hash records only departures.
const SECTION_DEFAULTS = Object.fromEntries(Object.entries(SECTIONS).map(([section, { id, attributes }]) => [
  section, Object.fromEntries(attributes.map((attribute) => [attribute, byId(id).getAttribute(attribute)])),
]));

function setAttribute(element, name, value) {
  if (value === null || value === undefined) element.removeAttribute(name);
  else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

/** The toy's traffic is billed for the tiles and mask the reader chose in the tiles' section. */
function syncToyTraffic() {
  const tiles = byId(SECTIONS.flash.id).result;
  if (!tiles) return;
  const toy = byId('flash-traffic-toy');
  setAttribute(toy, 'token-count', String(tiles.token_count));
  setAttribute(toy, 'head-dim', String(tiles.head_dim));
  setAttribute(toy, 'block-rows', String(tiles.block_rows));
  setAttribute(toy, 'block-cols', String(tiles.block_cols));
  setAttribute(toy, 'mask', tiles.mask);
}

function applySections(sections) {
  for (const [section, { id, attributes }] of Object.entries(SECTIONS)) {
    const element = byId(id);
    for (const attribute of attributes) {
      const value = sections[section] && Object.hasOwn(sections[section], attribute)
        ? sections[section][attribute]
        : SECTION_DEFAULTS[section][attribute];
      setAttribute(element, attribute, value);
    }
  }
  syncToyLatent();
}

/** The bill's toy MLA and the curve's toy MLA line have the latent size of the MLA section. */
function syncToyLatent() {
  const latent = byId(SECTIONS.mla.id).getAttribute('d-latent');
  setAttribute(byId(SECTIONS.bill.id), 'toy-d-latent', latent);
  setAttribute(byId(SECTIONS.curve.id), 'toy-d-latent', latent);
}

function sectionsNow() {
  return Object.fromEntries(Object.entries(SECTIONS).map(([section, { id, attributes }]) => [
    section, Object.fromEntries(attributes.map((attribute) => [attribute, byId(id).getAttribute(attribute)])),
  ]));
}

function sayLinkProblems(warnings) {
  linkProblem.hidden = warnings.length === 0;
  linkProblem.textContent = warnings.length === 0 ? ''
    : `Part of this link could not be used (${warnings.join('; ')}); the rest of the page works from the defaults.`;
}

function fillProse(layer) {
  const fills = { 'd-model': layer.d_model, 'n-heads': layer.n_heads, 'head-dim': layer.head_dim };
  for (const [name, value] of Object.entries(fills)) {
    for (const target of page.querySelectorAll(`[data-fill="${name}"]`)) {
      target.textContent = String(value);
      target.classList.add('filled');
    }
  }
}

/** Resolves once every element of the page has computed (or said why it could not) once. */
function allComputed(elements) {
  return Promise.all(elements.map((element) => new Promise((resolve) => {
    if (element.result || element.problem) resolve();
    else element.addEventListener('attention-change', () => resolve(), { once: true });
  })));
}

async function main() {
  let attention;
  try {
    attention = await load();
  } catch (error) {
    showProblem(error.message);
    return;
  }
  // The page's start: the core's default tokens and seed, and the sections as the HTML has them.
  const start = attention.groupedAttention({});
  const defaults = { shared: { tokens: start.tokens, seed: start.seed }, sections: SECTION_DEFAULTS };
  let writing = false;  // the page's own hash writes are not read back
  let linkShared = {};  // the shared values of the link last read, until the inputs have answered

  const practice = createSequelPractice(page, () => writeHash());

  function writeHash() {
    // The shared values as the inputs use them (before their first answer, as the link gave them).
    const shared = inputs.values ?? linkShared;
    const own = formatSequelHash({ shared: { ...shared, x: shared.x ?? undefined }, sections: sectionsNow() }, defaults);
    const exercise = practice.hashPart();
    const hash = exercise === '' ? own : `${own === '' ? '#' : `${own}&`}${exercise}`;
    if (hash === page.location.hash || (hash === '' && page.location.hash === '')) return;
    writing = true;
    history.replaceState(null, '', hash === '' ? page.location.pathname + page.location.search : hash);
    writing = false;
  }

  function readHash() {
    // The exercise's keys first, as on part one; the page's own parser reads the rest.
    const exercise = readSequelPractice(page.location.hash);
    const state = parseSequelHash(exercise.rest);
    state.warnings.unshift(...exercise.warnings);
    // The core checks the shared values in the inputs element, which names a refused one itself.
    linkShared = state.shared;
    inputs.values = state.shared;
    sayLinkProblems(state.warnings);
    applySections(state.sections);
    practice.apply(exercise.lists);
  }

  try {
    readHash();
  } catch (error) {
    showProblem(`The numbers could not be computed: ${error?.message ?? error}`);
    return;
  }
  page.addEventListener('attention-change', (event) => {
    if (event.target === inputs && inputs.result) fillProse(inputs.result);
    if (event.target === byId(SECTIONS.flash.id)) syncToyTraffic();
    if (event.target === byId(SECTIONS.mla.id)) syncToyLatent();
    writeHash();
  });
  globalThis.addEventListener('hashchange', () => {
    if (!writing) readHash();
  });

  if (inputs.result) fillProse(inputs.result);
  await allComputed([...page.querySelectorAll('main *')].filter((element) => element.localName.startsWith('attention-')));
  announceAllComputed(page);
}

main();
