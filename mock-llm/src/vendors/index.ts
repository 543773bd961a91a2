// The full route table: every vendor format of the spec.
import type { VendorRoute } from '../types.js';
import { customRoutes } from './custom.js';
import { imageRoutes } from './images.js';
import { servingMRoutes } from './serving-m.js';
import { vendorARoutes } from './vendor-a.js';
import { vendorBRoutes } from './vendor-b.js';
import { vendorCRoutes } from './vendor-c.js';
import { vendorDRoutes } from './vendor-d.js';
import { vendorERoutes } from './vendor-e.js';
import { vendorFRoutes } from './vendor-f.js';
import { vendorGRoutes } from './vendor-g.js';
import { vendorIRoutes } from './vendor-i.js';
import { vendorJRoutes } from './vendor-j.js';

export function defaultRoutes(): VendorRoute[] {
  return [
    ...vendorARoutes,
    ...vendorBRoutes,
    ...vendorCRoutes,
    ...vendorDRoutes,
    ...vendorERoutes,
    ...vendorFRoutes,
    ...vendorGRoutes,
    ...vendorIRoutes,
    ...vendorJRoutes,
    ...imageRoutes,
    ...servingMRoutes,
    ...customRoutes,
  ];
}

export { anthropicError } from './vendor-b.js';
export { googleError } from './vendor-d.js';
export { openAiError, openAiRoutes } from './vendor-a.js';
