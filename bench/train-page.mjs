#!/usr/bin/env node
// Whether training keeps the training page responsive: in headless Chromium, the page trains
// for a few seconds at each speed (and, first, stays idle as long, for the long tasks the
// machine gives a page that does nothing) while a PerformanceObserver counts long tasks (over
// 50 ms) and requestAnimationFrame times every frame. It prints steps per second, frames per
// second (the median and the 90th percentile of the frame intervals, as frames per second: the
// p90 is the slow end), the long tasks and the longest; where the long animation frames spent
// their time (Chromium's Long Animation Frames: each script's entry point and source, and the
// style, layout and paint after it); and how long the page's own animation-frame callbacks
// (the trainer drawing a step: the curve, the weights, the grid) and its handlers of the
// worker's messages (reading a message's data included) took. With --after N the run is first
// trained to step N, so a long run's drawing is measured too. The machine's load average is
// printed with the figures. It prints figures and asserts nothing (the load decides them).
//
//   node bench/train-page.mjs [--seconds S] [--after N] [--trace] [--save-trace DIR] [--site DIR]
//
// --trace also records a Chromium trace of each speed and prints, for the page's main-thread
// tasks over 50 ms, what ran inside them, with the wall and the CPU time of each (a task much
// longer than its CPU time was waiting: for a core, the compositor or a collector's helper
// threads), and per speed the main thread's CPU time, that of the tasks that render a frame,
// and its garbage collections; bench/trace-long-tasks.mjs reads the trace. Each long task the
// page observed is printed with its start (from the start of its speed), and with --trace the
// tasks of 10 ms or more that overlapped it on every thread of the page's renderer process (the
// training worker, V8's compile jobs and collectors' helpers, the compositor): a long task with
// no work of its own on the page's thread is found by what ran beside it.
// --save-trace DIR also writes each speed's trace there (train-page-SPEED.json, which Chromium's
// DevTools Performance panel opens). --site serves another build of the site (to compare two
// builds on the same machine).
//
// Needs the wasm build (build/site). The full Chromium, as scripts/launch-chromium.mjs starts it for benchmarks (CHROMIUM_PATH names another).

import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/launch-chromium.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { longTasks, overlapping, startTrace } from './trace-long-tasks.mjs';

const SITE = fileURLToPath(new URL('../build/site/', import.meta.url));
const PAGE_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

function parseArguments(argv) {
  const options = { seconds: 6, after: 0, trace: false, saveTrace: null, site: SITE };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--seconds') options.seconds = Number(argv[++i]);
    else if (argv[i] === '--after') options.after = Number(argv[++i]);
    else if (argv[i] === '--trace') options.trace = true;
    else if (argv[i] === '--save-trace') [options.trace, options.saveTrace] = [true, argv[++i]];
    else if (argv[i] === '--site') options.site = argv[++i];
    else throw new Error(`train-page: unknown argument ${argv[i]} (usage: [--seconds S] [--after N] [--trace] [--save-trace DIR] [--site DIR])`);
  }
  if (!(options.seconds > 0)) throw new Error('train-page: --seconds must be a positive number');
  if (!Number.isInteger(options.after) || options.after < 0) throw new Error('train-page: --after must be a whole number of steps');
  return options;
}

