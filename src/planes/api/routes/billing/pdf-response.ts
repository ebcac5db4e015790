/** The answer of the billing documents: a PDF. */
import { Type } from 'typebox';

export const PdfResponse = (what: string) => ({ description: what, content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } } });
