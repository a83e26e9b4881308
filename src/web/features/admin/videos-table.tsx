// A user's videos on their card: "Videos (count)", collapsible, newest first, with processing
// progress and a delete action that asks first (the spec's "Delete Video" dialog).
import { Check, ChevronDown, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ADMIN } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { useDeleteVideo, type AdminUser } from './api';

type Video = AdminUser['videos'][number];

const Yes = () => (
  <>
    <Check className="h-4 w-4 text-green-400" aria-hidden="true" />
    <span className="sr-only">Yes</span>
  </>
);
const No = () => (
  <>
    <X className="h-4 w-4 text-red-400" aria-hidden="true" />
    <span className="sr-only">No</span>
  </>
);

function Processing({ video }: { video: Video }) {
  if (video.processingState === 'ready') return null;
  if (video.processingState === 'failed') {
    return <p className="mt-1 text-xs text-red-400">{ADMIN.video.processingFailed}: {video.processingError}</p>;
  }
  const pct = video.processingProgress ?? 0;
  return (
    <div className="mt-1.5 flex items-center gap-2 text-xs text-neutral-300">
      <div className="h-1.5 w-24 overflow-hidden rounded-full bg-neutral-800" role="progressbar" aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} aria-label={`Processing ${video.title}`}>
        <div className="h-full bg-red-500 transition-all" style={{ width: `${pct}%` }} />
      </div>
      {ADMIN.video.processing} {pct}%
    </div>
  );
}

export function VideosTable({ videos }: { videos: Video[] }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState<Video | null>(null);
  const remove = useDeleteVideo();
  if (videos.length === 0) return null;

  const confirmDelete = () =>
    remove.mutate(confirming!.id, {
      onSuccess: () => {
        notify.success(ADMIN.deleteVideo.deleted);
        setConfirming(null);
      },
      onError: (error) => notify.error({ title: ADMIN.deleteVideo.failedTitle, description: error.message || ADMIN.deleteVideo.failedFallback }),
    });

  return (
    <div className="mt-4 border-t border-neutral-800 pt-3">
      <button
        type="button"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        className="flex items-center gap-2 text-sm font-semibold text-white hover:text-red-300"
      >
        <ChevronDown className={`h-4 w-4 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
        {ADMIN.users.videos} ({videos.length})
      </button>
      {open && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[560px] text-left text-sm">
            <thead className="text-xs uppercase tracking-wide text-neutral-400">
              <tr>
                <th className="py-2 pr-3 font-semibold">{ADMIN.users.table.title}</th>
                <th className="py-2 pr-3 font-semibold">{ADMIN.users.table.type}</th>
                <th className="py-2 pr-3 font-semibold">{ADMIN.users.table.created}</th>
                <th className="py-2 pr-3 font-semibold">{ADMIN.users.table.paid}</th>
                <th className="py-2 pr-3 font-semibold">{ADMIN.users.table.visible}</th>
                <th className="py-2 font-semibold">{ADMIN.users.table.actions}</th>
              </tr>
            </thead>
            <tbody>
              {videos.map((v) => (
                <tr key={v.id} className="border-t border-neutral-800 align-top">
                  <td className="py-2 pr-3 text-white">
                    {v.title}
                    <Processing video={v} />
                  </td>
                  <td className="py-2 pr-3 text-neutral-300">{v.videoType.replace('_', ' ')}</td>
                  <td className="py-2 pr-3 text-neutral-300">{new Date(v.createdAt).toLocaleDateString()}</td>
                  <td className="py-2 pr-3">{v.isPaid ? <Yes /> : <No />}</td>
                  <td className="py-2 pr-3">{v.isVisible ? <Yes /> : <No />}</td>
                  <td className="py-2">
                    <Button variant="ghost" size="icon" aria-label={`Delete ${v.title}`} onClick={() => setConfirming(v)}>
                      <Trash2 className="h-4 w-4 text-red-400" aria-hidden="true" />
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={Boolean(confirming)} onOpenChange={(o) => !o && !remove.isPending && setConfirming(null)}>
        <DialogContent title={ADMIN.deleteVideo.title} description={confirming ? ADMIN.deleteVideo.body(confirming.title) : undefined}>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(null)} disabled={remove.isPending}>
              {ADMIN.deleteVideo.cancel}
            </Button>
            <Button onClick={confirmDelete} disabled={remove.isPending}>
              {remove.isPending ? ADMIN.deleteVideo.busy : ADMIN.deleteVideo.confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
