// The per-piece elements: <attention-step> (one step's table), <attention-mask-grid> and
// <attention-arrows>; <attention-working> and <attention-next-word> have files of their own.
// Each shows a model owned by another element, found by `model="id"` in the piece's own root
// node (the document, or the shadow root it sits in, then the roots around that one); without
// `model` they show the <attention-model> they sit inside, and failing that the article's
// example.

import { AttentionModel } from './attention-model.js';
import {
  AttentionElementBase, computingNote, problemOf, syncChildren,
} from './element-base.js';
import {
  CORE_CHOICES, ConfigError, ELEMENT_NAMES, STEPS, parseIndex, parseSteps, resolveIndex,
} from './element-config.js';
import { drawWhenNear, drawn, stopWatching, watchDistance } from './draw-when-near.js';
import { ModelFollower } from './model-follower.js';
import {
  fillCaption, maskSelect, renderArrowsFigure, selectMask, stepView,
} from '../views/step-views.js';
import { updateArrows } from '../views/arrows.js';
import { loadForAttribute, newPractice } from './on-first-use.js';
import { showWorkingsOnPoint, workingPanel } from '../views/cell-pointing.js';
import { DECIMALS } from '../views/format.js';
import { quoteText } from '../state/quote-text.js';

/** The attributes every piece observes: the model it shows, and where it draws (placeFrame). */
export const PIECE_ATTRIBUTES = ['model', 'light-dom'];

/** What every piece shares: finding the model it shows, and drawing it when it changes. */
export class AttentionPiece extends AttentionElementBase {
  /** The model named by `model="id"` (see model-follower.js); it draws the piece on every update. */
  #follower = new ModelFollower(this, () => this.#modelChanged());
  /** Without `model`: the <attention-model> the piece sits in, or null. */
  #enclosing = null;
  /** A model of the piece's own (the article's example) when it points at none. */
  #ownModel = null;
  #watched = null;
  #onUpdate = () => this.#modelChanged();

  constructor() {
    super();
    this.upgradeProperties(['model', 'lightDom']);
  }

  /** Whether the piece draws into the page instead of its shadow root (attribute `light-dom`). */
  get lightDom() {
    return this.hasAttribute('light-dom');
  }

  set lightDom(value) {
    this.toggleAttribute('light-dom', Boolean(value));
  }

  /** The id of the model element this piece shows (the `model` attribute). */
  get model() {
    return this.getAttribute('model');
  }

  set model(id) {
    if (id === null || id === undefined) this.removeAttribute('model');
    else this.setAttribute('model', String(id));
  }

  get shownModel() {
    if (this.#follower.id !== null) return this.#follower.model;
    return this.#enclosing?.attentionModel ?? this.#ownModel;
  }

  /** The current trace of the model this piece shows (same shape as run() returns), or null. */
  get trace() {
    return this.shownModel?.trace ?? null;
  }

  connectedCallback() {
    this.placeFrame();
    watchDistance(this);
    this.#resolve();
  }

  disconnectedCallback() {
    this.#watch(null);
    this.#follower.stop();
    stopWatching(this);
  }

  // A new trace of the model, drawn at once; after a reader's edit of a cell, later when the
  // piece is far off screen (draw-when-near.js): that is the change made keystroke after
  // keystroke, and an author's script that changes a model may read the pieces right after.
  #modelChanged() {
    if (!this.isConnected) return;
    if (this.drawsOnlyWhenNear && this.shownModel?.changedByCellEdit) drawWhenNear(this, () => this.render());
    else this.renderNow();
  }

  /** Whether a reader's edit may wait until the piece is near the screen (subclasses whose
   *  properties answer for the model's latest trace say no). */
  get drawsOnlyWhenNear() {
    return true;
  }

  attributeChangedCallback(name, previous, value) {
    loadForAttribute(name, value);
    if (name === 'model') {
      if (this.isConnected) this.#resolve();
    } else if (name === 'light-dom') {
      if (this.isConnected) this.placeFrame();
    } else {
      this.scheduleRender();
    }
  }