// In the page: trains at `speed` for `seconds` (from step `after`), timing frames and counting
// long tasks and steps; long animation frames are attributed to their scripts and rendering.
async function measure({ speed, seconds, after }) {
  const trainer = document.getElementById('trainer');
  // Both resolve once the training engine (a worker, or slices on the page) has answered.
  await trainer.reset();
  if (after > 0) {
    await trainer.run.trainTo(after);
    await trainer.stepOnce();
  }
  const select = trainer.shadowRoot.querySelector('select');
  // 'idle': the page loaded and not training, for the machine's own long tasks.
  if (speed !== 'idle') select.value = speed;
  const longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ type: 'longtask' });
  const where = {};  // what the long animation frames spent their time on: ms by cause
  const add = (cause, ms) => { where[cause] = (where[cause] ?? 0) + ms; };
  const frameObserver = typeof PerformanceObserver.supportedEntryTypes?.includes === 'function'
    && PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
    ? new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.duration <= 50) continue;
        let scripts = 0;
        for (const script of entry.scripts) {
          const source = `${script.sourceURL.replace(/^.*\//u, '')}${script.sourceFunctionName ? ` ${script.sourceFunctionName}` : ''}`;
          add(`script: ${script.invokerType} ${script.invoker} (${source})`, script.duration);
          scripts += script.duration;
        }
        const render = entry.renderStart > 0 ? entry.startTime + entry.duration - entry.renderStart : 0;
        add('rendering: animation-frame callbacks, style, layout, paint', render);
        add('the rest (the browser, between scripts)', Math.max(0, entry.duration - scripts - render));
      }
    })
    : null;
  frameObserver?.observe({ type: 'long-animation-frame' });
  const frameTimes = [];
  let counting = true;
  const count = (time) => {
    frameTimes.push(time);
    if (counting) requestAnimationFrame(count);
  };
  count.notThePage = true;
  requestAnimationFrame(count);
  globalThis.pageFrameCallbacks.length = 0;
  globalThis.workerMessages.length = 0;
  const firstStep = trainer.run.latest.step;
  const { startTime: marked } = performance.mark('train-page:measured');
  const start = performance.now();
  if (speed !== 'idle') trainer.play();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await trainer.pause();
  const elapsed = (performance.now() - start) / 1000;
  counting = false;
  // Long tasks are reported after they end: give the observers a moment.
  await new Promise((resolve) => setTimeout(resolve, 200));
  observer.disconnect();
  frameObserver?.disconnect();
  performance.mark('train-page:done');
  const drawing = globalThis.pageFrameCallbacks.slice().sort((a, b) => a - b);
  const messages = {};
  for (const { type, ms } of globalThis.workerMessages) {
    const kind = (messages[type] ??= { count: 0, total: 0, longest: 0 });
    kind.count += 1;
    kind.total += ms;
    kind.longest = Math.max(kind.longest, ms);
  }
  const intervals = frameTimes.slice(1).map((time, i) => time - frameTimes[i]).sort((a, b) => a - b);
  const at = (fraction) => intervals[Math.min(intervals.length - 1, Math.floor(fraction * intervals.length))];
  return {
    speed,
    steps: trainer.run.latest.step - firstStep,
    latest: trainer.run.latest.step,
    inWorker: trainer.run.inWorker,
    elapsed,
    frames: frameTimes.length,
    fpsMedian: intervals.length ? 1000 / at(0.5) : 0,
    fpsP90: intervals.length ? 1000 / at(0.9) : 0,
    longTasks: longTasks.length,
    longest: longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0,
    // Each from the mark (the trace's time of the mark is known, so the trace finds them).
    longTaskTimes: longTasks.map(({ start: at, duration }) => ({ start: at - marked, duration })),
    where: frameObserver ? where : null,
    messages,
    drawing: drawing.length ? {
      count: drawing.length,
      median: drawing[Math.floor(drawing.length / 2)],
      p90: drawing[Math.min(drawing.length - 1, Math.floor(0.9 * drawing.length))],
      longest: drawing[drawing.length - 1],
    } : null,
  };
}

