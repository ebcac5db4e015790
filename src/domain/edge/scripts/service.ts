/**
 * Edge scripts of an account (the scripting API): the script, its code, its releases and
 * publishing, its deployment key. Variables and secrets are settings.ts's, statistics
 * statistics.ts's. A script is one document of kind `edgeScript`; each release one of kind
 * `edgeScriptRelease` under it. Publishing writes the script's `CurrentReleaseId`, which the
 * change feed carries to every instance's runtime (runtime/instances.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddEdgeScriptRequestT, EdgeScriptListQueryT, EdgeScriptReleaseT, EdgeScriptT, UpdateEdgeScriptRequestT } from '../../../schemas/edge-scripts.js';
import type { PagedT } from '../../../schemas/paging.js';
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import type { Secrets } from '../../../security/secrets.js';
import type { Store, StoredDoc, StoreTx } from '../../../store/types.js';
import { DocumentRepo } from '../../documents.js';
import { errors } from '../../errors.js';
import type { Clock, Principal } from '../../principal.js';
import type { PullZoneService } from '../../pull-zones/service.js';
import type { EdgeScriptDoc, ScriptReleaseDoc } from './types.js';

const ALL = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

export const scriptRepo = (secrets: Secrets) => new DocumentRepo<EdgeScriptDoc>('edgeScript', 'edge script', secrets, ['Secrets.*.Value', 'DeploymentKey']);
export const releaseRepo = (secrets: Secrets) =>
  new DocumentRepo<ScriptReleaseDoc>('edgeScriptRelease', 'release', secrets, [], (doc) => ({ parentId: String(doc.scriptId) }));

/** What the scripting API's month figures read (statistics.ts), per script. */
export interface MonthFigures {
  requests: number;
  cpuMs: number;
}

const newDeploymentKey = () => randomBytes(24).toString('base64url');

export class EdgeScriptService {
  readonly scripts: DocumentRepo<EdgeScriptDoc>;
  readonly releases: DocumentRepo<ScriptReleaseDoc>;

  constructor(
    readonly store: Store,
    secrets: Secrets,
    readonly clock: Clock,
    private readonly pullZones: PullZoneService,
    /** This month's figures of a script (statistics.ts), for the model's Monthly* fields. */
    private readonly monthOf: (scriptId: number) => Promise<MonthFigures> = async () => ({ requests: 0, cpuMs: 0 }),
  ) {
    this.scripts = scriptRepo(secrets);
    this.releases = releaseRepo(secrets);
  }

  private now(): string {
    return this.clock().toISOString();
  }

  async list(principal: Principal, query: EdgeScriptListQueryT): Promise<PagedT<EdgeScriptT>> {
    const all = await this.scripts.list(this.store, principal.accountId, ALL);
    const search = query.search?.toLowerCase();
    const matching = all.items.filter((s) => (!query.type || query.type.includes(s.ScriptType)) && (!search || s.Name.toLowerCase().includes(search)));
    const zones = await this.zonesOf(principal.accountId);
    const page = matching.slice((query.page - 1) * query.perPage, query.page * query.perPage);
    const items = await Promise.all(page.map((s) => this.view(s, zones, query.includeLinkedPullzones)));
    return { Items: items, CurrentPage: query.page, TotalItems: matching.length, HasMoreItems: query.page * query.perPage < matching.length };
  }

  async get(principal: Principal, id: number): Promise<EdgeScriptT> {
    const { doc } = await this.scripts.get(this.store, principal.accountId, id);
    return this.view(doc, await this.zonesOf(principal.accountId), true);
  }

  /** The script as stored (secrets opened): for the other parts of the scripting API. */
  async doc(tx: StoreTx, accountId: number, id: number): Promise<StoredDoc<EdgeScriptDoc>> {
    return this.scripts.get(tx, accountId, id);
  }

  async create(principal: Principal, input: AddEdgeScriptRequestT): Promise<EdgeScriptT> {
    checkCodeSize(input.Code);
    const type = input.ScriptType ?? 1;
    const name = input.Name?.trim() || `script-${Date.now().toString(36)}`;
    if (input.CreateLinkedPullZone && type !== 1) {
      throw errors.validation(
        'CreateLinkedPullZone',
        "Only a CDN (standalone) script gets a pull zone of its own; attach a middleware script through a pull zone's MiddlewareScriptId.",
        'edgescript.linked_zone_type',
      );
    }
    const now = this.now();
    const doc = await this.store.transaction(async (tx) => {
      const id = await tx.nextId('edgeScript');
      const script: EdgeScriptDoc = {
        Id: id,
        Name: name,
        ScriptType: type,
        LastModified: now,
        Code: input.Code ?? null,
        CodeModified: now,
        CurrentReleaseId: 0,
        Variables: [],
        Secrets: [],
        DeploymentKey: newDeploymentKey(),
        Integration: input.Integration ?? null,
      };
      await this.scripts.insert(tx, principal.accountId, id, script);
      if (input.CreateLinkedPullZone) {
        const zoneName = input.LinkedPullZoneName?.trim() || name;
        await this.pullZones.createIn(tx, principal.accountId, { Name: zoneName, OriginType: 4, EdgeScriptId: id });
      }
      return script;
    }, principal.durability);
    return this.view(doc, await this.zonesOf(principal.accountId), true);
  }

