/** Small pieces every page uses: loading data, showing its failure, tabs, a page heading that takes focus. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

/** Loads `load()` now and again whenever `keys` change or `reload()` is called. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [turn, setTurn] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(undefined);
      },
      (failure: unknown) => current && setError(errorText(failure)),
    );
    return () => {
      current = false;
    };
  }, [...keys, turn]);
  const reload = useCallback(() => setTurn((n) => n + 1), []);
  return { data, error, reload };
}

/** What a loading section shows until its data is there. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.error !== undefined)
    return (
      <p class="status error" role="alert">
        {loaded.error}
      </p>
    );
  if (loaded.data === undefined) return <p class="loading">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

/** The page's heading, focused when the page opens so a screen reader announces where the user is. */
export function PageTitle({ children }: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}

export interface Tab {
  id: string;
  label: string;
}

/** Sections of a resource's page, each a link of its own (the browser's back button works). */
export function Tabs({ base, tabs, current }: { base: string; tabs: Tab[]; current: string }) {
  return (
    <nav class="tabs" aria-label="Sections">
      {tabs.map((tab) => (
        <a key={tab.id} href={`#${base}/${tab.id}`} aria-current={tab.id === current ? 'page' : undefined}>
          {tab.label}
        </a>
      ))}
    </nav>
  );
}

/** A button that runs an action, shows it running and says how it ended. */
export function ActionButton({ label, run, confirmText }: { label: string; run: () => Promise<unknown>; confirmText?: string }) {
  const [state, setState] = useState<{ busy: boolean; text: string; error: boolean }>({ busy: false, text: '', error: false });
  const click = async () => {
    if (confirmText && !window.confirm(confirmText)) return;
    setState({ busy: true, text: '', error: false });
    try {
      await run();
      setState({ busy: false, text: 'Done.', error: false });
    } catch (failure) {
      setState({ busy: false, text: errorText(failure), error: true });
    }
  };
  return (
    <span class="action">
      <button type="button" onClick={click} disabled={state.busy}>
        {label}
      </button>
      <span class={state.error ? 'status error' : 'status'} role={state.error ? 'alert' : 'status'}>
        {state.text}
      </span>
    </span>
  );
}

export const formatBytes = (n: number): string => {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
};

/** Figures with their names. */
export function Totals({ figures }: { figures: [name: string, value: ComponentChildren, testId?: string][] }) {
  return (
    <dl class="totals">
      {figures.map(([name, value, testId]) => [
        <dt key={`${name}-name`}>{name}</dt>,
        <dd key={`${name}-value`} data-testid={testId}>
          {value}
        </dd>,
      ])}
    </dl>
  );
}

/** The head of one resource's page: the way back to its list, its title, its tabs. */
export function ResourceHead({
  list,
  listLabel,
  title,
  tabs,
}: {
  list: string;
  listLabel: string;
  title: string;
  tabs?: { base: string; all: Tab[]; current: string };
}) {
  return (
    <>
      <p class="crumbs">
        <a href={`#${list}`}>{listLabel}</a> /
      </p>
      <PageTitle>{title}</PageTitle>
      {tabs ? <Tabs base={tabs.base} tabs={tabs.all} current={tabs.current} /> : null}
    </>
  );
}

/** Tabs from `{id: label}`, in that order. */
export const tabsOf = (labels: Record<string, string>): Tab[] => Object.entries(labels).map(([id, label]) => ({ id, label }));
