/**
 * The endpoints of an application's containers: list them, add one to a container, update one
 * (spec 4.4) or delete one. An endpoint is addressed by its display name, as the specification
 * says for the update, or by its id, as the platform's delete documents it.
 */
import type {
  ContainerEndpointResponseT,
  ContainerTemplateT,
  EndpointRequestT,
  EndpointUpdateResponseT,
  ListEndpointsResponseT,
} from '../../schemas/containers.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import type { ContainerAppDoc } from './types.js';
import { templateOf, withTemplate } from './containers.js';
import type { AppEditor } from './editor.js';
import { zoneLinks } from './pull-zone-links.js';
import { checkDisplayNameFree, checkEndpointKind } from './rules.js';
import { buildEndpoint } from './templates.js';

interface Located {
  owner: ContainerTemplateT;
  endpoint: ContainerEndpointResponseT;
}

/** Display names are looked up first: they are what the specification's update is addressed by. */
function locate(doc: ContainerAppDoc, key: string): Located {
  const all = doc.containerTemplates.flatMap((owner) => owner.endpoints.map((endpoint) => ({ owner, endpoint })));
  const found = all.find((l) => l.endpoint.displayName === key) ?? all.find((l) => l.endpoint.id === key);
  if (!found) throw errors.notFound('endpoint');
  return found;
}

const withEndpoints = (doc: ContainerAppDoc, owner: ContainerTemplateT, endpoints: ContainerEndpointResponseT[]) =>
  withTemplate(doc, owner, { ...owner, endpoints });

export class EndpointService {
  constructor(private readonly editor: AppEditor) {}

  /** Every endpoint on one page: an application has few. */
  async list(principal: Principal, appId: string): Promise<ListEndpointsResponseT> {
    const { stored } = await this.editor.read(principal.accountId, appId);
    const items = stored.doc.containerTemplates.flatMap((t) => t.endpoints.map((e) => ({ ...e, containerName: t.name, containerId: t.id })));
    return { items, meta: { totalItems: items.length }, cursor: null };
  }

  add(principal: Principal, appId: string, containerId: string, input: EndpointRequestT): Promise<EndpointUpdateResponseT> {
    return this.editor.change(principal, appId, async (doc, tx) => {
      const owner = templateOf(doc, containerId);
      checkEndpointKind(input, '');
      checkDisplayNameFree(doc.containerTemplates, input.displayName);
      await this.editor.links.check(
        tx,
        principal.accountId,
        appId,
        [{ pullZoneId: input.cdn?.pullZoneId, field: 'cdn.pullZoneId' }],
        zoneLinks(doc.containerTemplates),
      );
      const endpoint = buildEndpoint(input, undefined, this.editor.endpointContext(doc.regionSettings));
      return { doc: withEndpoints(doc, owner, [...owner.endpoints, endpoint]), result: { id: endpoint.id } };
    });
  }

  /** Replaces the endpoint's settings, wherever it is among the containers; its id, host and addresses stay. */
  update(principal: Principal, appId: string, key: string, input: EndpointRequestT): Promise<EndpointUpdateResponseT> {
    return this.editor.change(principal, appId, async (doc, tx) => {
      const { owner, endpoint } = locate(doc, key);
      checkEndpointKind(input, '');
      checkDisplayNameFree(doc.containerTemplates, input.displayName, endpoint.id);
      const taken = zoneLinks(doc.containerTemplates, (id) => id === endpoint.id);
      await this.editor.links.check(tx, principal.accountId, appId, [{ pullZoneId: input.cdn?.pullZoneId, field: 'cdn.pullZoneId' }], taken);
      const updated = buildEndpoint(input, endpoint, this.editor.endpointContext(doc.regionSettings));
      return {
        doc: withEndpoints(
          doc,
          owner,
          owner.endpoints.map((e) => (e === endpoint ? updated : e)),
        ),
        result: { id: updated.id },
      };
    });
  }

  delete(principal: Principal, appId: string, key: string): Promise<void> {
    return this.editor.change(principal, appId, (doc) => {
      const { owner, endpoint } = locate(doc, key);
      return {
        doc: withEndpoints(
          doc,
          owner,
          owner.endpoints.filter((e) => e !== endpoint),
        ),
        result: undefined,
      };
    });
  }
}
