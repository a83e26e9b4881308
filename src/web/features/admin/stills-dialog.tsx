// Upload Stills (the spec's dialog): up to 3 photos, JPG/PNG/WebP, 5MB each; they replace the
// athlete's current stills. Checked here for a quick answer, and again by the server by bytes.
import { ImagePlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ADMIN } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/dialog';
import { useUploadStills } from './api';

const TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'];
const MAX_BYTES = 5 * 1024 * 1024;

export function StillsDialog({ user, onClose }: { user: { id: string; name: string } | null; onClose: () => void }) {
  const [files, setFiles] = useState<File[]>([]);
  const [previews, setPreviews] = useState<string[]>([]);
  const uploadStills = useUploadStills();

  useEffect(() => {
    const urls = files.map((f) => URL.createObjectURL(f));
    setPreviews(urls);
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, [files]);
  useEffect(() => {
    if (!user) setFiles([]);
  }, [user]);

  const pick = (list: FileList | null) => {
    const chosen = [...(list ?? [])];
    if (chosen.length > 3) return notify.error({ title: ADMIN.stills.tooMany, description: ADMIN.stills.tooManyText });
    if (chosen.some((f) => !TYPES.includes(f.type))) return notify.error({ title: ADMIN.stills.invalidType, description: ADMIN.stills.heic });
    if (chosen.some((f) => f.size > MAX_BYTES)) return notify.error({ title: ADMIN.stills.invalidType, description: ADMIN.stills.tooLarge });
    setFiles(chosen);
  };

  const submit = () => {
    if (files.length === 0) return notify.error({ title: ADMIN.stills.noFiles, description: ADMIN.stills.noFilesText });
    uploadStills.mutate(
      { userId: user!.id, files },
      {
        onSuccess: ({ count }) => {
          notify.success(ADMIN.stills.uploaded(count));
          onClose();
        },
        onError: (error) => notify.error({ title: ADMIN.video.uploadFailed, description: error.message || ADMIN.video.uploadFailedFallback }),
      },
    );
  };

  return (
    <Dialog open={Boolean(user)} onOpenChange={(o) => !o && !uploadStills.isPending && onClose()}>
      <DialogContent title={ADMIN.stills.title} description={user ? `For ${user.name}. ${ADMIN.stills.notes}` : undefined}>
        <label className="flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-neutral-700 p-6 text-center text-sm text-neutral-300 focus-within:border-red-500 hover:border-neutral-500">
          <ImagePlus className="h-8 w-8" aria-hidden="true" />
          <span className="font-medium text-white">Choose up to 3 photos</span>
          <input type="file" multiple accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp" className="sr-only" onChange={(e) => pick(e.target.files)} />
        </label>
        {files.length > 0 && (
          <ul className="mt-4 grid grid-cols-3 gap-3" aria-label="Chosen photos">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="overflow-hidden rounded-md border border-neutral-800">
                <img src={previews[i]} alt={f.name} className="aspect-square w-full object-cover" />
                <p className="truncate px-2 py-1 text-xs text-neutral-300">{f.name}</p>
              </li>
            ))}
          </ul>
        )}
        <DialogFooter className="mt-5">
          <Button variant="outline" onClick={onClose} disabled={uploadStills.isPending}>
            Cancel
          </Button>
          <Button onClick={submit} disabled={uploadStills.isPending}>
            {uploadStills.isPending ? 'Uploading...' : 'Upload'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
