// Attributes a page's long tasks from a Chromium trace: records one with the DevTools protocol
// (a Playwright CDP session) and, for every top-level task of the page's main thread over a
// threshold, finds what ran inside it (garbage collection, compiling, style, layout, paint,
// a script's function with its URL and line, parsing, a font…), as a tree of the longest
// children. A long task the PerformanceObserver reports says only how long; the trace says what.

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8',
  'v8.execute',
  'blink',
  'loading',
  'disabled-by-default-v8.gc',
  'blink.user_timing',
].join(',');

// The names Chromium gives a main-thread task at the top of its stack.
const TOP_LEVEL = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** Starts a trace of `page` (a Playwright page); resolves to a function that stops it and returns its events. */
export async function startTrace(page) {
  const session = await page.context().newCDPSession(page);
  const events = [];
  session.on('Tracing.dataCollected', ({ value }) => { events.push(...value); });
  await session.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return async function stop() {
    const complete = new Promise((resolve) => { session.once('Tracing.tracingComplete', resolve); });
    await session.send('Tracing.end');
    await complete;
    await session.detach();
    return events;
  };
}

// Every renderer main thread (`CrRendererMain`), as "pid:tid" keys.
function mainThreads(events) {
  const threads = new Set();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') threads.add(`${e.pid}:${e.tid}`);
  }
  return threads;
}

// The events of one thread as intervals { name, start, end, args } in ms: complete ('X') events
// and begin/end ('B'/'E') pairs, the latter matched by name in stack order.
function intervalsByThread(events, threads) {
  const byThread = new Map();
  const open = new Map();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (!threads.has(key)) continue;
    if (!byThread.has(key)) byThread.set(key, []);
    const list = byThread.get(key);
    if (e.ph === 'X' && typeof e.dur === 'number') {
      list.push({ name: e.name, start: e.ts / 1000, end: (e.ts + e.dur) / 1000, cpu: typeof e.tdur === 'number' ? e.tdur / 1000 : undefined, args: e.args });
    } else if (e.ph === 'B') {
      const stack = open.get(key) ?? [];
      stack.push(e);
      open.set(key, stack);
    } else if (e.ph === 'E') {
      const stack = open.get(key) ?? [];
      for (let i = stack.length - 1; i >= 0; i -= 1) {
        if (stack[i].name !== e.name) continue;
        const [begin] = stack.splice(i, 1);
        const cpu = typeof begin.tts === 'number' && typeof e.tts === 'number' ? (e.tts - begin.tts) / 1000 : undefined;
        list.push({ name: begin.name, start: begin.ts / 1000, end: e.ts / 1000, cpu, args: { ...begin.args, ...e.args } });
        break;
      }
    }
  }
  for (const list of byThread.values()) list.sort((a, b) => a.start - b.start || b.end - a.end);
  return byThread;
}

