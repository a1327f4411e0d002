/**
 * Who may see a playbook (CONTRACT.md section 3). The one list the worker's schemas, the pages
 * and the sandbox share; it imports nothing, so the sandbox may import it too.
 */
export const VISIBILITIES = ['private', 'unlisted', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export function isVisibility(value: unknown): value is Visibility {
  return (VISIBILITIES as readonly unknown[]).includes(value);
}
