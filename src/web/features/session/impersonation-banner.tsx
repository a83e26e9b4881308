// While an admin views the site as a user: who is being viewed, who is looking, and the way back
// (the spec's banner). Exit ends the view on the server and brings the admin's own session back.
import { useQueryClient } from '@tanstack/react-query';
import { Eye } from 'lucide-react';
import { useNavigate } from 'react-router';
import { IMPERSONATION } from '../../../common/admin-messages';
import { requestJson } from '../../lib/api-error';
import { notify } from '../../lib/toast';
import { useAction } from '../../lib/use-action';
import { Button } from '../../ui/button';
import { impersonationOf, refreshSession, useMe } from './session';

export function ImpersonationBanner() {
  const me = useMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const exit = useAction(() => requestJson('/api/auth/impersonation/stop', { method: 'POST' }), {
    onSuccess: async () => {
      queryClient.clear();
      await refreshSession();
      notify.success(IMPERSONATION.exited);
      navigate('/admin/users');
    },
    onError: (error) => notify.error({ title: 'Error', description: error.message }),
  });
  const view = impersonationOf(me.data);
  if (!view || !me.data?.user) return null;
  return (
    <div role="region" aria-label="Admin view" className="sticky top-16 z-30 border-b border-yellow-600/60 bg-yellow-950/95 text-yellow-50 backdrop-blur">
      <div className="mx-auto flex max-w-7xl items-center justify-between gap-3 px-4 py-2.5 md:px-8">
        <div className="flex min-w-0 items-center gap-3">
          <Eye className="hidden h-5 w-5 shrink-0 md:block" aria-hidden="true" />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold">{IMPERSONATION.banner(me.data.user.email)}</p>
            {/* The second line (the admin's own account) on medium and wider screens, as the spec has it. */}
            <p className="hidden truncate text-xs text-yellow-100/90 md:block">{IMPERSONATION.bannerAdmin(view.adminEmail)}</p>
          </div>
        </div>
        <Button size="sm" variant="secondary" onClick={() => exit.run(undefined)} disabled={exit.isPending}>
          {IMPERSONATION.exit}
        </Button>
      </div>
    </div>
  );
}
