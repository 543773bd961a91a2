// Every vendor Palisade knows, one folder of data each (see "How to add a vendor" in ARCHITECTURE.md).
export { customVendor, imageVendors, servingVendorM, vendorA, vendorB, vendorC, vendorD, vendorE, vendorF, vendorG, vendorH, vendorI, vendorJ, VENDORS } from './all.js';
export * from './types.js';
export * from './tool-slots.js';
export * from './tables.js';
export * from './samples.js';
