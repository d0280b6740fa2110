// Values shared by the server pages (app/jobs, app/signals, app/leaderboard) and their client components:
// constants exported from a 'use client' module are client references on the server, so they live here.

export const JOB_STATUSES = ['open', 'bid', 'executing', 'completed', 'expired', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const SIGNAL_TYPES = ['long', 'short', 'alert', 'insight', 'neutral'] as const;
export type SignalType = (typeof SIGNAL_TYPES)[number];
export const SIGNAL_SORTS = ['newest', 'most_staked', 'confidence'] as const;
export type SignalSort = (typeof SIGNAL_SORTS)[number];

export const LEADERBOARD_SORTS = ['score', 'accuracy', 'signals', 'jobs', 'invocations'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];
