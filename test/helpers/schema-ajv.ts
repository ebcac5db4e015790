/**
 * An Ajv that knows the formats the project's schemas use, for tests that check a response or a
 * default against its schema directly (the app's own validator lives in planes/common/validation.ts).
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext the default import is the module object.
const addFormats = addFormatsModule.default;

export function schemaAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, ...options });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'double', 'decimal']) ajv.addFormat(format, true);
  return ajv;
}
