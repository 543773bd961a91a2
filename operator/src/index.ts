export * from './component.js';
export { buildCustomResourceDefinitions, specSchema, type CustomResourceDefinitionFile } from './crd/build.js';
export { renderCustomResourceDefinition } from './crd/render.js';
export { API_VERSION, FINALIZER, GROUP, KINDS, TENANT_LABEL, VERSION, type KindName } from './crd/kinds.js';
export { camelize, snakeize } from './crd/naming.js';
export { createKubeClient, loadKubeConfig, type KubeClient } from './kube/client.js';
