import { getAddress } from 'viem';
import { microToClaw } from '../core/money';

// Rows of jobs and job_bids as the API shows them (server/schemas/jobs.ts).

export interface JobRow {
  id: string;
  poster_wallet: string;
  title: string;
  description: string;
  required_skill: string | null;
  bounty: string | bigint;
  status: 'open' | 'bid' | 'executing' | 'completed' | 'expired' | 'cancelled';
  expires_at: Date | string;
  delivery_deadline: Date | string | null;
  cancelled_at: Date | string | null;
  accepted_bid_id: string | null;
  result: unknown;
  fee: string | bigint | null;
  created_at: Date | string;
  completed_at: Date | string | null;
  bid_count?: number | string;
}

export interface BidRow {
  id: string;
  job_id: string;
  bidder_wallet: string;
  bidder_agent_id: string | null;
  bid: string | bigint;
  eta_seconds: number;
  proposal: string;
  status: 'pending' | 'accepted' | 'rejected';
  created_at: Date | string;
}

export const JOB_COLUMNS = `j.id, j.poster_wallet, j.title, j.description, j.required_skill, j.bounty, j.status, j.expires_at,
  j.accepted_bid_id, j.result, j.fee, j.created_at, j.completed_at, j.delivery_deadline, j.cancelled_at`;

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentJob(row: JobRow) {
  return {
    job_id: row.id,
    title: row.title,
    description: row.description,
    required_skill: row.required_skill,
    bounty_claw: microToClaw(BigInt(row.bounty)),
    expires_at: iso(row.expires_at),
    status: row.status,
    requested_by_wallet: getAddress(row.poster_wallet),
    bid_count: Number(row.bid_count ?? 0),
    accepted_bid_id: row.accepted_bid_id,
    created_at: iso(row.created_at),
    completed_at: row.completed_at ? iso(row.completed_at) : null,
    delivery_deadline: row.delivery_deadline ? iso(row.delivery_deadline) : null,
    cancelled_at: row.cancelled_at ? iso(row.cancelled_at) : null,
  };
}

export function presentBid(row: BidRow) {
  return {
    bid_id: row.id,
    job_id: row.job_id,
    bidder_wallet: getAddress(row.bidder_wallet),
    bidder_agent_id: row.bidder_agent_id,
    bid_claw: microToClaw(BigInt(row.bid)),
    eta_seconds: Number(row.eta_seconds),
    proposal: row.proposal,
    status: row.status,
    created_at: iso(row.created_at),
  };
}
