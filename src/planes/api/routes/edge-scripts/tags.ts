/** The OpenAPI tag of the scripting API's operations. */
export const TAGS = ['Edge scripts'];

/** A request carrying a script's code: 10 MB of code may take twice that as a JSON string (escapes). */
export const CODE_BODY_LIMIT = 2 * 10 * 1024 * 1024 + 64 * 1024;
/** Characters of code a request may carry: a little over 10 M, so that the service's exact check of 10 MB of UTF-8 is the one that answers. */
export const CODE_MAX_CHARACTERS = 11 * 1024 * 1024;
