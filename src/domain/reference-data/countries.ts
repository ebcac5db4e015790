/**
 * Countries, as `GET /country` lists them: every ISO 3166-1 alpha-2 code, the English name from
 * the runtime's Unicode data (CLDR), whether it is in the European Union, the VAT an EU consumer
 * pays there (standard rate, in percent) and the edge regions it hosts.
 */
import { REGIONS } from './regions.js';

const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL ' +
  'CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU ' +
  'GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC ' +
  'MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT ' +
  'PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA ' +
  'UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW';

/** Standard VAT rates of the EU member states, in percent (as in force in 2025). */
const EU_VAT: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 21,
  BG: 20,
  HR: 25,
  CY: 19,
  CZ: 21,
  DK: 25,
  EE: 24,
  FI: 25.5,
  FR: 20,
  DE: 19,
  GR: 24,
  HU: 27,
  IE: 23,
  IT: 22,
  LV: 21,
  LT: 21,
  LU: 17,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SK: 23,
  SI: 22,
  ES: 21,
  SE: 25,
};

/** VAT numbers start with the ISO code, except Greece's. */
const VAT_PREFIX_EXCEPTIONS: Readonly<Record<string, string>> = { GR: 'EL' };

export interface Country {
  code: string;
  name: string;
  isEu: boolean;
  /** Percent; 0 outside the EU. */
  taxRate: number;
  /** Prefix of VAT numbers; null outside the EU. */
  taxPrefix: string | null;
  /** Codes of the edge regions in the country. */
  regions: string[];
}

const names = new Intl.DisplayNames(['en'], { type: 'region' });

export const COUNTRIES: readonly Country[] = CODES.split(' ')
  .map((code) => {
    const vat = EU_VAT[code];
    return {
      code,
      name: names.of(code) ?? code,
      isEu: vat !== undefined,
      taxRate: vat ?? 0,
      taxPrefix: vat === undefined ? null : (VAT_PREFIX_EXCEPTIONS[code] ?? code),
      regions: REGIONS.filter((r) => r.country === code).map((r) => r.code),
    };
  })
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

export const countryByCode = (code: string): Country | undefined => BY_CODE.get(code.toUpperCase());
