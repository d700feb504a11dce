'use client';
/**
 * The grid's toolbar: the text search, the sort select of narrow screens (where the header row is
 * hidden), and the state and enabled filters. Each setting navigates (`use-grid-url.ts`).
 */
import { SCHEDULE_STATES } from '@/lib/schedules/contract';
import type { GridQuery } from './grid-query';
import type { GridUrl } from './use-grid-url';

/** The sort select's choices: URL value → label. */
const SORT_CHOICES: [string, string][] = [
  ['', 'Oldest first'],
  ['-created', 'Newest first'],
  ['name', 'Name A–Z'],
  ['-name', 'Name Z–A'],
  ['next_fire', 'Next fire, soonest'],
  ['-next_fire', 'Next fire, latest'],
  ['timezone', 'Timezone A–Z'],
  ['-timezone', 'Timezone Z–A'],
  ['state', 'Active first'],
  ['-state', 'Completed first'],
  ['enabled', 'Disabled first'],
  ['-enabled', 'Enabled first'],
  ['description', 'Description A–Z'],
  ['-description', 'Description Z–A'],
];

const STATE_CHOICES: [GridQuery['state'], string][] = [['', 'Any'], ...SCHEDULE_STATES.map((s): [GridQuery['state'], string] => [s, s])];

/** The last run's outcome (SPEC §16.3), in the words the history uses. */
const OUTCOME_CHOICES: [GridQuery['outcome'], string][] = [
  ['', 'Any'],
  ['succeeded', 'Succeeded'],
  ['failed', 'Failed'],
  ['timed_out', 'Timed out'],
  ['running', 'Running'],
  ['pending', 'Pending'],
];

const ENABLED_CHOICES: [GridQuery['enabled'], string][] = [
  ['', 'Any'],
  ['true', 'Enabled'],
  ['false', 'Disabled'],
];

export function GridFilters({ url }: { url: GridUrl }) {
  return (
    <div className="toolbar" role="search">
      <div className="field field-inline field-grow">
        <label htmlFor="grid-q">Find schedules</label>
        <input
          id="grid-q"
          type="search"
          placeholder="Name, description, cron or rate, timezone, target, workflow…"
          value={url.text}
          onChange={(e) => url.onText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') url.searchNow();
          }}
        />
      </div>
      <FilterSelect id="grid-sort" label="Sort by" className="narrow-only" value={url.shown.sort} choices={SORT_CHOICES} onChange={(sort) => url.go({ sort })} />
      <FilterSelect id="grid-state" label="State" value={url.shown.state} choices={STATE_CHOICES} onChange={(state) => url.go({ state })} />
      <FilterSelect id="grid-enabled" label="Enabled" value={url.shown.enabled} choices={ENABLED_CHOICES} onChange={(enabled) => url.go({ enabled })} />
      <FilterSelect id="grid-outcome" label="Last outcome" value={url.shown.outcome} choices={OUTCOME_CHOICES} onChange={(outcome) => url.go({ outcome })} />
    </div>
  );
}

interface FilterSelectProps<V extends string> {
  id: string;
  label: string;
  /** Added to the field's classes (`narrow-only`). */
  className?: string;
  value: V;
  /** value → label, in the order offered. */
  choices: [V, string][];
  onChange: (value: V) => void;
}

function FilterSelect<V extends string>({ id, label, className, value, choices, onChange }: FilterSelectProps<V>) {
  return (
    <div className={className ? `field field-inline ${className}` : 'field field-inline'}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
