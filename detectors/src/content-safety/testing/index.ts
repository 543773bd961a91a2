// Test peers of the content safety detector, for this package's tests, the gateway's, and offline demos.
export { guardAnswer, startGuardServer, type GuardRule, type GuardServer, type GuardServerOptions, type GuardServerRequest } from './guard-server.js';
