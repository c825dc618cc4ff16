export { default } from '../../node_modules/uplot/dist/uPlot.esm.js';
