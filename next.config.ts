import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // Native / engine packages load at runtime from node_modules instead of being bundled.
  serverExternalPackages: ['better-sqlite3', '@prisma/adapter-better-sqlite3', '@prisma/client', 'pg', '@prisma/adapter-pg', 'prom-client'],
  typedRoutes: false,
  poweredByHeader: false,
  eslint: { ignoreDuringBuilds: true },
};

export default nextConfig;
