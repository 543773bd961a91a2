export * from "./contract.js";
export * from "./content-policy/index.js";
export * from './translation/index.js';
