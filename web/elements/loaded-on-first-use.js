// The code the elements load on first use, in one module so that a production build splits it
// off as one file: pencil mode's blanks (the `practice` attribute), and the layer of heads and
// the head_dim study, which compute with the core's full build. A file for each cost more than
// it saved: the code they share with the tables went into chunks of its own, which an embedding
// page then fetched as several smaller files that compress worse (docs/benchmarks.md).
export { ElementPractice } from './element-practice.js';
export { AttentionHeadsElement } from './heads-element.js';
export { AttentionHeadDimStudyElement } from './head-dim-study-element.js';
