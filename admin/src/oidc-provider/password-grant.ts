// Direct access grants (the spec's "direct access grants for scripts"): oidc-provider does not ship the
// resource owner password grant, so it is added through its registerGrantType extension. It answers
// like Keycloak's: access token (a JWT for the Admin API), refresh token and ID token, and the same
// lockout as the login form. A user whose password is temporary must use the browser first.
import type { IncomingMessage } from 'node:http';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { LoginChecker } from './login.js';
import { RESOURCE_INDICATOR, SCOPES, type ResourceServerInfo } from './provider.js';

export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',', 1)[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return req.socket.remoteAddress ?? 'unknown';
}

const nowS = () => Math.floor(Date.now() / 1000);

/** invalid_grant with our reason shown to the client (oidc-provider's own keeps it in error_detail). */
function refused(reason: string): Error {
  return Object.assign(new errors.InvalidGrant(reason), { error_description: reason });
}

export function registerPasswordGrant(provider: Provider, deps: { checkLogin: LoginChecker; trustProxy: boolean; resourceServer: ResourceServerInfo }): void {
  async function passwordGrant(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
    const params = ctx.oidc.params as Record<string, string | undefined>;
    const client = ctx.oidc.client!;
    if (!params.username || !params.password) throw new errors.InvalidRequest('username and password are required');
    const check = await deps.checkLogin(params.username, params.password, clientAddress(ctx.req, deps.trustProxy));
    if (check.outcome === 'locked') throw refused(`too many failed attempts; try again in ${Math.ceil(check.waitMs / 1000)} s`);
    if (check.outcome === 'disabled') throw refused('account is disabled');
    if (check.outcome === 'invalid') throw refused('invalid user credentials');
    if (check.mustChangePassword) throw refused('account is not fully set up: change the temporary password by signing in with a browser');

    const requested = new Set((params.scope ?? 'openid').split(' ').filter(Boolean));
    const scope = [...SCOPES.split(' '), 'offline_access'].filter((s) => requested.has(s)).join(' ') || 'openid';
    const { AccessToken, Grant, IdToken, RefreshToken, ResourceServer, Account } = ctx.oidc.provider as Provider & { ResourceServer: new (id: string, info: ResourceServerInfo) => never };
    const accountId = check.user.id;
    const grant = new Grant({ clientId: client.clientId, accountId });
    grant.addOIDCScope(scope);
    grant.addResourceScope(RESOURCE_INDICATOR, scope);
    const grantId = await grant.save();
    const gty = 'password';
    const at = new AccessToken({ accountId, client, grantId, gty, scope });
    at.resourceServer = new ResourceServer(RESOURCE_INDICATOR, deps.resourceServer);
    at.scope = scope;
    ctx.oidc.entity('AccessToken', at);
    const accessToken = await at.save();
    const authTime = nowS();
    const rt = new RefreshToken({ accountId, client, grantId, gty, scope, rotations: 0, authTime });
    const refreshToken = await rt.save();
    const account = await Account.findAccount(ctx, accountId);
    if (!account) throw new errors.InvalidGrant('account not found');
    const token = new IdToken({ ...(await account.claims('id_token', scope, {}, [])), auth_time: authTime }, { ctx });
    (token as unknown as { scope: string }).scope = scope;
    const idToken = await token.issue({ use: 'idtoken' });
    ctx.body = { access_token: accessToken, expires_in: at.expiration, id_token: idToken, refresh_token: refreshToken, scope, token_type: 'Bearer' };
    await next();
  }
  provider.registerGrantType('password', passwordGrant, ['username', 'password', 'scope'], []);
}
