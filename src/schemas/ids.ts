/** Path parameters shared by the core API's routes. */
import { Type } from 'typebox';
import { Int64 } from './common.js';

export const IdParams = (what: string) => Type.Object({ id: Int64({ minimum: 1, description: `Identifier of the ${what}.` }) });
