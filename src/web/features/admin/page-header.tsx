import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { ADMIN } from '../../../common/admin-messages';
import { Button } from '../../ui/button';

/** Back to Admin and the screen's title, as every admin screen but the portal has them. */
export function AdminPageHeader({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <div className="mb-8 flex flex-col gap-4">
      <Button asChild variant="ghost" size="sm" className="self-start">
        <Link to="/admin">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          {ADMIN.backToAdmin}
        </Link>
      </Button>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="font-display text-4xl uppercase tracking-wide text-white md:text-5xl">{title}</h1>
        {children}
      </div>
    </div>
  );
}
