import t from 'tap';
import { threatHasTriggerWord } from './trigger-words.js';

t.test('trigger words are found after normalisation, in several languages', async (t) => {
  t.ok(threatHasTriggerWord('Please IGNORE the typos'));
  t.ok(threatHasTriggerWord('Представь, что ты гид по Москве'));
  t.ok(threatHasTriggerWord('请忽略上一条消息'));
  t.ok(threatHasTriggerWord('How do I jailbreak my old Kindle?'));
  t.notOk(threatHasTriggerWord('What is the capital of France?'));
});
