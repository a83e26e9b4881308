// One user on the admin users page: who they are (with the spec's fallbacks), what can be done
// for them, and their videos.
import { Eye, Film, Images, ScanFace, Trash2, Users } from 'lucide-react';
import { Link } from 'react-router';
import { ADMIN, IMPERSONATION, REVIEW } from '../../../common/admin-messages';
import { Button } from '../../ui/button';
import type { AdminUser } from './api';
import { RequestButton } from './request-button';
import { VideosTable } from './videos-table';

export interface UserCardActions {
  onViewAs(user: AdminUser): void;
  onUploadStills(user: AdminUser): void;
  onUploadVideo(user: AdminUser): void;
  onErase(user: AdminUser): void;
  viewingBusy: boolean;
}

export const displayName = (u: Pick<AdminUser, 'firstName' | 'lastName'>) => `${u.firstName} ${u.lastName}`.trim() || ADMIN.users.noName;

export function UserCard({ user, actions }: { user: AdminUser; actions: UserCardActions }) {
  // Approval starts the face search: its proposals are one click away (the request's main action,
  // beside its state, while an approved request from footage is open).
  const open = user.requests.find((r) => r.status === 'pending' || r.status === 'ready_to_purchase');
  const approved = open?.status === 'ready_to_purchase' && open.fromFootage ? undefined : user.requests.find((r) => r.status !== 'pending');
  return (
    <li className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-5" data-testid="user-card">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <h3 className="text-lg font-bold text-white">{displayName(user)}</h3>
          {user.family && (
            <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-sm text-amber-300" data-testid="family-line">
              <Users className="h-4 w-4" aria-hidden="true" />
              {ADMIN.users.family(user.family.holderName, user.family.athletes)}
              {user.email && (
                <Link className="text-neutral-300 underline underline-offset-2 hover:text-white" to={`/admin/users?q=${encodeURIComponent(user.email)}`}>
                  {ADMIN.users.showFamily}
                </Link>
              )}
            </p>
          )}
          <dl className="mt-1 grid gap-x-6 gap-y-0.5 text-sm text-neutral-300 sm:grid-cols-2">
            <div className="flex gap-1.5">
              <dt className="sr-only">Email</dt>
              <dd className="truncate">{user.email || ADMIN.users.noEmail}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="sr-only">Phone</dt>
              <dd>{user.phone || ADMIN.users.noPhone}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-neutral-400">ID</dt>
              <dd className="font-mono">{user.id.slice(-12)}</dd>
            </div>
            <div className="flex gap-1.5">
              <dt className="text-neutral-400">Joined</dt>
              <dd>{new Date(user.createdAt).toLocaleDateString()}</dd>
            </div>
          </dl>
        </div>
        <div className="flex flex-wrap items-center gap-2 lg:justify-end">
          <Button size="sm" variant="outline" onClick={() => actions.onViewAs(user)} disabled={actions.viewingBusy}>
            <Eye className="h-4 w-4" aria-hidden="true" />
            {IMPERSONATION.viewAsUser}
          </Button>
          <Button size="sm" variant="outline" onClick={() => actions.onUploadStills(user)}>
            <Images className="h-4 w-4" aria-hidden="true" />
            {ADMIN.users.uploadStills}
          </Button>
          <Button size="sm" variant="outline" onClick={() => actions.onUploadVideo(user)}>
            <Film className="h-4 w-4" aria-hidden="true" />
            {ADMIN.users.uploadVideo}
          </Button>
          <RequestButton requests={user.requests} />
          {approved && (
            <Button asChild size="sm" variant="outline">
              <Link to={`/admin/requests/${approved.id}`}>
                <ScanFace className="h-4 w-4" aria-hidden="true" />
                {REVIEW.link}
              </Link>
            </Button>
          )}
          <Button size="sm" variant="ghost" className="text-red-400 hover:text-red-300" onClick={() => actions.onErase(user)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            {ADMIN.users.erase.button}
          </Button>
        </div>
      </div>
      <VideosTable videos={user.videos} />
    </li>
  );
}
