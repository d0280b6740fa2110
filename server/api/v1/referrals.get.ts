// GET /api/v1/referrals - the caller's referral code (generated on first call) and earnings
import { endpoint } from '../../http/endpoint';
import { getReferral } from '../../referrals/get-referral';
import { referral } from '../../schemas/referrals';

export default endpoint({
  method: 'get',
  path: '/api/v1/referrals',
  summary: 'Your referral code, link, referred agents and earnings',
  tags: ['Referrals'],
  auth: ['bearer'],
  status: 200,
  response: referral,
  handler: ({ caller }) => getReferral(caller),
});
