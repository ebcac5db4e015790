/**
 * Corrections of the OpenAPI documents the planes generate from their route schemas (the
 * management API's and the video plane's), for what the generator cannot know.
 */
import { STATUS_CODES } from 'node:http';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Routes under this prefix authenticate with the operator token (see operator-auth.ts). */
const OPERATOR_PREFIX = '/_edgeplane/';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Corrections the generator cannot make: the operator routes' credential, query parameters with a
 * default are optional (the server fills the default in), and a response schema without a
 * description is described by its status instead of a placeholder.
 */
export function correctOperations(document: JsonObject): void {
  for (const [path, pathItem] of Object.entries(isObject(document['paths']) ? document['paths'] : {})) {
    if (!isObject(pathItem)) continue;
    for (const [method, operation] of Object.entries(pathItem)) {
      if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
      // The document-wide AccessKey requirement is wrong for the operator routes.
      if (path.startsWith(OPERATOR_PREFIX) && operation['security'] === undefined) operation['security'] = [{ OperatorToken: [] }];
      for (const parameter of Array.isArray(operation['parameters']) ? operation['parameters'] : []) {
        if (isObject(parameter) && parameter['in'] !== 'path' && isObject(parameter['schema']) && parameter['schema']['default'] !== undefined) {
          parameter['required'] = false;
        }
      }
      for (const [status, response] of Object.entries(isObject(operation['responses']) ? operation['responses'] : {})) {
        // Without content the placeholder stays: it shows a route whose response was never declared.
        if (isObject(response) && response['description'] === 'Default Response' && response['content'] !== undefined) {
          response['description'] = STATUS_CODES[Number(status)] ?? 'Response';
        }
      }
    }
  }
}
