/**
 * Every name is a link to its page (a player, a faction, an event): a real `<a href>`, so the
 * keyboard, a middle click and "copy link" work, that keeps the filter bar's scope; a plain click
 * moves in the same tab as a new history entry, so the back button returns.
 */
import type { ComponentChildren } from 'preact';
import { playerName } from '../format.ts';
import { entityHref, navigate, readParams } from '../url-state.ts';

function EntityLink({
  view,
  id,
  class: className,
  title,
  children,
}: {
  view: 'player' | 'faction' | 'event';
  id: string;
  class?: string;
  title?: string;
  children: ComponentChildren;
}) {
  const href = entityHref(readParams(), view, id);
  return (
    <a
      href={href}
      class={className}
      title={title}
      onClick={(e) => {
        // A new tab or window (modifier keys, middle button) is the browser's to open.
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(href);
        window.scrollTo(0, 0);
      }}
    >
      {/* A name may be right-to-left or hold an override: it reorders nothing around it. */}
      <bdi>{children}</bdi>
    </a>
  );
}

/**
 * A player's name (or `#` and their short id when the data has none, the whole id in the
 * tooltip) linking to their page.
 */
export function PlayerLink({
  player,
}: {
  player: { id: string; shortId?: string; name: string | null };
}) {
  const named = Boolean(player.name?.trim());
  return (
    <EntityLink
      view="player"
      id={player.id}
      class={named ? 'player-name' : 'player-name player-id'}
      title={named ? undefined : `player ${player.id}`}
    >
      {playerName(player)}
    </EntityLink>
  );
}

/** A faction's name linking to its page. */
export function FactionLink({ faction }: { faction: { id: string; name: string } }) {
  return (
    <EntityLink view="faction" id={faction.id} class="faction-name">
      {faction.name}
    </EntityLink>
  );
}

/** An event's name linking to its page. */
export function EventLink({ event }: { event: { id: string; name: string } }) {
  return (
    <EntityLink view="event" id={event.id} class="event-name">
      {event.name}
    </EntityLink>
  );
}
