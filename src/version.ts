/**
 * The API version (semver), sent as OpenAPI info.version and the API-Version header
 * (docs/http-api.md#versioning). Within a major version, changes are additive only.
 */
export const API_VERSION = '1.0.0';
