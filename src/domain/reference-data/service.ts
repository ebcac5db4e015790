/** The reference data as the API shows it: edge regions, countries, storage regions. */
import type { CountryT, RegionT, StorageRegionT } from '../../schemas/reference-data.js';
import { COUNTRIES } from './countries.js';
import { bandwidthPricePerGb, REGIONS } from './regions.js';
import { storageRegions } from './storage-regions.js';

export class ReferenceData {
  private readonly regionViews: RegionT[];
  private readonly countryViews: CountryT[];
  private readonly storageRegionViews: StorageRegionT[];

  constructor(storageDomain: string) {
    this.regionViews = REGIONS.map((r) => ({
      Id: r.id,
      Name: r.name,
      PricePerGigabyte: bandwidthPricePerGb(r.code),
      RegionCode: r.code,
      ContinentCode: r.continent,
      CountryCode: r.country,
      Latitude: r.latitude,
      Longitude: r.longitude,
      AllowLatencyRouting: true,
    }));
    this.countryViews = COUNTRIES.map((c) => ({
      Name: c.name,
      IsoCode: c.code,
      IsEU: c.isEu,
      TaxRate: c.taxRate,
      TaxPrefix: c.taxPrefix,
      FlagUrl: null,
      PopList: c.regions,
    }));
    this.storageRegionViews = storageRegions(storageDomain).map((r) => ({ Id: r.code, Name: r.name, Url: `https://${r.hostname}/` }));
  }

  regions(): RegionT[] {
    return this.regionViews;
  }

  countries(): CountryT[] {
    return this.countryViews;
  }

  storageRegions(): StorageRegionT[] {
    return this.storageRegionViews;
  }
}