// What an event is about, from its arguments: a script's URL and line, an event's type, a GC's kind.
function detail(event) {
  const data = event.args?.data ?? event.args?.beginData ?? {};
  const parts = [];
  if (data.functionName) parts.push(data.functionName);
  if (data.url) parts.push(`${String(data.url).replace(/^.*\//u, '')}${data.lineNumber !== undefined ? `:${data.lineNumber}` : ''}`);
  if (data.type) parts.push(data.type);
  if (event.args?.type) parts.push(event.args.type);
  if (data.src) parts.push(String(data.src).replace(/^.*\//u, ''));
  return parts.length ? ` (${parts.join(' ')})` : '';
}

// An event's wall time and, where the trace has it, its thread's CPU time: a task that took far
// longer than its CPU time waited for a core (the machine busy), it did not work that long.
function timing(event) {
  const cpu = event.cpu === undefined ? '' : `cpu ${event.cpu.toFixed(1)} ms`;
  return `${(event.end - event.start).toFixed(1).padStart(6)} ms ${cpu.padStart(12)}`;
}

// Nests a thread's sorted intervals into a tree by containment.
function nest(intervals) {
  const roots = [];
  const stack = [];
  for (const interval of intervals) {
    const node = { ...interval, children: [] };
    while (stack.length && stack[stack.length - 1].end < node.end - 1e-6) stack.pop();
    if (stack.length && node.start >= stack[stack.length - 1].start) stack[stack.length - 1].children.push(node);
    else roots.push(node);
    stack.push(node);
  }
  return roots;
}

// The top-level tasks: a RunTask not inside another (the outermost of nested run loops).
function topLevelTasks(roots) {
  const tasks = [];
  const visit = (node) => {
    if (TOP_LEVEL.has(node.name)) {
      tasks.push(node);
      return;
    }
    for (const child of node.children) visit(child);
  };
  for (const root of roots) visit(root);
  return tasks;
}

// The time (ms) of the page's performance.mark(name) in the trace, or undefined.
function markTime(events, name) {
  const mark = events.find((e) => e.name === name && String(e.cat).includes('blink.user_timing'));
  return mark ? mark.ts / 1000 : undefined;
}

// Whether a task updates the page's rendering (a frame): the lifecycle update, under the task's
// own RunTask layers.
function rendersFrame(node, depth = 3) {
  return node.children.some((child) => child.name === 'WebFrameWidgetImpl::UpdateLifecycle' || (depth > 1 && rendersFrame(child, depth - 1)));
}

// The main threads' garbage collections in the window: { minor, major, longestMinor (wall ms),
// allocationRate (kB a second: the heap's growth from one collection to the next, over the time
// between the first and the last; null with fewer than two) }. A minor collection (a scavenge)
// comes once the young generation is full, so the fewer bytes a frame allocates, the rarer they
// are; one that waits for its helper threads makes a long task.
function collections(events, threads, from, to) {
  const gc = { minor: 0, major: 0, longestMinor: 0, allocationRate: null };
  let after = null;
  let allocated = 0;
  const inWindow = events.filter((e) => threads.has(`${e.pid}:${e.tid}`) && e.ph === 'X'
    && (e.name === 'MinorGC' || e.name === 'MajorGC') && e.ts / 1000 >= from && e.ts / 1000 <= to);
  inWindow.sort((a, b) => a.ts - b.ts);
  for (const e of inWindow) {
    if (e.name === 'MinorGC') {
      gc.minor += 1;
      gc.longestMinor = Math.max(gc.longestMinor, e.dur / 1000);
    } else gc.major += 1;
    const { usedHeapSizeBefore: before, usedHeapSizeAfter: heapAfter } = e.args ?? {};
    if (after !== null && before > after) allocated += before - after;
    after = heapAfter ?? null;
  }
  if (inWindow.length > 1) {
    const seconds = (inWindow[inWindow.length - 1].ts - inWindow[0].ts) / 1e6;
    if (seconds > 0) gc.allocationRate = allocated / 1024 / seconds;
  }
  return gc;
}

// The workers' (the training worker's) full collections in the window and the finalizers run
// after them (V8's second-pass callbacks: in Chromium, those of strings held outside the heap):
// { major, finalizers: { count, wall, cpu, longest } } in ms.
function workerCollections(events, from, to) {
  const workers = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread')
    .map((e) => `${e.pid}:${e.tid}`));
  const found = { major: 0, finalizers: { count: 0, wall: 0, cpu: 0, longest: 0 } };
  for (const e of events) {
    if (e.ph !== 'X' || !workers.has(`${e.pid}:${e.tid}`) || e.ts / 1000 < from || e.ts / 1000 > to) continue;
    if (e.name === 'MajorGC') found.major += 1;
    else if (e.name === 'V8.GC_HEAP_EXTERNAL_SECOND_PASS_CALLBACKS') {
      const { finalizers } = found;
      finalizers.count += 1;
      finalizers.wall += e.dur / 1000;
      finalizers.cpu += (e.tdur ?? 0) / 1000;
      finalizers.longest = Math.max(finalizers.longest, e.dur / 1000);
    }
  }
  return found;
}

// A task's children of at least `minimum` ms, longest first, as indented lines down to `depth`.
function describe(task, { minimum, depth }) {
  const lines = [];
  const visit = (node, level) => {
    if (level > depth) return;
    const children = node.children.filter((c) => c.end - c.start >= minimum).sort((a, b) => (b.end - b.start) - (a.end - a.start));
    for (const child of children.slice(0, 4)) {
      lines.push(`${'  '.repeat(level)}${timing(child)}  ${child.name}${detail(child)}`);
      visit(child, level + 1);
    }
    const covered = node.children.reduce((sum, c) => sum + (c.end - c.start), 0);
    const self = node.end - node.start - covered;
    if (node.children.length && self >= minimum) lines.push(`${'  '.repeat(level)}${self.toFixed(1).padStart(6)} ms${' '.repeat(13)}  (in ${node.name} itself, no traced child)`);
  };
  visit(task, 1);
  return lines;
}

// What ran on a thread during a task: the chain of its longest descendants while each holds
// at least half of its parent (RunTask > … > V8.GC_HEAP_EXTERNAL_SECOND_PASS_CALLBACKS), with
// the posting source of the outermost (a V8 collector's, a compile job's, a timer's).
function chainOf(task) {
  const names = [task.name];
  let node = task;
  for (;;) {
    const longest = node.children.reduce((best, c) => (!best || c.end - c.start > best.end - best.start ? c : best), null);
    if (!longest || longest.end - longest.start < (node.end - node.start) / 2) break;
    if (longest.name !== 'ThreadControllerImpl::RunTask') names.push(`${longest.name}${detail(longest)}`);
    node = longest;
  }
  const { src_file: file, src_func: func } = task.args?.src_file ? task.args : task.children[0]?.args ?? {};
  const where = [file && String(file).replace(/^.*\//u, ''), func && String(func).replace(/\([^()]*\)\s*(const)?\s*$/u, '').replace(/^.*::/u, '')];
  const source = file ? ` [posted by ${where.filter(Boolean).join(' ')}]` : '';
  return `${names.join(' > ')}${source}`;
}

/**
 * For each long task the page observed (`observed`: { start, duration } in ms from the page's
 * performance.mark(`markName`)), what the trace holds in that window on every thread of the
 * page's renderer process (the page's thread, its workers, the compositor, the thread pool that
 * runs V8's compile jobs and collectors' helpers): each thread's outermost tasks of at least
 * `minimum` ms that overlap it, with their wall and CPU time and what ran in them. A task of the
 * page's thread that waited while another thread worked shows here side by side with that work.
 */
export function overlapping(events, observed, { markName, minimum = 10 } = {}) {
  const mark = events.find((e) => e.name === markName && String(e.cat).includes('blink.user_timing'));
  if (!mark) return [];
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.pid === mark.pid) names.set(`${e.pid}:${e.tid}`, e.args?.name ?? String(e.tid));
  }
  const byThread = intervalsByThread(events, new Set(names.keys()));
  const tasksByThread = new Map([...byThread].map(([key, intervals]) => {
    const roots = nest(intervals);
    const tasks = topLevelTasks(roots);
    const pooled = roots.filter((root) => root.name === 'ThreadPool_RunTask');
    return [key, tasks.length || pooled.length ? tasks.concat(pooled) : roots];
  }));
  const origin = mark.ts / 1000;
  return observed.map(({ start, duration }) => {
    const from = origin + start;
    const to = from + duration;
    const lines = [];
    for (const [key, tasks] of tasksByThread) {
      for (const task of tasks) {
        if (task.end <= from || task.start >= to || task.end - task.start < minimum) continue;
        lines.push({ at: task.start - origin, line: `${(task.start - origin).toFixed(0).padStart(6)} ms ${timing(task)}  ${names.get(key).padEnd(26)} ${chainOf(task)}` });
      }
    }
    return { start, duration, lines: lines.sort((a, b) => a.at - b.at).map((l) => l.line) };
  });
}

/**
 * The page's main-thread tasks in `events`: { tasks, busiest }. `tasks` are those longer than
 * `threshold` ms, in order, each { thread, start, duration, cpu, lines } (cpu: the thread's CPU
 * time in it, where traced; `lines` the tree of its children of at least `minimum` ms, longest
 * first, `depth` levels); `busiest` is the task with the most CPU time, however long, described
 * the same way (on a busy machine a task can take 50 ms waiting for a core while its own work
 * is short: the CPU time tells the two apart); `work` sums up the tasks' CPU time: { seconds
 * (of the window), tasks, total, longest, and of the tasks that render a frame: frames,
 * frameMedian, frameP90 } (ms); `gc` counts the main thread's garbage collections (collections()),
 * `worker` the workers' full collections and their finalizers (workerCollections()). With `between: [first, last]`, only the tasks
 * that end after the page's performance.mark(first) and start before its mark(last); `start`
 * is then from the first mark.
 */
export function longTasks(events, { threshold = 50, minimum = 2, depth = 9, between = null } = {}) {
  const threads = mainThreads(events);
  const from = between ? markTime(events, between[0]) ?? -Infinity : -Infinity;
  const to = between ? markTime(events, between[1]) ?? Infinity : Infinity;
  const origin = Number.isFinite(from) ? from
    : Math.min(...events.filter((e) => typeof e.ts === 'number' && e.ts > 0).map((e) => e.ts)) / 1000;
  const report = (thread, task) => ({
    thread, start: task.start - origin, duration: task.end - task.start, cpu: task.cpu, lines: describe(task, { minimum, depth }),
  });
  const tasks = [];
  const cpu = [];
  const frames = [];  // the CPU time of the tasks that update the page's rendering (a frame)
  let busiest = null;
  for (const [thread, intervals] of intervalsByThread(events, threads)) {
    for (const task of topLevelTasks(nest(intervals))) {
      if (task.end < from || task.start > to) continue;
      if (task.end - task.start > threshold) tasks.push(report(thread, task));
      cpu.push(task.cpu ?? 0);
      if (rendersFrame(task)) frames.push(task.cpu ?? 0);
      if ((task.cpu ?? 0) > (busiest?.task.cpu ?? -1)) busiest = { thread, task };
    }
  }
  cpu.sort((a, b) => a - b);
  frames.sort((a, b) => a - b);
  const at = (list, fraction) => list[Math.min(list.length - 1, Math.floor(fraction * list.length))] ?? 0;
  const work = {
    seconds: Number.isFinite(from) && Number.isFinite(to) ? (to - from) / 1000 : null,
    tasks: cpu.length,
    total: cpu.reduce((sum, ms) => sum + ms, 0),
    longest: at(cpu, 1),
    frames: frames.length,
    frameMedian: at(frames, 0.5),
    frameP90: at(frames, 0.9),
  };
  return {
    tasks: tasks.sort((a, b) => a.start - b.start),
    busiest: busiest && report(busiest.thread, busiest.task),
    work,
    gc: collections(events, threads, from, to),
    worker: workerCollections(events, from, to),
  };
}
