// An image picker people can drop a photo on or tap: shows the picked photo, its name, and a way
// to take it back. The file input stays in the page (visually hidden) so keyboards and screen
// readers use it as usual.
import { ImagePlus, X } from 'lucide-react';
import { useEffect, useId, useState, type DragEvent } from 'react';
import { cn } from '../lib/cn';

interface ImageDropZoneProps {
  label: string;
  /** Advice shown in the zone (what makes a good photo). */
  advice: string;
  file: File | null;
  onFile(file: File | null): void;
  error?: string;
  optional?: boolean;
  className?: string;
}

export function ImageDropZone({ label, advice, file, onFile, error, optional, className }: ImageDropZoneProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };

  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-medium text-neutral-200">
        {label}
        {optional && <span className="font-normal text-neutral-400"> (optional)</span>}
      </label>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'relative flex items-center gap-4 rounded-lg border-2 border-dashed p-4 transition-colors focus-within:border-red-500 focus-within:ring-2 focus-within:ring-red-500/40',
          dragging ? 'bg-red-950/30' : 'bg-neutral-950/40',
          dragging || error ? 'border-red-500' : 'border-neutral-700',
        )}
      >
        {preview ? (
          <img src={preview} alt="The chosen photo" className="h-20 w-20 shrink-0 rounded-full object-cover ring-2 ring-white/10" />
        ) : (
          <span className="flex h-20 w-20 shrink-0 items-center justify-center rounded-full bg-neutral-800">
            <ImagePlus className="h-8 w-8 text-neutral-300" aria-hidden="true" />
          </span>
        )}
        <div className="min-w-0 flex-1 text-sm">
          {file ? (
            <p className="truncate font-medium text-white">{file.name}</p>
          ) : (
            <p className="font-medium text-white">
              <span className="text-red-400 underline underline-offset-4">Choose a photo</span> or drop it here
            </p>
          )}
          <p id={`${id}-advice`} className="mt-1 text-neutral-400">
            {advice}
          </p>
        </div>
        {file && (
          <button
            type="button"
            onClick={() => onFile(null)}
            className="relative z-10 rounded-md p-2 text-neutral-300 hover:bg-neutral-800 hover:text-white"
            aria-label="Remove the chosen photo"
          >
            <X className="h-5 w-5" aria-hidden="true" />
          </button>
        )}
        <input
          id={id}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/*"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-advice${error ? ` ${id}-error` : ''}`}
          className="absolute inset-0 cursor-pointer opacity-0"
          onChange={(e) => {
            onFile(e.target.files?.[0] ?? null);
            e.target.value = '';
          }}
        />
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
