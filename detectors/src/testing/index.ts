// Test and bench support of the detectors (the package's "./testing" export); never used by the services.
export { ADVERSARIAL_CLASSES, NEAR_MISSES, adversarialFamilies, repeatTo, type AdversarialFamily } from './adversarial-inputs.js';
export * from './tiny-classifier.js';
