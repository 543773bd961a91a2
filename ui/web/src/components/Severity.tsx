import { Badge } from '@mantine/core';

// Dark shades with white text, light ones with dark text (autoContrast): above 4.5:1 (WCAG AA).
const COLORS: Record<string, string> = { CRITICAL: 'red.9', HIGH: 'orange.4', MEDIUM: 'yellow.3', LOW: 'blue.8', INFO: 'gray.7' };
const STATUS: Record<string, string> = { ACTIVE: 'teal.9', DRAFT: 'gray.7', ARCHIVED: 'dark.6', HEALTHY: 'teal.9', UNHEALTHY: 'red.9', UNKNOWN: 'gray.7', DEGRADED: 'orange.4', BLOCK: 'red.9', SANITIZE: 'orange.4', ALLOW: 'teal.9', MONITOR_ONLY: 'grape.8' };

// A badge keeps its whole word: a table squeezes a column to its narrowest content, and a badge could
// otherwise shrink to an ellipsis.
const WHOLE = { minWidth: 'max-content' } as const;

export function SeverityBadge({ value }: { value: string }) {
  return <Badge color={COLORS[value] ?? 'gray.7'} variant="filled" autoContrast style={WHOLE}>{value}</Badge>;
}

export function StatusBadge({ value }: { value: string | null | undefined }) {
  if (!value) return <>—</>;
  return <Badge color={STATUS[value] ?? 'gray.7'} variant="filled" autoContrast style={WHOLE}>{value}</Badge>;
}
