// bench/trace-long-tasks.mjs's overlapping(): for a long task the page observed (its start from
// the page's mark), the tasks of every thread of the page's renderer process that overlap it
// in a trace, each with what ran inside and who posted it; nothing of another process, nothing
// shorter than the minimum, nothing outside the window; and longTasks()'s count of the worker's
// full collections and their finalizers. A synthetic trace in Chromium's format.
//
// Run: node --test tests/web/trace-long-tasks.test.mjs
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { longTasks, overlapping } from '../../bench/trace-long-tasks.mjs';

const RENDERER = 10;
const OTHER_PROCESS = 20;
const MARK_US = 5_000_000;  // the mark, in the trace's microseconds

const threadName = (pid, tid, name) => ({ ph: 'M', name: 'thread_name', pid, tid, args: { name } });
// A complete event `ms` after the mark lasting `durMs`, with thread CPU time `cpuMs`.
const task = (pid, tid, name, ms, durMs, cpuMs, args = {}) => ({
  ph: 'X', name, pid, tid, ts: MARK_US + ms * 1000, dur: durMs * 1000, tdur: cpuMs * 1000, args,
});

const EVENTS = [
  threadName(RENDERER, 1, 'CrRendererMain'),
  threadName(RENDERER, 2, 'DedicatedWorker thread'),
  threadName(RENDERER, 3, 'ThreadPoolForegroundWorker'),
  threadName(OTHER_PROCESS, 4, 'CrRendererMain'),
  { ph: 'R', name: 'train-page:measured', cat: 'blink.user_timing', pid: RENDERER, tid: 1, ts: MARK_US },
  { ph: 'R', name: 'train-page:done', cat: 'blink.user_timing', pid: RENDERER, tid: 1, ts: MARK_US + 3_000_000 },
  task(RENDERER, 2, 'MajorGC', 1005, 3, 2),
  // The page's frame: long, little CPU.
  task(RENDERER, 1, 'RunTask', 1000, 180, 50),
  task(RENDERER, 1, 'ThreadControllerImpl::RunTask', 1000, 179, 50, { src_file: 'cc/trees/proxy_impl.cc', src_func: 'void cc::ProxyImpl::ScheduledActionSendBeginMainFrame()' }),
  task(RENDERER, 1, 'WebFrameWidgetImpl::UpdateLifecycle', 1002, 170, 45),
  // The worker's collection finalizers beside it.
  task(RENDERER, 2, 'RunTask', 1010, 169, 161),
  task(RENDERER, 2, 'ThreadControllerImpl::RunTask', 1010, 169, 161, {
    src_file: 'v8/src/handles/global-handles.cc',
    src_func: 'void v8::internal::GlobalHandles::PostGarbageCollectionProcessing(v8::internal::GarbageCollector, const v8::GCCallbackFlags)',
  }),
  task(RENDERER, 2, 'V8.GCPhantomHandleProcessingCallback', 1010, 169, 161),
  task(RENDERER, 2, 'V8.GC_HEAP_EXTERNAL_SECOND_PASS_CALLBACKS', 1010, 168, 160),
  // A compile job on the thread pool, started before the window.
  task(RENDERER, 3, 'ThreadPool_RunTask', 900, 300, 120, {
    src_file: 'v8/src/wasm/module-compiler.cc',
    src_func: 'void v8::internal::wasm::(anonymous namespace)::CompilationStateImpl::InitCompileJob()',
  }),
  // Not reported: too short, outside the window, another process.
  task(RENDERER, 2, 'RunTask', 1100, 5, 5),
  task(RENDERER, 2, 'RunTask', 1400, 40, 40),
  task(OTHER_PROCESS, 4, 'RunTask', 1000, 100, 100),
  // After the window: not counted among the worker's collections.
  task(RENDERER, 2, 'MajorGC', 4000, 3, 2),
  task(RENDERER, 2, 'V8.GC_HEAP_EXTERNAL_SECOND_PASS_CALLBACKS', 4005, 40, 40),
];

describe('longTasks(): the worker\u2019s collections', () => {
  it('counts the full collections and the finalizers after them in the window only', () => {
    const { worker } = longTasks(EVENTS, { between: ['train-page:measured', 'train-page:done'] });
    assert.deepEqual(worker, { major: 1, finalizers: { count: 1, wall: 168, cpu: 160, longest: 168 } });
  });
});

describe('overlapping()', () => {
  const [found] = overlapping(EVENTS, [{ start: 1000, duration: 185 }], { markName: 'train-page:measured' });

  it('keeps the observed task\u2019s start and duration', () => {
    assert.equal(found.start, 1000);
    assert.equal(found.duration, 185);
  });

  it('lists every renderer thread\u2019s overlapping task of 10 ms or more, by start', () => {
    assert.equal(found.lines.length, 3, found.lines.join('\n'));
    assert.match(found.lines[0], /^\s+900 ms\s+300\.0 ms\s+cpu 120\.0 ms\s+ThreadPoolForegroundWorker\s+ThreadPool_RunTask \[posted by module-compiler\.cc InitCompileJob\]$/u);
    assert.match(found.lines[1], /^\s+1000 ms\s+180\.0 ms\s+cpu 50\.0 ms\s+CrRendererMain\s+RunTask > WebFrameWidgetImpl::UpdateLifecycle \[posted by proxy_impl\.cc ScheduledActionSendBeginMainFrame\]$/u);
    assert.match(found.lines[2], /DedicatedWorker thread\s+RunTask > V8\.GCPhantomHandleProcessingCallback > V8\.GC_HEAP_EXTERNAL_SECOND_PASS_CALLBACKS \[posted by global-handles\.cc PostGarbageCollectionProcessing\]$/u);
  });

  it('finds nothing without the mark, and nothing in an empty window', () => {
    assert.deepEqual(overlapping(EVENTS, [{ start: 1000, duration: 185 }], { markName: 'no-such-mark' }), []);
    assert.deepEqual(overlapping(EVENTS, [{ start: 3000, duration: 60 }], { markName: 'train-page:measured' })[0].lines, []);
  });
});
