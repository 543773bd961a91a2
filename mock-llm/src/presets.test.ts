// The mock speaks what the presets expect: every API's sample request (its preset's sample exchange,
// plus what the API needs beyond it) is read by the preset, answered by the mock, and the preset finds
// the answer's text.
import t from 'tap';
import { compileMapping, EXCHANGE, MAPPING_PRESETS, MAPPING_SAMPLES, VENDORS, type Vendor } from '@palisade/core';
import { DEFAULT_OAUTH_CLIENT } from './oauth.js';
import { call, startMock } from './testing/index.js';

/** What a caller of the vendor sends to be let in (the mock checks the key header and OAuth tokens). */
async function credentials(vendor: Vendor, url: string): Promise<Record<string, string>> {
  if (vendor.auth?.type === 'api_key_header' && vendor.auth.header !== undefined) return { [vendor.auth.header]: 'key' };
  const tokenPath = vendor.apis.oauth?.paths[0];
  if (vendor.auth?.type !== 'oauth2_client_credentials' || tokenPath === undefined) return {};
  const basic = Buffer.from(`${DEFAULT_OAUTH_CLIENT.clientId}:${DEFAULT_OAUTH_CLIENT.clientSecret}`).toString('base64');
  const token = await call(`${url}${tokenPath}`, {
    body: `scope=${vendor.auth.scope ?? ''}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
  });
  return { authorization: `Bearer ${String(token.json.access_token)}` };
}

t.test('every API sample: the preset reads its prompt, the mock answers, the preset reads the answer', async (t) => {
  const { url } = await startMock(t);
  let samples = 0;
  for (const vendor of VENDORS as readonly Vendor[]) {
    const headers = await credentials(vendor, url);
    for (const [name, api] of Object.entries(vendor.apis)) {
      if (api.sample === undefined || api.preset === undefined) continue;
      samples += 1;
      const mapping = compileMapping(MAPPING_PRESETS[api.preset]);
      const at = `${vendor.id}.${name}`;
      const body = { ...(MAPPING_SAMPLES[api.preset].request as object), ...api.sample.with };
      const prompt = mapping.extractRequest(body).prompt;
      t.match(prompt, /Summarise the attached invoice|A lighthouse on a cliff/, `${at}: the preset reads the prompt`);
      const answer = await call(`${url}${api.sample.path}`, { body, headers });
      t.equal(answer.status, 200, `${at}: answered`);
      const user = prompt.includes(EXCHANGE.prompt) ? EXCHANGE.prompt : EXCHANGE.imagePrompt;
      // An image's answer is its URL, which carries the prompt encoded.
      const text = mapping.extractResponse(answer.json).text;
      t.ok(text.includes(user) || text.includes(encodeURIComponent(user)), `${at}: the preset reads the answer, which echoes the prompt`);
    }
  }
  t.ok(samples >= 20, `${samples} samples`);
});
