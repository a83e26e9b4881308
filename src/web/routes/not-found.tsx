import { Link } from 'react-router';
import { LABELS } from '../../common/messages';
import { Button } from '../ui/button';
import { PAGE_TITLES, usePageTitle } from '../page-titles';

export default function NotFoundPage() {
  usePageTitle(PAGE_TITLES.notFound);
  return (
    <div className="flex min-h-[70dvh] flex-col items-center justify-center gap-6 px-4 pt-24 text-center">
      <p className="font-display text-8xl text-red-500">404</p>
      <h1 className="text-2xl font-bold text-white">This page is out of bounds.</h1>
      <Button asChild>
        <Link to="/">{LABELS.backToHome}</Link>
      </Button>
    </div>
  );
}
