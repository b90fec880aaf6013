/**
 * A column's definition a tap away: a small "?" button beside the heading (so the heading text
 * still sorts) opens a modal dialog, a bottom sheet on a phone, with one sentence and a link to
 * the section of the methods page Muster serves. Enter or Space opens it; Escape, the Close
 * button or a tap outside closes it, and focus returns to the button.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DefinitionKey } from '../definitions.ts';
import { DEFINITIONS } from '../definitions.ts';

/** "statistics#win-rate" -> "/docs/statistics#win-rate". */
export const docHref = (doc: string): string => `/docs/${doc}`;

export function Define({ k }: { k: DefinitionKey }) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const definition = DEFINITIONS[k];
  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);
  return (
    <>
      <button
        type="button"
        class="define"
        aria-label={`What is ${definition.term}?`}
        aria-haspopup="dialog"
        data-define={k}
        onClick={() => setOpen(true)}
      >
        ?
      </button>
      {open && (
        <dialog
          ref={dialog}
          class="definition"
          aria-labelledby={`define-${k}`}
          onClose={() => setOpen(false)}
          onClick={(e) => {
            // A tap on the backdrop (the dialog itself, outside its content) closes it.
            if (e.target === e.currentTarget) e.currentTarget.close();
          }}
        >
          <div class="definition-body">
            <h2 id={`define-${k}`}>{definition.term}</h2>
            <p>{definition.text}</p>
            <p>
              <a href={docHref(definition.doc)}>How it is computed</a>
            </p>
            <button type="button" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </dialog>
      )}
    </>
  );
}
