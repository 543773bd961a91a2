import t from 'tap';
import {
  DEFAULT_RETENTION_SETTINGS,
  RetentionSettings,
  RetentionSettingsCreate,
  RetentionSettingsUpdate,
} from './retention-settings.js';
import { issuePaths, parseOk } from '../testing/model.js';

t.test('defaults', async (t) => {
  const want = { audit_retention_days: 1095, event_retention_days: 90, detail_retention_days: 30, report_retention_days: 365 };
  t.same(parseOk(RetentionSettingsCreate, {}), want);
  t.same(DEFAULT_RETENTION_SETTINGS, want);
  t.same(parseOk(RetentionSettings, {}), { ...want, updated_at: null, updated_by: null });
});

t.test('audit retention cannot go below 1095 days', async (t) => {
  t.same(issuePaths(RetentionSettingsCreate, { audit_retention_days: 1094 }), ['audit_retention_days']);
  t.same(issuePaths(RetentionSettingsCreate, { audit_retention_days: 1095 }), []);
  t.same(issuePaths(RetentionSettingsCreate, { audit_retention_days: 2000 }), []);
  t.same(issuePaths(RetentionSettingsUpdate, { audit_retention_days: 1094 }), ['audit_retention_days']);
});

t.test('other retentions are positive integers; details not longer than events', async (t) => {
  for (const field of ['event_retention_days', 'detail_retention_days', 'report_retention_days']) {
    t.same(issuePaths(RetentionSettingsCreate, { [field]: 0 }), [field], `${field} 0`);
    t.same(issuePaths(RetentionSettingsCreate, { [field]: 1.5 }), [field], `${field} 1.5`);
  }
  t.same(issuePaths(RetentionSettingsCreate, { event_retention_days: 30, detail_retention_days: 31 }), ['detail_retention_days']);
  t.same(issuePaths(RetentionSettingsCreate, { event_retention_days: 30, detail_retention_days: 30 }), []);
  t.same(issuePaths(RetentionSettingsCreate, { event_retention_days: 20 }), ['detail_retention_days'], 'against the default detail');
});

t.test('update is partial', async (t) => {
  t.same(parseOk(RetentionSettingsUpdate, { event_retention_days: 10 }), { event_retention_days: 10 });
  t.same(issuePaths(RetentionSettingsUpdate, { event_retention_days: 30, detail_retention_days: 40 }), ['detail_retention_days']);
});