  // Watches the model shown without `model` (the enclosing one or the piece's own).
  #watch(model) {
    if (this.#watched === model) return;
    this.#watched?.removeEventListener('update', this.#onUpdate);
    this.#watched = model;
    model?.addEventListener('update', this.#onUpdate);
  }

  #resolve() {
    this.#follower.resolve();
    if (this.#follower.id !== null) {
      this.#enclosing = null;
      this.#watch(null);
    } else {
      this.#enclosing = this.closest(ELEMENT_NAMES.model);
      if (this.#enclosing) this.#watch(this.#enclosing.attentionModel);
      else this.#useOwnModel();
    }
    this.renderNow();
  }

  #useOwnModel() {
    this.#ownModel ??= new AttentionModel();
    this.loadCoreOnce(CORE_CHOICES.embed, (attention) => {
      if (!this.#ownModel.connected) this.#ownModel.connect(attention);
    });
    this.#watch(this.#ownModel);
  }

  render() {
    drawn(this);
    const doc = this.ownerDocument;
    const { missing } = this.#follower;
    if (missing) {
      this.showProblem(problemOf(missing));
      return;
    }
    const model = this.shownModel;
    if (!model || !model.connected) {
      syncChildren(this.body, [computingNote(doc)]);
      return;
    }
    if (model.problem) {
      const id = this.#follower.id ?? this.#enclosing?.id;
      const name = id ? `model "${id}"` : 'model';
      // The model element says it on the console itself.
      this.showProblem({ text: `the ${name} it shows has a problem: ${model.problem.text}` }, { warn: false });
      return;
    }
    let nodes;
    try {
      nodes = this.renderPiece(doc, model.trace);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.showProblem(problemOf(error));
      return;
    }
    this.showProblem(null);
    syncChildren(this.body, nodes);
  }

  /** Subclasses: the nodes that show `trace`; throw ConfigError for a bad attribute. */
  renderPiece() {
    return [];
  }

  /** `row`, `col`: a token position (see parseIndex) or `fallback`. */
  indexAttribute(name, count, fallback) {
    const text = this.getAttribute(name);
    return resolveIndex(name, text === null ? null : parseIndex(name, text), count, fallback);
  }
}

/** Makes attribute `attribute` a string property `name` of `cls`'s elements. */
export function reflectString(cls, name, attribute = name) {
  Object.defineProperty(cls.prototype, name, {
    configurable: true,
    enumerable: true,
    get() {
      return this.getAttribute(attribute);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, String(value));
    },
  });
}

function reflectBoolean(cls, name, attribute = name) {
  Object.defineProperty(cls.prototype, name, {
    configurable: true,
    enumerable: true,
    get() {
      return this.hasAttribute(attribute);
    },
    set(value) {
      this.toggleAttribute(attribute, Boolean(value));
    },
  });
}

// A table name a page's scripts and stylesheets can find in a selector: a letter, then
// letters, digits, hyphens or underscores.
const TABLE_NAME = /^[A-Za-z][\w-]*$/u;

// An author's caption: a table with an empty one would have no name for screen readers.
function captionAttribute(element, without = 'to keep the step\u2019s own caption') {
  const caption = element.getAttribute('caption');
  if (caption !== null && caption.trim() === '') throw new ConfigError('caption', `is empty; leave it out ${without}`);
  return caption;
}

function tableNameAttribute(element) {
  const name = element.getAttribute('table-name');
  if (name === null || TABLE_NAME.test(name)) return name;
  throw new ConfigError('table-name',
    `must be a letter followed by letters, digits, hyphens or underscores, got ${quoteText(name)}`);
}

export class AttentionStepElement extends AttentionPiece {
  static observedAttributes = [
    ...PIECE_ATTRIBUTES, 'step', 'row', 'editable', 'practice', 'workings', 'tools', 'table-name', 'caption', 'no-legend',
  ];

  /** The view of the step shown, kept so that a new trace updates its cells in place. */
  #view = null;
  #practice = null;
  /** With `workings`: the panel under the table, and what fills it when a cell is pointed at. */
  #workings = null;

  constructor() {
    super();
    this.upgradeProperties(['step', 'row', 'editable', 'practice', 'workings', 'tools', 'tableName', 'caption', 'noLegend']);
  }

  render() {
    super.render();
    const practice = this.getAttribute('practice');
    const trace = this.shownModel?.connected && !this.shownModel.problem ? this.shownModel.trace : null;
    this.#practice?.lay(practice, this.body.hidden ? null : trace, this.body.getRootNode(), this.localName);
    if (trace && this.#workings && this.hasAttribute('workings')) this.#workings.pointing.refresh();
  }

  // The panel under the table where a pointed cell's working goes, made on first use.
  #workingPanel(doc) {
    if (!this.#workings) {
      const panel = workingPanel(doc);
      const pointing = showWorkingsOnPoint(this.body, {
        trace: () => (this.hasAttribute('workings') ? this.trace : null),
        panelFor: () => panel,
      });
      this.#workings = { panel, pointing };
    }
    return this.#workings.panel;
  }

