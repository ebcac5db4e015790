/** The console's frame: sign-in until a key is accepted, then the navigation and the page the address names. */
import { useEffect, useState } from 'preact/hooks';
import { whenKeyRefused } from './api';
import { useRoute } from './router';
import { session } from './session';
import { SignIn } from './pages/sign-in';
import { PullZones } from './pages/pull-zones';
import { PullZonePage } from './pages/pull-zone';
import { StorageZones } from './pages/storage-zones';
import { StorageZonePage } from './pages/storage-zone';
import { DnsZones } from './pages/dns-zones';
import { DnsZonePage } from './pages/dns-zone';
import { VideoLibraries } from './pages/video-libraries';
import { ContainerApps } from './pages/container-apps';
import { ApiKeys } from './pages/api-keys';
import { Billing } from './pages/billing';

const SECTIONS = [
  { path: 'pullzones', label: 'Pull zones' },
  { path: 'storage', label: 'Storage zones' },
  { path: 'dns', label: 'DNS zones' },
  { path: 'video', label: 'Video libraries' },
  { path: 'containers', label: 'Container apps' },
  { path: 'keys', label: 'API keys' },
  { path: 'billing', label: 'Billing' },
];

function Page({ route }: { route: string[] }) {
  const [section = 'pullzones', id, tab] = route;
  const zoneId = Number(id);
  const hasId = id !== undefined && Number.isInteger(zoneId);
  switch (section) {
    case 'pullzones':
      return hasId ? <PullZonePage id={zoneId} tab={tab ?? 'settings'} /> : <PullZones />;
    case 'storage':
      return hasId ? <StorageZonePage id={zoneId} tab={tab ?? 'files'} path={route.slice(3)} /> : <StorageZones />;
    case 'dns':
      return hasId ? <DnsZonePage id={zoneId} tab={tab ?? 'records'} /> : <DnsZones />;
    case 'video':
      return <VideoLibraries id={hasId ? zoneId : undefined} />;
    case 'containers':
      return <ContainerApps id={id} />;
    case 'keys':
      return <ApiKeys />;
    case 'billing':
      return <Billing />;
    default:
      return <p>No page here. Choose a section above.</p>;
  }
}

export function App() {
  const [signedIn, setSignedIn] = useState(() => session.key() !== null);
  const route = useRoute();
  useEffect(
    () =>
      whenKeyRefused(() => {
        session.forget();
        setSignedIn(false);
      }),
    [],
  );
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const section = route[0] ?? 'pullzones';
  return (
    <>
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to the page
      </button>
      <header>
        <span class="brand">edgeplane</span>
        <nav aria-label="Sections of the console">
          {SECTIONS.map((s) => (
            <a key={s.path} href={`#/${s.path}`} aria-current={s.path === section ? 'page' : undefined}>
              {s.label}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="sign-out"
          onClick={() => {
            session.forget();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page key={route.slice(0, 2).join('/')} route={route} />
      </main>
    </>
  );
}
