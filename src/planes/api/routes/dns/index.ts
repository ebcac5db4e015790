import { AppError } from '../../../../domain/errors.js';
import type { Api } from '../../api.js';
import { emptyBodyOr } from '../../../common/body-parsers.js';
import addDnsRecord from './add-record.js';
import checkDnsZoneAvailability from './check-availability.js';
import createDnsZone from './create-zone.js';
import deleteDnsRecord from './delete-record.js';
import deleteDnsZone from './delete-zone.js';
import dnsZoneDnssec from './dnssec.js';
import exportDnsZone from './export-zone.js';
import getDnsZone from './get-zone.js';
import importDnsZone, { readZoneFileBody } from './import-zone.js';
import issueDnsZoneCertificate from './issue-certificate.js';
import listDnsRecords from './list-records.js';
import listDnsZones from './list-zones.js';
import dnsRecordScan from './scan.js';
import dnsZoneStatistics from './statistics.js';
import updateDnsRecord from './update-record.js';
import updateDnsZone from './update-zone.js';

export default function dnsRoutes(app: Api) {
  listDnsZones(app);
  createDnsZone(app);
  checkDnsZoneAvailability(app);
  getDnsZone(app);
  updateDnsZone(app);
  deleteDnsZone(app);
  exportDnsZone(app);
  listDnsRecords(app);
  addDnsRecord(app);
  updateDnsRecord(app);
  deleteDnsRecord(app);
  dnsZoneDnssec(app);
  dnsZoneStatistics(app);
  dnsRecordScan(app);
  issueDnsZoneCertificate(app);
  // The import is the one core operation with a text body. Its own scope reads text/plain as it
  // arrives (up to ZONE_FILE_BYTES) and refuses every other type, while the auth and binding hooks
  // of the enclosing scope still run; everywhere else text/plain stays a 415.
  void app.register(async (textScope) => {
    textScope.removeAllContentTypeParsers();
    textScope.decorateRequest('zoneFile', undefined);
    textScope.addContentTypeParser('text/plain', readZoneFileBody);
    textScope.addContentTypeParser(
      '*',
      emptyBodyOr(() => new AppError('unsupported_media_type', 'Send the zone file as text/plain.', 'unsupported_media_type')),
    );
    importDnsZone(textScope as unknown as Api);
  });
}