  renderPiece(doc, trace) {
    if (!this.hasAttribute('step')) {
      throw new ConfigError('step', `is missing; name one of ${STEPS.join(', ')}`);
    }
    const steps = parseSteps(this.getAttribute('step'), { attribute: 'step' });
    if (steps.length !== 1) throw new ConfigError('step', 'names more than one step; use one <attention-step> per step');
    const [step] = steps;
    const row = this.indexAttribute('row', trace.token_count, trace.token_count - 1);
    const editable = this.hasAttribute('editable') && ['q', 'k', 'v'].includes(step);
    const tools = this.hasAttribute('tools');
    // The keyboard reaches every cell whose working can be shown: the table is one Tab stop
    // and the arrow keys move between its cells.
    const workings = this.hasAttribute('workings') && !editable;
    if (this.#view?.step !== step || this.#view.tools !== tools || this.#view.workings !== workings) {
      this.#view = { step, tools, workings, view: stepView(doc, step, { tools, navigable: workings }) };
    }
    const practice = this.getAttribute('practice');
    if (practice !== null) {
      this.#practice ??= newPractice(this, doc);
      if (!this.#practice) return [computingNote(doc)];
    }
    const active = this.focusedElement;
    const section = this.#view.view.show(trace, {
      row,
      editable,
      notes: false,
      active,
      tableName: tableNameAttribute(this),
      caption: captionAttribute(this),
      legend: !this.hasAttribute('no-legend'),
      maskLabel: this.shownModel.maskLabel(trace.mask),
    });
    // A change from elsewhere (another piece, a reset, the page) ends a refusal said about a
    // cell the reader has left.
    if (editable && !active?.matches('input[data-matrix]')) this.clearRefusal();
    if (!workings) return [...(this.#practice?.barFor(practice) ?? []), section];
    return [...(this.#practice?.barFor(practice) ?? []), section, this.#workingPanel(doc)];
  }
}
reflectString(AttentionStepElement, 'step');
reflectBoolean(AttentionStepElement, 'workings');
reflectBoolean(AttentionStepElement, 'tools');
reflectString(AttentionStepElement, 'tableName', 'table-name');
reflectString(AttentionStepElement, 'caption');
reflectBoolean(AttentionStepElement, 'noLegend', 'no-legend');
reflectString(AttentionStepElement, 'row');
reflectBoolean(AttentionStepElement, 'editable');
reflectString(AttentionStepElement, 'practice');

export class AttentionMaskGridElement extends AttentionPiece {
  static observedAttributes = [...PIECE_ATTRIBUTES, 'editable'];

  #controls = null;
  #grid = null;

  constructor() {
    super();
    this.upgradeProperties(['editable']);
  }

  renderPiece(doc, trace) {
    this.#grid ??= stepView(doc, 'grid');
    const grid = this.#grid.show(trace, { row: trace.token_count - 1, notes: false });
    grid.classList.add('mask-grid');
    if (!this.hasAttribute('editable')) return [grid];
    return [this.#maskControl(doc, trace), grid];
  }

  // Editing through the grid: the mask itself.
  #maskControl(doc, trace) {
    if (!this.#controls) {
      const bar = doc.createElement('div');
      bar.className = 'controls';
      bar.setAttribute('part', 'controls');
      const label = maskSelect(doc, this.shownModel?.maskChoices ?? [], (mask) => {
        const problem = this.shownModel?.setMask(mask);
        this.showEditMessage(problem ? problem.text : null);
      });
      bar.append(label);
      this.#controls = bar;
    }
    selectMask(this.#controls.querySelector('select'), trace.mask);
    return this.#controls;
  }
}
reflectBoolean(AttentionMaskGridElement, 'editable');

export class AttentionArrowsElement extends AttentionPiece {
  static observedAttributes = [...PIECE_ATTRIBUTES, 'row', 'caption'];

  constructor() {
    super();
    this.upgradeProperties(['row', 'caption']);
  }

  #figure = null;

  renderPiece(doc, trace) {
    const row = this.hasAttribute('row') ? this.indexAttribute('row', trace.token_count, null) : null;
    const caption = captionAttribute(this, 'for a figure without a caption');
    const svg = this.#figure?.querySelector('svg');
    if (!svg || !updateArrows(svg, trace, { row, weightDecimals: DECIMALS.softmax })) {
      this.#figure = renderArrowsFigure(doc, trace, { row });
    }
    let figcaption = this.#figure.querySelector(':scope > figcaption');
    if (caption === null) {
      figcaption?.remove();
    } else {
      if (!figcaption) {
        figcaption = doc.createElement('figcaption');
        figcaption.setAttribute('part', 'caption');
        this.#figure.append(figcaption);
      }
      const text = fillCaption(caption, trace, row ?? trace.token_count - 1, this.shownModel.maskLabel(trace.mask));
      if (figcaption.textContent !== text) figcaption.textContent = text;
    }
    return [this.#figure];
  }
}
reflectString(AttentionArrowsElement, 'row');
reflectString(AttentionArrowsElement, 'caption');
