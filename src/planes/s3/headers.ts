/** A request header as one string: repeated ones joined with commas, as HTTP reads them. */
import type { IncomingMessage } from 'node:http';

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}
