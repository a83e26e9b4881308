// Banner (320px), round avatar with its change control, name, team and jersey number.
import { Camera, ImagePlus, Pencil, UserRound } from 'lucide-react';
import { useRef, useState } from 'react';
import { BANNER_HEIGHT_PX, BANNER_MAX_BYTES } from '../../../common/constants';
import { INVALID_FILE_TYPE, LABELS } from '../../../common/messages';
import { FILE_TOO_LARGE_10MB, PROFILE } from '../../../common/dashboard-messages';
import type { ProfileDto } from '../../../server/profiles/service';
import { checkImageFile } from '../../lib/upload';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Spinner } from '../../ui/spinner';
import { useSaveBanner } from './api';
import { AvatarDialog, pickAvatar, type AvatarSource } from './avatar-dialog';
import { EditProfileDialog } from './edit-profile-dialog';

export function ProfileHeader({ profile }: { profile: ProfileDto }) {
  const avatarInput = useRef<HTMLInputElement>(null);
  const bannerInput = useRef<HTMLInputElement>(null);
  const [avatarSource, setAvatarSource] = useState<AvatarSource | null>(null);
  const saveBanner = useSaveBanner();
  const name = `${profile.firstName} ${profile.lastName}`.trim() || profile.email;

  const onBanner = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkImageFile(file, BANNER_MAX_BYTES);
    if (problem === 'type') return notify.error(INVALID_FILE_TYPE);
    if (problem === 'size') return notify.error(FILE_TOO_LARGE_10MB);
    try {
      await saveBanner.mutateAsync(file);
      notify.success(PROFILE.bannerUpdated);
    } catch (error) {
      notify.error({ title: PROFILE.uploadFailedTitle, description: (error as Error).message });
    }
  };

  // Clicking the avatar re-crops the stored original; without one it asks for a photo.
  const onAvatarClick = () => {
    if (profile.originalAvatarUrl) setAvatarSource({ file: null, url: profile.originalAvatarUrl });
    else avatarInput.current?.click();
  };

  return (
    <section aria-label="Profile" className="relative">
      <div
        className="relative w-full overflow-hidden bg-gradient-to-br from-neutral-800 via-neutral-900 to-red-950"
        style={{ height: BANNER_HEIGHT_PX }}
        data-testid="banner"
      >
        {profile.bannerUrl && <img src={profile.bannerUrl} alt="" className="h-full w-full object-cover" />}
        <div className="absolute inset-0 bg-gradient-to-t from-neutral-950 via-transparent to-transparent" />
        <Button
          variant="secondary"
          size="sm"
          className="absolute right-4 top-4 bg-white/90"
          onClick={() => bannerInput.current?.click()}
          disabled={saveBanner.isPending}
        >
          {saveBanner.isPending ? <Spinner size="sm" /> : <ImagePlus className="h-4 w-4" aria-hidden="true" />}
          Change Banner
        </Button>
        <input ref={bannerInput} type="file" accept="image/*" className="hidden" aria-label="Banner image" onChange={(e) => { void onBanner(e.target.files?.[0]); e.target.value = ''; }} />
      </div>
      <div className="relative z-10 mx-auto -mt-20 flex max-w-7xl flex-col items-center gap-4 px-4 md:flex-row md:items-end md:gap-6 md:px-8">
        <div className="relative" data-tutorial="avatar">
          <button
            type="button"
            onClick={onAvatarClick}
            className="block h-36 w-36 overflow-hidden rounded-full border-4 border-neutral-950 bg-neutral-800 shadow-xl focus:outline-none focus-visible:ring-4 focus-visible:ring-red-500"
            aria-label={profile.avatarUrl ? 'Reposition profile photo' : 'Add profile photo'}
          >
            {profile.avatarUrl ? (
              <img src={profile.avatarUrl} alt={`${name}'s profile photo`} className="h-full w-full object-cover" data-testid="avatar-image" />
            ) : (
              <UserRound className="mx-auto h-20 w-20 text-neutral-400" aria-hidden="true" />
            )}
          </button>
          <button
            type="button"
            data-tutorial-action
            onClick={() => avatarInput.current?.click()}
            className="absolute bottom-1 right-1 rounded-full bg-red-600 p-2.5 text-white shadow-lg hover:bg-red-500"
            aria-label="Change profile photo"
          >
            <Camera className="h-4 w-4" />
          </button>
          <input
            ref={avatarInput}
            type="file"
            accept="image/*"
            className="hidden"
            aria-label="Profile photo"
            onChange={(e) => {
              setAvatarSource(pickAvatar(e.target.files?.[0]));
              e.target.value = '';
            }}
          />
        </div>
        {/* A long name or team wraps (even inside a word) rather than widening a phone's page. */}
        <div className="w-full min-w-0 pb-2 text-center md:w-auto md:flex-1 md:text-left">
          <h1 className="font-display text-4xl uppercase tracking-wide text-white wrap-anywhere md:text-5xl">{name}</h1>
          <p className="mt-1 text-neutral-400 wrap-anywhere" data-testid="team-line">
            {[profile.teamName, profile.jerseyNumber != null ? `#${profile.jerseyNumber}` : null].filter(Boolean).join(' · ') ||
              'Add your team and jersey number'}
          </p>
        </div>
        <div className="pb-2" data-tutorial="edit-profile">
          <EditProfileDialog
            profile={profile}
            trigger={(open) => (
              <Button variant="outline" onClick={open}>
                <Pencil className="h-4 w-4" aria-hidden="true" />
                {LABELS.editProfile}
              </Button>
            )}
          />
        </div>
      </div>
      <AvatarDialog source={avatarSource} onClose={() => setAvatarSource(null)} />
    </section>
  );
}