  async update(principal: Principal, id: number, input: UpdateEdgeScriptRequestT): Promise<EdgeScriptT> {
    const doc = await this.edit(principal, id, (s) => ({
      ...s,
      Name: input.Name?.trim() || s.Name,
      ScriptType: input.ScriptType ?? s.ScriptType,
      LastModified: this.now(),
    }));
    return this.view(doc, await this.zonesOf(principal.accountId), true);
  }

  /** The zones that run the script stop running it (or go, when asked); its releases go with it. */
  async delete(principal: Principal, id: number, deleteLinkedPullZones: boolean): Promise<void> {
    await this.store.transaction(async (tx) => {
      await this.scripts.get(tx, principal.accountId, id);
      for (const zone of (await this.zonesOf(principal.accountId, tx)).filter((z) => runs(z, id))) {
        if (deleteLinkedPullZones) {
          await this.pullZones.deleteIn(tx, principal.accountId, zone.Id);
          continue;
        }
        const stored = await this.pullZones.zones.get(tx, principal.accountId, zone.Id);
        const detached = { ...stored.doc };
        if (detached.EdgeScriptId === id) detached.EdgeScriptId = 0;
        if (detached.MiddlewareScriptId === id) detached.MiddlewareScriptId = null;
        await this.pullZones.zones.update(tx, principal.accountId, stored, detached);
      }
      for (const releaseId of await this.releases.childIds(tx, principal.accountId, id)) await this.releases.delete(tx, principal.accountId, releaseId);
      await this.scripts.delete(tx, principal.accountId, id);
    }, principal.durability);
  }

  async code(principal: Principal, id: number): Promise<{ Code: string | null; LastModified: string }> {
    const { doc } = await this.scripts.get(this.store, principal.accountId, id);
    return { Code: doc.Code, LastModified: doc.CodeModified };
  }

  /** New code runs once published. */
  async setCode(principal: Principal, id: number, code: string | null | undefined): Promise<void> {
    checkCodeSize(code);
    const now = this.now();
    await this.edit(principal, id, (s) => ({ ...s, Code: code ?? null, CodeModified: now, LastModified: now }));
  }

  async rotateDeploymentKey(principal: Principal, id: number): Promise<void> {
    await this.edit(principal, id, (s) => ({ ...s, DeploymentKey: newDeploymentKey() }));
  }

  /** A change to the script's document, read and written in one transaction. */
  /** Changes the script's document in one transaction; `change` may draw ids in it (`tx`), after its checks, so a refusal writes nothing. */
  async edit(principal: Principal, id: number, change: (doc: EdgeScriptDoc, tx: StoreTx) => EdgeScriptDoc | Promise<EdgeScriptDoc>): Promise<EdgeScriptDoc> {
    return this.store.transaction(async (tx) => {
      const current = await this.scripts.get(tx, principal.accountId, id);
      const next = await change(current.doc, tx);
      await this.scripts.update(tx, principal.accountId, current, next);
      return next;
    }, principal.durability);
  }

  // -------------------------------------------------------------------------------------------
  // Releases

  async releasesOf(principal: Principal, id: number, page: number, perPage: number): Promise<PagedT<EdgeScriptReleaseT>> {
    const { doc } = await this.scripts.get(this.store, principal.accountId, id);
    const all = (await this.releases.list(this.store, principal.accountId, { ...ALL, parentId: String(id) })).items.reverse();
    const items = all.slice((page - 1) * perPage, page * perPage).map((r) => releaseView(r, doc.CurrentReleaseId));
    return { Items: items, CurrentPage: page, TotalItems: all.length, HasMoreItems: page * perPage < all.length };
  }

  async activeRelease(principal: Principal, id: number): Promise<EdgeScriptReleaseT> {
    const { doc } = await this.scripts.get(this.store, principal.accountId, id);
    const live = doc.CurrentReleaseId > 0 ? await this.releases.find(this.store, principal.accountId, doc.CurrentReleaseId) : undefined;
    if (!live) throw errors.notFound('active release');
    return releaseView(live.doc, doc.CurrentReleaseId);
  }

