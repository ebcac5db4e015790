/**
 * The limits every account's container applications live within, as `GET /mc/limits` reports them.
 * Each is enforced where it applies: the application count when one is created (409), the rest by
 * the request schemas (400 naming the field).
 */
import { MAX_INSTANCES_PER_APPLICATION, MAX_VOLUME_SIZE_GB, MAX_VOLUMES_PER_APPLICATION } from '../../schemas/containers.js';

export const CONTAINER_LIMITS = {
  maxNumberOfApplications: 100,
  /** No limit of its own: an application may run in every region of the region list. */
  maxNumberOfRegionsPerApplication: null,
  /** An application's instances are spread over its regions, so one region never holds more than the application may have. */
  maxNumberOfInstancesPerRegion: MAX_INSTANCES_PER_APPLICATION,
  maxNumberOfInstancesPerApplication: MAX_INSTANCES_PER_APPLICATION,
  maxNumberOfVolumesPerApplication: MAX_VOLUMES_PER_APPLICATION,
  maxVolumeSize: MAX_VOLUME_SIZE_GB,
} as const;
