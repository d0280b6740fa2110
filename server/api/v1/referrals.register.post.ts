// POST /api/v1/referrals/register - link your wallet to a referrer, once
import { endpoint } from '../../http/endpoint';
import { registerReferral } from '../../referrals/register-referral';
import { referralRegistered, registerReferralBody } from '../../schemas/referrals';

export default endpoint({
  method: 'post',
  path: '/api/v1/referrals/register',
  summary: 'Register a referral code (once per wallet)',
  description:
    'The referrer earns the 500 CLAW signup bonus once your wallet has generated 1,000 CLAW of platform fees, and 5% of the platform fees you generate; both are paid weekly.',
  tags: ['Referrals'],
  auth: ['bearer'],
  scopes: ['agents.write'],
  rateLimit: 'write',
  body: registerReferralBody,
  bodyLimit: 4 * 1024,
  status: 200,
  response: referralRegistered,
  errors: { 404: 'Unknown code', 409: 'Already registered a code', 422: 'Your own code, or a referral loop' },
  handler: ({ caller, body }) => registerReferral(caller, body.referral_code),
});
