// A mock route speaks the API its vendor folder describes (core/src/vendors/<vendor>): the method,
// paths and required fields come from there, so the mock and the presets change together.
import type { VendorApi } from '@palisade/core/vendors';

/** The route fields an API's data gives; `prefix` mounts it under a path of the mock's own. */
export function fromApi(api: VendorApi, prefix = ''): { method: VendorApi['method']; paths: string[]; action?: string; required?: readonly string[] } {
  return {
    method: api.method,
    paths: api.paths.map((path) => `${prefix}${path}`),
    ...(api.action === undefined ? {} : { action: api.action }),
    ...(api.required === undefined ? {} : { required: api.required }),
  };
}
