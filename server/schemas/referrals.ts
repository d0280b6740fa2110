import { z } from '@hono/zod-openapi';
import { addressOut, clawOut } from './common';

// Referrals (spec: Referral record; Limits, Referral).

export const REFERRAL_CODE_PATTERN = /^[A-Z0-9]{8}$/;

export const referral = z
  .strictObject({
    referral_code: z.string().regex(REFERRAL_CODE_PATTERN).openapi({ description: '8 characters, uppercase letters and digits' }),
    referral_url: z.string(),
    referred_agents: z.number().int().openapi({ description: 'How many wallets registered this code' }),
    total_earned_claw: clawOut.openapi({ description: 'Everything earned so far, paid or pending' }),
    pending_claw: clawOut.openapi({ description: 'Earned and not yet paid (paid weekly, Mondays 00:00 UTC)' }),
    referred_by_wallet: addressOut.nullable().openapi({ description: 'Your own referrer, once you registered a code' }),
  })
  .openapi('Referral');

export const registerReferralBody = z
  .object({
    referral_code: z
      .string()
      .trim()
      .transform((value) => value.toUpperCase())
      .pipe(z.string().regex(REFERRAL_CODE_PATTERN, 'must be 8 letters or digits')),
  })
  .openapi('RegisterReferralRequest');

export const referralRegistered = z
  .strictObject({ registered: z.literal(true), referral_code: z.string(), referrer_wallet: addressOut })
  .openapi('ReferralRegistered');
