import { Badge } from '@mantine/core';
import { useEnumLabel, type EnumKind } from '../i18n/enum-labels';

// Dark shades with white text, light ones with dark text (autoContrast): above 4.5:1 (WCAG AA).
const COLORS: Record<string, string> = { CRITICAL: 'red.9', HIGH: 'orange.4', MEDIUM: 'yellow.3', LOW: 'blue.8', INFO: 'gray.7' };
const STATUS: Record<string, string> = { ACTIVE: 'teal.9', DRAFT: 'gray.7', ARCHIVED: 'dark.6', HEALTHY: 'teal.9', UNHEALTHY: 'red.9', UNKNOWN: 'gray.7', DEGRADED: 'orange.4', BLOCK: 'red.9', SANITIZE: 'orange.4', ALLOW: 'teal.9', MONITOR_ONLY: 'grape.8', PENDING: 'gray.7', COMPLETED: 'teal.9', FAILED: 'red.9' };

// A badge keeps its whole word: a table squeezes a column to its narrowest content, and a badge could
// otherwise shrink to an ellipsis.
const WHOLE = { minWidth: 'max-content' } as const;

/** A severity in words, coloured by the API's value (kept in data-value). */
export function SeverityBadge({ value }: { value: string }) {
  const label = useEnumLabel();
  return <Badge color={COLORS[value] ?? 'gray.7'} variant="filled" autoContrast style={WHOLE} data-value={value}>{label('severity', value)}</Badge>;
}

/** A status of `kind` (a resource's, a provider's health, a decision, a report's) in words. */
export function StatusBadge({ kind, value }: { kind: EnumKind; value: string | null | undefined }) {
  const label = useEnumLabel();
  if (!value) return <>—</>;
  return <Badge color={STATUS[value] ?? 'gray.7'} variant="filled" autoContrast style={WHOLE} data-value={value}>{label(kind, value)}</Badge>;
}
