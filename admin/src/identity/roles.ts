// The fixed roles of the spec, as the identity providers hand them out: realm-level roles of one
// realm (the Keycloak shape of the spec's role record).
import { ROLE_DESCRIPTIONS, ROLE_NAMES, type Role, type RoleListItem, type RoleName } from '@palisade/core';

const CONTAINER_ID = 'palisade';

export function roleRecord(name: RoleName): Role {
  return { id: name, name, composite: false, clientRole: false, containerId: CONTAINER_ID };
}

/** Every role with its description (GET /roles), whoever stores the users. */
export function roleList(): RoleListItem[] {
  return ROLE_NAMES.map((name) => ({ id: name, name, description: ROLE_DESCRIPTIONS[name] }));
}
