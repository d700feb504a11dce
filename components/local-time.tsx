'use client';
import { useViewerZone } from './use-viewer-zone';
import { ZonedTime } from './zoned-time';

/**
 * An instant shown in the viewer's own time zone, labelled with that zone's abbreviation, with UTC in
 * the hover title (ZonedTime). For pages whose times belong to no schedule (the catalog). Renders UTC
 * on the server and until hydration, when the viewer's zone is not known yet.
 */
export function LocalTime({ instant, seconds = true }: { instant: string | Date; seconds?: boolean }) {
  const viewer = useViewerZone();
  const iso = typeof instant === 'string' ? instant : instant.toISOString();
  return <ZonedTime instant={iso} zone={viewer ?? 'UTC'} seconds={seconds} />;
}
