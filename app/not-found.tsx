import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="page">
      <div className="empty-state">
        <h1>Not found</h1>
        <p>This page does not exist, or you cannot see it.</p>
        <Link href="/schedulers" className="btn">
          Back to schedulers
        </Link>
      </div>
    </div>
  );
}
