// The training elements by tag name: what web/attention-training-elements.js registers.

import { AttentionHeadReportElement } from './head-report-element.js';
import { AttentionLossCurveElement } from './loss-curve-element.js';
import { AttentionTrainedGridElement } from './trained-grid-element.js';
import { AttentionTrainedWeightsElement } from './trained-weights-element.js';
import { AttentionTrainerElement } from './trainer-element.js';

export {
  AttentionHeadReportElement, AttentionLossCurveElement, AttentionTrainedGridElement,
  AttentionTrainedWeightsElement, AttentionTrainerElement,
};

export const TRAINING_ELEMENTS = {
  'attention-trainer': AttentionTrainerElement,
  'attention-loss-curve': AttentionLossCurveElement,
  'attention-trained-weights': AttentionTrainedWeightsElement,
  'attention-trained-grid': AttentionTrainedGridElement,
  'attention-head-report': AttentionHeadReportElement,
};
