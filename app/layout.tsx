import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { MainNav } from '@/components/main-nav';
import { UserMenu } from './_components/user-menu';
import { WorkerBanner } from './_components/worker-banner';
import './globals.css';
import './accounts.css';

export const metadata: Metadata = {
  title: { default: 'Scheduler', template: '%s · Scheduler' },
  description: 'Author schedules that start workflow executions once or on a cron cadence.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request headers renders every page per request, so each gets its own CSP nonce
  // (middleware.ts); Next.js puts the nonce on its scripts itself.
  await headers();
  return (
    <html lang="en">
      <body>
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <header className="app-header">
          <div className="app-header-inner">
            <Link href="/schedulers" className="brand">
              <span className="brand-mark" aria-hidden="true">
                ◷
              </span>
              Scheduler
            </Link>
            <MainNav />
            <UserMenu />
          </div>
        </header>
        <WorkerBanner />
        <main id="main" className="app-main">
          {children}
        </main>
      </body>
    </html>
  );
}