  /**
   * Publishes: the code as last uploaded becomes a new live release, or (with `uuid`) an earlier
   * release becomes live again (a rollback). 400 when the script has no code.
   */
  async publish(principal: Principal, id: number, note: string | null | undefined, uuid?: string): Promise<void> {
    const now = this.now();
    await this.store.transaction(async (tx) => {
      const current = await this.scripts.get(tx, principal.accountId, id);
      let releaseId: number;
      if (uuid !== undefined) {
        const releases = (await this.releases.list(tx, principal.accountId, { ...ALL, parentId: String(id) })).items;
        const release = releases.find((r) => r.Uuid.toLowerCase() === uuid.toLowerCase());
        if (!release) throw errors.notFound('release');
        const stored = await this.releases.get(tx, principal.accountId, release.Id);
        await this.releases.update(tx, principal.accountId, stored, { ...stored.doc, DatePublished: now, Note: note ?? stored.doc.Note });
        releaseId = release.Id;
      } else {
        if (!current.doc.Code?.trim()) throw errors.invalid('The script has no code to publish; upload code first.', 'edgescript.no_code');
        releaseId = await tx.nextId('edgeScriptRelease');
        const release = {
          scriptId: id,
          Id: releaseId,
          Uuid: randomUUID(),
          Code: current.doc.Code,
          Note: note ?? null,
          Author: null,
          DateReleased: now,
          DatePublished: now,
        };
        await this.releases.insert(tx, principal.accountId, releaseId, release);
      }
      await this.scripts.update(tx, principal.accountId, current, { ...current.doc, CurrentReleaseId: releaseId, LastModified: now });
    }, principal.durability);
  }

  // -------------------------------------------------------------------------------------------

  private async zonesOf(accountId: number, tx: StoreTx = this.store): Promise<PullZoneT[]> {
    return (await this.pullZones.zones.list(tx, accountId, ALL)).items;
  }

  private async view(doc: EdgeScriptDoc, zones: PullZoneT[], withZones: boolean): Promise<EdgeScriptT> {
    const linked = zones.filter((z) => runs(z, doc.Id));
    const hostname = linked[0]?.Hostnames?.find((h) => h.IsSystemHostname)?.Value ?? null;
    const month = await this.monthOf(doc.Id);
    return {
      Id: doc.Id,
      Name: doc.Name,
      LastModified: doc.LastModified,
      ScriptType: doc.ScriptType,
      CurrentReleaseId: doc.CurrentReleaseId,
      EdgeScriptVariables: doc.Variables.map((v) => ({ ...v })),
      Deleted: false,
      LinkedPullZones: withZones
        ? linked.map((z) => ({ Id: z.Id, PullZoneName: z.Name, DefaultHostname: z.Hostnames?.find((h) => h.IsSystemHostname)?.Value ?? null }))
        : [],
      Integration: doc.Integration,
      DefaultHostname: hostname,
      SystemHostname: hostname,
      DeploymentKey: doc.DeploymentKey,
      RepositoryId: doc.Integration?.RepositorySettings?.Id ?? null,
      IntegrationId: doc.Integration?.IntegrationId ?? null,
      MonthlyCost: 0,
      MonthlyRequestCount: month.requests,
      MonthlyCpuTime: Math.round(month.cpuMs),
    };
  }
}

/** Whether the zone runs the script: as its origin (standalone) or around its origin requests (middleware). */
const runs = (zone: PullZoneT, id: number) => zone.EdgeScriptId === id || zone.MiddlewareScriptId === id;

function releaseView(r: ScriptReleaseDoc, liveId: number): EdgeScriptReleaseT {
  return {
    Id: r.Id,
    Deleted: false,
    Code: r.Code,
    Uuid: r.Uuid,
    Note: r.Note,
    Author: r.Author,
    AuthorEmail: null,
    CommitSha: null,
    Status: r.Id === liveId ? 1 : 0,
    DateReleased: r.DateReleased,
    DatePublished: r.DatePublished,
  };
}

/** The platform's limits page: a script's code is at most 10 MB. */
export const MAX_CODE_BYTES = 10 * 1024 * 1024;

function checkCodeSize(code: string | null | undefined): void {
  if (code && Buffer.byteLength(code) > MAX_CODE_BYTES) {
    throw errors.validation('Code', `The script's code is larger than the 10 MB a script may have (${Buffer.byteLength(code)} bytes).`);
  }
}
