// /admin: the portal. The four counts, the ways in (users, orders, waiting list), and any
// background job that failed, with its error and a way to run it again.
import { AlertTriangle, ClipboardList, CreditCard, Inbox, Users, Video } from 'lucide-react';
import { Link } from 'react-router';
import { ADMIN, FOOTAGE } from '../../common/admin-messages';
import { useFailedJobs, useRetryJob, useStats } from '../features/admin/api';
import { notify } from '../lib/toast';
import { PAGE_TITLES, usePageTitle } from '../page-titles';
import { Button } from '../ui/button';
import { Card, CardTitle } from '../ui/card';
import { Spinner } from '../ui/spinner';

const STATS = ['totalUsers', 'newThisWeek', 'totalOrders', 'recentOrders'] as const;

/** What needs someone now, each part a link to that part of the queue. */
function Needs() {
  const stats = useStats();
  const queue = stats.data?.queue;
  if (!queue) return null;
  const parts = (['approve', 'review', 'paid'] as const).filter((s) => queue[s] > 0);
  return (
    <p className="mb-4 rounded-xl border border-neutral-800 bg-neutral-900/70 p-4 text-neutral-200" data-testid="queue-needs">
      {parts.length
        ? parts.map((s, i) => (
            <span key={s}>
              {i > 0 && ', '}
              <Link className="font-semibold text-white underline underline-offset-4" to={`/admin/requests?state=${s}`}>
                {ADMIN.queue.needs({ approve: 0, review: 0, paid: 0, [s]: queue[s] })}
              </Link>
            </span>
          ))
        : ADMIN.queue.needs({ approve: 0, review: 0, paid: 0 })}
    </p>
  );
}

function Stats() {
  const stats = useStats();
  if (stats.isError) return <p role="alert" className="text-red-400">{ADMIN.portal.statsFailed}</p>;
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {STATS.map((key) => (
        <div key={key} className="rounded-xl border border-neutral-800 bg-neutral-900/70 p-5">
          <dt className="text-sm font-medium text-neutral-300">{ADMIN.portal.stats[key]}</dt>
          <dd className="mt-2 font-display text-4xl text-white" data-testid={`stat-${key}`}>
            {stats.data ? stats.data[key].toLocaleString() : <Spinner size="sm" />}
          </dd>
        </div>
      ))}
    </dl>
  );
}

const CARDS = [
  { to: '/admin/requests', icon: Inbox, ...ADMIN.queue.card },
  { to: '/admin/users', icon: Users, ...ADMIN.portal.usersCard },
  { to: '/admin/orders', icon: CreditCard, ...ADMIN.portal.ordersCard },
  { to: '/admin/waiting-list', icon: ClipboardList, ...ADMIN.portal.waitingListCard },
  { to: '/admin/footage', icon: Video, ...FOOTAGE.card },
];

/**
 * The product's own words when the job failed with them (a sentence that names no file, pipe or
 * tool; details the product added in brackets left out); otherwise a plain sentence. The whole
 * error is one click away, under Details.
 */
function plainJobError(error: string): string {
  const sentence = error.replace(/ \(.*\)$/s, '');
  return /^[A-Z]/.test(sentence) && !/[\\/]|pipe:|ffmpeg|ffprobe|Error:/.test(sentence) ? sentence : ADMIN.portal.jobFailedPlain;
}

