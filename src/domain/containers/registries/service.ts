/**
 * The image registries of an account, and the questions the container API asks of a registry:
 * its images, an image's tags, the digest a tag points at, and what an image's configuration
 * suggests. Every answer comes from the registry itself, over the OCI distribution API
 * (oci-client.ts); when it cannot be had, the answer says why (422), never something made up.
 *
 * A registry is one document of kind `containerRegistry`; its password is sealed at rest.
 */
import type {
  ContainerConfigSuggestionsT,
  ContainerImageT,
  ContainerRegistryRequestT,
  ContainerRegistryT,
  ImageAtTagRequestT,
  ImageConfigT,
  ImageTagInfoT,
  ListContainerImagesRequestT,
  ListContainerImageTagsRequestT,
  ListContainerRegistriesResponseT,
  RegistryType,
  RemoveContainerRegistryResultT,
  SaveContainerRegistryResultT,
  SearchPublicContainerImagesRequestT,
} from '../../../schemas/container-registries.js';
import type { Secrets } from '../../../security/secrets.js';
import type { Store, StoreTx } from '../../../store/types.js';
import { DocumentRepo } from '../../documents.js';
import { AppError, errors } from '../../errors.js';
import { userIdOf, type Principal } from '../../principal.js';
import type { ContainerAppDoc } from '../types.js';
import { baseUrlOf, normalHostName, PUBLIC_REGISTRIES, TYPE_HOSTS } from './address.js';
import { OciClient, RegistryError, type RegistryCredentials, type RegistryLocation } from './oci-client.js';
import { containerSuggestions, imageConfigSuggestions } from './suggestions.js';
import type { PullSource } from '../runtime/types.js';

export interface RegistryDoc {
  displayName: string;
  type: RegistryType;
  hostName: string;
  userName: string | null;
  /** Sealed at rest. */
  password: string | null;
  createdAt: string;
  lastUpdatedAt: string | null;
}

const SEARCH_PAGE_SIZE = 10;
const CREDENTIAL_PATHS = ['password'] as const;

/** At most 3 characters from each end, never more than an eighth of the password each: enough to recognize it, too little to help guess it. */
function passwordEnds(password: string | null): { first: string | null; last: string | null } {
  const n = password ? Math.min(3, Math.floor(password.length / 8)) : 0;
  return n === 0 || !password ? { first: null, last: null } : { first: password.slice(0, n), last: password.slice(-n) };
}

const repositoryOf = (input: { imageNamespace: string; imageName: string }) => `${input.imageNamespace}/${input.imageName}`;

/** `team/api` → `{namespace: 'team', id: 'api'}`; a repository at the registry's top level has no namespace to address it by. */
function imageOf(repository: string): ContainerImageT | undefined {
  const at = repository.indexOf('/');
  return at <= 0 ? undefined : { namespace: repository.slice(0, at), id: repository.slice(at + 1) };
}

const byName = (a: ContainerImageT, b: ContainerImageT) => `${a.namespace}/${a.id}`.localeCompare(`${b.namespace}/${b.id}`);

export class RegistryService {
  private readonly registries: DocumentRepo<RegistryDoc>;

  constructor(
    private readonly store: Store,
    secrets: Secrets,
    private readonly now: () => number,
    private readonly client: OciClient = new OciClient(),
  ) {
    this.registries = new DocumentRepo<RegistryDoc>('containerRegistry', 'container registry', secrets, [...CREDENTIAL_PATHS]);
  }

