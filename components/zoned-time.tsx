'use client';
import { formatInZone, formatUtc } from './format';
import { useViewerZone } from './use-viewer-zone';

/**
 * An instant shown as wall time in `zone` (the schedule's timezone), with the same instant in the
 * viewer's own zone and in UTC in the hover title.
 */
export function ZonedTime({ instant, zone, seconds = true, stacked = false }: { instant: string; zone: string; seconds?: boolean; stacked?: boolean }) {
  const viewer = useViewerZone();
  const title = viewer
    ? `Your time (${viewer}): ${formatInZone(instant, viewer)}\n${formatUtc(instant)}`
    : formatUtc(instant);
  const text = formatInZone(instant, zone, { seconds });
  if (stacked) {
    const cut = text.lastIndexOf(' ');
    return (
      <time dateTime={instant} title={title} className="zoned-time zoned-time-stacked">
        <span>{text.slice(0, cut)}</span> <span className="muted small">{text.slice(cut + 1)}</span>
      </time>
    );
  }
  return (
    <time dateTime={instant} title={title} className="zoned-time">
      {text}
    </time>
  );
}