function FailedJobs() {
  const jobs = useFailedJobs();
  const retry = useRetryJob();
  return (
    <Card id="failed-jobs">
      <CardTitle className="mb-4">{ADMIN.portal.jobsTitle}</CardTitle>
      {jobs.isPending ? (
        <Spinner />
      ) : !jobs.data?.length ? (
        <p className="text-neutral-300">{ADMIN.portal.jobsNone}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {jobs.data.map((job) => (
            <li key={job.id} className="flex flex-wrap items-start justify-between gap-3 rounded-md border border-red-900/60 bg-red-950/20 p-3 text-sm">
              <div className="min-w-0">
                <p className="flex items-center gap-2 font-semibold text-white">
                  <AlertTriangle className="h-4 w-4 text-red-400" aria-hidden="true" />
                  {ADMIN.portal.jobLabels[job.name] ?? job.name}
                </p>
                <p className="mt-1 break-words text-neutral-300">{plainJobError(job.error)}</p>
                <details className="mt-1 text-xs text-neutral-400">
                  <summary className="cursor-pointer">{ADMIN.portal.jobDetails}</summary>
                  <p className="mt-1 break-words font-mono">
                    {job.name}: {job.error}
                  </p>
                </details>
                <p className="mt-1 text-xs text-neutral-400">
                  Failed {job.failedOn ? new Date(job.failedOn).toLocaleString() : ''} after {job.retryCount + 1} {job.retryCount === 0 ? 'try' : 'tries'}
                </p>
              </div>
              <Button
                size="sm"
                variant="outline"
                disabled={retry.isPending}
                onClick={() => retry.mutate({ name: job.name, id: job.id }, { onError: (e) => notify.error({ title: 'Error', description: e.message }) })}
              >
                {ADMIN.portal.retry}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** "3 days", "5 hours", "12 minutes": how long a paid family has waited, to the largest unit. */
function waitedFor(since: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  const [n, unit] = minutes >= 2 * 24 * 60 ? [Math.floor(minutes / (24 * 60)), 'day'] : minutes >= 120 ? [Math.floor(minutes / 60), 'hour'] : [minutes, 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** Requests paid for and not delivered: money is in, and the team has to act. Nothing when none. */
function PaidWaiting() {
  const stats = useStats();
  const waiting = stats.data?.paidWaiting;
  if (!waiting?.count) return null;
  return (
    <Card data-testid="paid-waiting">
      <CardTitle className="mb-1">{ADMIN.portal.paidWaitingTitle}</CardTitle>
      <p className="mb-4 text-sm text-neutral-300">{ADMIN.portal.paidWaitingCount(waiting.count)}</p>
      <ul className="flex flex-col gap-2">
        {waiting.oldest.map((r) => (
          <li key={r.requestId} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-neutral-800 p-3 text-sm" data-testid="paid-waiting-row">
            <span className="min-w-0">
              <span className="font-semibold text-white">{[r.firstName, r.lastName].filter(Boolean).join(' ') || r.email}</span>
              <span className="text-neutral-300"> · {r.event} · </span>
              <span className="font-semibold text-yellow-200" title={new Date(r.paidAt).toLocaleString()}>
                {ADMIN.portal.paidWaitingFor(waitedFor(r.paidAt))}
              </span>
            </span>
            <Button asChild size="sm" variant="outline">
              <Link to={r.fromFootage ? `/admin/requests/${r.requestId}` : `/admin/users?q=${encodeURIComponent(r.email)}`}>{ADMIN.portal.paidWaitingOpen}</Link>
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export default function AdminPortalPage() {
  usePageTitle(PAGE_TITLES['/admin']);
  return (
    <div className="flex flex-col gap-8">
      <h1 className="font-display text-4xl uppercase tracking-wide text-white md:text-5xl">{ADMIN.portal.title}</h1>
      <Needs />
      <Stats />
      <PaidWaiting />
      <div className="grid gap-4 md:grid-cols-3">
        {CARDS.map(({ to, icon: Icon, title, text }) => (
          <Link
            key={to}
            to={to}
            className="group rounded-xl border border-neutral-800 bg-neutral-900/70 p-6 transition-colors hover:border-red-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500"
          >
            <Icon className="h-7 w-7 text-red-500" aria-hidden="true" />
            <h2 className="mt-4 font-display text-2xl uppercase tracking-wide text-white">{title}</h2>
            <p className="mt-1 text-neutral-300">{text}</p>
          </Link>
        ))}
      </div>
      <FailedJobs />
    </div>
  );
}