  /** Oldest first. Straight from the store, as the repository's list leaves the ids out; the passwords are opened here. */
  async list(principal: Principal): Promise<ListContainerRegistriesResponseT> {
    const all = await this.store.docs.list<RegistryDoc>('containerRegistry', principal.accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const items = all.items.map((d) => this.view(principal.accountId, Number(d.id), this.registries.open(d.doc)));
    return { items, meta: { totalItems: items.length }, cursor: null };
  }

  async get(principal: Principal, id: number): Promise<ContainerRegistryT> {
    const found = await this.registries.get(this.store, principal.accountId, id);
    return this.view(principal.accountId, id, found.doc);
  }

  /** Credentials are checked with the registry before anything is saved. */
  async create(principal: Principal, input: ContainerRegistryRequestT): Promise<SaveContainerRegistryResultT> {
    const type = input.type ?? 'dockerHub';
    const hostName = this.hostNameFor(type, input.hostName);
    const credentials = input.passwordCredentials ?? null;
    if (credentials) await this.checkCredentials(hostName, credentials);
    const now = new Date(this.now()).toISOString();
    const doc: RegistryDoc = {
      displayName: input.displayName,
      type,
      hostName,
      userName: credentials?.userName ?? null,
      password: credentials?.password ?? null,
      createdAt: now,
      lastUpdatedAt: null,
    };
    const id = await this.store.transaction(async (tx) => {
      const next = await tx.nextId('containerRegistry');
      await this.registries.insert(tx, principal.accountId, next, doc);
      return next;
    });
    return { id, error: null, status: 'saved' };
  }

  /**
   * Replaces the registry's settings. Credentials left out are kept (they are never shown, so a
   * client cannot send them back); kept credentials are checked again when the host changes.
   */
  async update(principal: Principal, id: number, input: ContainerRegistryRequestT): Promise<SaveContainerRegistryResultT> {
    const stored = await this.registries.get(this.store, principal.accountId, id);
    const type = input.type ?? stored.doc.type;
    const hostName = input.hostName !== undefined || type !== stored.doc.type ? this.hostNameFor(type, input.hostName) : stored.doc.hostName;
    const kept = stored.doc.userName !== null && stored.doc.password !== null ? { userName: stored.doc.userName, password: stored.doc.password } : null;
    const credentials = input.passwordCredentials ?? kept;
    if (credentials && (input.passwordCredentials || hostName !== stored.doc.hostName)) await this.checkCredentials(hostName, credentials);
    await this.store.transaction(async (tx) => {
      // Read again: the registry may have changed, or gone, while its credentials were checked.
      const current = await this.registries.get(tx, principal.accountId, id);
      await this.registries.update(tx, principal.accountId, current, {
        ...current.doc,
        displayName: input.displayName,
        type,
        hostName,
        userName: credentials?.userName ?? null,
        password: credentials?.password ?? null,
        lastUpdatedAt: new Date(this.now()).toISOString(),
      });
    });
    return { id, error: null, status: 'saved' };
  }

  /** A registry some container pulls from (`imageRegistryId`) stays: 409 naming the applications. */
  async delete(principal: Principal, id: number): Promise<RemoveContainerRegistryResultT> {
    return this.store.transaction(async (tx) => {
      await this.registries.get(tx, principal.accountId, id);
      const users = await this.applicationsUsing(tx, principal.accountId, String(id));
      if (users.length > 0) {
        throw errors.conflict(`The registry is in use by the applications ${users.join(', ')}; change their containers first.`, 'containerregistry.in_use');
      }
      await this.registries.delete(tx, principal.accountId, id);
      return { status: 'removed', applications: null };
    });
  }

  // -------------------------------------------------------------------------------------------
  // Questions asked of a registry

  /** Images whose name (or `namespace/name`) starts with the prefix, from the registry's catalog. */
  async searchImages(principal: Principal, input: SearchPublicContainerImagesRequestT): Promise<ContainerImageT[]> {
    const location = await this.locate(principal, input.registryId);
    const prefix = input.prefix.toLowerCase();
    const matching = (await this.ask(() => this.client.catalog(location), input))
      .map(imageOf)
      .filter(
        (i): i is ContainerImageT => i !== undefined && (i.id.toLowerCase().startsWith(prefix) || `${i.namespace}/${i.id}`.toLowerCase().startsWith(prefix)),
      )
      .sort(byName);
    const size = input.size ?? SEARCH_PAGE_SIZE;
    const page = input.page ?? 1;
    return matching.slice((page - 1) * size, page * size);
  }

  async listImages(principal: Principal, input: ListContainerImagesRequestT): Promise<ContainerImageT[]> {
    const location = await this.locate(principal, input.registryId);
    return (await this.ask(() => this.client.catalog(location), input))
      .map(imageOf)
      .filter((i): i is ContainerImageT => i !== undefined)
      .sort(byName);
  }

  async tags(principal: Principal, input: ListContainerImageTagsRequestT): Promise<{ name: string }[]> {
    const location = await this.locate(principal, input.registryId);
    return (await this.ask(() => this.client.tags(location, repositoryOf(input)), input)).map((name) => ({ name }));
  }

  async digest(principal: Principal, input: ImageAtTagRequestT): Promise<ImageTagInfoT> {
    const location = await this.locate(principal, input.registryId);
    const digest = await this.ask(() => this.client.digest(location, repositoryOf(input), input.tag), input, location);
    return { imageNamespace: input.imageNamespace, image: input.imageName, tag: input.tag, digest };
  }

  async imageConfig(principal: Principal, input: ImageAtTagRequestT): Promise<ImageConfigT> {
    const location = await this.locate(principal, input.registryId);
    return imageConfigSuggestions(await this.ask(() => this.client.imageConfig(location, repositoryOf(input), input.tag), input, location));
  }

  async suggestions(principal: Principal, input: ImageAtTagRequestT): Promise<ContainerConfigSuggestionsT> {
    const location = await this.locate(principal, input.registryId);
    const config = await this.ask(() => this.client.imageConfig(location, repositoryOf(input), input.tag), input, location);
    return containerSuggestions(config, input.imageName, location.baseUrl);
  }

  // -------------------------------------------------------------------------------------------

  private view(accountId: number, id: number, doc: RegistryDoc): ContainerRegistryT {
    const ends = passwordEnds(doc.password);
    return {
      id,
      accountId: String(accountId),
      userId: userIdOf(accountId),
      // The namespace the credentials own at the registry (a user's or an organisation's).
      namespaceId: doc.userName ?? '',
      displayName: doc.displayName,
      hostName: doc.hostName,
      userName: doc.userName,
      firstPasswordSymbols: ends.first,
      lastPasswordSymbols: ends.last,
      createdAt: doc.createdAt,
      isPublic: doc.userName === null,
      isPlatformManaged: false,
      lastUpdatedAt: doc.lastUpdatedAt,
    };
  }

  private hostNameFor(type: RegistryType, sent: string | undefined): string {
    if (sent !== undefined) return normalHostName(sent, 'hostName');
    const own = TYPE_HOSTS[type];
    if (!own) throw errors.validation('hostName', 'edgeplane runs no registry of its own: give the hostName of the registry to use.');
    return own;
  }

  private async checkCredentials(hostName: string, credentials: RegistryCredentials): Promise<void> {
    try {
      await this.client.check({ baseUrl: baseUrlOf(hostName), credentials });
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      const message = error.failure === 'refused' ? 'The registry refused these credentials.' : `The credentials could not be checked: ${error.message}`;
      throw errors.validation('passwordCredentials', message, 'containerregistry.credentials');
    }
  }

  /**
   * Where a container's image is pulled from, with the registry's stored credentials: for the
   * runtime, not for an account's request. A public keyword names its registry, read anonymously.
   */
  async pullSource(accountId: number, registryId: string): Promise<PullSource | null> {
    const location = await this.locate({ accountId }, registryId);
    const url = new URL(location.baseUrl);
    return { host: url.host === 'registry-1.docker.io' ? 'docker.io' : url.host, insecure: url.protocol === 'http:', credentials: location.credentials };
  }

  /** The registry `registryId` names: a public keyword, or one of the account's registries (404 for anything else numeric). */
  private async locate(principal: Pick<Principal, 'accountId'>, registryId: string): Promise<RegistryLocation> {
    const keyword = PUBLIC_REGISTRIES[registryId.trim().toLowerCase()];
    if (keyword) return { baseUrl: baseUrlOf(keyword.hostName), credentials: null };
    if (!/^\d{1,15}$/.test(registryId.trim())) {
      throw errors.validation('registryId', 'registryId must be "dockerhub", "github" or the id of one of your registries.');
    }
    const { doc } = await this.registries.get(this.store, principal.accountId, Number(registryId.trim()));
    const credentials = doc.userName !== null && doc.password !== null ? { userName: doc.userName, password: doc.password } : null;
    return { baseUrl: baseUrlOf(doc.hostName), credentials };
  }

  /** Runs a question; a registry's failure becomes a 422 naming the field it concerns. */
  private async ask<T>(
    question: () => Promise<T>,
    input: { registryId: string; imageNamespace?: string; imageName?: string; tag?: string },
    location?: RegistryLocation,
  ): Promise<T> {
    try {
      return await question();
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      let field = 'registryId';
      let message = error.message;
      if (error.failure === 'unknown' && input.imageName !== undefined) {
        const image = `${input.imageNamespace}/${input.imageName}`;
        const tagMissing = input.tag !== undefined && error.missing !== 'repository' && (!location || (await this.hasRepository(location, image)));
        field = tagMissing ? 'tag' : 'imageName';
        message = tagMissing ? `The registry has no tag ${input.tag} of ${image}.` : `The registry has no image ${image}.`;
      }
      throw new AppError('unprocessable', message, `containerregistry.${error.failure}`, [{ field, message }]);
    }
  }

  /** Whether the registry knows a repository at all: it says "no such manifest" for a tag of one it lacks, too. */
  private async hasRepository(location: RegistryLocation, repository: string): Promise<boolean> {
    try {
      await this.client.tags(location, repository);
      return true;
    } catch (error) {
      return !(error instanceof RegistryError && error.failure === 'unknown');
    }
  }

  private async applicationsUsing(tx: StoreTx, accountId: number, registryId: string): Promise<string[]> {
    const all = await tx.docs.list<ContainerAppDoc>('containerApp', accountId, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    return all.items.filter((a) => a.doc.containerTemplates.some((t) => t.imageRegistryId === registryId)).map((a) => a.id);
  }
}
