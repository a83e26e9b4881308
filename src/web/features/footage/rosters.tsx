// An event's teams and rosters on the footage screen (issue 35, item 1): each team with its kit
// and athletes by number, a roster file imported whole (every bad line reported with its number),
// and a team removed with its roster.
import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { ROSTER } from '../../../common/admin-messages';
import { AUTH_ERRORS } from '../../../common/messages';
import type { RosterTeam } from '../../../server/rosters/service';
import { requestJson } from '../../lib/api-error';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { Card, CardTitle } from '../../ui/card';

interface Refusal {
  message: string;
  lines: string[];
}
class RosterRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

const rosterKey = (eventId: string) => ['admin', 'roster', eventId];

async function importFile(eventId: string, file: File) {
  let res: Response;
  try {
    res = await fetch(`/api/admin/events/${encodeURIComponent(eventId)}/roster`, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'text/csv' }, body: file });
  } catch {
    throw new RosterRefused({ message: AUTH_ERRORS.failedToFetch, lines: [] });
  }
  const body = (await res.json().catch(() => null)) as { message?: string; lines?: string[]; teamCount?: number; added?: number; updated?: number } | null;
  if (!res.ok) throw new RosterRefused({ message: body?.message ?? AUTH_ERRORS.generic, lines: body?.lines ?? [] });
  return { teams: body?.teamCount ?? 0, added: body?.added ?? 0, updated: body?.updated ?? 0 };
}

/** The kit as a shirt swatch: the shirt's colour with a number in the number's colour. */
function Kit({ kit, number, label }: { kit: string | null; number: string | null; label: string }) {
  if (!kit) return null;
  return (
    <span className="inline-flex h-7 w-7 items-center justify-center rounded border border-neutral-600 text-xs font-bold" style={{ background: kit, color: number ?? '#ffffff' }} title={label} aria-label={label}>
      7
    </span>
  );
}

export function RosterCard({ eventId }: { eventId: string }) {
  const queryClient = useQueryClient();
  const teams = useQuery({ queryKey: rosterKey(eventId), queryFn: () => requestJson<RosterTeam[]>(`/api/admin/events/${encodeURIComponent(eventId)}/roster`) });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (file: File) => importFile(eventId, file),
    onSuccess: (outcome) => {
      setRefusal(null);
      notify.success(ROSTER.imported(outcome.teams, outcome.added, outcome.updated));
    },
    onError: (error) => (error instanceof RosterRefused ? setRefusal(error.refusal) : setRefusal({ message: error.message, lines: [] })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rosterKey(eventId) }),
  });
  const remove = useMutation({
    mutationFn: (teamId: string) => requestJson(`/api/admin/events/${encodeURIComponent(eventId)}/teams/${teamId}`, { method: 'DELETE' }),
    onSuccess: () => notify.success({ title: ROSTER.teamRemoved, description: '' }),
    onError: (error) => notify.error({ title: ROSTER.failedTitle, description: error.message }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: rosterKey(eventId) }),
  });

  return (
    <Card className="mb-6" data-testid="rosters" aria-labelledby="rosters-title">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-3">
        <CardTitle id="rosters-title">{ROSTER.title}</CardTitle>
        <Button size="sm" variant="outline" onClick={() => input.current?.click()} disabled={upload.isPending}>
          <Upload className="h-4 w-4" aria-hidden="true" />
          {upload.isPending ? ROSTER.importing : ROSTER.import}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv,text/plain"
          className="sr-only"
          aria-label={ROSTER.import}
          tabIndex={-1}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) upload.mutate(file);
          }}
        />
      </div>
      <p className="mb-1 max-w-3xl text-sm text-neutral-300">{ROSTER.intro}</p>
      <p className="mb-4 max-w-3xl text-xs text-neutral-400">{ROSTER.format}</p>
      {refusal && (
        <div role="alert" className="mb-4 rounded-md border border-red-900 bg-red-950/40 p-4 text-sm text-red-100" data-testid="roster-refusal">
          <p className="font-semibold">{refusal.message}</p>
          {refusal.lines.length > 0 && (
            <ul className="mt-2 list-disc space-y-0.5 pl-5">
              {refusal.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      {teams.data?.length === 0 && <p className="text-sm text-neutral-300">{ROSTER.none}</p>}
      <ul className="flex flex-col gap-3">
        {teams.data?.map((team) => (
          <li key={team.id} className="rounded-lg border border-neutral-800 p-3" data-testid="roster-team">
            <div className="mb-2 flex flex-wrap items-center gap-2">
              <Kit kit={team.kitColor} number={team.numberColor} label={`Home kit ${team.kitColor ?? ''}`} />
              <Kit kit={team.awayKitColor} number={team.awayNumberColor} label={`Away kit ${team.awayKitColor ?? ''}`} />
              <h3 className="font-semibold text-white">{team.name}</h3>
              <span className="text-sm text-neutral-400">{ROSTER.athletes(team.athletes.length)}</span>
              <Button
                size="sm"
                variant="ghost"
                className="ml-auto text-neutral-400"
                disabled={remove.isPending}
                onClick={() => window.confirm(ROSTER.removeTeamConfirm(team.name)) && remove.mutate(team.id)}
              >
                {ROSTER.removeTeam}
              </Button>
            </div>
            <ul className="flex flex-wrap gap-1.5 text-sm">
              {team.athletes.map((a) => (
                <li key={a.id} className="rounded bg-neutral-800 px-2 py-0.5 text-neutral-100">
                  <span className="font-mono text-neutral-300">#{a.number}</span> {a.name}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Card>
  );
}
