// The documented Keycloak realm (docs/identity/keycloak-realm.json) produces what the proxy and the
// Admin API read by default: the claims, the client, the roles and the realm settings of the spec.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { ROLE_NAMES } from '@palisade/core';
import { AUTH_PROXY_ENV, loadAuthProxyConfig } from './config.js';
import { userFromClaims } from './identity.js';

const REALM = fileURLToPath(new URL('../../../docs/identity/keycloak-realm.json', import.meta.url));

t.test('Keycloak realm export', async (t) => {
  const realm = JSON.parse(readFileSync(REALM, 'utf8'));
  t.match(realm, { loginWithEmailAllowed: true, duplicateEmailsAllowed: false, editUsernameAllowed: false, resetPasswordAllowed: true, bruteForceProtected: true, ssoSessionIdleTimeout: 1800 });
  t.same(realm.roles.realm.map((r: { name: string }) => r.name).sort(), [...ROLE_NAMES].sort());
  const client = realm.clients.find((c: { clientId: string }) => c.clientId === 'admin-api');
  t.match(client, { publicClient: true, standardFlowEnabled: true, directAccessGrantsEnabled: true, attributes: { 'pkce.code.challenge.method': 'S256' } });
  t.ok(client.redirectUris.includes('http://localhost:4180/oauth2/callback'));
  const config = loadAuthProxyConfig({});
  const mapper = (name: string) => client.protocolMappers.find((m: { name: string }) => m.name === name)?.config;
  const everywhere = { 'id.token.claim': 'true', 'access.token.claim': 'true', 'userinfo.token.claim': 'true' };
  t.match(mapper('tenant-id-mapper'), { 'user.attribute': 'tenant_id', 'claim.name': config.AUTH_PROXY_TENANT_CLAIM, ...everywhere });
  t.match(mapper('groups'), { 'claim.name': config.AUTH_PROXY_GROUPS_CLAIM, multivalued: 'true', ...everywhere });
  t.match(mapper('admin-api-audience'), { 'included.client.audience': config.AUTH_PROXY_AUDIENCE, 'access.token.claim': 'true' });
  t.equal(AUTH_PROXY_ENV.AUTH_PROXY_CLIENT_ID.schema.parse(undefined), client.clientId);
  const admin = realm.users[0];
  t.match(admin, { attributes: { tenant_id: ['default'] } });
  t.ok(admin.realmRoles.includes('admin'));
  // A Keycloak access token of that realm, as the mappers shape it, becomes the spec's identity.
  const claims = { sub: 'f1', preferred_username: admin.username, email: admin.email, groups: admin.realmRoles, tenant_id: 'default', typ: 'Bearer' };
  t.match(userFromClaims(claims, { user: config.AUTH_PROXY_USER_CLAIM!, groups: config.AUTH_PROXY_GROUPS_CLAIM!, tenant: config.AUTH_PROXY_TENANT_CLAIM! }), { user: 'admin', tenantId: 'default', groups: ['admin', 'default-roles-palisade'] });
  t.match(userFromClaims({ sub: 'x', realm_access: { roles: ['viewer'] } }, { user: 'preferred_username', groups: 'realm_access.roles', tenant: 'tenant_id' }), { groups: ['viewer'] }, 'a dotted claim path reads nested claims');
  const profile = JSON.parse(realm.components['org.keycloak.userprofile.UserProfileProvider'][0].config['kc.user.profile.config'][0]);
  t.ok(profile.attributes.some((a: { name: string }) => a.name === 'tenant_id'), 'tenant_id is a declared user-profile attribute (Keycloak 24+ drops undeclared ones)');
});
