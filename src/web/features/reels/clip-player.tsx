// Plays one clip of stored footage in place: the browser asks for byte ranges of the file and
// starts at the clip's start (a media fragment); playback stops at its end.
import { useRef } from 'react';

export function ClipPlayer({ streamUrl, startS, endS, label }: { streamUrl: string; startS: number; endS: number; label: string }) {
  const ref = useRef<HTMLVideoElement>(null);
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
      onTimeUpdate={() => {
        const video = ref.current;
        if (video && video.currentTime >= endS) video.pause();
      }}
    />
  );
}
