import { fail, pass, preview, type Check } from './result.js';

// The 249 officially assigned ISO 3166-1 alpha-2 codes, a word per first letter: the first letter,
// then every second letter it takes (`KEGH…` holds KE, KG, KH, …). Not `Intl.DisplayNames`, which
// also names UK, EU, ZZ, XK and withdrawn codes such as YU.
const ISO_3166_1 =
  'ADEFGILMOQRSTUWXZ BABDEFGHIJLMNOQRSTVWYZ CACDFGHIKLMNORUVWXYZ DEJKMOZ ECEGHRST FIJKMOR ' +
  'GABDEFGHILMNPQRSTUWY HKMNRTU IDELMNOQRST JEMOP KEGHIMNPRWYZ LABCIKRSTUVY ' +
  'MACDEFGHKLMNOPQRSTUVWXYZ NACEFGILOPRUZ OM PAEFGHKLMNRSTWY QA REOSUW ' +
  'SABCDEGHIJKLMNORSTVXYZ TCDFGHJKLMNORTVWZ UAGMSYZ VACEGINU WFS YET ZAMW';

const assigned = (code: string): boolean =>
  ISO_3166_1.split(' ').some((word) => word[0] === code[0] && word.includes(code[1]!, 1));

/** destination.country_code: an ISO 3166-1 alpha-2 code, upper-cased (`ke` → `KE`) */
export function checkCountryCode(input: unknown): Check<string> {
  if (typeof input !== 'string' || !/^[A-Za-z]{2}$/.test(input)) {
    return fail('invalid_format', `expected a 2-letter ISO country code such as KE, got ${preview(input)}`);
  }
  const code = input.toUpperCase();
  if (!assigned(code)) {
    return fail(
      'invalid_country',
      `expected an ISO 3166-1 alpha-2 country code such as KE (the United Kingdom is GB), got ${preview(input)}`,
    );
  }
  return pass(code);
}