async function main() {
  const { seconds, after, trace, saveTrace, site } = parseArguments(process.argv.slice(2));
  if (saveTrace) mkdirSync(saveTrace, { recursive: true });
  const server = await startStaticServer({ root: site, csp: PAGE_CSP });
  const browser = await launchChromium({ full: true });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // Times the page's own animation-frame callbacks (the bench's frame counter excepted).
    await page.addInitScript(() => {
      const request = globalThis.requestAnimationFrame.bind(globalThis);
      globalThis.pageFrameCallbacks = [];
      globalThis.requestAnimationFrame = (callback) => request((time) => {
        const start = performance.now();
        try {
          callback(time);
        } finally {
          if (!callback.notThePage) globalThis.pageFrameCallbacks.push(performance.now() - start);
        }
      });
      // Times each handler of a worker's messages, reading the message's data included.
      globalThis.workerMessages = [];
      const listen = Worker.prototype.addEventListener;
      Worker.prototype.addEventListener = function timed(type, listener, options) {
        if (type !== 'message' || typeof listener !== 'function') return listen.call(this, type, listener, options);
        return listen.call(this, type, (event) => {
          const start = performance.now();
          try {
            listener(event);
          } finally {
            globalThis.workerMessages.push({ type: String(event.data?.type), ms: performance.now() - start });
          }
        }, options);
      };
    });
    await page.goto(`${server.url}training.html`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('trainer')?.view, null, { timeout: 120_000 });
    const inWorker = await page.evaluate(() => document.getElementById('trainer').run.inWorker);
    const load = () => os.loadavg().map((n) => n.toFixed(2)).join(', ');
    console.log(`training page, ${seconds} s per speed${after ? ` from step ${after}` : ''} (long task: over 50 ms), steps taken ${inWorker ? 'in a worker' : 'on the page'}`);
    console.log(`load average (1, 5, 15 min) before: ${load()}; ${os.cpus().length} CPUs`);
    console.log('speed    steps/s  frames/s  fps median  fps p90  long tasks  longest (ms)  last step');
    const causes = [];
    const drawings = [];
    const traces = [];
    const observed = [];
    for (const speed of ['idle', 'slow', 'steady', 'fast']) {
      const stopTrace = trace ? await startTrace(page) : null;
      const r = await page.evaluate(measure, { speed, seconds, after });
      if (stopTrace) {
        const events = await stopTrace();
        if (saveTrace) writeFileSync(path.join(saveTrace, `train-page-${speed}.json`), JSON.stringify({ traceEvents: events }));
        traces.push([speed, longTasks(events, { between: ['train-page:measured', 'train-page:done'] })]);
        observed.push([speed, overlapping(events, r.longTaskTimes, { markName: 'train-page:measured' })]);
      } else if (r.longTaskTimes.length) observed.push([speed, r.longTaskTimes.map((task) => ({ ...task, lines: [] }))]);
      console.log(`${speed.padEnd(8)} ${(r.steps / r.elapsed).toFixed(1).padStart(7)}  ${(r.frames / r.elapsed).toFixed(1).padStart(8)}  `
        + `${r.fpsMedian.toFixed(1).padStart(10)}  ${r.fpsP90.toFixed(1).padStart(7)}  `
        + `${String(r.longTasks).padStart(10)}  ${r.longest.toFixed(0).padStart(12)}  ${String(r.latest).padStart(9)}`);
      if (r.where) causes.push([speed, r.where]);
      if (r.drawing) drawings.push([speed, r.drawing, r.messages]);
    }
    console.log(`load average after: ${load()}`);
    console.log('the page\'s animation-frame callbacks (drawing a step): count, median, p90, longest (ms)');
    for (const [speed, d] of drawings) {
      console.log(`  ${speed.padEnd(8)} ${String(d.count).padStart(5)}  ${d.median.toFixed(1).padStart(6)}  ${d.p90.toFixed(1).padStart(6)}  ${d.longest.toFixed(1).padStart(6)}`);
    }
    console.log('the page\'s handlers of the worker\'s messages, by type: count, mean, longest (ms)');
    for (const [speed, , messages] of drawings) {
      const kinds = Object.entries(messages).map(([type, m]) => `${type} ${m.count}, ${(m.total / m.count).toFixed(1)}, ${m.longest.toFixed(1)}`);
      console.log(`  ${speed.padEnd(8)} ${kinds.join('; ')}`);
    }
    for (const [speed, where] of causes) {
      const ranked = Object.entries(where).filter(([, ms]) => ms >= 1).sort((a, b) => b[1] - a[1]).slice(0, 5);
      if (ranked.length === 0) continue;
      console.log(`long animation frames at ${speed}, where the time went:`);
      for (const [cause, ms] of ranked) console.log(`  ${ms.toFixed(0).padStart(6)} ms  ${cause}`);
    }
    for (const [speed, tasks] of observed) {
      if (tasks.length === 0) continue;
      console.log(`the long tasks observed at ${speed}, from the start (ms): ${tasks.map((t) => `at ${t.start.toFixed(0)}, ${t.duration.toFixed(0)} ms`).join('; ')}`);
      for (const task of tasks.filter((t) => t.lines.length)) {
        console.log(`  at ${task.start.toFixed(0)} ms: the renderer's threads' tasks of 10 ms or more overlapping it (start, wall, CPU, thread, what ran):`);
        for (const line of task.lines) console.log(`  ${line}`);
      }
    }
    const printTask = (task) => {
      const cpu = task.cpu === undefined ? '' : `, cpu ${task.cpu.toFixed(1)} ms`;
      console.log(`  at ${task.start.toFixed(0)} ms, ${task.duration.toFixed(1)} ms${cpu} (${task.thread}):`);
      for (const line of task.lines) console.log(`  ${line}`);
    };
    if (traces.length) {
      console.log('the trace, the page\'s main thread: CPU ms per second; the longest task\'s CPU ms; the tasks that render a frame: count, CPU ms median, p90;'
        + ' tasks over 50 ms (wall); minor GCs, the longest (wall ms), kB allocated a second (from GC to GC); major GCs');
      for (const [speed, { tasks, work, gc }] of traces) {
        const perSecond = (total) => (work.seconds ? (total / work.seconds).toFixed(0) : '?');
        console.log(`  ${speed.padEnd(8)} ${perSecond(work.total).padStart(5)}  ${work.longest.toFixed(1).padStart(6)}  ${String(work.frames).padStart(5)}  `
          + `${work.frameMedian.toFixed(2).padStart(6)}  ${work.frameP90.toFixed(2).padStart(6)}  ${String(tasks.length).padStart(4)}  `
          + `${String(gc.minor).padStart(4)}  ${gc.longestMinor.toFixed(1).padStart(6)}  ${(gc.allocationRate === null ? '?' : gc.allocationRate.toFixed(0)).padStart(5)}  ${String(gc.major).padStart(3)}`);
      }
    }
    if (traces.length) {
      console.log('the trace, the training worker: full collections; the finalizers run after them: count, wall ms, CPU ms, the longest (wall ms)');
      for (const [speed, { worker: { major, finalizers: f } }] of traces) {
        console.log(`  ${speed.padEnd(8)} ${String(major).padStart(3)}  ${String(f.count).padStart(3)}  ${f.wall.toFixed(0).padStart(5)}  ${f.cpu.toFixed(0).padStart(5)}  ${f.longest.toFixed(0).padStart(5)}`);
      }
    }
    for (const [speed, { tasks, busiest }] of traces) {
      const byCpu = tasks.slice().sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0));
      console.log(`the trace at ${speed}: ${tasks.length} main-thread task${tasks.length === 1 ? '' : 's'} over 50 ms while measured`
        + `${tasks.length > 3 ? ' (the 3 with the most CPU time)' : ''}`);
      byCpu.slice(0, 3).forEach(printTask);
      if (busiest && !byCpu.slice(0, 3).some((task) => task.start === busiest.start)) {
        console.log(`the trace at ${speed}: the task with the most CPU time`);
        printTask(busiest);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
