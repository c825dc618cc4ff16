// uPlot, the plotting library of the training page's loss curve and the bill's curve, reached
// through this one module: the production bundle inlines it, and the source-served site mounts
// node_modules/uplot/ for it.
export { default } from '../../node_modules/uplot/dist/uPlot.esm.js';
