import t from 'tap';
import { Readable } from 'node:stream';
import { readLimited } from './read-limited.js';

t.test('a body is read whole up to the limit, and refused past it with its stream destroyed', async (t) => {
  const within = await readLimited(Readable.from([Buffer.from('ab'), new Uint8Array([99, 100])]), 4);
  t.equal(within?.toString(), 'abcd', 'exactly the limit is read');

  let produced = 0;
  const endless = new Readable({
    read() {
      produced++;
      this.push(Buffer.alloc(1024));
    },
  });
  t.equal(await readLimited(endless, 10_000), undefined, 'past the limit: nothing');
  t.ok(endless.destroyed, 'the stream is destroyed');
  t.ok(produced <= 12, `reading stopped at the limit (${produced} chunks)`);
});
