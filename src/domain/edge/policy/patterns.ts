/**
 * The platform's pattern syntax, shared by edge rule triggers and referrer lists: `*` matches any
 * run of characters (the empty one too), everything else is literal, and the comparison ignores
 * letter case. A value written `pattern:…` is a Lua pattern instead (case-sensitive, as in Lua).
 * Each pattern is compiled once per zone; plain values skip the regular-expression engine.
 */
import { luaPatternToRegExp } from './lua-pattern.js';

export type Matcher = (value: string) => boolean;

const NEVER: Matcher = () => false;
const ALWAYS: Matcher = () => true;

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

export function compilePattern(pattern: string): Matcher {
  if (pattern.startsWith('pattern:')) {
    const regexp = luaPatternToRegExp(pattern.slice('pattern:'.length));
    return regexp ? (value) => regexp.test(value) : NEVER;
  }
  if (!pattern.includes('*')) {
    const wanted = pattern.toLowerCase();
    return (value) => value.length === wanted.length && value.toLowerCase() === wanted;
  }
  if (/^\*+$/.test(pattern)) return ALWAYS;
  const body = pattern.split('*').map(escapeRegExp).join('[\\s\\S]*');
  const regexp = new RegExp(`^${body}$`, 'i');
  return (value) => regexp.test(value);
}

/** True when any of the patterns matches. */
export function compileAny(patterns: readonly string[]): Matcher {
  const matchers = patterns.filter((p) => p.length > 0).map(compilePattern);
  if (matchers.length === 0) return NEVER;
  if (matchers.length === 1) return matchers[0]!;
  return (value) => {
    for (const m of matchers) if (m(value)) return true;
    return false;
  };
}
