// Your Highlight Reels: visible videos, newest first, horizontal before vertical. A video with
// no file yet reads "Video Being Processed". Downloads are plain links the browser streams to
// disk, so a large file is never held in memory.
import { Download, Film, ImageIcon } from 'lucide-react';
import { useState } from 'react';
import { DASHBOARD, MEDIA } from '../../../common/messages';
import type { VideoDto } from '../../../server/videos/service';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';
import { Spinner } from '../../ui/spinner';
import { useVideos } from './api';
import { ThumbnailPicker } from './thumbnail-picker';

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
          className={video.orientation === 'vertical' ? 'mx-auto aspect-[9/16] max-h-[70vh] bg-black' : 'aspect-video w-full bg-black'}
        />
      ) : (
        <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 bg-neutral-900 text-neutral-400">
          <Film className="h-8 w-8" aria-hidden="true" />
          <span>{DASHBOARD.videoProcessing}</span>
        </div>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3 p-4">
        <div>
          <h3 className="font-semibold text-white">{video.title}</h3>
          <p className="text-xs text-neutral-500">
            {[video.tournamentName, new Date(video.createdAt).toLocaleDateString()].filter(Boolean).join(' · ')}
          </p>
        </div>
        {video.downloadUrl && (
          <div className="flex gap-2">
            <Button variant="ghost" size="sm" onClick={onPickThumbnail}>
              <ImageIcon className="h-4 w-4" aria-hidden="true" />
              Thumbnail
            </Button>
            <Button asChild size="sm">
              <a href={video.downloadUrl} download={`${video.title}.mp4`} onClick={() => notify.success(MEDIA.downloadStarted)}>
                <Download className="h-4 w-4" aria-hidden="true" />
                Download
              </a>
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
