'use client';
/**
 * The create form's `client_token` (SPEC §15), made when the form opens and kept in the page's URL
 * (`?form=<token>`, written with `history.replaceState`). The URL belongs to the history entry, so a
 * Reload, a Back to the form (after its save, or while the save was in flight) or a double submit
 * sends the same token, and the server answers the first create instead of making a second schedule;
 * a fresh "New schedule" link opens without one and gets a new token. When the server says the token
 * was used with other values (`client_token_reused`), `renew()` makes the next save a new schedule.
 */
import { useCallback, useEffect, useRef } from 'react';
import { CLIENT_TOKEN_MAX } from '@/lib/schedules/contract';

const PARAM = 'form';
const SHAPE = new RegExp(`^[A-Za-z0-9_-]{8,${CLIENT_TOKEN_MAX}}$`);

function newToken(): string {
  return crypto.randomUUID();
}

function keep(token: string): void {
  const url = new URL(window.location.href);
  url.searchParams.set(PARAM, token);
  window.history.replaceState(window.history.state, '', url);
}

/** `{current(), renew()}`; inactive (always undefined) when `enabled` is false (the edit form). */
export function useClientToken(enabled: boolean) {
  const token = useRef<string | undefined>(undefined);
  const current = useCallback(() => {
    if (!enabled) return undefined;
    if (!token.current) {
      const inUrl = new URL(window.location.href).searchParams.get(PARAM);
      token.current = inUrl && SHAPE.test(inUrl) ? inUrl : newToken();
      if (token.current !== inUrl) keep(token.current);
    }
    return token.current;
  }, [enabled]);
  // Made (or read back) when the form opens, so the URL holds it before the first submit.
  useEffect(() => {
    current();
  }, [current]);
  const renew = useCallback(() => {
    if (!enabled) return;
    token.current = newToken();
    keep(token.current);
  }, [enabled]);
  return { current, renew };
}
