/**
 * `node scripts/reference-responses.mjs <reference-dir>` writes test/reference/responses.json: the
 * response schemas of the platform's public OpenAPI documents (core-api, containers-api and the
 * video API's), for the resources the specification covers, as the test suite's response check
 * reads them.
 *
 * Why a derived copy: the reference documents live outside the repository, and CI works on a clean
 * clone. Only facts carry over (names, types, enums, bounds, patterns, required lists): prose,
 * examples, defaults and vendor extensions are dropped, and vendor words in names become the
 * specification's neutral words (the reference README's table), in property names, `required`
 * lists and component names alike.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = 'test/reference/responses.json';

/**
 * The reference paths of the specification's resources and of the account-wide operations edgeplane
 * serves besides (user, billing, reference data, search); the rest of the platform is out of scope.
 */
const DOCUMENTS = {
  core: { file: 'core-api.openapi.json', paths: /^\/(apikey|pullzone|storagezone|dnszone|videolibrary|user|billing|region|country|search|v1\/pricing)(\/|$)/ },
  containers: { file: 'containers-api.openapi.json', paths: /^\/(apps|registries|limits|nodes|regions|log)(\/|$)/ },
  video: { file: 'stream-api.openapi.json', paths: /^\/(library|OEmbed)(\/|$)/ },
};

/** The reference README's table of neutral names. */
const NAMES = {
  ViAiPublisherId: 'AdPublisherId',
  AppleFairPlayDrm: 'DrmSchemeA',
  GoogleWidevineDrm: 'DrmSchemeB',
  MagicContainersAppId: 'ManagedContainersAppId',
  MagicContainersEndpointId: 'ManagedContainersEndpointId',
  AWSSigningEnabled: 'RequestSigningEnabled',
  AWSSigningKey: 'RequestSigningKey',
  AWSSigningSecret: 'RequestSigningSecret',
  AWSSigningRegionName: 'RequestSigningRegionName',
  ErrorPageEnableStatuspageWidget: 'ErrorPageEnableStatusWidget',
  ErrorPageStatuspageCode: 'ErrorPageStatusCode',
  OptimizerStaticHtmlWordPressPath: 'OptimizerStaticHtmlCmsPath',
  OptimizerStaticHtmlWordPressBypassCookie: 'OptimizerStaticHtmlCmsBypassCookie',
  DisableLetsEncrypt: 'DisableBuiltInCertificateIssuance',
  EnableBunnyImageAi: 'EnableVendorImageAi',
  BunnyAiImageBlueprints: 'VendorAiImageBlueprints',
  // The video API's names are camelCase.
  viAiPublisherId: 'adPublisherId',
};

/** "Any other field whose name carries a vendor or brand word gets a neutral name in the same way." */
const WORDS = [
  [/AppleFairPlay/g, 'DrmSchemeA'],
  [/GoogleWidevine|Widevine/g, 'DrmSchemeB'],
  [/^widevine/g, 'drmSchemeB'],
  [/MagicContainers/g, 'ManagedContainers'],
  [/Bunny/g, 'Vendor'],
];
const VENDOR = /bunny|magic|aws|wordpress|letsencrypt|statuspage|datadog|viai|apple|google|widevine|fairplay/i;

/** What a response check needs; everything else in a schema is prose or tooling. */
const KEPT = new Set([
  ...['type', 'format', 'nullable', 'enum', 'properties', 'additionalProperties', 'required', 'items'],
  ...['oneOf', 'anyOf', 'allOf', '$ref', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems'],
]);

const neutral = (name) => NAMES[name] ?? WORDS.reduce((n, [word, by]) => n.replace(word, by), name);
/** Enum values are camelCase words too: a vendor word at the start of one becomes `vendor` (`vendorRegistry`). */
const neutralValue = (value) => (typeof value === 'string' ? neutral(value.replace(/^bunny(?=[A-Z])/, 'Bunny')).replace(/^Vendor(?=[A-Z])/, 'vendor') : value);

function facts(schema) {
  if (Array.isArray(schema)) return schema.map(facts);
  if (!schema || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT.has(key)) continue;
    if (key === 'properties') out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [neutral(name), facts(s)]));
    else if (key === 'required') out[key] = value.map(neutral);
    else if (key === 'enum') out[key] = value.map(neutralValue);
    else if (key === '$ref') out[key] = value.replace(/[^/]+$/, neutral);
    else out[key] = facts(value);
  }
  return out;
}

/** Component names reachable from `schema`, added to `seen`. */
function reach(schema, components, seen) {
  const json = JSON.stringify(schema);
  for (const [, name] of json.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
    if (seen.has(name)) continue;
    seen.add(name);
    reach(components[name], components, seen);
  }
}

function derive(document, paths) {
  const out = { paths: {}, components: {} };
  const seen = new Set();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!paths.test(path)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!operation?.responses) continue;
      const statuses = {};
      for (const [status, response] of Object.entries(operation.responses)) {
        // null: the status is declared with no JSON body schema.
        const schema = response.content?.['application/json']?.schema ?? null;
        statuses[status] = schema && facts(schema);
        if (schema) reach(schema, document.components.schemas, seen);
      }
      out.paths[path] = { ...out.paths[path], [method]: statuses };
    }
  }
  for (const name of [...seen].sort()) out.components[neutral(name)] = facts(document.components.schemas[name]);
  return out;
}

const dir = process.argv[2];
if (!dir) throw new Error('usage: node scripts/reference-responses.mjs <directory of the reference OpenAPI documents>');
const derived = {};
for (const [name, { file, paths }] of Object.entries(DOCUMENTS)) {
  derived[name] = derive(JSON.parse(readFileSync(join(dir, file), 'utf8')), paths);
}
const text = JSON.stringify(derived);
const left = text.match(new RegExp(`"[^"]*(${VENDOR.source})[^"]*"`, 'gi'));
if (left) throw new Error(`vendor words left in the derived schemas: ${[...new Set(left)].join(', ')}`);
writeFileSync(OUT, `${JSON.stringify(derived, null, 2)}\n`);
execFileSync('npx', ['biome', 'format', '--write', OUT], { stdio: 'inherit' });
