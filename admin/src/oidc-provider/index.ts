export * from './component.js';
export * from './config.js';
export { CLIENT_ID, RESOURCE_INDICATOR, ACCESS_TOKEN_AUDIENCE, SCOPES } from './provider.js';
export { rotateSigningKey, loadSigningKeys } from './signing-keys.js';
