import type { NextConfig } from 'next';

/**
 * Security headers on every answer (docs/decisions.md 28). The Content-Security-Policy of pages is not
 * here: middleware.ts sets it per request, with a fresh script nonce for each page. `/api/…` answers
 * get the API's deny-all policy here (middleware.ts does not run for them; decision 406).
 */
const SECURITY_HEADERS = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** JSON and text answers render nothing: they may load, frame or post nothing (middleware.ts `API_POLICY`, the same text). */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export default function config(): NextConfig {
  return {
    // Native / engine packages load at runtime from node_modules instead of being bundled.
    serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/client', 'pg', '@prisma/adapter-pg', 'prom-client'],
    typedRoutes: false,
    poweredByHeader: false,
    eslint: { ignoreDuringBuilds: true },
    // The image build (Dockerfile) and the e2e step of `npm test` (scripts/test-all.sh) set
    // NEXT_BUILD_SKIP_TYPECHECK=1: `npm test` type-checks the tree (`tsc --noEmit`) and the image is
    // built from it, so `next build` there only compiles. A user's `npm start` build still type-checks.
    typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === '1' },
    // Keep the Location of middleware.ts's redirect to /login as written: Next.js otherwise rewrites a
    // 127.0.0.1 host to `localhost`, sending the browser to another host (and cookies are per host).
    skipMiddlewareUrlNormalize: true,
    // scripts/web-server.ts refuses server actions over 1 MiB with 413 before Next.js reads them;
    // Next.js's own limit stays above it so that it never answers that case with a 500.
    experimental: { serverActions: { bodySizeLimit: '2mb' } },
    async headers() {
      return [
        { source: '/:path*', headers: SECURITY_HEADERS },
        { source: '/api/:path+', headers: [{ key: 'Content-Security-Policy', value: API_POLICY }] },
      ];
    },
  };
}
