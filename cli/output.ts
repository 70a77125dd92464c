// A long-running command's stdout and stderr, for when their reader goes: `petkit mock | head -1`
// closes the pipe after the banner's first line, and the next write fails with EPIPE, which node
// raises as an 'error' event nobody listens to: the process died with a stack trace, its --url-file
// left behind and its --har never written. Written through this, a stream whose reader is gone is
// written no more, said once on the other stream, and the command serves on.

import { terminalText } from '../openapi/terminal-text.js';

export interface GuardedStream {
  /** Writes `chunk` unless the stream's reader is gone (then drops it). */
  write(chunk: Uint8Array | string): void;
  /** Whether the stream's reader is gone. */
  readonly gone: boolean;
}

/** What guardStream needs of a stream: node's Writable, or a test's. */
export interface OutputStream {
  write(chunk: Uint8Array | string): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * `stream`, written until its first error (EPIPE, EIO for a terminal gone, …); `onGone` is told once,
 * with the error's code, when that happens.
 */
export function guardStream(
  stream: OutputStream,
  onGone: (code: string) => void = () => undefined,
): GuardedStream {
  let gone = false;
  const lose = (error: unknown) => {
    if (gone) return;
    gone = true;
    onGone((error as NodeJS.ErrnoException).code ?? String(error));
  };
  // Every later error of the stream (a write queued before the first failed) is this one again.
  stream.on('error', lose);
  return {
    get gone() {
      return gone;
    },
    write(chunk) {
      if (gone) return;
      try {
        stream.write(chunk);
      } catch (error) {
        // A stream that throws rather than emits (a closed file descriptor written synchronously).
        lose(error);
      }
    },
  };
}

/**
 * The process's stdout and stderr, each guarded; when one's reader goes, the other says so once in
 * `lost(name, code)`'s words.
 */
export function processOutput(
  command: string,
  /** What to say when a stream's reader goes; undefined: nothing (a command's --help). */
  lost: (name: 'stdout' | 'stderr', code: string) => string | undefined,
  streams: { readonly stdout: OutputStream; readonly stderr: OutputStream } = process,
): { readonly stdout: GuardedStream; readonly stderr: GuardedStream } {
  const say = (other: () => GuardedStream, words: string | undefined) => {
    if (words !== undefined) other().write(`${command}: ${words}\n`);
  };
  const stderr: GuardedStream = guardStream(streams.stderr, (code) =>
    say(() => stdout, lost('stderr', code)),
  );
  const stdout: GuardedStream = guardStream(streams.stdout, (code) =>
    say(() => stderr, lost('stdout', code)),
  );
  return { stdout, stderr };
}

/**
 * `text` safe to print on a terminal: each character openapi/terminal-text.ts names (the controls,
 * a lone surrogate, the bidirectional controls, the separators, the zero-width ones) written as its
 * `\uXXXX` escape, as the contract suite's reports write them. A message that quotes a file or a flag
 * quotes what the user gave, and a rule's path "/v1/pets\u001b[2J" cleared the screen the message was
 * printed on.
 */
export function printable(text: string): string {
  return terminalText(text);
}
