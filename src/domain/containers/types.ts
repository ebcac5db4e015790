/**
 * The stored documents of container applications, read by every file of this folder: an
 * application's configuration with what was generated for it (pods, volume ids), and its timeline.
 */
import type { ApplicationT, ContainerTemplateT, RegionSettingsT, RepositorySettingsT } from '../../schemas/containers.js';
import type { Lifecycle } from './lifecycle.js';

export interface Pod {
  id: string;
  nodeIpAddress: string;
}

/** A persistent volume; the id is generated once and kept while a volume of that name exists. */
export interface StoredVolume {
  id: string;
  name: string;
  size: number;
  /**
   * The instance of each pod position (`"0"`, `"1"`, …) that differs from the first one it gets,
   * `<volume id>-<position>`: null once deleted, a fresh id once provisioned again (volumes.ts).
   */
  instances?: Record<string, string | null>;
}

export interface ContainerAppDoc {
  name: string;
  runtimeType: ApplicationT['runtimeType'];
  autoScaling: ApplicationT['autoScaling'];
  regionSettings: RegionSettingsT;
  terminationGracePeriodSeconds: number | null;
  repositorySettings: RepositorySettingsT | null;
  volumes: StoredVolume[];
  containerTemplates: ContainerTemplateT[];
  /** Groups of containers, one per instance of the application (`autoScaling.min`). */
  pods: Pod[];
  lifecycle: Lifecycle;
  /** What the application's charts need from its past (timeline.ts); absent in documents written before it. */
  timeline?: TimelineEntry[];
}

export interface TimelineEntry {
  /** When the application began to look like this (epoch ms). */
  at: number;
  lifecycle: Lifecycle;
  containers: number;
  /** Pods per region (at most one entry per region, however many pods). */
  pods: Record<string, number>;
  /** GB reserved per volume name. */
  volumes: Record<string, number>;
}
