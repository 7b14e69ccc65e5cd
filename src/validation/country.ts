import { fail, pass, preview, type Check } from './result.js';

// The 249 officially assigned ISO 3166-1 alpha-2 codes. Not `Intl.DisplayNames`, which also
// names UK, EU, ZZ, XK and withdrawn codes such as YU.
const ISO_3166_1 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
    'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
    'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
    'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
    'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
    'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
    'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/** destination.country_code: an ISO 3166-1 alpha-2 code, upper-cased (`ke` → `KE`) */
export function checkCountryCode(input: unknown): Check<string> {
  if (typeof input !== 'string' || !/^[A-Za-z]{2}$/.test(input)) {
    return fail('invalid_format', `expected a 2-letter ISO country code such as KE, got ${preview(input)}`);
  }
  const code = input.toUpperCase();
  if (!ISO_3166_1.has(code)) {
    return fail(
      'invalid_country',
      `expected an ISO 3166-1 alpha-2 country code such as KE (the United Kingdom is GB), got ${preview(input)}`,
    );
  }
  return pass(code);
}
