/**
 * Test-only preload (`node --import`) for stray-errors.test.ts: makes the server process meet errors
 * nothing catches, as a bug in a detached callback would. SIGUSR2: a rejected promise nobody awaits
 * and Node refusing a header value out of a callback (`ERR_INVALID_CHAR`), both carrying a secret in
 * a property the log must leave out. SIGHUP: a `TypeError` of the program's own, out of a callback.
 */
import { validateHeaderValue } from 'node:http';

export const SECRET = 'secret-value-0123456789';

process.on('SIGUSR2', () => {
  void Promise.reject(Object.assign(new Error('a stray rejection'), { password: SECRET }));
  setImmediate(() => {
    try {
      validateHeaderValue('X-Echo', 'a\r\nSet-Cookie: x=1');
    } catch (error) {
      throw Object.assign(error as Error, { password: SECRET });
    }
  });
});

process.on('SIGHUP', () => {
  setImmediate(() => {
    const missing = (globalThis as { noSuchThing?: { field: number } }).noSuchThing;
    return missing!.field;
  });
});
