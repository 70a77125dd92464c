import { afterEach, describe, expect, it, vi } from 'vitest';
import { startedByNpx, watchParent } from './parent-watch.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('watchParent', () => {
  it('calls back once, on the first look after the parent has changed', () => {
    vi.useFakeTimers();
    let parent = 100;
    const gone = vi.fn();
    watchParent(gone, { intervalMs: 500, ppid: () => parent });
    vi.advanceTimersByTime(1_500);
    expect(gone).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(499);
    expect(gone).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gone).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('calls back no more once stopped', () => {
    vi.useFakeTimers();
    let parent = 100;
    const gone = vi.fn();
    const stop = watchParent(gone, { ppid: () => parent });
    stop();
    parent = 1;
    vi.advanceTimersByTime(5_000);
    expect(gone).not.toHaveBeenCalled();
  });

  it('watches only under npx or npm exec, not under npm run or a shell', () => {
    expect(startedByNpx({ npm_lifecycle_event: 'npx', npm_command: 'exec' })).toBe(true);
    expect(startedByNpx({ npm_lifecycle_event: 'start', npm_command: 'run' })).toBe(false);
    expect(startedByNpx({})).toBe(false);
  });
});
