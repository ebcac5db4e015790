/**
 * Partial updates of applications and containers: the request merged onto what is stored, in the
 * spirit of JSON Merge Patch. A field left out keeps its value, and so does one sent as null,
 * because the platform's request models use null for "not sent"; an object sent is merged one
 * level deep; an array sent replaces the stored one. Pure apart from generated ids.
 */
import type { ApplicationPatchRequestT, ContainerPatchRequestT, ContainerTemplateRequestT, ContainerTemplateT } from '../../schemas/containers.js';
import { errors } from '../errors.js';
import type { ApplicationSettingsInput } from './application.js';
import type { ContainerAppDoc } from './types.js';
import { buildTemplate, type EndpointContext } from './templates.js';

/** The application's settings after the patch; containers are merged separately. */
export function patchedSettings(doc: ContainerAppDoc, patch: ApplicationPatchRequestT): ApplicationSettingsInput {
  return {
    name: patch.name ?? doc.name,
    runtimeType: patch.runtimeType ?? doc.runtimeType,
    autoScaling: patch.autoScaling ?? doc.autoScaling,
    // Inside regionSettings a null does clear the member, as a merge patch would: all are optional.
    regionSettings: patch.regionSettings ? { ...doc.regionSettings, ...patch.regionSettings } : doc.regionSettings,
    terminationGracePeriodSeconds: doc.terminationGracePeriodSeconds ?? undefined,
    repositorySettings: doc.repositorySettings ?? undefined,
    volumes: patch.volumes ?? doc.volumes,
  };
}

/** Sending any part of the image without `image` rebuilds the full reference from the parts. */
function patchedRequest(stored: ContainerTemplateT, patch: ContainerPatchRequestT): ContainerTemplateRequestT {
  const imagePartSent = [patch.imageName, patch.imageNamespace, patch.imageTag, patch.imageDigest].some((v) => v != null);
  return {
    name: patch.name ?? stored.name,
    image: patch.image ?? (imagePartSent ? null : stored.image),
    imageName: patch.imageName ?? stored.imageName,
    imageNamespace: patch.imageNamespace ?? stored.imageNamespace,
    imageTag: patch.imageTag ?? stored.imageTag,
    imageRegistryId: patch.imageRegistryId ?? stored.imageRegistryId,
    imageDigest: patch.imageDigest ?? stored.imageDigest,
    imagePullPolicy: patch.imagePullPolicy ?? stored.imagePullPolicy,
    entryPoint: { ...stored.entryPoint, ...patch.entryPoint },
    probes: { ...stored.probes, ...patch.probes },
    environmentVariables: patch.environmentVariables ?? stored.environmentVariables,
    endpoints: patch.endpoints ?? [],
    volumeMounts: patch.volumeMounts ?? stored.volumeMounts,
  };
}

/** The container after the patch; it keeps its id, and its endpoints unless `endpoints` is sent. */
export function patchedTemplate(stored: ContainerTemplateT, patch: ContainerPatchRequestT, ctx: EndpointContext): ContainerTemplateT {
  const built = buildTemplate(patchedRequest(stored, patch), stored, ctx);
  return patch.endpoints ? built : { ...built, endpoints: stored.endpoints };
}

/**
 * The container with exactly these environment variables, in the order sent. A variable name must
 * be non-empty and free of `=`, which would split it when the environment is built.
 */
export function withEnvironment(stored: ContainerTemplateT, variables: Record<string, string>): ContainerTemplateT {
  const environmentVariables = Object.entries(variables).map(([name, value]) => {
    if (name.length === 0 || name.includes('=')) {
      throw errors.validation(name, `"${name}" is not a valid environment variable name: it must be non-empty and must not contain "=".`);
    }
    return { name, value };
  });
  return { ...stored, environmentVariables };
}
