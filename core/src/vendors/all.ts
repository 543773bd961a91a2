// The vendor folders, in the provider types' order (the tables built from them keep it).
import { customVendor } from './custom/index.js';
import { imageVendors } from './images/index.js';
import { servingVendorM } from './serving_m/index.js';
import type { Vendor } from './types.js';
import { vendorA } from './vendor_a/index.js';
import { vendorB } from './vendor_b/index.js';
import { vendorC } from './vendor_c/index.js';
import { vendorD } from './vendor_d/index.js';
import { vendorE } from './vendor_e/index.js';
import { vendorF } from './vendor_f/index.js';
import { vendorG } from './vendor_g/index.js';
import { vendorH } from './vendor_h/index.js';
import { vendorI } from './vendor_i/index.js';
import { vendorJ } from './vendor_j/index.js';

export const VENDORS = [vendorA, vendorB, vendorC, vendorD, vendorE, vendorF, vendorG, vendorH, vendorI, vendorJ, imageVendors, servingVendorM, customVendor] as const satisfies readonly Vendor[];

export { customVendor, imageVendors, servingVendorM, vendorA, vendorB, vendorC, vendorD, vendorE, vendorF, vendorG, vendorH, vendorI, vendorJ };
