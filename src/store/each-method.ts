/** A repository seen through a wrapper: how a store adds its lock (SQLite) or its error translation (PostgreSQL) to every call outside a transaction. */

export type Method = (...args: unknown[]) => unknown;

/** A copy of `repo` whose every method is `wrap(method, name)`; `method` is the prototype's, to be called on `repo`. */
export function wrapEachMethod<T extends object>(repo: T, wrap: (method: Method, name: string) => Method): T {
  const wrapped = {} as Record<string, unknown>;
  const proto = Object.getPrototypeOf(repo) as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = proto[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    wrapped[name] = wrap(method as Method, name);
  }
  return wrapped as T;
}
