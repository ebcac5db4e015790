/**
 * The containers (templates) of an application: add one (spec 4.2), read, patch or delete one, and
 * replace its environment. Each change is a read-modify-write of the application document.
 */
import type { ContainerPatchRequestT, ContainerTemplateRequestT, ContainerTemplateT } from '../../schemas/containers.js';
import { errors } from '../errors.js';
import type { Principal } from '../principal.js';
import { withPods } from './application.js';
import type { ContainerAppDoc } from './types.js';
import type { AppEditor } from './editor.js';
import { patchedTemplate, withEnvironment } from './patches.js';
import { pullZoneRefs, zoneLinks } from './pull-zone-links.js';
import { checkContainers } from './rules.js';
import { buildTemplate } from './templates.js';

export function templateOf(doc: ContainerAppDoc, containerId: string): ContainerTemplateT {
  const found = doc.containerTemplates.find((t) => t.id === containerId);
  if (!found) throw errors.notFound('container template');
  return found;
}

/** The document with `stored` swapped for `updated`. */
export const withTemplate = (doc: ContainerAppDoc, stored: ContainerTemplateT, updated: ContainerTemplateT): ContainerAppDoc => ({
  ...doc,
  containerTemplates: doc.containerTemplates.map((t) => (t === stored ? updated : t)),
});

export class ContainerTemplateService {
  constructor(private readonly editor: AppEditor) {}

  add(principal: Principal, appId: string, input: ContainerTemplateRequestT): Promise<ContainerTemplateT> {
    return this.editor.change(principal, appId, async (doc, tx) => {
      checkContainers([...doc.containerTemplates, { name: input.name, endpoints: input.endpoints ?? [], field: '' }]);
      await this.editor.links.check(tx, principal.accountId, appId, pullZoneRefs(input.endpoints, ''), zoneLinks(doc.containerTemplates));
      const template = buildTemplate(input, undefined, this.editor.endpointContext(doc.regionSettings));
      const containerTemplates = [...doc.containerTemplates, template];
      return { doc: { ...doc, containerTemplates, pods: withPods(containerTemplates, doc.autoScaling.min, doc.pods) }, result: template };
    });
  }

  async get(principal: Principal, appId: string, containerId: string): Promise<ContainerTemplateT> {
    const { stored } = await this.editor.read(principal.accountId, appId);
    return templateOf(stored.doc, containerId);
  }

  /** Only the fields sent change (see patches.ts). */
  patch(principal: Principal, appId: string, containerId: string, input: ContainerPatchRequestT): Promise<ContainerTemplateT> {
    return this.editor.change(principal, appId, async (doc, tx) => {
      const stored = templateOf(doc, containerId);
      const others = doc.containerTemplates.filter((t) => t !== stored);
      // Stored endpoints are not checked again: only what the request sends can break a rule.
      checkContainers([...others, { name: input.name ?? stored.name, endpoints: input.endpoints ?? [], field: '' }]);
      await this.editor.links.check(tx, principal.accountId, appId, pullZoneRefs(input.endpoints, ''), zoneLinks(others));
      const updated = patchedTemplate(stored, input, this.editor.endpointContext(doc.regionSettings));
      return { doc: withTemplate(doc, stored, updated), result: updated };
    });
  }

  /** As on the platform, an application keeps at least one container; delete the application instead. */
  delete(principal: Principal, appId: string, containerId: string): Promise<void> {
    return this.editor.change(principal, appId, (doc) => {
      const stored = templateOf(doc, containerId);
      if (doc.containerTemplates.length === 1) {
        throw errors.validation('containerId', 'An application keeps at least one container; delete the application instead.', 'container.last');
      }
      const containerTemplates = doc.containerTemplates.filter((t) => t !== stored);
      return { doc: { ...doc, containerTemplates }, result: undefined };
    });
  }

  /** Replaces the whole environment with the variables sent. */
  setEnvironment(principal: Principal, appId: string, containerId: string, variables: Record<string, string>): Promise<ContainerTemplateT> {
    return this.editor.change(principal, appId, (doc) => {
      const stored = templateOf(doc, containerId);
      const updated = withEnvironment(stored, variables);
      return { doc: withTemplate(doc, stored, updated), result: updated };
    });
  }
}
