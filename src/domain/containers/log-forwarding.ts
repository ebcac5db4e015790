/**
 * Log forwarding of container applications: one configuration per application, saying where its
 * logs go over syslog. Stored as a document of kind `logForwarding` under the application's id,
 * its token sealed at rest; it goes when its application goes. With podman running the
 * applications, an enabled configuration's collector gets its containers' output
 * (runtime/output-forwarding.ts); with the simulation nothing runs, so no line is sent.
 */
import { isIP } from 'node:net';
import {
  CONTAINERS_PRODUCT,
  type ListLogForwardingResponseT,
  type LogForwardingConfigurationT,
  type LogForwardingRequestT,
} from '../../schemas/log-forwarding.js';
import type { Secrets } from '../../security/secrets.js';
import type { Store, StoreTx } from '../../store/types.js';
import { DocumentRepo } from '../documents.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ContainerAppDoc } from './types.js';
import { newContainerId } from './ids.js';
import type { ForwardingTarget } from './runtime/container-syslog.js';

export interface LogForwardingDoc {
  id: string;
  app: string;
  type: LogForwardingConfigurationT['type'];
  endpoint: string;
  port: number;
  /** Sealed at rest. */
  token: string | null;
  format: LogForwardingConfigurationT['format'];
  enabled: boolean;
  createdAt: string;
}

const CREDENTIAL_PATHS = ['token'];
const SCAN_PAGE = 500;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

function checkEndpoint(endpoint: string): void {
  if (isIP(endpoint) === 0 && !HOST_NAME.test(endpoint)) {
    throw errors.validation('endpoint', `"${endpoint}" is not a host name or an IP address.`, 'logforwarding.endpoint');
  }
}

const view = (doc: LogForwardingDoc): LogForwardingConfigurationT => ({
  id: doc.id,
  app: doc.app,
  productId: CONTAINERS_PRODUCT,
  type: doc.type,
  endpoint: doc.endpoint,
  port: doc.port,
  createdAt: doc.createdAt,
  ...(doc.token ? { token: doc.token } : {}),
  format: doc.format,
  enabled: doc.enabled,
});

export class LogForwardingService {
  private readonly configs: DocumentRepo<LogForwardingDoc>;
  private readonly apps: DocumentRepo<ContainerAppDoc>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly now: () => number,
  ) {
    this.configs = new DocumentRepo<LogForwardingDoc>('logForwarding', 'log forwarding configuration', secrets, CREDENTIAL_PATHS);
    this.apps = new DocumentRepo<ContainerAppDoc>('containerApp', 'application', secrets, []);
  }

  /** Oldest first; straight from the store (the repository's list leaves ids out), tokens opened here. */
  async list(principal: Principal): Promise<ListLogForwardingResponseT> {
    const all = await this.store.docs.list<LogForwardingDoc>('logForwarding', principal.accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return { items: all.items.map((d) => view(this.configs.open(d.doc))) };
  }

  async get(principal: Principal, appId: string): Promise<LogForwardingConfigurationT> {
    return view((await this.configs.get(this.store, principal.accountId, appId)).doc);
  }

  /** For an application of the account that has none yet. */
  async create(principal: Principal, input: LogForwardingRequestT): Promise<LogForwardingConfigurationT> {
    checkEndpoint(input.endpoint);
    return this.store.transaction(async (tx) => {
      await this.apps.get(tx, principal.accountId, input.app);
      if (await this.configs.find(tx, principal.accountId, input.app)) {
        throw errors.validation('app', 'The application already has a log forwarding configuration; change it with PUT.', 'logforwarding.exists');
      }
      const doc: LogForwardingDoc = { id: newContainerId(), ...settingsOf(input), createdAt: new Date(this.now()).toISOString() };
      await this.configs.insert(tx, principal.accountId, input.app, doc);
      return view(doc);
    });
  }

  /** Replaces the whole configuration (a token left out is removed); it stays with its application. */
  async update(principal: Principal, appId: string, input: LogForwardingRequestT): Promise<LogForwardingConfigurationT> {
    return this.store.transaction(async (tx) => {
      const current = await this.configs.get(tx, principal.accountId, appId);
      if (input.app !== appId)
        throw errors.validation('app', 'A configuration stays with its application: app must be the id in the path.', 'logforwarding.app');
      checkEndpoint(input.endpoint);
      const doc: LogForwardingDoc = { ...current.doc, ...settingsOf(input) };
      await this.configs.update(tx, principal.accountId, current, doc);
      return view(doc);
    });
  }

  async delete(principal: Principal, appId: string): Promise<void> {
    await this.store.transaction((tx) => this.configs.delete(tx, principal.accountId, appId));
  }

  /** Every enabled configuration, by application id, its token opened: where the containers' output goes. */
  async enabledTargets(): Promise<Map<string, ForwardingTarget>> {
    const targets = new Map<string, ForwardingTarget>();
    for (let offset = 0; ; offset += SCAN_PAGE) {
      const page = await this.configs.scan(this.store, offset, SCAN_PAGE);
      for (const { doc } of page) {
        if (doc.enabled) targets.set(doc.app, { type: doc.type, endpoint: doc.endpoint, port: doc.port, format: doc.format, token: doc.token });
      }
      if (page.length < SCAN_PAGE) return targets;
    }
  }

  /** Application deletion hook, in the deleting transaction. */
  async removeFor(tx: StoreTx, accountId: number, appId: string): Promise<void> {
    await tx.docs.delete('logForwarding', accountId, appId);
  }
}

function settingsOf(input: LogForwardingRequestT): Omit<LogForwardingDoc, 'id' | 'createdAt'> {
  return {
    app: input.app,
    type: input.type,
    endpoint: input.endpoint,
    port: input.port,
    token: input.token || null,
    format: input.format,
    enabled: input.enabled,
  };
}
