'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

/** The header's navigation; the current section is marked with aria-current. */
export function MainNav() {
  const pathname = usePathname();
  const current = pathname === '/schedulers' || pathname.startsWith('/schedulers/');
  return (
    <nav aria-label="Main" className="main-nav">
      <Link href="/schedulers" aria-current={current ? 'page' : undefined}>
        Schedulers
      </Link>
      <Link href="/catalog" aria-current={pathname === '/catalog' || pathname.startsWith('/catalog/') ? 'page' : undefined}>
        Catalog
      </Link>
    </nav>
  );
}
