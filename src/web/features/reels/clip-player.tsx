// Plays one clip of stored footage in place: the browser asks for byte ranges of the file and
// starts at the clip's start (a media fragment); playback stops at its end. One clip plays at a
// time on the review: starting one pauses whichever else was playing.
import { useEffect, useRef } from 'react';

/** The players on screen now; the one that starts pauses the others. */
const players = new Set<HTMLVideoElement>();

export function ClipPlayer({ streamUrl, startS, endS, label }: { streamUrl: string; startS: number; endS: number; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    players.add(video);
    return () => {
      players.delete(video);
    };
  });
  return (
    <video
      ref={ref}
      key={`${startS}-${endS}`}
      src={`${streamUrl}#t=${startS},${endS}`}
      controls
      autoPlay
      muted
      playsInline
      preload="metadata"
      aria-label={label}
      className="aspect-video w-full rounded-lg bg-black"
      data-testid="clip-player"
      onPlay={(e) => {
        for (const other of players) if (other !== e.currentTarget && !other.paused) other.pause();
      }}
      onTimeUpdate={() => {
        const video = ref.current;
        if (video && video.currentTime >= endS) video.pause();
      }}
    />
  );
}
