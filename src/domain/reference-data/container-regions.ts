/**
 * The regions container applications can run in: edgeplane's one table of them, read by the
 * region list (`GET /mc/regions`), the placement rules (an application may only name these) and
 * the overview of an application.
 *
 * Where the values come from: the ids are the platform's short region codes, the ones its
 * documents and the specification use — the storage regions of spec 2.6 (DE, NY, LA, SG, SYD)
 * and `UK` from the reference's own example of region settings — plus one region on each
 * remaining continent (SE, BR, JH, JP), so an application can be spread over every group. Names
 * are the cities the codes stand for; groups are continents. edgeplane places containers nowhere
 * for real, so every region has capacity and every region can announce anycast addresses; the
 * flags are kept because clients read them.
 */

export interface ContainerRegion {
  /** Short code applications name in `regionSettings`. */
  id: string;
  name: string;
  /** The continent group a region list is arranged by. */
  group: string;
  hasAnycastSupport: boolean;
  hasCapacity: boolean;
}

const region = (id: string, name: string, group: string): ContainerRegion => ({ id, name, group, hasAnycastSupport: true, hasCapacity: true });

/** In the order lists show them: by group, then by name. */
export const CONTAINER_REGIONS: readonly ContainerRegion[] = [
  region('JH', 'Johannesburg', 'Africa'),
  region('JP', 'Tokyo', 'Asia'),
  region('SG', 'Singapore', 'Asia'),
  region('DE', 'Frankfurt', 'Europe'),
  region('UK', 'London', 'Europe'),
  region('SE', 'Stockholm', 'Europe'),
  region('LA', 'Los Angeles', 'North America'),
  region('NY', 'New York', 'North America'),
  region('SYD', 'Sydney', 'Oceania'),
  region('BR', 'Sao Paulo', 'South America'),
];

/** Where an application runs when its settings name no region, and the base region offered when nothing points elsewhere. */
export const DEFAULT_CONTAINER_REGION = 'DE';

const byId = new Map(CONTAINER_REGIONS.map((r) => [r.id.toUpperCase(), r]));

/** The region a code names, whatever its letter case. */
export const containerRegion = (id: string): ContainerRegion | undefined => byId.get(id.toUpperCase());
