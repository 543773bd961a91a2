export * from './oidc.js';
export * from './stack.js';
// A real webhook peer on 127.0.0.1, for tests outside admin (the console's "send test event").
export { startWebhookReceiver, type WebhookReceiver } from './exporter-peers.js';
