/**
 * `edgeplane <command>`: the server and the operator's tools in one binary. Every `serve` flag is
 * also an environment variable (the flag wins); output is for people, or JSON with `--json`.
 */
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { buildApp } from './planes/api/app.js';
import { ConfigError, ENV_VARS, readConfig, type Config } from './config.js';
import { appErrorOf, errors } from './domain/errors.js';
import { ROLES } from './domain/principal.js';
import { openFilesBackendLazily } from './files/location.js';
import { resolveMasterKey } from './security/master-key.js';
import { PlaneListenError } from './planes/plane.js';
import { buildRuntime } from './runtime.js';
import { applySeed, readSeed, SeedError } from './seed/apply.js';
import { serve } from './serve.js';
import { openStore } from './store/open.js';
import type { DumpRecord, Store } from './store/types.js';
import { VERSION } from './version.js';

const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const configFlags = Object.fromEntries(Object.keys(ENV_VARS).map((k) => [kebab(k), { type: 'string' as const }]));

const USAGE = `edgeplane ${VERSION}

Usage: edgeplane <command> [options]

  serve                          run the server (flags: ${Object.keys(configFlags)
    .map((f) => `--${f}`)
    .join(', ')})
  migrate                        apply pending schema migrations and exit
  accounts create <name>         create an account and print its full-access API key
  accounts list                  list accounts
  accounts balance <id> <amount> set an account's funds (0 or less stops its pull zones)
  pullzones usage <id> <bytes>   record bandwidth a pull zone served
  pullzones suspend|unsuspend <id>
  pullzones logs <id> [--limit N] a pull zone's access log, newest first (default 100 lines)
  keys create --account <id> [--role FullAccess|ReadOnly]
  keys list --account <id>
  keys revoke --account <id> <keyId>
  export [file]                  write the whole store as JSON lines (stdout when no file)
  import <file>                  load a dump into an empty store (same master key as the export)
  seed <file>                    apply a seed file (again: only what is missing is created)
  ca export [file]               print the local certificate authority's root (PEM) for your trust store

Every command reads the same configuration as the server (DATABASE_URL, EDGEPLANE_MASTER_KEY, ...).
Add --json for machine-readable output.`;

class UsageError extends Error {}

function configFrom(values: Record<string, unknown>): Config {
  const overrides: Record<string, string> = {};
  for (const [key, variable] of Object.entries(ENV_VARS)) {
    const flag = values[kebab(key)];
    if (typeof flag === 'string') overrides[variable] = flag;
  }
  return readConfig({ ...process.env, ...overrides });
}

function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

/** A progress line on a terminal only: scripts and pipes get clean output. */
function progress(label: string) {
  const tty = process.stderr.isTTY;
  let last = 0;
  return {
    tick(n: number) {
      if (tty && n - last >= 1000) {
        last = n;
        process.stderr.write(`\r${label} ${n.toLocaleString('en')} records`);
      }
    },
    done(n: number) {
      if (tty) process.stderr.write(`\r${label} ${n.toLocaleString('en')} records\n`);
    },
  };
}

async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(config);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The runtime of a one-off command: its background work never started, files opened only if read. */
const runtimeFor = (store: Store, config: Config) =>
  buildRuntime({ config, store, masterKey: resolveMasterKey(config), blobs: openFilesBackendLazily(config) });

const servicesFor = (store: Store, config: Config) => runtimeFor(store, config).services;

const accountId = (values: Record<string, unknown>) => {
  const id = Number(values['account']);
  if (!Number.isInteger(id) || id < 1) throw new UsageError('--account <id> is required');
  return id;
};

