/**
 * The console's only way to the management API: same origin, the key in the `AccessKey` header,
 * JSON in and out. A failure becomes an ApiError carrying the problem body's per-field messages
 * (the spec's part 7: `errors[{field, message}]`), which the forms show beside their fields.
 */
import { session } from './session';

export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** Called when the server refuses the key (401): the console goes back to its sign-in. */
let onRefused: () => void = () => {};
export const whenKeyRefused = (handler: () => void) => {
  onRefused = handler;
};

interface ProblemBody {
  detail?: string;
  Message?: string;
  title?: string;
  errors?: FieldProblem[];
}

export async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: ProblemBody = {};
  try {
    body = JSON.parse(text) as ProblemBody;
  } catch {
    body = { detail: text || response.statusText };
  }
  const message = body.detail ?? body.Message ?? body.title ?? `${response.status} ${response.statusText}`;
  return new ApiError(response.status, message, Array.isArray(body.errors) ? body.errors : []);
}

export interface CallOptions {
  /** A JSON body, or a text body sent as it is (zone files). */
  body?: unknown;
  /** The key to use instead of the session's (signing in). */
  key?: string;
  /** Answer as text rather than JSON (zone file export). */
  text?: boolean;
}

export async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const key = options.key ?? session.key();
  if (key) headers['AccessKey'] = key;
  let body: string | undefined;
  if (typeof options.body === 'string') {
    body = options.body;
    headers['content-type'] = 'text/plain';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(path, { method, headers, body: body ?? null });
  if (!response.ok) {
    const problem = await problemOf(response);
    if (response.status === 401 && options.key === undefined) onRefused();
    throw problem;
  }
  if (options.text) return (await response.text()) as T;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T = unknown>(path: string, options?: CallOptions) => call<T>('GET', path, options),
  post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', path, { body }),
  put: <T = unknown>(path: string, body?: unknown) => call<T>('PUT', path, { body }),
  patch: <T = unknown>(path: string, body?: unknown) => call<T>('PATCH', path, { body }),
  del: <T = unknown>(path: string, body?: unknown) => call<T>('DELETE', path, { body }),
};

/** A list answer: either an array or the spec's page `{Items, CurrentPage, TotalItems, HasMoreItems}`. */
export function itemsOf<T>(answer: T[] | { Items?: T[] | null }): T[] {
  return Array.isArray(answer) ? answer : (answer.Items ?? []);
}

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
