import t from 'tap';
import { parseScrape, stageSplit } from './metrics-scrape.js';

const text = (piiSum: number, piiCount: number) => `# HELP palisade_event_loop_delay_seconds x
# TYPE palisade_event_loop_delay_seconds gauge
palisade_event_loop_delay_seconds{service="gateway",quantile="0.5"} 0.0051
palisade_event_loop_delay_seconds{service="gateway",quantile="0.99"} 0.0123
palisade_event_loop_delay_seconds{service="gateway",quantile="max"} 0.03
palisade_inspection_stage_seconds_bucket{le="0.001",service="gateway",side="request",stage="pii"} 3
palisade_inspection_stage_seconds_sum{service="gateway",side="request",stage="pii"} ${piiSum}
palisade_inspection_stage_seconds_count{service="gateway",side="request",stage="pii"} ${piiCount}
palisade_inspection_stage_seconds_sum{service="gateway",side="response",stage="threat"} 0
palisade_inspection_stage_seconds_count{service="gateway",side="response",stage="threat"} 0
`;

t.test('event-loop quantiles in ms and stage sums', async (t) => {
  const s = parseScrape(text(0.5, 100));
  t.same(s.eventLoopMs, { '0.5': 5.1, '0.99': 12.3, max: 30 });
  t.same(s.stages['request:pii'], { sum: 0.5, count: 100 });
});

t.test('the split is the mean between two scrapes; stages that did not run are left out', async (t) => {
  const split = stageSplit(parseScrape(text(0.5, 100)), parseScrape(text(0.8, 400)));
  t.same(split, [{ side: 'request', stage: 'pii', meanMs: 1, calls: 300 }]);
});
