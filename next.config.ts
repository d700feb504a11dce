import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER } from 'next/constants';

/**
 * Security headers on every answer (docs/decisions.md). The app loads nothing from other origins.
 * `script-src 'unsafe-inline'` is needed by the inline scripts Next.js writes into every page (the
 * RSC payload); a nonce-based policy would need per-request rendering of every page. `next dev` also
 * needs `'unsafe-eval'` (React's debugging), so the development server gets it, production never.
 */
function securityHeaders(dev: boolean) {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? ' ws: wss:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return [
    { key: 'Content-Security-Policy', value: csp },
    { key: 'X-Frame-Options', value: 'DENY' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
    { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  ];
}

export default function config(phase: string): NextConfig {
  const dev = phase === PHASE_DEVELOPMENT_SERVER;
  return {
    // Native / engine packages load at runtime from node_modules instead of being bundled.
    serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/client', 'pg', '@prisma/adapter-pg', 'prom-client'],
    typedRoutes: false,
    poweredByHeader: false,
    eslint: { ignoreDuringBuilds: true },
    // Keep the Location of middleware.ts's redirect to /login as written: Next.js otherwise rewrites a
    // 127.0.0.1 host to `localhost`, sending the browser to another host (and cookies are per host).
    skipMiddlewareUrlNormalize: true,
    async headers() {
      return [{ source: '/:path*', headers: securityHeaders(dev) }];
    },
  };
}
