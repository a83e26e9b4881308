// The review's roster panel (issue 35, item 1): the team and number the family named, what the
// roster calls that athlete, what is doubtful, and "This is their athlete" for the admin.
import { ROSTER } from '../../../common/admin-messages';
import { notify } from '../../lib/toast';
import { Button } from '../../ui/button';
import { useConfirmAthlete, type RosterLink } from './api';

export function RosterLinkPanel({ requestId, link }: { requestId: string; link: RosterLink }) {
  const confirm = useConfirmAthlete(requestId);
  const text = ROSTER.link;
  const doubtful = link.doubts.length > 0 && !link.confirmedAt;
  return (
    <section aria-labelledby="roster-link-title" className={`rounded-lg p-3 text-sm ${doubtful ? 'bg-yellow-950 text-yellow-100' : 'bg-neutral-900 text-neutral-200'}`} data-testid="roster-link">
      <h2 id="roster-link-title" className="font-semibold text-white">
        {text.title}: {text.named(link.team ?? '?', link.jerseyNumber)}
      </h2>
      {link.rosterName && <p>{text.rosterName(link.rosterName)}</p>}
      {link.doubts.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {link.doubts.map((d) => (
            <li key={d}>{text.doubts[d]}</li>
          ))}
        </ul>
      )}
      <p className="mt-1 font-semibold">{link.confirmedAt ? text.confirmed : doubtful ? text.waiting : text.sure}</p>
      {doubtful && (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <Button size="sm" onClick={() => confirm.mutate(undefined, { onError: (e) => notify.error({ title: text.confirm, description: e.message }) })} disabled={confirm.isPending}>
            {text.confirm}
          </Button>
          <span className="text-xs">{text.confirmHint}</span>
        </div>
      )}
    </section>
  );
}