async function printAccessLog(services: ReturnType<typeof servicesFor>, id: number, limitFlag: string | undefined, json: boolean): Promise<void> {
  const limit = limitFlag === undefined ? 100 : Number(limitFlag);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be a whole number from 1 to 10000');
  if (!(await services.pullZones.zones.findAnyAccount(services.store, id))) throw errors.notFound('pull zone');
  const lines = await services.edgeAccessLog.read(id, { start: 0, limit, order: 'desc' });
  return print(json, lines, lines.join('\n') || 'no lines (is EnableLogging on, and has the edge served the zone?)');
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...configFlags,
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      account: { type: 'string' },
      role: { type: 'string', multiple: true },
      limit: { type: 'string' },
    },
  });
  const [command, sub, ...rest] = positionals;
  const json = values.json === true;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const config = configFrom(values);

  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate':
      return withStore(config, async (store) => print(json, { migrated: true, store: store.dialect }, `migrations applied (${store.dialect})`));
    case 'accounts':
      return withStore(config, async (store) => {
        const services = servicesFor(store, config);
        if (sub === 'create') {
          if (!rest[0]) throw new UsageError('accounts create <name>');
          const { account, apiKey } = await services.accounts.create(rest[0]);
          return print(json, { Id: account.id, Name: account.name, ApiKey: apiKey }, `account ${account.id} "${account.name}" created; API key: ${apiKey}`);
        }
        if (sub === 'list') {
          const accounts = await services.operator.listAccounts();
          return print(json, accounts, accounts.map((a) => `${a.Id}\t${a.Name}\tbalance ${a.Balance}`).join('\n') || 'no accounts');
        }
        if (sub === 'balance') {
          const [id, amount] = [Number(rest[0]), Number(rest[1])];
          if (!Number.isInteger(id) || rest[1] === undefined || !Number.isFinite(amount)) throw new UsageError('accounts balance <id> <amount>');
          const account = await services.operator.setBalance(id, amount);
          return print(json, account, `account ${account.Id} balance ${account.Balance}`);
        }
        throw new UsageError('accounts create|list|balance');
      });
    case 'pullzones':
      return withStore(config, async (store) => {
        const services = servicesFor(store, config);
        const id = Number(rest[0]);
        if (!Number.isInteger(id) || id < 1) throw new UsageError('pullzones usage|suspend|unsuspend <id> ...');
        if (sub === 'logs') return printAccessLog(services, id, values.limit, json);
        let zone;
        if (sub === 'usage') {
          const bytes = Number(rest[1]);
          if (!Number.isSafeInteger(bytes) || bytes < 0) throw new UsageError('pullzones usage <id> <bytes>');
          zone = await services.operator.addUsage(id, bytes);
        } else if (sub === 'suspend' || sub === 'unsuspend') {
          zone = await services.operator.setSuspended(id, sub === 'suspend');
        } else {
          throw new UsageError('pullzones usage|suspend|unsuspend|logs <id>');
        }
        const view = { Id: zone.Id, MonthlyBandwidthUsed: zone.MonthlyBandwidthUsed, Enabled: zone.Enabled, Suspended: zone.Suspended };
        return print(json, view, `pull zone ${zone.Id}: used ${zone.MonthlyBandwidthUsed} bytes, enabled ${zone.Enabled}, suspended ${zone.Suspended}`);
      });
    case 'keys':
      return withStore(config, async (store) => {
        const services = servicesFor(store, config);
        const principal = { accountId: accountId(values), keyId: 0, keyKind: 'personal' as const, roles: ['FullAccess'] };
        if (!(await store.accounts.get(principal.accountId))) throw new UsageError(`account ${principal.accountId} does not exist`);
        if (sub === 'create') {
          const roles = (values.role ?? []) as string[];
          const bad = roles.find((r) => !(ROLES as readonly string[]).includes(r));
          if (bad) throw new UsageError(`unknown role ${bad} (use ${ROLES.join(' or ')})`);
          const key = await services.apiKeys.create(principal, roles as (typeof ROLES)[number][]);
          return print(json, key, `key ${key.Id} (${key.Roles.join(', ')}): ${key.Key}`);
        }
        if (sub === 'list') {
          const page = await services.apiKeys.list(principal, 1, 1000);
          return print(json, page.Items, page.Items.map((k) => `${k.Id}\t${k.Roles.join(',')}\t${k.Key}`).join('\n') || 'no keys');
        }
        if (sub === 'revoke') {
          const id = Number(rest[0]);
          if (!Number.isInteger(id)) throw new UsageError('keys revoke --account <id> <keyId>');
          await services.apiKeys.revoke(principal, id);
          return print(json, { revoked: id }, `key ${id} revoked`);
        }
        throw new UsageError('keys create|list|revoke');
      });
    case 'export':
      return withStore(config, async (store) => {
        const out: NodeJS.WritableStream = sub && sub !== '-' ? createWriteStream(sub) : process.stdout;
        const bar = progress('exported');
        let n = 0;
        for await (const record of store.dump()) {
          if (!out.write(`${JSON.stringify(record)}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
          bar.tick(++n);
        }
        bar.done(n);
        if (out !== process.stdout) {
          await new Promise<void>((resolve) => out.end(() => resolve()));
          print(json, { exported: n, file: sub }, `exported ${n} records to ${sub}`);
        }
      });
    case 'import':
      return withStore(config, async (store) => {
        if (!sub) throw new UsageError('import <file>');
        const bar = progress('imported');
        let seen = 0;
        async function* read(): AsyncGenerator<DumpRecord> {
          const lines = createInterface({ input: sub === '-' ? process.stdin : createReadStream(sub!), crlfDelay: Infinity });
          for await (const line of lines) {
            if (!line.trim()) continue;
            bar.tick(++seen);
            yield JSON.parse(line) as DumpRecord;
          }
        }
        const n = await store.load(read());
        bar.done(seen);
        print(json, { imported: n }, `imported ${n} records`);
      });
    case 'ca':
      return withStore(config, async (store) => {
        if (sub !== 'export') throw new UsageError('ca export [file]');
        // Created in the store on first use, so the root exported before the edge ever ran is the one it will use.
        const pem = await servicesFor(store, config).certificates.rootPem();
        const file = rest[0];
        if (file && file !== '-') {
          writeFileSync(file, pem);
          return print(json, { file }, `root certificate written to ${file}`);
        }
        process.stdout.write(json ? `${JSON.stringify({ certificate: pem })}\n` : pem);
      });
    case 'seed':
      return withStore(config, async (store) => {
        if (!sub) throw new UsageError('seed <file>');
        const seed = readSeed(sub);
        const runtime = runtimeFor(store, config);
        const app = await buildApp({ runtime });
        try {
          const result = await applySeed(app, seed);
          print(json, result, `seed applied: ${result.accounts} accounts and ${result.created} keys/resources created, ${result.skipped} already there`);
        } finally {
          await app.close();
          await runtime.close();
        }
      });
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (
    error instanceof UsageError ||
    error instanceof ConfigError ||
    error instanceof SeedError ||
    error instanceof PlaneListenError ||
    appErrorOf(error) !== undefined ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    process.stderr.write(`edgeplane: ${(error as Error).message}\n\n${error instanceof UsageError ? USAGE : ''}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  process.stderr.write(`edgeplane: ${(error as Error).message ?? String(error)}\n`);
  process.exit(1);
});
