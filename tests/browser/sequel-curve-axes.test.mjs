// The curve's axes on a wide and a narrow screen: every tick label uPlot draws on its canvas lies
// wholly inside the plot's box and inside the part of it the reader sees, and no two labels of
// an axis overlap. The canvas cannot be read as text, so each label's box is worked out from what
// uPlot records of the labels it drew (their texts, their values, the axis's place) and the
// canvas's own measure of the text in the axis's font.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_TIMEOUT, openSequel, useSequelPage } from './sequel-harness.mjs';

const sequel = useSequelPage({ open: false });

const tickLabels = (page) => page.evaluate(() => {
  const host = document.getElementById('kv-curve');
  const { plot } = host;
  const canvas = plot.ctx.canvas;
  const box = canvas.getBoundingClientRect();
  const ratio = canvas.width / box.width;
  const seen = host.shadowRoot.querySelector('.curve').getBoundingClientRect();
  const axes = [];
  plot.ctx.save();
  for (const axis of plot.axes) {
    plot.ctx.font = axis.font[0];
    const [, , fontSize] = axis.font;
    const offset = axis.ticks.size + axis.gap;
    const labels = [];
    axis._values.forEach((text, n) => {
      if (text === null || text === '') return;
      const width = plot.ctx.measureText(String(text)).width / ratio;
      const at = plot.valToPos(axis._splits[n], axis.scale, true) / ratio;
      if (axis.side === 2) {
        // Under the plot: centred on its tick, hanging below the axis.
        const top = box.top + axis._pos + offset;
        labels.push({ text, left: box.left + at - width / 2, right: box.left + at + width / 2, top, bottom: top + fontSize });
      } else {
        // Left of the plot: ending before its tick, centred on it.
        const right = box.left + axis._pos - offset;
        labels.push({ text, left: right - width, right, top: box.top + at - fontSize / 2, bottom: box.top + at + fontSize / 2 });
      }
    });
    axes.push({ side: axis.side, labels });
  }
  plot.ctx.restore();
  const edges = (rect) => ({ left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom });
  return { axes, plot: edges(box), seen: edges(seen) };
});

const inside = (label, rect) => label.left >= rect.left - 0.5 && label.right <= rect.right + 0.5
  && label.top >= rect.top - 0.5 && label.bottom <= rect.bottom + 0.5;

describe('the curve\u2019s tick labels', () => {
  for (const width of [1280, 360]) {
    it(`all whole and apart at ${width} px`, { timeout: TEST_TIMEOUT }, async () => {
      const opened = await openSequel(sequel.browser, sequel.server, { viewport: { width, height: 900 } });
      try {
        const { axes, plot, seen } = await tickLabels(opened.page);
        const [x, y] = axes;
        assert.equal(x.side, 2);
        assert.ok(x.labels.length >= 4 && y.labels.length >= 3, JSON.stringify(axes.map((axis) => axis.labels.map((label) => label.text))));
        for (const { labels } of axes) {
          for (const label of labels) {
            assert.ok(inside(label, plot), `"${label.text}" ${JSON.stringify(label)} inside the plot ${JSON.stringify(plot)}`);
            assert.ok(inside(label, seen), `"${label.text}" inside the part the reader sees ${JSON.stringify(seen)}`);
          }
        }
        for (let n = 1; n < x.labels.length; n += 1) {
          assert.ok(x.labels[n - 1].right < x.labels[n].left, `"${x.labels[n - 1].text}" and "${x.labels[n].text}" apart`);
        }
        for (let n = 1; n < y.labels.length; n += 1) {
          assert.ok(y.labels[n - 1].top > y.labels[n].bottom || y.labels[n].top > y.labels[n - 1].bottom, `"${y.labels[n - 1].text}" and "${y.labels[n].text}" apart`);
        }
      } finally {
        await opened.close();
      }
    });
  }
});
