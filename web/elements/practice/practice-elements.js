// The practice elements by tag name: what web/attention-practice-elements.js registers.

import { AttentionWorksheetElement } from './worksheet-element.js';

export { AttentionWorksheetElement };

export const PRACTICE_ELEMENTS = {
  'attention-worksheet': AttentionWorksheetElement,
};
