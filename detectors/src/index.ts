export * from "./contract.js";
export * from "./content-policy/index.js";
export * from './translation/index.js';
export * from "./http-client.js";
export * from './pii/index.js';
export * from './threat/index.js';
export * from './content-safety/index.js';
