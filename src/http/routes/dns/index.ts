import type { Api } from '../../api.js';
import addDnsRecord from './add-record.js';
import createDnsZone from './create-zone.js';
import getDnsZone from './get-zone.js';

export default function dnsRoutes(app: Api) {
  createDnsZone(app);
  getDnsZone(app);
  addDnsRecord(app);
}
