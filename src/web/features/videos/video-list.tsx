// Your Highlight Reels: visible videos, newest first, horizontal before vertical. A video with
// no file yet reads "Video Being Processed".
import { Download, Film, ImageIcon } from 'lucide-react';
import { useState } from 'react';
import { DASHBOARD, MEDIA } from '../../../common/dashboard-messages';
import type { VideoDto } from '../../../server/videos/service';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Spinner } from '../../ui/spinner';
import { useVideos } from './api';
import { ThumbnailPicker } from './thumbnail-picker';

/**
 * Checks the file is there (HEAD), then lets the browser download it straight to disk, so a
 * large video is never held in memory here, under the name the server gives it.
 */
async function download(video: VideoDto) {
  const res = await fetch(video.downloadUrl!, { method: 'HEAD', credentials: 'same-origin' }).catch(() => null);
  if (!res?.ok) return notify.error(MEDIA.downloadFailed);
  const link = document.createElement('a');
  link.href = video.downloadUrl!;
  // No name of our own: the server's Content-Disposition names it for the family.
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
  notify.success(MEDIA.downloadStarted);
}

function VideoItem({ video, onPickThumbnail }: { video: VideoDto; onPickThumbnail: () => void }) {
  return (
    <li className="overflow-hidden rounded-lg border border-neutral-800 bg-neutral-950">
      {video.streamUrl ? (
        <video
          src={video.streamUrl}
          poster={video.thumbnailUrl ?? undefined}
          controls
          preload="metadata"
          playsInline
          className={video.orientation === 'vertical' ? 'mx-auto aspect-[9/16] max-h-[480px] bg-black' : 'aspect-video w-full bg-black'}
        />
      ) : (
        <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 bg-neutral-900 text-neutral-400">
          <Film className="h-8 w-8" aria-hidden="true" />
          <span>{DASHBOARD.videoProcessing}</span>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 p-4">
        <div className="min-w-0 wrap-anywhere">
          <h3 className="font-semibold text-white">{video.title}</h3>
          <p className="text-xs text-neutral-400">
            {[video.tournamentName, new Date(video.createdAt).toLocaleDateString()].filter(Boolean).join(' · ')}
          </p>
        </div>
        {video.downloadUrl && (
          // On a narrow phone Download goes under Thumbnail rather than past the card's edge.
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" size="sm" onClick={onPickThumbnail}>
              <ImageIcon className="h-4 w-4" aria-hidden="true" />
              Thumbnail
            </Button>
            <Button size="sm" onClick={() => void download(video)}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Download
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

export function VideoList() {
  const videos = useVideos();
  const [picking, setPicking] = useState<VideoDto | null>(null);
  return (
    <Card>
      <CardTitle className="mb-4">{DASHBOARD.cards.reels}</CardTitle>
      {videos.isPending ? (
        <Spinner label="Loading videos..." />
      ) : videos.isError ? (
        <p role="alert" className="text-red-400">{MEDIA.videosLoadFailed}</p>
      ) : videos.data.length === 0 ? (
        <p className="text-neutral-400">Your reels will appear here once they are ready.</p>
      ) : (
        <ul className="grid gap-5 lg:grid-cols-2">
          {videos.data.map((v) => (
            <VideoItem key={v.id} video={v} onPickThumbnail={() => setPicking(v)} />
          ))}
        </ul>
      )}
      <ThumbnailPicker video={picking} onClose={() => setPicking(null)} />
    </Card>
  );
}
