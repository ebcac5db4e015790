/**
 * Which requests a path pattern names, for fault rules and journal filters. A pattern is written
 * like a route (`/pullzone/:id`) or as a glob (`/pullzone/*`, `*`) and matches a request whose
 * route pattern or concrete path it fits, so `/pullzone/:id` names every zone and `/pullzone/7`
 * only one. `*` spans any characters, slashes included. A `:name` segment stands for a route
 * parameter whatever its name, so nobody has to guess that the route says `:id`. Case and a
 * trailing slash are ignored, as the router ignores them.
 */
export type PathMatcher = (route: string | undefined, path: string) => boolean;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compilePathPattern(pattern: string): PathMatcher {
  const source = pattern
    .replace(/\/+$/, '')
    .split(/(\*|:[A-Za-z0-9_]+)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') && part.length > 1 ? ':[^/]+' : escapeRegExp(part)))
    .join('');
  const regex = new RegExp(`^${source}/?$`, 'i');
  return (route, path) => (route !== undefined && regex.test(route)) || regex.test(path);
}
