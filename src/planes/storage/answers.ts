/** The file API's answers: JSON `{HttpCode, Message}` bodies for outcomes, as the platform's storage servers send them. */
import type { ServerResponse } from 'node:http';
import { appErrorOf, type ErrorCode } from '../../domain/errors.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...extraHeaders });
  res.end(text);
}

export const sendMessage = (res: ServerResponse, status: number, message: string, extraHeaders?: Record<string, string>) =>
  sendJson(res, status, { HttpCode: status, Message: message }, extraHeaders);

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 401,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/** The platform's wording for the outcomes clients match on; other errors carry their own message. */
const FIXED_MESSAGES: Partial<Record<number, string>> = { 401: 'Unauthorized', 404: 'Object Not Found' };

/** Answers a failure; unknown errors are a 500 that says nothing of their cause (it goes to the log). */
export function sendFailure(res: ServerResponse, error: unknown, log: (error: unknown) => void): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const appError = appErrorOf(error);
  if (appError) {
    const status = STATUS[appError.code];
    // The client may still be sending a body the server will not read: close rather than drain it.
    const close: Record<string, string> = status === 413 ? { connection: 'close' } : {};
    sendMessage(res, status, FIXED_MESSAGES[status] ?? appError.message, close);
    return;
  }
  log(error);
  sendMessage(res, 500, 'Internal Server Error');
}
