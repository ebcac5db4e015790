/**
 * A long-lived child (`podman events`, `podman logs --follow`) that dies with edgeplane, even
 * killed by SIGKILL: it runs under a small `sh` that holds the write end of nothing but a pipe
 * from edgeplane on its standard input; when that pipe closes (edgeplane stopped, crashed or was
 * killed: the kernel closes it), `cat` sees its end and the shell kills the child. The child's own
 * standard input is /dev/null; its output and errors are the shell's, so edgeplane reads them as
 * the child's. `stop()` closes the pipe the same way.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/**
 * `$0` is the program and `$@` its arguments. fd 3 keeps the pipe for `cat`: an asynchronous list's
 * standard input is /dev/null unless redirected. A TERM, INT or HUP to the shell is passed on.
 */
const WRAPPER = [
  'exec 3<&0',
  '"$0" "$@" </dev/null & child=$!',
  "trap 'kill $child 2>/dev/null' TERM INT HUP",
  '{ cat <&3 >/dev/null; kill $child 2>/dev/null; } & watcher=$!',
  'exec 3<&-',
  'wait $child; status=$?',
  'kill $watcher 2>/dev/null',
  'exit $status',
].join('\n');

export interface TiedChild {
  process: ChildProcessWithoutNullStreams;
  /** Ends the child (its pipe closed: the wrapper kills it). */
  stop(): void;
}

export function spawnTied(binary: string, args: readonly string[]): TiedChild {
  const child = spawn('/bin/sh', ['-c', WRAPPER, binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Nothing is ever written: the pipe only says edgeplane is alive. An error writing is its end.
  child.stdin.on('error', () => undefined);
  return {
    process: child,
    stop: () => {
      child.stdin.end();
    },
  };
}
