/** The OpenAPI tag of the scripting API's operations. */
export const TAGS = ['Edge scripts'];
