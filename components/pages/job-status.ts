import type { Tone } from '../ui/badge';

/** The badge colour of a job status: open green, bid blue, executing amber, the rest grey. */
export function jobStatusTone(status: string): Tone {
  if (status === 'open') return 'emerald';
  if (status === 'bid') return 'sky';
  if (status === 'executing') return 'amber';
  return 'slate';
}
