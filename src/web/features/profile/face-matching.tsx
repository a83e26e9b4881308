// The account holder's choice about face matching, with what it means in plain words, and the
// athlete's extra reference photos, each checked by the server the moment it arrives.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleCheck, ScanFace, Trash2, TriangleAlert } from 'lucide-react';
import { useRef, useState } from 'react';
import { FACE_MATCHING, headshotNote } from '../../../common/dashboard-messages';
import { requestJson } from '../../lib/api-error';
import { FACE_MATCHING_KEY } from './api';
import { cn } from '../../lib/cn';
import { JUST_LOADED_MS } from '../../lib/freshness';
import { notify } from '../../lib/toast';
import { uploadForm } from '../../lib/upload';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';

interface FaceMatchingState {
  consent: boolean;
  consentAt: string | null;
  /** Whether the account holder gave that consent themselves (the record says who, from issue 21). */
  consentByAccountHolder: boolean;
  headshotUsable: boolean;
  /** Whether the headshot can be used for matching (off: face matching is off, nothing checked). */
  headshot: 'usable' | 'unusable' | 'missing' | 'off';
  /** Reference photos with a usable face. */
  usablePhotos: number;
  photos: Array<{ id: string; url: string | null; createdAt: string }>;
}

const MAX_PHOTOS = 5;

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });

/** familyOnly: an admin viewing the site as the family sees the choice but cannot make it. */
export function FaceMatchingCard({ hasHeadshot, familyOnly = false }: { hasHeadshot: boolean; familyOnly?: boolean }) {
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: FACE_MATCHING_KEY, queryFn: () => requestJson<FaceMatchingState>('/api/profile/face-matching'), staleTime: JUST_LOADED_MS });
  const refresh = () => queryClient.invalidateQueries({ queryKey: FACE_MATCHING_KEY });
  // The choice as clicked, until the server has answered: set in the click's own render, so the
  // box never flips back while the request is on its way.
  const [choice, setChoice] = useState<boolean | null>(null);
  const consent = useMutation({
    mutationFn: (value: boolean) => requestJson<{ consent: boolean; headshotUsable: boolean }>('/api/profile/face-matching', { method: 'PUT', json: { consent: value } }),
    onSuccess: (result) => {
      queryClient.setQueryData<FaceMatchingState>(FACE_MATCHING_KEY, (old) => old && { ...old, consent: result.consent });
      notify.success({ title: result.consent ? FACE_MATCHING.on : FACE_MATCHING.withdrawn, description: '' });
      if (result.consent && hasHeadshot && !result.headshotUsable) notify.info({ title: FACE_MATCHING.title, description: FACE_MATCHING.headshotUnusable });
    },
    onError: (error) => notify.error({ title: FACE_MATCHING.title, description: error.message }),
    onSettled: () => {
      setChoice(null);
      return refresh();
    },
  });
  const add = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('photo', file);
      return uploadForm('/api/profile/reference-photos', 'POST', form);
    },
    onSuccess: () => notify.success({ title: FACE_MATCHING.referenceAdded, description: '' }),
    onError: (error) => notify.error({ title: FACE_MATCHING.referencesTitle, description: error.message }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => requestJson(`/api/profile/reference-photos/${id}`, { method: 'DELETE' }),
    onSuccess: () => notify.success({ title: FACE_MATCHING.referenceRemoved, description: '' }),
    onSettled: refresh,
  });
  const picker = useRef<HTMLInputElement>(null);
  const data = state.data;
  if (!data) return null;
  const note = data.consent ? headshotNote(data.headshot, data.usablePhotos) : null;
  return (
    // The request card's "Add reference photos" links here (#face-matching).
    <Card id="face-matching" className="scroll-mt-20" data-testid="face-matching">
      <CardTitle className="mb-3 flex items-center gap-2">
        <ScanFace className="h-5 w-5 text-red-500" aria-hidden="true" />
        {FACE_MATCHING.title}
      </CardTitle>
      <p className="mb-3 text-sm text-neutral-300">{FACE_MATCHING.explanation}</p>
      <p className="mb-3 text-sm text-neutral-300" data-testid="face-matching-difference">
        {FACE_MATCHING.difference}
      </p>
      <label className="flex items-start gap-3 text-sm text-white">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 accent-red-600"
          // The choice shows at once; the server's answer confirms it (or puts it back).
          checked={choice ?? data.consent}
          disabled={consent.isPending || familyOnly}
          onChange={(e) => {
            setChoice(e.target.checked);
            consent.mutate(e.target.checked);
          }}
        />
        <span>{FACE_MATCHING.consentLabel}</span>
      </label>
      <p className="mt-2 text-sm text-neutral-300" aria-live="polite">
        {data.consent ? FACE_MATCHING.on : FACE_MATCHING.off}
        {data.consent && data.consentAt && (
          <span className="block text-neutral-400" data-testid="consent-record">
            {data.consentByAccountHolder ? FACE_MATCHING.consentGiven(day(data.consentAt)) : FACE_MATCHING.consentGivenUnrecorded(day(data.consentAt))}
          </span>
        )}
      </p>
      {familyOnly && (
        <p className="mt-3 flex items-start gap-2 rounded-md bg-yellow-950 px-3 py-2 text-sm text-yellow-100" data-testid="face-matching-family-only">
          <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{FACE_MATCHING.familyOnly}</span>
        </p>
      )}
      {note && (
        <p
          className={cn('mt-3 flex items-start gap-2 rounded-md px-3 py-2 text-sm', note.ok ? 'bg-neutral-800/60 text-neutral-200' : 'bg-yellow-950 text-yellow-100')}
          data-testid="headshot-state"
          aria-live="polite"
        >
          {note.ok ? <CircleCheck className="mt-0.5 h-4 w-4 shrink-0 text-green-400" aria-hidden="true" /> : <TriangleAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />}
          <span>{note.text}</span>
        </p>
      )}
      {data.consent && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-white">
            {FACE_MATCHING.referencesTitle} ({data.photos.length}/{MAX_PHOTOS})
          </h3>
          <p className="mb-3 text-sm text-neutral-300">{FACE_MATCHING.referencesHelp}</p>
          <ul className="mb-3 flex flex-wrap gap-2">
            {data.photos.map((photo, i) => (
              <li key={photo.id} className="relative">
                {photo.url && <img src={photo.url} alt={`Reference photo ${i + 1}`} width={72} height={72} className="h-18 w-18 rounded-lg object-cover" />}
                {!familyOnly && (
                  <button
                    type="button"
                    className="absolute -right-2 -top-2 rounded-full bg-neutral-900 p-1.5 text-neutral-200 ring-1 ring-neutral-700 hover:text-white"
                    aria-label={`Remove reference photo ${i + 1}`}
                    onClick={() => remove.mutate(photo.id)}
                  >
                    <Trash2 className="h-3.5 w-3.5" aria-hidden="true" />
                  </button>
                )}
              </li>
            ))}
          </ul>
          <input
            ref={picker}
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label={FACE_MATCHING.addReference}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) add.mutate(file);
              e.target.value = '';
            }}
          />
          <Button size="sm" variant="outline" disabled={add.isPending || familyOnly || data.photos.length >= MAX_PHOTOS} onClick={() => picker.current?.click()}>
            {add.isPending ? 'Checking…' : FACE_MATCHING.addReference}
          </Button>
        </div>
      )}
    </Card>
  );
}
