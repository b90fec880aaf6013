/**
 * What a player page says of player merges (docs/data-model.md#player-merges): that the id asked
 * for is merged into another, whose page it is, and which ids are merged into this player.
 */
import { PlayerLink } from './entity-link.tsx';

interface Merged {
  id: string;
  name: string | null;
}

export function MergeNote({
  asked,
  mergedInto,
  merged,
}: {
  asked: string;
  mergedInto: { id: string; shortId?: string; name: string | null } | null;
  merged: readonly Merged[];
}) {
  return (
    <>
      {mergedInto !== null && (
        <p class="note" data-testid="merged-into">
          <bdi>{asked}</bdi> is merged into <PlayerLink player={mergedInto} />: this is that
          player's page, and every figure counts the two ids as one person.
        </p>
      )}
      {merged.length > 0 && (
        <p class="note" data-testid="merged-ids">
          One person under several ids: this page also counts{' '}
          {merged.map((m, i) => (
            <span key={m.id}>
              {i > 0 && ', '}
              <bdi>{m.name?.trim() ? `${m.name} (${m.id})` : m.id}</bdi>
            </span>
          ))}
          , merged into this player.
        </p>
      )}
    </>
  );
}
